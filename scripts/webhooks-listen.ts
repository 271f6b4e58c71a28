// `npm run webhooks:listen -- --forward-to http://localhost:3000/hooks`, in the spirit of `stripe listen`: a
// developer's first webhook without a public URL. Against a running gateway (GATEWAY_URL, default
// http://127.0.0.1:4000/graphql) it starts a receiver on a free local port, creates a temporary endpoint pointing at
// it, prints each delivery as it arrives (kind, reference, status, whether its signature verified) and forwards it,
// same body and headers, to --forward-to. Ctrl-C (or SIGTERM) deletes the endpoint. The token: --token, or in sandbox
// mode one signed with the development secret the gateway keeps in SANDBOX_DATA_DIR (as `npm run token` does).
// The GraphQL it sends is the client kit's own (client/operations/webhooks.graphql).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { request } from 'undici';
import { mintStaffToken } from '../src/auth/index.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { projectPath } from '../src/files/project-files.js';
import { savedDevelopmentIdentity } from '../src/sandbox/index.js';

const USAGE =
  'usage: npm run webhooks:listen -- [--forward-to <url>] [--kinds charge.success,charge.failed] [--token <staff token>] [--port <n>]';
const DEFAULT_GATEWAY_URL = 'http://127.0.0.1:4000/graphql';
/** Headers of one hop only: the forwarded request gets its own. */
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'expect']);

interface Options {
  gatewayUrl: string;
  forwardTo: URL | null;
  kinds: string[];
  token: string | null;
  port: number;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      'forward-to': { type: 'string' },
      kinds: { type: 'string' },
      token: { type: 'string' },
      port: { type: 'string', default: '0' },
    },
    strict: true,
  });
  const forward = values['forward-to'];
  const forwardTo = forward === undefined ? null : URL.canParse(forward) ? new URL(forward) : null;
  if (forward !== undefined && (!forwardTo || !/^https?:$/.test(forwardTo.protocol)))
    fail(`--forward-to must be an http(s) URL (got ${forward})\n${USAGE}`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`--port must be a port number (got ${values.port})\n${USAGE}`);
  // The listener's own setting, not the gateway's: GATEWAY_URL is where it finds the gateway.
  const gatewayUrl = process.env.GATEWAY_URL || DEFAULT_GATEWAY_URL;
  if (!URL.canParse(gatewayUrl)) fail(`GATEWAY_URL must be the gateway's GraphQL URL (got ${gatewayUrl})`);
  const kinds = (values.kinds ?? '')
    .split(',')
    .map((kind) => kind.trim())
    .filter(Boolean);
  return { gatewayUrl, forwardTo, kinds, token: values.token ?? null, port };
}

/** --token, or one with webhooks:manage signed like `npm run token` signs (the configured or the development secret). */
async function resolveToken(given: string | null): Promise<string> {
  if (given) return given;
  const config = loadConfig();
  const development = config.mode === 'sandbox' ? savedDevelopmentIdentity(config.sandboxDataDir) : null;
  const secret = config.auth.jwtSecret ?? development?.authJwtSecret;
  if (!secret) {
    fail(
      `no token: pass --token <a staff token with webhooks:manage>, or run it beside a sandbox-mode gateway (its development secret is kept in ${config.sandboxDataDir})`,
    );
  }
  const { auth } = config;
  const minted = await mintStaffToken({
    secret,
    scopes: ['webhooks:manage'],
    subject: 'webhooks-listen',
    ttlSeconds: 12 * 3600,
    issuer: auth.issuer,
    audience: auth.audience,
  });
  return minted.token;
}

type Json = Record<string, unknown>;

/** Runs one operation of the client kit's webhooks document; a top-level error ends the listener. */
function gatewayClient(gatewayUrl: string, token: string) {
  const document = readFileSync(projectPath('client', 'operations', 'webhooks.graphql'), 'utf8');
  return async (operationName: string, variables: Json): Promise<Json> => {
    const res = await request(gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: document, operationName, variables }),
    }).catch((err: unknown) => {
      // Nothing listening (ECONNREFUSED), a wrong host: say where it looked and how to point it elsewhere.
      const why = (err as { code?: string }).code ?? (err instanceof Error ? err.message : String(err));
      throw new Error(
        `no gateway answers at ${gatewayUrl} (${why}): start one with npm start, or set GATEWAY_URL to your gateway's GraphQL URL`,
      );
    });
    const answer = (await res.body.json()) as { data?: Json | null; errors?: Array<{ message: string; extensions?: Json }> };
    const error = answer.errors?.[0];
    if (error || !answer.data) {
      throw new Error(
        `${operationName}: ${error ? `${String(error.extensions?.code ?? 'ERROR')} ${error.message}` : `HTTP ${res.statusCode}`}`,
      );
    }
    return answer.data;
  };
}
type Gateway = ReturnType<typeof gatewayClient>;

