// Assembles a running gateway from a validated Config: the payment-service
// client, the event bus, the idempotency store, the webhook receiver and the
// HTTP/WebSocket server. Used by `npm start` and by the tests, so they exercise
// the same wiring. It knows nothing of the sandbox: in sandbox mode the entry
// point starts one and hands its URL, key and webhook secret in through options.
import { type MintedToken, type TokenVerifier } from './auth/index.js';
import { CONSOLE_PATH, type ConsolePersona } from './console/serve.js';
import { type Config } from './config.js';
import { createEventBus, type EventBus } from './events/bus.js';
import { fileLogPersistence } from './events/log-file.js';
import {
  accountPrefix,
  fileExtIdPersistence,
  memoryExtIdIndex,
  recordEventExtId,
  recordingExtIds,
  redisExtIdIndex,
  type ExtIdIndex,
} from './ext-id-index/index.js';
import { realClock } from './reconcile/clock.js';
import { startReconciler, type Reconciler } from './reconcile/reconciler.js';
import { memoryReconcileStore, redisReconcileStore } from './reconcile/store.js';
import { createHealthProbe } from './health/health.js';
import { startReadinessProbe, type ReadinessProbe } from './health/readiness.js';
import { createLiveUpdates, type LiveUpdates } from './live/index.js';
import { createPayoutBatches, type PayoutBatches } from './payout-batches/index.js';
import { createRateLimits } from './limits/index.js';
import { startReplicaPresence } from './redis/replica-presence.js';
import { memoryIdempotencyStore, redisIdempotencyStore, type IdempotencyStore } from './idempotency/store.js';
import { observedIdempotencyStore } from './idempotency/observed.js';
import { createObservability, runUntraced, type Observability } from './observability/index.js';
import {
  checkRedisForLiveMode,
  connectRedis,
  merchantExpiringIndex,
  merchantKeyIndex,
  merchantEpochKey,
  merchantTag,
  redisEpoch,
  redisWriteHealth,
  type GatewayRedis,
} from './redis/index.js';
import type { Logger } from './logger.js';
import { createGatewayServer, GRAPHQL_PATH, type GatewayServer } from './http/server.js';
import type { GatewayServerOptions } from './http/options.js';
import { createUpstreamClient } from './upstream/client.js';
import type { UpstreamClient } from './upstream/types.js';
import { acceptIntoLog, createWebhookHandler } from './inbound-webhooks/receiver.js';
import { createOutboundWebhooks, type OutboundWebhooks } from './outbound-webhooks/index.js';
import { fileOutboundPersistence } from './outbound-webhooks/state-file.js';
import { loadTrustedDocuments } from './execution/trusted-documents.js';
import { clientAddressing } from './http/client-address.js';
import { readFileSync } from 'node:fs';
import { type MerchantRegistry, type MerchantView } from './merchants/index.js';
import type { PlatformServices } from './schema/context.js';
import { projectPath } from './files/project-files.js';
import {
  shutdownSequence,
  paymentService,
  type PaymentService,
  type RedisParts,
  type Startup,
  type StartGatewayOptions,
} from './assembly/startup.js';
import { buildMerchantWebhookRoutes, buildPlatform, merchantBatchAccess, merchantWatches } from './assembly/platform.js';
import { consoleOptions, prepareAuth } from './assembly/identities.js';

export type { StartGatewayOptions } from './assembly/startup.js';

