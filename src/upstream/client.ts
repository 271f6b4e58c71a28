// The typed client: one function per REST operation of the payment service.
// Requests: snake_case keys, integer amounts (JSON numbers), `payment_method_details`
// nested, optional fields omitted when null/undefined, path segments URL-encoded.
// Responses: the envelope decides success by `status`; failures go through
// mapFailure (./failure.ts); `data` goes through one normalizer per resource
// (./normalize.ts); a `data` of the wrong shape is a `bad_body` fault.
// A body that is not an envelope is a `bad_body` fault whatever the HTTP status
// (an HTML 502 page included, after the GET retries); `http_status` is a 5xx
// with an empty body. Both are UPSTREAM_UNAVAILABLE with `httpStatus` set.

import type { UpstreamConfig } from '../config.js';
import { UpstreamCallError } from './errors.js';
import { readEnvelope, type Envelope } from './envelope.js';
import { mapFailure, type Operation } from './failure.js';
import { createTransport, type HttpCall } from './http.js';
import { ENDPOINTS, callOutcome, type UpstreamObserver } from './observation.js';
import {
  BadBodyError,
  isPlainObject,
  normalizeBalance,
  normalizeBulkResult,
  normalizeCharge,
  normalizeCheckout,
  normalizeCreatedCharge,
  normalizeInitializedCheckout,
  normalizeList,
  normalizePagination,
  normalizeSettlement,
  normalizeTransfer,
} from './normalize.js';
import type { ChargeListFilter, CreateTransferInput, UpstreamClient } from './types.js';

export interface UpstreamClientOptions {
  /** Retries of idempotent GETs (default 2). */
  maxRetries?: number;
  /** First backoff step in ms (default 100). */
  retryBaseMs?: number;
  /** Maximum sockets to the service for reads (default 16). */
  connections?: number;
  /** Maximum sockets for calls that change state, a pool of their own (default 32). */
  writeConnections?: number;
  /** Told of every call once it ends (metrics, traces); what it throws is ignored. */
  observe?: UpstreamObserver;
  /** Trace context headers sent with each call (the higher layer's tracing; none by default). */
  traceHeaders?: () => Record<string, string>;
}

const P = '/v1/payment';

