// The only module that reads process.env. Everything is validated once, at
// start; a bad value stops the process with one line that names the variable.
// Secret values never appear in those lines, nor anywhere else.
import path from 'node:path';
import { z } from 'zod';
import { parseDurationSeconds } from './config-values/duration.js';
import { compileTrust, type TrustProxySetting } from './config-values/proxy-trust.js';
import { projectPath } from './files/project-files.js';
import { InternalError } from './errors/internal-error.js';

const SIGNATURE_SCHEMES = ['auto', 'hmac-sha256-hex', 'sha256-base64'] as const;
/** How the payment service signs its webhooks (WEBHOOK_SIGNATURE_SCHEME): hex HMAC, base64 SHA-256, or either. */
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

const TRUSTED_DOCUMENTS_MODES = ['off', 'allow', 'enforce'] as const;
/** TRUSTED_DOCUMENTS: `off` (text only), `allow` (text or a manifest hash), `enforce` (manifest hashes only). */
export type TrustedDocumentsMode = (typeof TRUSTED_DOCUMENTS_MODES)[number];
/** LOG_LEVEL: the least severe level written. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A bad or missing setting: its message names the variable, and the process stops with that one line. */
export class ConfigError extends InternalError {
  override readonly name = 'ConfigError';
  readonly code = 'CONFIG_INVALID';
}

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const httpUrl = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//.test(u), 'must start with http:// or https://');
/** Shortest HMAC secret accepted: 256 bits, the HS256 output size (RFC 7518 §3.2). */
export const MIN_SECRET_BYTES = 32;
const hmacSecret = z.string().refine((s) => Buffer.byteLength(s, 'utf8') >= MIN_SECRET_BYTES, `must be at least ${MIN_SECRET_BYTES} bytes`);
const booleanFlag = z.enum(['true', 'false']).transform((v) => v === 'true');
const durationSeconds = z.string().transform((text, ctx) => {
  const seconds = parseDurationSeconds(text);
  if (seconds === null) ctx.addIssue({ code: 'custom', message: 'must be seconds or a duration such as 90s, 15m, 1h, 1d' });
  return seconds ?? z.NEVER;
});

/** Svix's schedule (5s,5m,30m,2h,5h,10h,10h): about 28 hours in all. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000].map((s) => s * 1000);

/** `5s,5m,2h` as milliseconds; each entry a duration of src/auth/duration.ts. */
function durationList(name: string) {
  return (list: string, ctx: z.RefinementCtx) => {
    const items = list.split(',').map((item) => item.trim());
    const ms = items.map((item) => parseDurationSeconds(item));
    if (items.length === 0 || ms.some((s) => s === null || s <= 0)) {
      ctx.addIssue({ code: 'custom', message: `must be durations such as 5s,5m,2h (${name} is a comma-separated list)` });
      return z.NEVER;
    }
    return ms.map((s) => s! * 1000);
  };
}