export interface RunningGateway {
  url: string;
  graphqlUrl: string;
  /** The back office (src/console/), or null when it is off (CONSOLE). */
  consoleUrl: string | null;
  webhookUrl: string | null;
  upstream: UpstreamClient;
  bus: EventBus;
  live: LiveUpdates;
  /** Watches resources created through the gateway until final (live reconciliation). */
  reconciler: Reconciler;
  server: GatewayServer;
  /** What GET /health/ready reports. */
  readiness: ReadinessProbe;
  /** Sandbox mode: a token with every scope, valid 12 hours, for GraphiQL and scripts. */
  developmentToken: MintedToken | null;
  /** Webhooks to the merchant's servers. */
  outboundWebhooks: OutboundWebhooks;
  /** Platform mode (MERCHANT_MODE=platform): the merchants' registry; null in single mode. */
  merchants: MerchantRegistry | null;
  /** Platform mode in sandbox mode: the demo merchants (`demoMerchants`); empty otherwise. */
  demoMerchants: MerchantView[];
  /** Stops everything; graceMs (SHUTDOWN_GRACE_MS in `npm start`, default 0): readiness 503 while still serving, first. */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** The `url` of a gateway started with `listen: false`: no socket answers it. */
export const IN_PROCESS_URL = 'http://in-process.invalid';

/** The gateway's version (package.json), for the build-info metric. */
function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

const SHUTDOWN_MARGIN_MS = 5_000;

/** Redis when configured, refused in live mode when it could lose keys; null without Redis. */
async function connectCheckedRedis({ config, log, options, shutdown }: Startup): Promise<RedisParts | null> {
  if (!config.redis) return null;
  // First opened, last closed: results of requests still finishing are saved before it goes.
  const redis = await connectRedis({
    url: config.redis.url ?? undefined,
    sentinels: config.redis.sentinels ?? undefined,
    sentinelName: config.redis.sentinelName,
    clusterNodes: config.redis.clusterNodes ?? undefined,
    namespace: options.redisNamespace ?? config.redis.keyPrefix,
    minReplicas: config.redis.minReplicas,
    replicaTimeoutMs: config.redis.replicaTimeoutMs,
    log,
  });
  shutdown.add(() => redis.close());
  // A Redis that evicts keys could drop an idempotency key and let a payment be made twice.
  if (config.mode === 'live') await checkRedisForLiveMode(redis.commands, log);
  const epoch = redisEpoch(redis);
  const presence = await startReplicaPresence(redis, (error) => log.warn('replica presence not renewed', { error }));
  shutdown.add(() => presence.close());
  return { redis, epoch, writes: redisWriteHealth({ redis, epoch, log }), presence };
}

async function startObservability({ config, log, shutdown }: Startup): Promise<Observability> {
  // Closed last: spans of the last operations are exported after the server has stopped.
  const observability = await createObservability(config.observability, config.mode, log, {
    version: packageVersion(),
    nodeVersion: process.version,
  });
  shutdown.add(() => observability.close());
  return observability;
}

/** The client of the payment service, and the same client as the probes call it. */
function connectUpstream({ config, shutdown }: Startup, service: PaymentService, observability: Observability) {
  const upstream = createUpstreamClient(
    { ...config.upstream, ...service },
    { observe: observability.observeUpstreamCall, traceHeaders: observability.upstreamTraceHeaders },
  );
  // The probes' calls are counted in the metrics but not traced: a root trace every few seconds is noise.
  const probedUpstream = { ...upstream, fetchBalance: () => runUntraced(() => upstream.fetchBalance()) };
  shutdown.add(() => upstream.close());
  return { upstream, probedUpstream };
}

/** The event bus: its log in Redis, else in memory (kept in a file across restarts when asked). */
async function openEventBus({ config, log, options, shutdown }: Startup, redis: GatewayRedis | null): Promise<EventBus> {
  const logFile = !redis && options.eventLogFile ? fileLogPersistence(options.eventLogFile) : null;
  const bus = await createEventBus({ redis, log, retentionMs: config.events.retentionMs, memoryLogPersistence: logFile ?? undefined });
  if (logFile) shutdown.add(async () => logFile.flush());
  shutdown.add(() => bus.close());
  return bus;
}

/**
 * The ext_id index of the charges the gateway sees (src/ext-id-index/), of this API key only: in Redis, else in
 * memory (kept in a file when asked). Entries are kept as long as events are.
 */
function buildExtIdIndex({ config, options, shutdown }: Startup, service: PaymentService, redis: GatewayRedis | null): ExtIdIndex {
  const settings = { account: accountPrefix(service.apiKey), retentionMs: config.events.retentionMs };
  // Platform mode: each merchant's entries under its hash tag, listed for the purge.
  const merchants =
    config.merchants.mode === 'platform' && redis
      ? (merchantId: string) => ({
          prefix: redis.tagged(merchantTag(merchantId), 'extids'),
          index: merchantExpiringIndex(redis, merchantId),
        })
      : undefined;
  if (redis) return redisExtIdIndex(redis, { ...settings, merchants });
  const file = options.extIdIndexFile ? fileExtIdPersistence(options.extIdIndexFile) : null;
  if (file) shutdown.add(async () => file.flush());
  return memoryExtIdIndex({ ...settings, persistence: file ?? undefined });
}

function buildIdempotencyStore(
  { config, options }: Startup,
  redisParts: RedisParts | null,
  observability: Observability,
): IdempotencyStore {
  const clock = options.idempotencyClock;
  const now = clock ? () => clock.now() : Date.now;
  return observedIdempotencyStore(
    redisParts
      ? redisIdempotencyStore(redisParts.redis, {
          pendingTtlMs: config.idempotencyPendingTtlMs,
          epoch: redisParts.epoch,
          unsafe: () => redisParts.writes.problem,
          presence: redisParts.presence,
          callMs: config.upstream.timeoutMs,
          now,
          // Platform mode: each merchant's keys under its hash tag and in its key index (the purge removes them).
          merchantKeys:
            config.merchants.mode === 'platform'
              ? (merchantId) => ({
                  key: (name) => redisParts.redis.tagged(merchantTag(merchantId), 'idem', name),
                  index: merchantExpiringIndex(redisParts.redis, merchantId),
                  epoch: merchantEpochKey(redisParts.redis, merchantId),
                  owned: merchantKeyIndex(redisParts.redis, merchantId),
                })
              : undefined,
        })
      : memoryIdempotencyStore({ pendingTtlMs: config.idempotencyPendingTtlMs, now }),
    observability.observeIdempotency,
  );
}

/** Subscriptions' live updates, and the reconciler that makes up for a webhook that never comes. */
function buildLiveLayer(
  { config, log, options, shutdown }: Startup,
  redis: GatewayRedis | null,
  bus: EventBus,
  parts: { upstream: UpstreamClient; platform: PlatformServices | null },
) {
  const { upstream, platform } = parts;
  const live = createLiveUpdates({
    bus,
    upstream,
    log,
    polling: { initialMs: config.subscriptions.pollInitialMs, maxMs: config.subscriptions.pollMaxMs },
    ...(options.clock ? { pollTimers: options.clock } : {}),
  });
  shutdown.add(async () => live.close());

  // Resources created through the gateway are watched until final, so a webhook that never comes is made up for.
  const itemTtlMs = config.events.reconcileStuckMs + 24 * 3_600_000;
  const reconciler = startReconciler({
    store: redis ? redisReconcileStore(redis, { itemTtlMs }) : memoryReconcileStore(),
    merchants: platform ? merchantWatches(platform, redis, itemTtlMs) : undefined,
    bus,
    upstream,
    clock: options.clock ?? realClock(),
    log,
    afterMs: config.events.reconcileAfterMs,
    stuckMs: config.events.reconcileStuckMs,
  });
  shutdown.add(() => reconciler.stop());
  return { live, reconciler };
}

/** Webhooks to the merchant's servers: in Redis, else in memory (kept in a file when asked); stopped before the bus closes. */
function buildOutboundWebhooks(
  { config, log, options, shutdown }: Startup,
  redis: GatewayRedis | null,
  bus: EventBus,
  observability: Observability,
  platform: PlatformServices | null,
): OutboundWebhooks {
  const file =
    !redis && config.mode === 'sandbox' && options.outboundWebhooksFile ? fileOutboundPersistence(options.outboundWebhooksFile) : null;
  const outbound = createOutboundWebhooks({
    settings: config.outboundWebhooks,
    mode: config.mode,
    redis,
    bus,
    log,
    registry: observability.metrics.registry,
    persistence: file ?? undefined,
    retentionMs: config.events.retentionMs,
    // Platform mode: each merchant's endpoints under its tag and in its key index, their secrets sealed.
    platform: platform && {
      keys: platform.registry.keys,
      tag: merchantTag,
      ownKeys: async (merchantId, keys) => {
        for (const key of keys) await platform.registry.store.ownKey(merchantId, key);
      },
    },
    ...options.outboundWebhooks,
  });
  if (!redis && config.mode === 'live')
    log.warn('webhook endpoints are off: live mode without Redis cannot keep them durably (set REDIS_URL)');
  if (file) shutdown.add(async () => file.flush());
  shutdown.add(() => outbound.close());
  return outbound;
}

/** Runs the batches set to run (any replica may take one over); stopped before the bus and Redis close. */
function buildPayoutBatchRunner(
  { config, log, shutdown }: Startup,
  service: PaymentService,
  parts: {
    redis: GatewayRedis | null;
    idempotency: IdempotencyStore;
    bus: EventBus;
    observability: Observability;
    platform: PlatformServices | null;
  },
): PayoutBatches {
  const { redis, idempotency, bus, observability, platform } = parts;
  // A connection pool of its own: batch calls never queue behind the fetches every webhook triggers (a batch of
  // 10,000 brings 10,000 webhooks).
  const batchUpstream = createUpstreamClient({ ...config.upstream, ...service }, { observe: observability.observeUpstreamCall });
  shutdown.add(() => batchUpstream.close());
  const payoutBatches = createPayoutBatches({
    settings: config.payoutBatches,
    redis,
    upstream: batchUpstream,
    idempotency,
    bus,
    log,
    merchants: platform ? merchantBatchAccess(platform, redis) : undefined,
  });
  shutdown.add(() => payoutBatches.close());
  return payoutBatches;
}

/** The webhook route, or null (with a warning) when there is no secret to check its signatures. */
function buildWebhookRoute(
  { config, log, options }: Startup,
  bus: EventBus,
  parts: { live: LiveUpdates; extIds: ExtIdIndex; observability: Observability },
): GatewayServerOptions['webhook'] {
  const { live, extIds, observability } = parts;
  const webhookSecret = config.webhook.secret ?? options.webhookSecret ?? null;
  if (!webhookSecret) {
    log.warn('WEBHOOK_SECRET is not set: the webhook receiver is disabled and subscriptions rely on polling');
    return null;
  }
  return {
    path: config.webhook.path,
    handle: createWebhookHandler({
      secret: webhookSecret,
      scheme: config.webhook.scheme,
      // In the log before the 200 (de-duplicated in the same atomic step): every replica delivers it from there.
      // The replica that accepts an event indexes the charge it carries (a charge made without the gateway is then found by ext_id).
      accept: acceptIntoLog(bus, (event) => {
        live.onWebhook(event);
        void recordEventExtId(extIds, event, log);
      }),
      log,
      observe: observability.observeWebhook,
    }),
  };
}

/** What GET /health/ready reports: the payment service answers and Redis takes writes, checked every interval. */
function startReadiness({ config, log, shutdown }: Startup, probedUpstream: UpstreamClient, redisParts: RedisParts | null): ReadinessProbe {
  const readiness = startReadinessProbe({
    upstream: probedUpstream,
    redis: redisParts?.writes ?? null,
    intervalMs: config.healthProbeMs,
    log,
  });
  shutdown.add(async () => readiness.stop());
  return readiness;
}

/** Everything the HTTP server stands on, built by the steps before it. */
interface ServerParts {
  redis: GatewayRedis | null;
  upstream: UpstreamClient;
  probedUpstream: UpstreamClient;
  idempotency: IdempotencyStore;
  extIds: ExtIdIndex;
  live: LiveUpdates;
  reconciler: Reconciler;
  payoutBatches: PayoutBatches;
  outboundWebhooks: OutboundWebhooks;
  webhook: GatewayServerOptions['webhook'];
  tokens: TokenVerifier;
  developmentToken: MintedToken | null;
  personas: ConsolePersona[];
  readiness: ReadinessProbe;
  observability: Observability;
  platform: PlatformServices | null;
}

/** The HTTP/WebSocket server, not yet listening. */
function buildServer({ config, log, options }: Startup, parts: ServerParts): GatewayServer {
  const { redis, reconciler, developmentToken, observability } = parts;
  return createGatewayServer({
    services: {
      upstream: parts.upstream,
      idempotency: parts.idempotency,
      extIds: parts.extIds,
      idempotencySettleMs: config.idempotencySettleMs,
      live: parts.live,
      log,
      tokens: parts.tokens,
      pageSize: config.upstream.pageSize,
      // Platform mode: watched for the request's merchant, with its own key.
      resourceCreated: (kind, reference, merchantId) => reconciler.watch(kind, reference, merchantId),
      platform: parts.platform,
      payoutBatches: parts.payoutBatches,
      outboundWebhooks: parts.outboundWebhooks,
      limitServices: options.withoutLimits
        ? undefined
        : {
            maxUpstreamCallsPerOperation: config.limits.maxUpstreamCallsPerOperation,
            rateLimits: createRateLimits(config.limits, redis, log, (kind) => observability.observeRateLimitRefusal(kind)),
          },
    },
    limits: config.limits,
    limitsOff: options.withoutLimits ?? false,
    graphiqlToken: developmentToken?.token ?? null,
    console: consoleOptions(config, options, parts.personas),
    // Read and checked now: a missing or inconsistent manifest stops the start.
    trustedDocuments: loadTrustedDocuments(config.trustedDocuments),
    maxSubscriptionsPerConnection: config.subscriptions.maxPerConnection,
    maxFrameBytes: config.subscriptions.maxFrameBytes,
    // A payment call in flight ends within its own deadline; the margin covers recording its result.
    drainTimeoutMs: config.upstream.timeoutMs + SHUTDOWN_MARGIN_MS,
    webhook: parts.webhook,
    clientAddressing: clientAddressing(config.trustProxy),
    health: createHealthProbe(parts.probedUpstream, config.mode, undefined, redis?.commands ?? null),
    readiness: parts.readiness,
    observability,
  });
}

/** Listens, then reports readiness and the event log's lag in the metrics; returns the server's URL. */
async function listen(
  { config, log, options, shutdown }: Startup,
  service: PaymentService,
  parts: { server: GatewayServer; readiness: ReadinessProbe; bus: EventBus; observability: Observability },
): Promise<string> {
  const { server, readiness, bus, observability } = parts;
  const url = options.listen === false ? IN_PROCESS_URL : await server.listen(config.port, config.host);
  shutdown.add(() => server.close({ graceMs: shutdown.graceMs }));
  observability.metrics.watch({ ready: () => readiness.current().ready && !server.leaving, eventLogLag: () => bus.lag() });
  // A service unreachable at start is one warning line (readiness stays 503 until it answers).
  void readiness.firstCheck.then(() => {
    const report = readiness.current();
    if (report.upstream !== 'ok') {
      log.warn('payment service not reachable at start', { upstream: report.upstream, service: new URL(service.baseUrl).origin });
    }
  });
  return url;
}

/** Starts the gateway step by step; a step that fails closes what the steps before it opened. */
export async function startGateway(config: Config, log: Logger, options: StartGatewayOptions = {}): Promise<RunningGateway> {
  const shutdown = shutdownSequence(log);
  const startup: Startup = { config, log, options, shutdown };
  try {
    const service = paymentService(config, options);
    const redisParts = await connectCheckedRedis(startup);
    const redis = redisParts?.redis ?? null;
    const observability = await startObservability(startup);
    const connected = connectUpstream(startup, service, observability);
    const { probedUpstream } = connected;
    const extIds = buildExtIdIndex(startup, service, redis);
    // Every charge read or created through this client (the schema's, the subscriptions', the reconciler's) is indexed by its ext_id.
    const upstream = recordingExtIds(connected.upstream, extIds, log);
    const bus = await openEventBus(startup, redis);
    const idempotency = buildIdempotencyStore(startup, redisParts, observability);
    const platform = buildPlatform(startup, { redis, service, bus, observability, extIds });
    const { live, reconciler } = buildLiveLayer(startup, redis, bus, { upstream, platform });
    const payoutBatches = buildPayoutBatchRunner(startup, service, { redis, idempotency, bus, observability, platform });
    const outboundWebhooks = buildOutboundWebhooks(startup, redis, bus, observability, platform);
    // After a rotation of the key-encryption key, the endpoints' signing secrets are re-wrapped as the merchants' are.
    if (platform && config.merchants.previousKek)
      void outboundWebhooks.rewrapSecrets().then(
        (rewrapped) => log.info('webhook endpoints: re-wrapped under the current key', { rewrapped }),
        (error: unknown) => log.warn('webhook endpoints: re-wrap failed', { error }),
      );
    // Platform mode: no single webhook secret; one route per merchant, with its own.
    const webhook = platform
      ? buildMerchantWebhookRoutes(startup, platform, bus, { observability, live, extIds })
      : buildWebhookRoute(startup, bus, { live, extIds, observability });
    const demoMerchants = platform && options.demoMerchants ? await options.demoMerchants(platform.registry) : [];
    const { tokens, developmentToken, personas } = await prepareAuth(config, demoMerchants[0] ?? null);

    const readiness = startReadiness(startup, probedUpstream, redisParts);

    const server = buildServer(startup, {
      redis,
      upstream,
      probedUpstream,
      idempotency,
      extIds,
      live,
      reconciler,
      payoutBatches,
      outboundWebhooks,
      webhook,
      tokens,
      developmentToken,
      personas,
      readiness,
      observability,
      platform,
    });
    const url = await listen(startup, service, { server, readiness, bus, observability });

    return {
      url,
      graphqlUrl: `${url}${GRAPHQL_PATH}`,
      consoleUrl: config.console.enabled ? `${url}${CONSOLE_PATH}/` : null,
      webhookUrl: webhook ? `${url}${webhook.path}` : null,
      upstream,
      bus,
      live,
      reconciler,
      server,
      readiness,
      developmentToken,
      outboundWebhooks,
      merchants: platform?.registry ?? null,
      demoMerchants,
      close: shutdown.close,
    };
  } catch (err) {
    await shutdown.close();
    throw err;
  }
}
