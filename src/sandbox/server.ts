// HTTP front: request log, faults, routing, authentication, body parsing, and
// the mapping of every outcome onto the service's envelope.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { balanceView, topUpWallet } from './balance.js';
import {
  chargeCreatedView,
  chargeSubmitView,
  chargeView,
  createCharge,
  findCharge,
  listCharges,
  parseChargeRequest,
  parseSubmitRequest,
  submitOtp,
} from './charges.js';
import { checkoutPageStatus, cancelFromPage, payFromPage, showCheckoutPage, submitOtpFromPage } from './checkout-page.js';
import { checkoutView, findCheckout, initializeCheckout } from './checkouts.js';
import type { SandboxContext } from './context.js';
import { FaultRuntime, faultSpecFromJson, type Faults } from './faults.js';
import { newestFirst } from './ordering.js';
import { ApiError, BodyTooLarge, clientIp, envelope, readBody, writeResult, type HttpResult } from './http.js';
import { accountTag, trimSlash, type Requests } from './request-log.js';
import type { Account } from './store.js';
import { cancelSettlement, createSettlement, findSettlement, listSettlements, settlementView } from './settlements.js';
import { bulkTransfer, createTransfer, findTransfer, listTransfers, transferCreatedView, transferView } from './transfers.js';
import { webhookFaultSpecFromJson, webhookFaultView, type WebhookFaultInjector } from './webhook-faults.js';

interface RequestInput {
  params: string[];
  query: URLSearchParams;
  body: unknown;
  ip: string;
}

type Route =
  | {
      method: string;
      pattern: string;
      kind: 'api';
      body: boolean;
      handle: (ctx: SandboxContext, account: Account, input: RequestInput) => HttpResult;
    }
  | {
      method: string;
      pattern: string;
      kind: 'page';
      handle: (ctx: SandboxContext, input: RequestInput & { body: URLSearchParams }) => HttpResult;
    }
  | { method: string; pattern: string; kind: 'admin'; handle: (input: RequestInput, control: Control) => HttpResult };

/** What the /_sandbox control endpoints act on. */
interface Control {
  faults: Faults;
  webhookFaults: WebhookFaultInjector;
}

const ok = (status: number, message: string, data: unknown) => envelope(status, true, message, { data });
const param = (input: RequestInput, i = 0) => input.params[i]!;

