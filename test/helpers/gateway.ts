// Starts what the GraphQL tests talk to: the sandbox (a real payment service
// over HTTP) and a gateway configured against it exactly as in production
// (PAYMENT_BASE_URL + PAYMENT_API_KEY), both on free ports.
import { randomBytes } from 'node:crypto';
import { print } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { request } from 'undici';
import { SCOPES, mintStaffToken, type Scope } from '../../src/auth/index.js';
import { loadConfig } from '../../src/config.js';
import { startGateway, type RunningGateway, type StartGatewayOptions } from '../../src/gateway.js';
import { createLogger, type Logger } from '../../src/logger.js';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/index.js';
import { startTestSandbox } from './sandbox.js';
import { newKey } from './sandbox-api.js';

export interface TestStack {
  sandbox: Sandbox;
  gateway: RunningGateway;
  apiKey: string;
  webhookSecret: string;
  logLines: string[];
  /** The HS256 secret the gateway verifies staff tokens with. */
  jwtSecret: string;
  /** A staff token with every scope; `gql` sends it unless the test passes its own Authorization header. */
  staffToken: string;
  /** A staff token with exactly these scopes. */
  mintToken(scopes: Iterable<Scope>, subject?: string, ttlSeconds?: number): Promise<string>;
  gql<R, V>(doc: TypedDocumentNode<R, V>, variables?: V, headers?: Record<string, string>): Promise<GraphQLResponse<R>>;
  close(): Promise<void>;
}

export interface GraphQLResponse<R> {
  status: number;
  data: R | null | undefined;
  errors?: Array<{ message: string; path?: Array<string | number>; extensions?: Record<string, unknown> }>;
  raw: string;
}

export interface StackOptions {
  sandbox?: SandboxOptions;
  env?: Record<string, string>;
  /** Start the gateway against an already running sandbox (several gateways, one service). */
  sharedSandbox?: Sandbox;
  apiKey?: string;
  redisNamespace?: string;
  /** WEBHOOK_SECRET of the gateway; several gateways playing replicas of one deployment share it. Default: random. */
  webhookSecret?: string;
  /** Point the sandbox's webhooks at this gateway (signed with its secret), as `npm start` does. */
  sandboxWebhooks?: boolean;
  /** The gateway's own clock (reconciliation, subscription pollers), e.g. the sandbox's manual clock. Default: the real one. */
  clock?: StartGatewayOptions['clock'];
  /** The idempotency store's time (claim expiry, settle window), e.g. a manual clock a test moves. Default: the real one. */
  idempotencyClock?: StartGatewayOptions['idempotencyClock'];
  /** Outbound webhooks' time, name resolution and pass interval (test/outbound-webhooks/). */
  outboundWebhooks?: StartGatewayOptions['outboundWebhooks'];
}

export const testKey = (label = 'gw'): string => newKey(label);

export async function startStack(options: StackOptions = {}): Promise<TestStack> {
  const sandbox = options.sharedSandbox ?? (await startTestSandbox(options.sandbox));
  const apiKey = options.apiKey ?? testKey();
  const webhookSecret = options.webhookSecret ?? randomBytes(16).toString('hex');
  const jwtSecret = options.env?.AUTH_JWT_SECRET ?? randomBytes(32).toString('hex');
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PAYMENT_BASE_URL: sandbox.url,
    PAYMENT_API_KEY: apiKey,
    WEBHOOK_SECRET: webhookSecret,
    // A gateway in front of a configured service must be able to verify staff tokens.
    AUTH_JWT_SECRET: jwtSecret,
    LOG_LEVEL: 'debug',
    // Live mode turns introspection off (src/limits/); the suites introspect the schema as a developer would.
    INTROSPECTION: 'true',
    // One subject (test-staff) makes every payment of a suite within a minute, far beyond a real caller's
    // budget; the rate-limit suites (test/security/) set their own numbers.
    RATE_LIMIT_PER_MINUTE: '100000',
    RATE_LIMIT_MONEY_PER_MINUTE: '100000',
    RATE_LIMIT_STAFF_PER_MINUTE: '100000',
    RATE_LIMIT_STAFF_MONEY_PER_MINUTE: '100000',
    // The readiness probe checks the service once at start, then not again within a test: its periodic
    // balance GET would land in the request counts tests make at the sandbox. Its own suite sets a short interval.
    HEALTH_PROBE_MS: '3600000',
    ...options.env,
  });
  const logLines: string[] = [];
  const log: Logger = createLogger('debug', { write: (line) => logLines.push(line) });
  const gateway = await startGateway(config, log, {
    redisNamespace: options.redisNamespace,
    clock: options.clock,
    idempotencyClock: options.idempotencyClock,
    outboundWebhooks: options.outboundWebhooks,
  });
  // The readiness probe checks the service once at start: let that GET land before a test counts requests.
  await gateway.readiness.firstCheck;
  if (options.sandboxWebhooks) sandbox.setWebhook({ url: gateway.webhookUrl!, secret: webhookSecret, scheme: 'hmac-sha256-hex' });
  const mintToken = async (scopes: Iterable<Scope>, subject = 'test-staff', ttlSeconds = 3600) =>
    (await mintStaffToken({ secret: jwtSecret, scopes, subject, ttlSeconds })).token;
  const staffToken = await mintToken(SCOPES);
  return {
    sandbox,
    gateway,
    apiKey,
    webhookSecret,
    logLines,
    jwtSecret,
    staffToken,
    mintToken,
    gql: (doc, variables, headers = {}) =>
      postGraphQL(
        gateway.graphqlUrl,
        doc,
        variables,
        hasAuthorization(headers) ? headers : { authorization: `Bearer ${staffToken}`, ...headers },
      ),
    close: async () => {
      await gateway.close();
      if (!options.sharedSandbox) await sandbox.close();
    },
  };
}

function hasAuthorization(headers: Record<string, string>): boolean {
  return Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
}

export async function postGraphQL<R, V>(
  url: string,
  doc: TypedDocumentNode<R, V>,
  variables?: V,
  headers: Record<string, string> = {},
): Promise<GraphQLResponse<R>> {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...headers },
    body: JSON.stringify({ query: print(doc), variables }),
  });
  const raw = await res.body.text();
  const parsed = JSON.parse(raw) as { data?: R | null; errors?: GraphQLResponse<R>['errors'] };
  return { status: res.statusCode, data: parsed.data, errors: parsed.errors, raw };
}