/** The payload of a union answer (told by a field only it has), or an error naming the typed error the gateway returned. */
function payloadOf(result: unknown, payloadField: string): Json {
  const answer = (result ?? {}) as Json & { code?: string; message?: string; urlProblem?: string };
  if (payloadField in answer) return answer;
  throw new Error(`${answer.code ?? 'refused'}: ${answer.message ?? answer.urlProblem ?? JSON.stringify(answer)}`);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface Verdict {
  verified: boolean;
  why: string | null;
  kind: string;
  reference: string;
  status: string;
}

/** Verifies a delivery with the endpoint's secret (the specification's own library) and reads what it is about. */
function examine(body: Buffer, headers: IncomingHttpHeaders, webhook: Webhook): Verdict {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (typeof value === 'string') flat[name] = value;
  let verified = true;
  let why: string | null = null;
  try {
    webhook.verify(body.toString('utf8'), flat);
  } catch (err) {
    verified = false;
    why = err instanceof Error ? err.message : String(err);
  }
  let parsed: { type?: unknown; data?: { reference?: unknown; status?: unknown } } = {};
  try {
    parsed = JSON.parse(body.toString('utf8')) as typeof parsed;
  } catch {
    why ??= 'not JSON';
  }
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : '-');
  return { verified, why, kind: text(parsed.type), reference: text(parsed.data?.reference), status: text(parsed.data?.status) };
}

/** Sends the delivery on as it came; the local app's status, or null when it could not be reached. */
async function forward(target: URL, body: Buffer, headers: IncomingHttpHeaders): Promise<{ status: number | null; error: string | null }> {
  const copied: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (typeof value === 'string' && !HOP_HEADERS.has(name)) copied[name] = value;
  try {
    const res = await request(target, { method: 'POST', headers: copied, body, headersTimeout: 30_000, bodyTimeout: 30_000 });
    await res.body.dump();
    return { status: res.statusCode, error: null };
  } catch (err) {
    return { status: null, error: (err as { code?: string }).code ?? (err instanceof Error ? err.message : String(err)) };
  }
}

/**
 * The local receiver: prints one line per delivery and answers the gateway as the forward target answered
 * (so the gateway retries what the local app failed), or, without --forward-to, 204 when verified and 400 when not.
 */
function startLocalReceiver(port: number, forwardTo: URL | null, getWebhook: () => Webhook | null): Promise<Server> {
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const webhook = getWebhook();
      if (req.method !== 'POST' || !webhook) return void res.writeHead(req.method === 'POST' ? 503 : 405).end();
      const verdict = examine(body, req.headers, webhook);
      const outcome = forwardTo ? await forward(forwardTo, body, req.headers) : null;
      const time = new Date().toTimeString().slice(0, 8);
      const check = verdict.verified ? 'verified' : `NOT VERIFIED (${verdict.why})`;
      const sent = outcome ? (outcome.status !== null ? ` -> ${outcome.status}` : ` -> not forwarded (${outcome.error})`) : '';
      process.stdout.write(`${time}  ${verdict.kind}  ${verdict.reference}  ${verdict.status}  ${check}${sent}\n`);
      const status = outcome ? (outcome.status ?? 502) : verdict.verified ? 204 : 400;
      res.writeHead(status).end();
    })().catch(() => res.writeHead(500).end());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

async function createEndpoint(gateway: Gateway, url: string, kinds: string[]): Promise<{ id: string; secret: string }> {
  const data = await gateway('CreateWebhookEndpoint', {
    create: { url, kinds, description: 'npm run webhooks:listen (temporary)', idempotencyKey: randomUUID() },
  });
  const created = payloadOf(data.createWebhookEndpoint, 'secret') as { secret: string; endpoint: { id: string } };
  return { id: created.endpoint.id, secret: created.secret };
}

/** Deletes the temporary endpoint, then exits; says so when it could not, with the id to delete by hand. */
function deleteOnSignals(gateway: Gateway, endpointId: string, server: Server): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.close();
    gateway('DeleteWebhookEndpoint', { endpointId })
      .then((data) => payloadOf(data.deleteWebhookEndpoint, 'deletedEndpointId'))
      .then(
        () => {
          process.stdout.write(`${signal}: deleted endpoint ${endpointId}\n`);
          process.exit(0);
        },
        (err: unknown) =>
          fail(
            `${signal}: could not delete endpoint ${endpointId} (${err instanceof Error ? err.message : String(err)}); delete it with DeleteWebhookEndpoint`,
          ),
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

async function main(): Promise<void> {
  const options = parseOptions();
  const gateway = gatewayClient(options.gatewayUrl, await resolveToken(options.token));
  let webhook: Webhook | null = null;
  const server = await startLocalReceiver(options.port, options.forwardTo, () => webhook);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  let endpoint;
  try {
    endpoint = await createEndpoint(gateway, url, options.kinds);
  } catch (err) {
    server.close();
    throw err;
  }
  webhook = new Webhook(endpoint.secret);
  deleteOnSignals(gateway, endpoint.id, server);
  const kinds = options.kinds.length > 0 ? options.kinds.join(', ') : 'every kind';
  // The secret first, as `stripe listen` prints it: what it forwards is signed with this temporary endpoint's secret,
  // so the app at --forward-to must verify with it while it listens, not with its own endpoint's.
  process.stdout.write(
    [
      `Signing secret of this temporary endpoint: ${endpoint.secret}`,
      `  What is forwarded is signed with it: verify with it while you test (e.g. GATEWAY_WEBHOOK_SECRET=${endpoint.secret}).`,
      `Ready: endpoint ${endpoint.id} -> ${url} (${kinds}) on ${options.gatewayUrl}`,
      options.forwardTo ? `Forwarding to ${options.forwardTo.href}` : 'Printing only (no --forward-to)',
      'Ctrl-C deletes the endpoint.',
    ].join('\n') + '\n',
  );
}

function fail(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

main().catch((err: unknown) => {
  fail(err instanceof ConfigError ? `Configuration error: ${err.message}` : err instanceof Error ? err.message : String(err));
});