const ROUTES: Route[] = [
  // Checkouts
  {
    method: 'POST',
    pattern: '/v1/payment/checkouts/initialize',
    kind: 'api',
    body: true,
    handle: (ctx, acc, i) => ok(201, 'Checkout initialized successfully', initializeCheckout(ctx, acc, i.body)),
  },
  {
    method: 'GET',
    pattern: '/v1/payment/checkouts',
    kind: 'api',
    body: false,
    handle: (_ctx, acc) => ok(200, 'Checkouts retrieved successfully', newestFirst(acc.checkouts.values()).map(checkoutView)),
  },
  {
    method: 'GET',
    pattern: '/v1/payment/checkouts/:ref',
    kind: 'api',
    body: false,
    handle: (ctx, acc, i) => ok(200, 'Checkout retrieved successfully', checkoutView(findCheckout(ctx, acc, param(i)))),
  },
  // Charges
  {
    method: 'POST',
    pattern: '/v1/payment/charges',
    kind: 'api',
    body: true,
    handle: (ctx, acc, i) =>
      ok(201, 'Charge created successfully', chargeCreatedView(createCharge(ctx, acc, parseChargeRequest(i.body), i.ip))),
  },
  {
    method: 'GET',
    pattern: '/v1/payment/charges',
    kind: 'api',
    body: false,
    handle: (_ctx, acc, i) => {
      const page = listCharges(acc, i.query);
      return envelope(200, true, 'Charges retrieved successfully', { data: page.data, pagination: page.pagination });
    },
  },
  {
    method: 'POST',
    pattern: '/v1/payment/charges/submit',
    kind: 'api',
    body: true,
    handle: (ctx, acc, i) => {
      const { otp, chargeReference } = parseSubmitRequest(i.body);
      return ok(200, 'Charge completed successfully', chargeSubmitView(submitOtp(ctx, acc, otp, chargeReference, i.ip)));
    },
  },
  {
    method: 'GET',
    pattern: '/v1/payment/charges/:ref',
    kind: 'api',
    body: false,
    handle: (_ctx, acc, i) => ok(200, 'Charge retrieved successfully', chargeView(findCharge(acc, param(i)))),
  },
  // Balance
  {
    method: 'GET',
    pattern: '/v1/payment/balances',
    kind: 'api',
    body: false,
    handle: (_ctx, acc) => ok(200, 'Balance retrieved successfully', balanceView(acc)),
  },
  // Transfers
  {
    method: 'POST',
    pattern: '/v1/payment/transfers',
    kind: 'api',
    body: true,
    handle: (ctx, acc, i) => ok(201, 'Transfer queued for processing', transferCreatedView(createTransfer(ctx, acc, i.body, i.ip))),
  },
  {
    method: 'GET',
    pattern: '/v1/payment/transfers',
    kind: 'api',
    body: false,
    handle: (_ctx, acc) => ok(200, 'Transfers retrieved successfully', listTransfers(acc)),
  },
  // The spec's heading says GET, its samples POST with a body: POST is what works.
  {
    method: 'POST',
    pattern: '/v1/payment/transfers/bulk',
    kind: 'api',
    body: true,
    handle: (ctx, acc, i) => {
      const outcome = bulkTransfer(ctx, acc, i.body, i.ip);
      return envelope(200, true, outcome.message, { failed_transfers: outcome.failed });
    },
  },
  {
    method: 'GET',
    pattern: '/v1/payment/transfers/:ref',
    kind: 'api',
    body: false,
    handle: (_ctx, acc, i) => ok(200, 'Transfer retrieved successfully', transferView(findTransfer(acc, param(i)))),
  },
  // Settlements
  {
    method: 'POST',
    pattern: '/v1/payment/settlements',
    kind: 'api',
    body: true,
    handle: (ctx, acc, i) => ok(201, 'Settlement created successfully', settlementView(createSettlement(ctx, acc, i.body))),
  },
  {
    method: 'GET',
    pattern: '/v1/payment/settlements',
    kind: 'api',
    body: false,
    handle: (_ctx, acc) => ok(200, 'Settlements retrieved successfully', listSettlements(acc)),
  },
  {
    method: 'GET',
    pattern: '/v1/payment/settlements/:ref',
    kind: 'api',
    body: false,
    handle: (_ctx, acc, i) => ok(200, 'Settlement retrieved successfully', settlementView(findSettlement(acc, param(i)))),
  },
  {
    method: 'GET',
    pattern: '/v1/payment/settlements/:ref/cancel',
    kind: 'api',
    body: false,
    handle: (ctx, acc, i) => ok(200, 'Settlement cancelled successfully', settlementView(cancelSettlement(ctx, acc, param(i)))),
  },
  // The customer's payment page
  { method: 'GET', pattern: '/checkout/:ref', kind: 'page', handle: (ctx, i) => showCheckoutPage(ctx, param(i)) },
  { method: 'POST', pattern: '/checkout/:ref/pay', kind: 'page', handle: (ctx, i) => payFromPage(ctx, param(i), i.body, i.ip) },
  { method: 'POST', pattern: '/checkout/:ref/otp', kind: 'page', handle: (ctx, i) => submitOtpFromPage(ctx, param(i), i.body, i.ip) },
  { method: 'POST', pattern: '/checkout/:ref/cancel', kind: 'page', handle: (ctx, i) => cancelFromPage(ctx, param(i)) },
  { method: 'GET', pattern: '/checkout/:ref/status', kind: 'page', handle: (ctx, i) => checkoutPageStatus(ctx, param(i)) },
  // Test mode only: fund a wallet of the key's account (not in the service's spec).
  {
    method: 'POST',
    pattern: '/_sandbox/wallets/:wallet/top-up',
    kind: 'api',
    body: true,
    handle: (_ctx, acc, i) => ok(200, 'Wallet funded', topUpWallet(acc, param(i), i.body)),
  },
  // Fault control for integrators (no key: test mode only)
  {
    method: 'GET',
    pattern: '/_sandbox/faults',
    kind: 'admin',
    handle: (_i, { faults }) =>
      ok(
        200,
        'Active faults',
        faults.list().map((f) => ({
          id: f.id,
          kind: f.spec.kind,
          method: f.spec.method ?? null,
          path: String(f.spec.path),
          remaining: Number.isFinite(f.remaining) ? f.remaining : 'unlimited',
        })),
      ),
  },
  {
    method: 'POST',
    pattern: '/_sandbox/faults',
    kind: 'admin',
    handle: (i, { faults }) => ok(201, 'Fault added', { id: readSpec(() => faults.add(faultSpecFromJson(i.body))) }),
  },
  {
    method: 'DELETE',
    pattern: '/_sandbox/faults',
    kind: 'admin',
    handle: (_i, { faults }) => {
      faults.clear();
      return ok(200, 'Faults cleared', null);
    },
  },
  {
    method: 'DELETE',
    pattern: '/_sandbox/faults/:id',
    kind: 'admin',
    handle: (i, { faults }) => {
      if (!faults.remove(param(i))) throw new ApiError(404, 'Fault not found');
      return ok(200, 'Fault removed', null);
    },
  },
  // Webhook delivery faults, the same way
  {
    method: 'GET',
    pattern: '/_sandbox/webhook-faults',
    kind: 'admin',
    handle: (_i, { webhookFaults }) => ok(200, 'Active webhook faults', webhookFaults.list().map(webhookFaultView)),
  },
  {
    method: 'POST',
    pattern: '/_sandbox/webhook-faults',
    kind: 'admin',
    handle: (i, { webhookFaults }) =>
      ok(201, 'Webhook fault added', { id: readSpec(() => webhookFaults.add(webhookFaultSpecFromJson(i.body))) }),
  },
  {
    method: 'DELETE',
    pattern: '/_sandbox/webhook-faults',
    kind: 'admin',
    handle: (_i, { webhookFaults }) => {
      webhookFaults.clear();
      return ok(200, 'Webhook faults cleared', null);
    },
  },
  {
    method: 'DELETE',
    pattern: '/_sandbox/webhook-faults/:id',
    kind: 'admin',
    handle: (i, { webhookFaults }) => {
      if (!webhookFaults.remove(param(i))) throw new ApiError(404, 'Webhook fault not found');
      return ok(200, 'Webhook fault removed', null);
    },
  },
  {
    method: 'POST',
    pattern: '/_sandbox/webhook-faults/release',
    kind: 'admin',
    handle: (_i, { webhookFaults }) => ok(200, 'Held webhooks released', { released: webhookFaults.release() }),
  },
];