const envSchema = z.object({
  PORT: port.default(4000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PAYMENT_BASE_URL: httpUrl.optional(),
  PAYMENT_API_KEY: z.string().min(1).optional(),
  PAYMENT_TIMEOUT_MS: positiveInt.default(15_000),
  /** How long an idempotency claim may stay pending (a call sent, its result not yet saved) before it counts as outcome unknown and a retry reconciles. */
  IDEMPOTENCY_PENDING_TTL_MS: positiveInt.default(300_000),
  IDEMPOTENCY_SETTLE_MS: positiveInt.default(60_000), // DEFAULT_SETTLE_WINDOW_MS of src/idempotency/run.ts
  PAYMENT_PAGE_PARAM: z.string().min(1).default('page'),
  PAYMENT_PAGE_SIZE_PARAM: z.string().min(1).default('page_size'),
  /** Page size the gateway asks of the charge list. */
  PAYMENT_PAGE_SIZE: positiveInt.max(500).default(20),
  WEBHOOK_SECRET: z.string().min(1).optional(),
  WEBHOOK_SIGNATURE_SCHEME: z.enum(SIGNATURE_SCHEMES).default('auto'),
  WEBHOOK_PATH: z
    .string()
    .regex(/^\/[\w\-/.]*$/, 'must be a path such as /webhooks/payment')
    .default('/webhooks/payment'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  /** Sentinels of a Sentinel-managed primary, `host:port,host:port`. */
  REDIS_SENTINELS: z.string().transform(hostPortList('REDIS_SENTINELS')).optional(),
  REDIS_SENTINEL_NAME: z.string().min(1).default('mymaster'),
  /** Some nodes of a Redis Cluster, `host:port,host:port` (the rest is discovered). */
  REDIS_CLUSTER_NODES: z.string().transform(hostPortList('REDIS_CLUSTER_NODES')).optional(),
  /** Prefix of every Redis key and channel: two gateways with different prefixes share nothing. */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[^\s:{}][^\s{}]*$/, 'must be non-empty, without spaces or braces, not starting with ":"')
    .default('momo-gateway'),
  /** Replicas that must acknowledge a webhook's event or a payment's claim before it counts (Redis WAIT). */
  REDIS_MIN_REPLICAS: z.coerce.number().int().min(0).max(16).default(0),
  REDIS_REPLICA_TIMEOUT_MS: positiveInt.max(10_000).default(500),
  SANDBOX_PORT: port.default(4010),
  /** On SIGTERM, how long /health/ready answers 503 while the gateway still serves, before it drains (0: at once). */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(5_000),
  /** Sandbox mode: where the sandbox's accounts, the development secrets and the event log survive restarts. */
  SANDBOX_DATA_DIR: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** How often /health/ready checks the payment service and Redis (and how stale its answer may be). */
  HEALTH_PROBE_MS: positiveInt.default(5_000),
  /** First interval of the pollers that follow a resource for subscriptions; 0 turns polling off. */
  SUBSCRIPTION_POLL_MS: z.coerce.number().int().min(0).default(2_000),
  SUBSCRIPTION_POLL_MAX_MS: positiveInt.default(30_000),
  /** How long the event log keeps events (resume with `after`, the `events` history). */
  EVENT_RETENTION_HOURS: positiveInt.default(72),
  /** A resource created through the gateway that no event moved for this long is fetched (reconciliation). */
  RECONCILE_AFTER_MS: positiveInt.default(120_000),
  /** A resource still not final this long after its creation gives a reconciliation.stuck event. */
  RECONCILE_STUCK_HOURS: positiveInt.default(24),
  /** Most subscriptions one WebSocket connection may hold. */
  WS_MAX_SUBSCRIPTIONS: positiveInt.default(50),
  /** Largest WebSocket message accepted, in bytes. */
  WS_MAX_FRAME_BYTES: positiveInt.default(64 * 1024),
  /** Subscriptions one token subject may hold at once on this replica, over every connection and transport. */
  MAX_SUBSCRIPTIONS_PER_SUBJECT: positiveInt.default(500),
  /** Subscriptions this replica holds at once, all callers together. */
  MAX_SUBSCRIPTIONS: positiveInt.default(20_000),
  // Bounded cost per request (src/limits/): see docs/limits.md.
  WS_MAX_CONNECTIONS_PER_IP: positiveInt.default(100),
  MAX_BODY_BYTES: positiveInt.default(64 * 1024),
  HTTP_HEADERS_TIMEOUT_MS: positiveInt.default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: positiveInt.default(30_000),
  /** How long an idle keep-alive connection stays open: longer than any proxy in front keeps its idle connections. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveInt.default(75_000),
  MAX_DEPTH: positiveInt.default(10),
  MAX_ALIASES: positiveInt.default(15),
  MAX_TOKENS: positiveInt.default(2_000),
  MAX_DIRECTIVES: positiveInt.default(50),
  MAX_COST: positiveInt.default(5_000),
  MAX_UPSTREAM_CALLS_PER_OPERATION: positiveInt.default(50),
  // Per client address (client tokens, anonymous callers): one customer's budget.
  RATE_LIMIT_PER_MINUTE: positiveInt.default(600),
  RATE_LIMIT_MONEY_PER_MINUTE: positiveInt.default(30),
  // Per staff or server token subject: a merchant's back office or checkout server acts for every customer.
  RATE_LIMIT_STAFF_PER_MINUTE: positiveInt.default(6_000),
  RATE_LIMIT_STAFF_MONEY_PER_MINUTE: positiveInt.default(1_200),
  // Platform mode: every operation of one merchant, all its callers together (one merchant cannot starve the others).
  RATE_LIMIT_MERCHANT_PER_MINUTE: positiveInt.default(20_000),
  /** Proxies whose X-Forwarded-For / Forwarded entries are believed: a hop count, or addresses and CIDRs; unset: none. */
  TRUST_PROXY: z.string().optional(),
  /** The header the trusted proxies write: x-forwarded-for (with X-Forwarded-Proto) or forwarded (RFC 7239). */
  TRUST_PROXY_HEADER: z.enum(['x-forwarded-for', 'forwarded']).default('x-forwarded-for'),
  /** Payout batches (src/payout-batches/): see docs/payout-batches.md. */
  PAYOUT_BATCH_MAX_ITEMS: positiveInt.max(1_000_000).default(10_000),
  PAYOUT_BATCH_APPROVAL: z.enum(['none', 'required']).default('none'),
  PAYOUT_BATCH_CALLS_PER_SECOND: positiveInt.max(1_000).default(5),
  PAYOUT_BATCH_PACING_MARGIN_MS: z.coerce.number().int().min(0).max(10_000).default(10),
  PAYOUT_BATCH_LEASE_MS: positiveInt.min(500).default(10_000),
  PAYOUT_BATCH_SETTLE_MS: z.coerce.number().int().min(0).default(60_000),
  PAYOUT_BATCH_FOLLOW_POLL_MS: positiveInt.default(5_000),
  /** Platform mode: chunks one replica's runner works on at once over every merchant, and at most per merchant. */
  PAYOUT_BATCH_WORKERS: positiveInt.max(10_000).default(64),
  PAYOUT_BATCH_MERCHANT_WORKERS: positiveInt.max(10_000).default(10),
  /** The transfer fee rate in basis points (100 = 1%) batch totals and balance checks assume; the spec does not show it. */
  PAYOUT_FEE_BPS: z.coerce.number().int().min(0).max(10_000).default(100),
  /** Comma-separated origins allowed by CORS and on the WebSocket upgrade; `http://host:*` allows any port. */
  CORS_ORIGINS: z.string().optional(),
  /** Default: on in sandbox mode, off in live mode. */
  GRAPHIQL: booleanFlag.optional(),
  INTROSPECTION: booleanFlag.optional(),
  /** HS256 key of staff tokens. */
  AUTH_JWT_SECRET: hmacSecret.optional(),
  /** RS256/ES256 keys of staff tokens, e.g. the merchant's identity provider. */
  AUTH_JWKS_URL: httpUrl.optional(),
  AUTH_ISSUER: z.string().min(1).optional(),
  AUTH_AUDIENCE: z.string().min(1).optional(),
  CLIENT_TOKEN_TTL: durationSeconds.default(3600),
  /** HS256 key of client tokens; default: derived from AUTH_JWT_SECRET. */
  CLIENT_TOKEN_SECRET: hmacSecret.optional(),
  /** off: any document as text; allow (default): any document, or a manifest document by its hash; enforce: manifest documents only. */
  TRUSTED_DOCUMENTS: z.enum(TRUSTED_DOCUMENTS_MODES).optional(),
  /** Comma-separated paths of extra manifests (hash -> document JSON), merged with the built-in one. */
  TRUSTED_DOCUMENTS_MANIFEST: z
    .string()
    .transform((list) => list.split(',').flatMap((path) => (path.trim() ? [path.trim()] : [])))
    .optional(),
  /** Bearer token /metrics asks for; live mode without it: /metrics is off. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** OTLP/HTTP collector base URL (traces go to <url>/v1/traces); unset: no tracing. */
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl.optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default('momo-gateway'),
  /** Webhooks to the merchant's servers (src/outbound-webhooks/): see docs/webhooks.md. */
  WEBHOOK_ENDPOINTS_MAX: positiveInt.max(1_000).default(20),
  WEBHOOK_DELIVERY_TIMEOUT_MS: positiveInt.max(120_000).default(15_000),
  /** Waits before each retry of a failed delivery, comma-separated durations. */
  WEBHOOK_RETRY_SCHEDULE: z.string().transform(durationList('WEBHOOK_RETRY_SCHEDULE')).optional(),
  WEBHOOK_ENDPOINT_DISABLE_AFTER_HOURS: positiveInt.default(120),
  /** Default: true in sandbox mode, false in live mode. */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanFlag.optional(),
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: positiveInt.max(1_000).default(10),
  WEBHOOK_MAX_IN_FLIGHT_PER_MERCHANT: positiveInt.max(10_000).default(20),
  WEBHOOK_MAX_IN_FLIGHT: positiveInt.max(100_000).default(200),
  WEBHOOK_RETRY_SET_MAX: positiveInt.max(1_000_000).default(1_000),
  /** The back office at /console (docs/back-office.md). Default: on in sandbox mode, off in live mode. */
  CONSOLE: booleanFlag.optional(),
  /** The console's OpenID Connect sign-in: the issuer whose keys AUTH_JWKS_URL serves, and the console's client id there. */
  CONSOLE_OIDC_ISSUER: httpUrl.optional(),
  CONSOLE_OIDC_CLIENT_ID: z.string().min(1).optional(),
  /** single (default): one implicit merchant, PAYMENT_API_KEY; platform: merchants are data (docs/platform-mode.md). */
  MERCHANT_MODE: z.enum(['single', 'platform']).default('single'),
  /** Platform mode: the key-encryption key of the merchants' secrets, 32 bytes in base64. */
  MERCHANT_KEYS_KEK: z.string().optional(),
  /** Platform mode: the key-encryption key before a rotation, still accepted for decryption. */
  MERCHANT_KEYS_KEK_PREVIOUS: z.string().optional(),
  /** Platform mode: how long an offboarded merchant's data is kept before it is purged. */
  MERCHANT_OFFBOARD_GRACE: durationSeconds.default(7 * 24 * 3600),
});

/**
 * How to reach the payment service: its base URL, the secret key, the deadline of one call, the charge list's
 * paging.
 */
export interface UpstreamConfig {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  pageParam: string;
  pageSizeParam: string;
  pageSize: number;
}

/**
 * The keys and claims tokens are checked with: the staff HS256 secret or JWKS, issuer, audience, and the
 * client-token key and lifetime.
 */
export interface AuthConfig {
  jwtSecret: string | null;
  jwksUrl: string | null;
  issuer: string | null;
  audience: string | null;
  clientTokenTtlSeconds: number;
  /**
   * CLIENT_TOKEN_SECRET; null when unset: src/auth's withGeneratedSecrets then derives it from `jwtSecret`
   * (or generates one in sandbox mode). The derivation lives there only, so this module imports nothing of auth's keys.
   */
  clientTokenSecret: string | null;
}

/**
 * The whole validated configuration: every setting of the environment, typed, with its default applied
 * (docs/configuration.md lists them).
 */
export interface Config {
  port: number;
  host: string;
  /** 'sandbox': no PAYMENT_BASE_URL; the sandbox runs in-process and its URL and key are filled in at start. */
  mode: 'sandbox' | 'live';
  upstream: Omit<UpstreamConfig, 'baseUrl' | 'apiKey'> & { baseUrl: string | null; apiKey: string | null };
  webhook: { secret: string | null; scheme: SignatureScheme; path: string };
  redisUrl: string | null;
  /** Where Redis is and how the gateway uses it; null: no Redis (one process, in memory). */
  redis: RedisConfig | null;
  /** See IDEMPOTENCY_PENDING_TTL_MS. */
  idempotencyPendingTtlMs: number;
  /** See IDEMPOTENCY_SETTLE_MS. */
  idempotencySettleMs: number;
  sandboxPort: number;
  /** See SHUTDOWN_GRACE_MS. */
  shutdownGraceMs: number;
  /** Sandbox mode's data folder (SANDBOX_DATA_DIR; default .sandbox-data/ in the project). */
  sandboxDataDir: string;
  logLevel: LogLevel;
  healthProbeMs: number;
  subscriptions: { pollInitialMs: number; pollMaxMs: number; maxPerConnection: number; maxFrameBytes: number };
  events: { retentionMs: number; reconcileAfterMs: number; reconcileStuckMs: number };
  auth: AuthConfig;
  trustedDocuments: { mode: TrustedDocumentsMode; extraManifests: string[] };
  limits: LimitsConfig;
  observability: ObservabilityConfig;
  /** TRUST_PROXY and TRUST_PROXY_HEADER (src/http/client-address.ts); null: trust no proxy. */
  trustProxy: TrustProxySetting;
  payoutBatches: PayoutBatchConfig;
  outboundWebhooks: OutboundWebhookConfig;
  console: ConsoleConfig;
  merchants: MerchantsConfig;
}

/**
 * MERCHANT_MODE and the merchants' keys (src/merchants/). The key-encryption keys are raw 32-byte keys; null:
 * none configured (sandbox mode then keeps a generated one in SANDBOX_DATA_DIR).
 */
export interface MerchantsConfig {
  mode: 'single' | 'platform';
  kek: Buffer | null;
  previousKek: Buffer | null;
  /** MERCHANT_OFFBOARD_GRACE, in ms. */
  offboardGraceMs: number;
}

/** The back office at /console (src/console/). */
export interface ConsoleConfig {
  enabled: boolean;
  /** OpenID Connect sign-in (authorization code with PKCE); null: sign-in with a token only. */
  oidc: { issuer: string; clientId: string } | null;
}

/** Webhooks to the merchant's servers (src/outbound-webhooks/). */
export interface OutboundWebhookConfig {
  /** WEBHOOK_ENDPOINTS_MAX. */
  maxEndpoints: number;
  /** WEBHOOK_DELIVERY_TIMEOUT_MS. */
  timeoutMs: number;
  /** WEBHOOK_RETRY_SCHEDULE: the wait before each retry, in ms. */
  retryScheduleMs: number[];
  /** WEBHOOK_ENDPOINT_DISABLE_AFTER_HOURS, in ms. */
  disableAfterMs: number;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS (default: sandbox mode only). */
  allowPrivateTargets: boolean;
  /** WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT. */
  maxInFlightPerEndpoint: number;
  /** WEBHOOK_RETRY_SET_MAX: deliveries one endpoint may have waiting for a retry before it stops taking new events. */
  retrySetMax: number;
  /** Platform mode: WEBHOOK_MAX_IN_FLIGHT_PER_MERCHANT and WEBHOOK_MAX_IN_FLIGHT, attempts at once per replica. */
  fairness: { maxInFlightPerMerchant: number; maxInFlight: number };
}

/** Payout batches (src/payout-batches/). */
export interface PayoutBatchConfig {
  /** PAYOUT_BATCH_MAX_ITEMS. */
  maxItems: number;
  /** PAYOUT_BATCH_APPROVAL=required. */
  approvalRequired: boolean;
  /** PAYOUT_FEE_BPS: the transfer fee rate the totals and the balance check assume. */
  feeBps: number;
  /** PAYOUT_BATCH_CALLS_PER_SECOND. */
  callsPerSecond: number;
  /** PAYOUT_BATCH_PACING_MARGIN_MS. */
  pacingMarginMs: number;
  /** PAYOUT_BATCH_LEASE_MS. */
  leaseMs: number;
  /** PAYOUT_BATCH_SETTLE_MS. */
  settleWindowMs: number;
  /** PAYOUT_BATCH_FOLLOW_POLL_MS. */
  followPollMs: number;
  /** PAYOUT_BATCH_WORKERS: platform mode, chunks one replica works on at once, over every merchant. */
  workers: number;
  /** PAYOUT_BATCH_MERCHANT_WORKERS: platform mode, at most this many of them for one merchant (given in turn). */
  merchantWorkers: number;
}

interface RedisConfig {
  /** REDIS_URL: the node, or (with sentinels or cluster nodes) only its credentials, TLS and database. */
  url: string | null;
  sentinels: Array<{ host: string; port: number }> | null;
  sentinelName: string;
  clusterNodes: Array<{ host: string; port: number }> | null;
  keyPrefix: string;
  minReplicas: number;
  replicaTimeoutMs: number;
}

/** /metrics and tracing (src/observability/). */
export interface ObservabilityConfig {
  /** Null: /metrics is open in sandbox mode and off in live mode. */
  metricsToken: string | null;
  /** OTLP/HTTP collector base URL; null: no tracing. */
  otlpEndpoint: string | null;
  serviceName: string;
}

/** What one caller may cost the gateway and the payment service (src/limits/). */
export interface LimitsConfig {
  maxBodyBytes: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** HTTP_KEEP_ALIVE_TIMEOUT_MS: idle time after a response before the server closes the connection. */
  keepAliveTimeoutMs: number;
  wsMaxConnectionsPerIp: number;
  /** MAX_SUBSCRIPTIONS_PER_SUBJECT and MAX_SUBSCRIPTIONS (src/limits/subscription-caps.ts). */
  maxSubscriptionsPerSubject: number;
  maxSubscriptions: number;
  armor: { maxDepth: number; maxAliases: number; maxTokens: number; maxDirectives: number; maxCost: number; fieldSuggestions: boolean };
  maxUpstreamCallsPerOperation: number;
  /** Per client address (client tokens, anonymous callers). */
  rateLimitPerMinute: number;
  rateLimitMoneyPerMinute: number;
  /** Per staff or server token subject. */
  rateLimitStaffPerMinute: number;
  rateLimitStaffMoneyPerMinute: number;
  /** Platform mode: per merchant, every caller of it together. */
  rateLimitMerchantPerMinute: number;
  /** Exact origins, or `scheme://host:*` patterns. */
  corsOrigins: string[];
  graphiql: boolean;
  introspection: boolean;
}

/** A frontend in development (any port of localhost) works against the sandbox with no configuration. */
export const SANDBOX_CORS_ORIGINS = ['http://localhost:*', 'http://127.0.0.1:*'];

/** Names of the variables whose values must never be shown. */
const SECRET_VARIABLES = new Set([
  'PAYMENT_API_KEY',
  'WEBHOOK_SECRET',
  'REDIS_URL',
  'AUTH_JWT_SECRET',
  'CLIENT_TOKEN_SECRET',
  'METRICS_TOKEN',
  'MERCHANT_KEYS_KEK',
  'MERCHANT_KEYS_KEK_PREVIOUS',
]);

/** The environment as envSchema reads it. */
type Env = z.infer<typeof envSchema>;

/**
 * Validates `env` (process.env by default) once and returns the configuration. Throws ConfigError naming the first
 * bad variable; never logs a secret.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const e = parseEnv(envSchema, env);
  checkPaymentService(e);
  const redis = redisConfig(e);
  const live = e.PAYMENT_BASE_URL !== undefined;
  const trustProxy = parseTrustProxy(e.TRUST_PROXY, e.TRUST_PROXY_HEADER);
  return {
    trustProxy,
    port: e.PORT,
    host: e.HOST,
    mode: live ? 'live' : 'sandbox',
    upstream: upstreamConfig(e),
    webhook: { secret: e.WEBHOOK_SECRET ?? null, scheme: e.WEBHOOK_SIGNATURE_SCHEME, path: e.WEBHOOK_PATH },
    redisUrl: e.REDIS_URL ?? null,
    redis,
    idempotencyPendingTtlMs: e.IDEMPOTENCY_PENDING_TTL_MS,
    idempotencySettleMs: e.IDEMPOTENCY_SETTLE_MS,
    sandboxPort: e.SANDBOX_PORT,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    sandboxDataDir: path.resolve(e.SANDBOX_DATA_DIR ?? projectPath('.sandbox-data')),
    logLevel: e.LOG_LEVEL,
    healthProbeMs: e.HEALTH_PROBE_MS,
    events: {
      retentionMs: e.EVENT_RETENTION_HOURS * 3_600_000,
      reconcileAfterMs: e.RECONCILE_AFTER_MS,
      reconcileStuckMs: e.RECONCILE_STUCK_HOURS * 3_600_000,
    },
    subscriptions: {
      pollInitialMs: e.SUBSCRIPTION_POLL_MS,
      pollMaxMs: e.SUBSCRIPTION_POLL_MAX_MS,
      maxPerConnection: e.WS_MAX_SUBSCRIPTIONS,
      maxFrameBytes: e.WS_MAX_FRAME_BYTES,
    },
    trustedDocuments: {
      // allow in both modes: GraphiQL and ad-hoc documents run as text, and the client kit's hashes
      // (what the urql and Apollo set-ups of docs/frontends.md send) run too. Production frontends should set enforce.
      mode: e.TRUSTED_DOCUMENTS ?? 'allow',
      extraManifests: e.TRUSTED_DOCUMENTS_MANIFEST ?? [],
    },
    auth: authConfig(e),
    payoutBatches: payoutBatchesConfig(e),
    outboundWebhooks: outboundWebhookSettings(e, live),
    observability: {
      metricsToken: e.METRICS_TOKEN ?? null,
      otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT ?? null,
      serviceName: e.OTEL_SERVICE_NAME,
    },
    limits: limitsConfig(e, live),
    console: consoleConfig(e, live),
    merchants: merchantsConfig(e, live, redis !== null),
  };
}

/** Bytes of a key-encryption key: AES-256. */
const KEK_BYTES = 32;

function keyEncryptionKey(name: 'MERCHANT_KEYS_KEK' | 'MERCHANT_KEYS_KEK_PREVIOUS', value: string | undefined): Buffer | null {
  if (value === undefined) return null;
  const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(value.trim()) ? Buffer.from(value.trim(), 'base64') : Buffer.alloc(0);
  // The value itself is never shown: it is a key.
  if (bytes.length !== KEK_BYTES)
    throw new ConfigError(`${name} is invalid: must be ${KEK_BYTES} bytes in base64 (openssl rand -base64 32)`);
  return bytes;
}

/** Platform mode keeps merchants durably and their secrets encrypted: live mode refuses to start without either. */
function merchantsConfig(e: Env, live: boolean, hasRedis: boolean): MerchantsConfig {
  const kek = keyEncryptionKey('MERCHANT_KEYS_KEK', e.MERCHANT_KEYS_KEK);
  const previousKek = keyEncryptionKey('MERCHANT_KEYS_KEK_PREVIOUS', e.MERCHANT_KEYS_KEK_PREVIOUS);
  if (previousKek && !kek) throw new ConfigError('MERCHANT_KEYS_KEK_PREVIOUS needs MERCHANT_KEYS_KEK (the key it is being rotated to)');
  if (e.MERCHANT_MODE === 'platform' && live) {
    if (!hasRedis) throw new ConfigError('MERCHANT_MODE=platform in live mode needs Redis (REDIS_URL): merchants must be kept durably');
    if (!kek) throw new ConfigError('MERCHANT_MODE=platform in live mode needs MERCHANT_KEYS_KEK (32 bytes in base64)');
  }
  return { mode: e.MERCHANT_MODE, kek, previousKek, offboardGraceMs: e.MERCHANT_OFFBOARD_GRACE * 1000 };
}

function consoleConfig(e: Env, live: boolean): ConsoleConfig {
  if (Boolean(e.CONSOLE_OIDC_ISSUER) !== Boolean(e.CONSOLE_OIDC_CLIENT_ID)) {
    throw new ConfigError('CONSOLE_OIDC_ISSUER and CONSOLE_OIDC_CLIENT_ID go together: set both or neither');
  }
  return {
    enabled: e.CONSOLE ?? !live,
    oidc: e.CONSOLE_OIDC_ISSUER && e.CONSOLE_OIDC_CLIENT_ID ? { issuer: e.CONSOLE_OIDC_ISSUER, clientId: e.CONSOLE_OIDC_CLIENT_ID } : null,
  };
}

/** The payment service's settings go together: both or neither, a secret key, and a way to verify tokens. */
function checkPaymentService(e: Env): void {
  if (e.PAYMENT_BASE_URL && !e.PAYMENT_API_KEY) {
    throw new ConfigError('PAYMENT_API_KEY is required when PAYMENT_BASE_URL is set');
  }
  if (!e.PAYMENT_BASE_URL && e.PAYMENT_API_KEY) {
    throw new ConfigError('PAYMENT_BASE_URL is required when PAYMENT_API_KEY is set (leave both unset to use the sandbox)');
  }
  if (e.PAYMENT_API_KEY && !/^sk_(test|live)_\S+$/.test(e.PAYMENT_API_KEY)) {
    throw new ConfigError('PAYMENT_API_KEY is invalid: expected a secret key starting with sk_test_ or sk_live_');
  }
  if (e.PAYMENT_BASE_URL && !e.AUTH_JWT_SECRET && !e.AUTH_JWKS_URL) {
    throw new ConfigError('AUTH_JWT_SECRET or AUTH_JWKS_URL is required when PAYMENT_BASE_URL is set (staff tokens must be verifiable)');
  }
  if (e.PAYMENT_BASE_URL && !e.AUTH_JWT_SECRET && !e.CLIENT_TOKEN_SECRET) {
    throw new ConfigError('CLIENT_TOKEN_SECRET is required when PAYMENT_BASE_URL is set and AUTH_JWKS_URL is the only auth key');
  }
  // A claim that expired while its call was still running would let a retry send the payment again.
  if (e.IDEMPOTENCY_PENDING_TTL_MS <= e.PAYMENT_TIMEOUT_MS) {
    throw new ConfigError('IDEMPOTENCY_PENDING_TTL_MS must be longer than PAYMENT_TIMEOUT_MS');
  }
}

function upstreamConfig(e: Env): Config['upstream'] {
  return {
    baseUrl: e.PAYMENT_BASE_URL ?? null,
    apiKey: e.PAYMENT_API_KEY ?? null,
    timeoutMs: e.PAYMENT_TIMEOUT_MS,
    pageParam: e.PAYMENT_PAGE_PARAM,
    pageSizeParam: e.PAYMENT_PAGE_SIZE_PARAM,
    pageSize: e.PAYMENT_PAGE_SIZE,
  };
}

/** Redis when any of its three topologies is named (a URL, Sentinels or Cluster nodes), else null. */
function redisConfig(e: Env): RedisConfig | null {
  if (e.REDIS_SENTINELS && e.REDIS_CLUSTER_NODES) {
    throw new ConfigError('REDIS_SENTINELS and REDIS_CLUSTER_NODES are exclusive: Redis is either Sentinel-managed or a Cluster');
  }
  if (!e.REDIS_URL && !e.REDIS_SENTINELS && !e.REDIS_CLUSTER_NODES) return null;
  return {
    url: e.REDIS_URL ?? null,
    sentinels: e.REDIS_SENTINELS ?? null,
    sentinelName: e.REDIS_SENTINEL_NAME,
    clusterNodes: e.REDIS_CLUSTER_NODES ?? null,
    keyPrefix: e.REDIS_KEY_PREFIX,
    minReplicas: e.REDIS_MIN_REPLICAS,
    replicaTimeoutMs: e.REDIS_REPLICA_TIMEOUT_MS,
  };
}

function authConfig(e: Env): Config['auth'] {
  return {
    jwtSecret: e.AUTH_JWT_SECRET ?? null,
    jwksUrl: e.AUTH_JWKS_URL ?? null,
    issuer: e.AUTH_ISSUER ?? null,
    audience: e.AUTH_AUDIENCE ?? null,
    clientTokenTtlSeconds: e.CLIENT_TOKEN_TTL,
    clientTokenSecret: e.CLIENT_TOKEN_SECRET ?? null,
  };
}

function payoutBatchesConfig(e: Env): Config['payoutBatches'] {
  return {
    maxItems: e.PAYOUT_BATCH_MAX_ITEMS,
    approvalRequired: e.PAYOUT_BATCH_APPROVAL === 'required',
    feeBps: e.PAYOUT_FEE_BPS,
    callsPerSecond: e.PAYOUT_BATCH_CALLS_PER_SECOND,
    pacingMarginMs: e.PAYOUT_BATCH_PACING_MARGIN_MS,
    leaseMs: e.PAYOUT_BATCH_LEASE_MS,
    settleWindowMs: e.PAYOUT_BATCH_SETTLE_MS,
    followPollMs: e.PAYOUT_BATCH_FOLLOW_POLL_MS,
    workers: e.PAYOUT_BATCH_WORKERS,
    merchantWorkers: e.PAYOUT_BATCH_MERCHANT_WORKERS,
  };
}

/** Request, document, rate and subscription limits; live mode closes what the sandbox leaves open. */
function limitsConfig(e: Env, live: boolean): Config['limits'] {
  return {
    maxBodyBytes: e.MAX_BODY_BYTES,
    headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    wsMaxConnectionsPerIp: e.WS_MAX_CONNECTIONS_PER_IP,
    maxSubscriptionsPerSubject: e.MAX_SUBSCRIPTIONS_PER_SUBJECT,
    maxSubscriptions: e.MAX_SUBSCRIPTIONS,
    armor: {
      maxDepth: e.MAX_DEPTH,
      maxAliases: e.MAX_ALIASES,
      maxTokens: e.MAX_TOKENS,
      maxDirectives: e.MAX_DIRECTIVES,
      maxCost: e.MAX_COST,
      // "Did you mean ...?" would map the schema for someone who may not introspect it.
      fieldSuggestions: !live || e.INTROSPECTION === true,
    },
    maxUpstreamCallsPerOperation: e.MAX_UPSTREAM_CALLS_PER_OPERATION,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    rateLimitMoneyPerMinute: e.RATE_LIMIT_MONEY_PER_MINUTE,
    rateLimitStaffPerMinute: e.RATE_LIMIT_STAFF_PER_MINUTE,
    rateLimitStaffMoneyPerMinute: e.RATE_LIMIT_STAFF_MONEY_PER_MINUTE,
    rateLimitMerchantPerMinute: e.RATE_LIMIT_MERCHANT_PER_MINUTE,
    corsOrigins: e.CORS_ORIGINS !== undefined ? parseOrigins(e.CORS_ORIGINS) : live ? [] : SANDBOX_CORS_ORIGINS,
    graphiql: e.GRAPHIQL ?? !live,
    introspection: e.INTROSPECTION ?? !live,
  };
}

function outboundWebhookSettings(e: Env, live: boolean): OutboundWebhookConfig {
  return {
    maxEndpoints: e.WEBHOOK_ENDPOINTS_MAX,
    timeoutMs: e.WEBHOOK_DELIVERY_TIMEOUT_MS,
    retryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE ?? DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS,
    disableAfterMs: e.WEBHOOK_ENDPOINT_DISABLE_AFTER_HOURS * 3_600_000,
    allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? !live,
    maxInFlightPerEndpoint: e.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
    retrySetMax: e.WEBHOOK_RETRY_SET_MAX,
    fairness: { maxInFlightPerMerchant: e.WEBHOOK_MAX_IN_FLIGHT_PER_MERCHANT, maxInFlight: e.WEBHOOK_MAX_IN_FLIGHT },
  };
}

function parseTrustProxy(value: string | undefined, header: 'x-forwarded-for' | 'forwarded'): TrustProxySetting {
  if (value === undefined || value === 'false' || value === '0') return null;
  if (/^\d+$/.test(value)) return { hops: Number(value), header };
  if (value === 'true' || value === '*') {
    // Trusting every hop lets any client write the address it is counted under.
    throw new ConfigError(
      `TRUST_PROXY is invalid: give the number of proxies in front of the gateway or their addresses (got ${JSON.stringify(value)})`,
    );
  }
  const addresses = value
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  const setting = { addresses, header };
  try {
    compileTrust(setting);
  } catch {
    throw new ConfigError(
      `TRUST_PROXY is invalid: expected a hop count or addresses/CIDRs such as 10.0.0.0/8,loopback (got ${JSON.stringify(value)})`,
    );
  }
  return setting;
}

/** `host:port,host:port` (IPv6 hosts in brackets: `[::1]:26379`). */
function hostPortList(name: string) {
  return (list: string, ctx: z.RefinementCtx) => {
    const addresses: Array<{ host: string; port: number }> = [];
    for (const item of list
      .split(',')
      .map((a) => a.trim())
      .filter((a) => a !== '')) {
      const match = /^(?:\[([^\]]+)\]|([^:\s]+)):(\d{1,5})$/.exec(item);
      const port = Number(match?.[3]);
      if (!match || port < 1 || port > 65535) {
        ctx.addIssue({ code: 'custom', message: `${JSON.stringify(item)} is not host:port (${name} is a comma-separated list)` });
        return z.NEVER;
      }
      addresses.push({ host: match[1] ?? match[2]!, port });
    }
    if (addresses.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'must list at least one host:port' });
      return z.NEVER;
    }
    return addresses;
  };
}