export function createUpstreamClient(config: UpstreamConfig, options: UpstreamClientOptions = {}): UpstreamClient {
  const { observe, ...transportOptions } = options;
  const http = createTransport({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    timeoutMs: config.timeoutMs,
    ...transportOptions,
  });

  async function call<T>(
    operation: Operation,
    req: HttpCall,
    read: (env: Envelope) => T,
    readFailure?: (env: Envelope) => boolean,
  ): Promise<T> {
    if (!observe) return exchange(operation, req, read, readFailure);
    const startedAt = Date.now();
    const started = performance.now();
    const report = (outcome: string) => {
      try {
        observe({ operation, endpoint: ENDPOINTS[operation], outcome, startedAt, durationMs: performance.now() - started });
      } catch {
        // Bookkeeping must never change how a payment call ends.
      }
    };
    try {
      const result = await exchange(operation, req, read, readFailure);
      report('success');
      return result;
    } catch (err) {
      report(callOutcome(err));
      throw err;
    }
  }

  async function exchange<T>(
    operation: Operation,
    req: HttpCall,
    read: (env: Envelope) => T,
    /** A failure envelope that still carries a result (bulk transfers). */
    readFailure?: (env: Envelope) => boolean,
  ): Promise<T> {
    const res = await http.send(req);
    const reading = readEnvelope(res.text);
    if (!reading.ok) {
      const kind = reading.reason === 'empty' && res.statusCode >= 500 ? 'http_status' : 'bad_body';
      throw http.fault(kind, {
        idempotent: req.idempotent,
        httpStatus: res.statusCode,
        detail: kind === 'bad_body' ? `HTTP ${res.statusCode}, ${READING_DETAIL[reading.reason]}` : undefined,
      });
    }
    const env = reading.envelope;
    if (!env.status && !(readFailure?.(env) ?? false)) {
      throw mapFailure(env, { operation, httpStatus: res.statusCode, redact: http.redact });
    }
    try {
      return read(env);
    } catch (err) {
      throw http.fault('bad_body', {
        idempotent: req.idempotent,
        httpStatus: res.statusCode,
        detail: err instanceof BadBodyError ? err.message : 'unexpected response shape',
      });
    }
  }

  const get = (path: string, query?: URLSearchParams): HttpCall => ({ method: 'GET', path, query, idempotent: true });
  const post = (path: string, body: unknown): HttpCall => ({ method: 'POST', path, body, idempotent: false });

  return {
    async initializeCheckout(input) {
      const body = compact({
        email: input.email,
        amount: amount(input.amount, 'amount'),
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      });
      return call('initializeCheckout', post(`${P}/checkouts/initialize/`, body), (env) =>
        normalizeInitializedCheckout(env.data, env.message),
      );
    },

    async fetchCheckout(reference) {
      return call('fetchCheckout', get(`${P}/checkouts/${segment(reference)}`), (env) => normalizeCheckout(env.data));
    },

    async listCheckouts() {
      return call('listCheckouts', get(`${P}/checkouts`), (env) => normalizeList(env.data, normalizeCheckout));
    },

    async createCharge(input) {
      const body = compact({
        amount: amount(input.amount, 'amount'),
        currency: input.currency,
        ext_id: input.extId,
        payment_method_details: compact({
          phone: input.phone,
          provider: input.provider,
          confirmation_method: input.confirmationMethod,
        }),
      });
      return call('createCharge', post(`${P}/charges/`, body), (env) => normalizeCreatedCharge(env.data));
    },

    async submitChargeOtp(input) {
      const body = { otp: input.otp, charge_reference: input.chargeReference };
      return call('submitChargeOtp', post(`${P}/charges/submit`, body), (env) => normalizeCharge(env.data));
    },

    async fetchCharge(reference) {
      return call('fetchCharge', get(`${P}/charges/${segment(reference)}`), (env) => normalizeCharge(env.data));
    },

    async listCharges(filter, paging) {
      const page = positive(paging.page, 'page');
      const pageSize = positive(paging.pageSize, 'pageSize');
      const query = chargeQuery(filter);
      query.set(config.pageParam, String(page));
      query.set(config.pageSizeParam, String(pageSize));
      return call('listCharges', get(`${P}/charges`, query), (env) => {
        const items = normalizeList(env.data, normalizeCharge);
        return { items, pagination: normalizePagination(env.pagination, { page, pageSize, itemCount: items.length }) };
      });
    },

    async fetchBalance() {
      return call('fetchBalance', get(`${P}/balances`), (env) => normalizeBalance(env.data));
    },

    async createTransfer(input) {
      return call('createTransfer', post(`${P}/transfers/`, transferBody(input)), (env) => normalizeTransfer(env.data));
    },

    async createBulkTransfer(items) {
      const body = { transfers: items.map((item, i) => transferBody(item, `transfers.${i}.`)) };
      const failed = (env: Envelope) => env.failedTransfers ?? (isPlainObject(env.data) ? env.data.failed_transfers : undefined);
      return call(
        'createBulkTransfer',
        post(`${P}/transfers/bulk/`, body),
        (env) => normalizeBulkResult(failed(env), env.message, items),
        // `status: false` with a non-empty `failed_transfers` and no error code is read as a
        // per-item outcome too (e.g. every item failed), not as a failure of the whole call:
        // the caller must learn which items failed. Whole-call failures carry an error code.
        (env) => env.errorCode === null && Array.isArray(failed(env)) && (failed(env) as unknown[]).length > 0,
      );
    },

    async listTransfers() {
      return call('listTransfers', get(`${P}/transfers`), (env) => normalizeList(env.data, normalizeTransfer));
    },

    async fetchTransfer(reference) {
      return call('fetchTransfer', get(`${P}/transfers/${segment(reference)}`), (env) => normalizeTransfer(env.data));
    },

    async createSettlement(input) {
      const body = { amount: amount(input.amount, 'amount') };
      return call('createSettlement', post(`${P}/settlements/`, body), (env) => normalizeSettlement(env.data));
    },

    async fetchSettlement(reference) {
      return call('fetchSettlement', get(`${P}/settlements/${segment(reference)}`), (env) => normalizeSettlement(env.data));
    },

    async listSettlements() {
      return call('listSettlements', get(`${P}/settlements`), (env) => normalizeList(env.data, normalizeSettlement));
    },

    async cancelSettlement(reference) {
      // A GET that changes state: never retried, outcome unknown on faults after sending.
      const req: HttpCall = { method: 'GET', path: `${P}/settlements/${segment(reference)}/cancel/`, idempotent: false };
      return call('cancelSettlement', req, (env) => normalizeSettlement(env.data));
    },

    close() {
      return http.close();
    },
  };
}

const READING_DETAIL = { empty: 'empty body', not_json: 'not JSON', not_envelope: 'not a response envelope' } as const;

function invalid(message: string): UpstreamCallError {
  return new UpstreamCallError({ code: 'VALIDATION_FAILED', message });
}

/** One URL path segment; `chk_<hex>` and UUID references pass through, anything else is encoded. */
function segment(reference: string): string {
  if (typeof reference !== 'string' || reference.trim() === '' || reference === '.' || reference === '..') {
    throw invalid('reference must be a non-empty string');
  }
  return encodeURIComponent(reference);
}

function amount(value: number, field: string): number {
  if (!Number.isSafeInteger(value)) throw invalid(`${field} must be an integer amount`);
  return value;
}

function positive(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw invalid(`${field} must be a positive integer`);
  return value;
}

/** Drops null/undefined members: optional fields are omitted, never sent as null. */
function compact<T extends Record<string, unknown>>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}

function transferBody(input: CreateTransferInput, prefix = '') {
  return compact({
    amount: amount(input.amount, `${prefix}amount`),
    recipient_phone: input.recipientPhone,
    recipient_wallet: input.recipientWallet,
    ext_id: input.extId,
  });
}

/** The charge-list filters as the service's snake_case query parameters; empty values are left out. */
export function chargeQuery(filter: ChargeListFilter): URLSearchParams {
  const q = new URLSearchParams();
  const add = (key: string, value: string | number | undefined | null) => {
    if (value !== undefined && value !== null && value !== '') q.set(key, String(value));
  };
  add('reference', filter.reference);
  add('status', filter.status);
  add('provider', filter.provider);
  add('phone', filter.phone);
  add('date_from', filter.dateFrom);
  add('date_to', filter.dateTo);
  add('amount_min', filter.amountMin === undefined || filter.amountMin === null ? undefined : amount(filter.amountMin, 'amountMin'));
  add('amount_max', filter.amountMax === undefined || filter.amountMax === null ? undefined : amount(filter.amountMax, 'amountMax'));
  return q;
}