/** A spec the control API refuses is the caller's mistake: 400, with the reason. */
function readSpec(add: () => string): string {
  try {
    return add();
  } catch (error) {
    if (error instanceof TypeError) throw new ApiError(400, `Invalid fault: ${error.message}`, { errorCode: 'INVALID_DATA' });
    throw error;
  }
}

/** Routes whose pattern fits the path; where a literal segment and a parameter both fit, the literal wins. */
function matchRoutes(path: string): { routes: Route[]; params: string[] } {
  const segments = trimSlash(path).split('/').slice(1);
  let best: { routes: Route[]; params: string[]; literals: number } = { routes: [], params: [], literals: -1 };
  for (const route of ROUTES) {
    const pattern = route.pattern.split('/').slice(1);
    if (pattern.length !== segments.length) continue;
    const params: string[] = [];
    let literals = 0;
    let fits = true;
    for (let i = 0; i < pattern.length && fits; i++) {
      const p = pattern[i]!;
      const s = segments[i]!;
      if (p.startsWith(':')) {
        if (s === '') fits = false;
        else params.push(decodeSegment(s));
      } else if (p === s) literals++;
      else fits = false;
    }
    if (!fits) continue;
    if (literals > best.literals) best = { routes: [route], params, literals };
    else if (literals === best.literals) best.routes.push(route);
  }
  return best;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export interface ServerParts {
  ctx: SandboxContext;
  faults: Faults;
  faultRuntime: FaultRuntime;
  requests: Requests;
  webhookFaults: WebhookFaultInjector;
}

export function createSandboxServer(parts: ServerParts): Server {
  const { ctx, faults, faultRuntime, requests, webhookFaults } = parts;
  return createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      ctx.log(`internal error on ${req.method} ${req.url?.split('?')[0]}: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent && !res.destroyed)
        writeResult(res, envelope(500, false, 'Internal error. Retry later.', { error_code: 'INTERNAL_ERROR' }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const apiKey = req.headers['x-api-key'];
    const account = typeof apiKey === 'string' ? accountTag(apiKey) : undefined;
    requests.record({ method, path: url.pathname, query: new URLSearchParams(url.searchParams), at: ctx.clock.now(), account });
    res.on('finish', () => ctx.log(`${method} ${url.pathname} -> ${res.statusCode} (${Math.round(performance.now() - started)} ms)`));

    const proceed = () => dispatch(req, method, url);
    const fault = url.pathname.startsWith('/_sandbox/') ? null : faults.take(method, url.pathname);
    if (fault) {
      ctx.log(`fault ${fault.kind} on ${method} ${url.pathname}`);
      await faultRuntime.apply(fault, req, res, proceed);
      return;
    }
    writeResult(res, await proceed());
  }

  async function dispatch(req: IncomingMessage, method: string, url: URL): Promise<HttpResult> {
    const { routes, params } = matchRoutes(url.pathname);
    if (routes.length === 0) return envelope(404, false, `Not found: ${method} ${url.pathname}`);
    const route = routes.find((r) => r.method === method);
    if (!route) {
      const allow = routes.map((r) => r.method).join(', ');
      const result = envelope(405, false, `Method "${method}" not allowed. Allowed: ${allow}.`);
      result.headers.allow = allow;
      return result;
    }
    const input: RequestInput = { params, query: url.searchParams, body: undefined, ip: clientIp(req) };
    try {
      switch (route.kind) {
        case 'api': {
          const header = req.headers['x-api-key'];
          const account = ctx.accounts.authenticate(Array.isArray(header) ? header[0] : header);
          if (!account) return envelope(401, false, 'Invalid API key');
          if (route.body) input.body = await readJson(req);
          return route.handle(ctx, account, input);
        }
        case 'page': {
          const form = method === 'POST' ? new URLSearchParams((await readBody(req)).toString('utf8')) : new URLSearchParams();
          return route.handle(ctx, { ...input, body: form });
        }
        case 'admin':
          if (method === 'POST') input.body = await readJson(req);
          return route.handle(input, { faults, webhookFaults });
      }
    } catch (error) {
      if (error instanceof ApiError) return error.toResult();
      if (error instanceof BodyTooLarge) return envelope(413, false, 'Request body too large.', { error_code: 'INVALID_DATA' });
      throw error;
    }
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const raw = (await readBody(req)).toString('utf8');
  // No body at all reads as an empty object, so the answer lists the required fields.
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    const detail = `JSON parse error - ${error instanceof Error ? error.message : 'invalid JSON'}`;
    throw new ApiError(400, detail, { errorCode: 'INVALID_DATA', errors: { non_field_errors: [detail] } });
  }
}