const ORIGIN = /^https?:\/\/[^/\s:]+(:(\d+|\*))?$/;

function parseOrigins(list: string): string[] {
  const origins = list
    .split(',')
    .map((o) => o.trim().replace(/\/$/, ''))
    .filter((o) => o !== '');
  const bad = origins.find((o) => !ORIGIN.test(o));
  if (bad) {
    throw new ConfigError(
      `CORS_ORIGINS is invalid: ${JSON.stringify(bad)} is not an origin such as https://shop.example or http://localhost:*`,
    );
  }
  return origins;
}

const sandboxEnvSchema = z.object({
  SANDBOX_PORT: port.default(4010),
  HOST: z.string().min(1).default('127.0.0.1'),
  SANDBOX_WEBHOOK_URL: httpUrl.optional(),
  WEBHOOK_SECRET: z.string().min(1).optional(),
  WEBHOOK_SIGNATURE_SCHEME: z.enum(['hmac-sha256-hex', 'sha256-base64']).default('hmac-sha256-hex'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
});

interface SandboxConfig {
  port: number;
  host: string;
  webhook: { url: string; secret: string; scheme: 'hmac-sha256-hex' | 'sha256-base64' } | null;
  logLevel: LogLevel;
}

/** Configuration of `npm run sandbox` (the sandbox alone). */
export function loadSandboxConfig(env: Record<string, string | undefined> = process.env): SandboxConfig {
  const e = parseEnv(sandboxEnvSchema, env);
  if (e.SANDBOX_WEBHOOK_URL && !e.WEBHOOK_SECRET) {
    throw new ConfigError('WEBHOOK_SECRET is required when SANDBOX_WEBHOOK_URL is set');
  }
  return {
    port: e.SANDBOX_PORT,
    host: e.HOST,
    webhook: e.SANDBOX_WEBHOOK_URL ? { url: e.SANDBOX_WEBHOOK_URL, secret: e.WEBHOOK_SECRET!, scheme: e.WEBHOOK_SIGNATURE_SCHEME } : null,
    logLevel: e.LOG_LEVEL,
  };
}

function parseEnv<S extends z.ZodObject>(schema: S, env: Record<string, string | undefined>): z.infer<S> {
  // Blank values count as unset: `PORT= npm start` means the default.
  const cleaned = Object.fromEntries(Object.keys(schema.shape).map((name) => [name, blankToUndefined(env[name])]));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    const shown = SECRET_VARIABLES.has(name) ? '' : ` (got ${JSON.stringify(cleaned[name])})`;
    throw new ConfigError(`${name} is invalid: ${issue.message}${shown}`);
  }
  return parsed.data;
}

function blankToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
