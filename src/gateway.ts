// Assembles a running gateway from a validated Config: the payment-service
// client, the event bus, the idempotency store, the webhook receiver and the
// HTTP/WebSocket server. Used by `npm start` and by the tests, so they exercise
// the same wiring. It knows nothing of the sandbox: in sandbox mode the entry
// point starts one and hands its URL, key and webhook secret in through options.
import { SCOPES, createTokenVerifier, mintStaffToken, withGeneratedSecrets, type MintedToken } from './auth/index.js';
import type { Config } from './config.js';
import { createEventBus, type EventBus } from './events/bus.js';
import { fileLogPersistence } from './events/log-file.js';
import { realClock, type Clock } from './reconcile/clock.js';
import { startReconciler, type Reconciler } from './reconcile/reconciler.js';
import { memoryReconcileStore, redisReconcileStore } from './reconcile/store.js';
import { createHealthProbe } from './health.js';
import { startReadinessProbe, type ReadinessProbe } from './readiness.js';
import { createLiveUpdates, type LiveUpdates } from './live/index.js';
import { createPayoutBatches } from './payout-batches/index.js';
import { createRateLimits } from './limits/index.js';
import { memoryIdempotencyStore, redisIdempotencyStore } from './idempotency/store.js';
import { observedIdempotencyStore } from './idempotency/observed.js';
import { createObservability, runUntraced } from './observability/index.js';
import { checkRedisForLiveMode, connectRedis, redisEpoch, redisWriteHealth } from './redis/index.js';
import type { Logger } from './logger.js';
import { createGatewayServer, GRAPHQL_PATH, type GatewayServer } from './server.js';
import { createUpstreamClient } from './upstream/client.js';
import type { UpstreamClient } from './upstream/types.js';
import { acceptIntoLog, createWebhookHandler } from './webhooks/receiver.js';
import { loadTrustedDocuments } from './trusted-documents.js';
import { clientAddressing } from './client-address.js';
import { readFileSync } from 'node:fs';
import { projectPath } from './project-files.js';

export interface RunningGateway {
  url: string;
  graphqlUrl: string;
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
  /** Stops everything; graceMs (SHUTDOWN_GRACE_MS in `npm start`, default 0): readiness 503 while still serving, first. */
  close(options?: { graceMs?: number }): Promise<void>;
}

export interface StartGatewayOptions {
  /** Namespace for Redis keys and channels (tests isolate runs with it). */
  redisNamespace?: string;
  /** The payment service to use when the configuration names none (sandbox mode). */
  upstream?: { baseUrl: string; apiKey: string };
  /** Webhook secret to use when the configuration has none (sandbox mode generates one). */
  webhookSecret?: string;
  /** Benchmarks only: run without the limits of src/limits/ to measure what they cost. */
  withoutLimits?: boolean;
  /** The time of the reconciler and the subscription pollers (tests hand in a manual clock); default: the real one. */
  clock?: Clock;
  /** Sandbox mode without Redis: keep the in-memory event log in this file across restarts. */
  eventLogFile?: string;
}

/** The gateway's version (package.json), for the build-info metric. */
function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

const DEVELOPMENT_TOKEN_TTL_SECONDS = 12 * 60 * 60;
const SHUTDOWN_MARGIN_MS = 5_000;

export async function startGateway(config: Config, log: Logger, options: StartGatewayOptions = {}): Promise<RunningGateway> {
  const cleanup: Array<() => Promise<unknown>> = [];
  // Idempotent: a second close() (signal during shutdown, test teardown) waits for the first.
  let closing: Promise<void> | null = null;
  let graceMs = 0;
  const closeAll = (options: { graceMs?: number } = {}) =>
    (closing ??= (async () => {
      graceMs = options.graceMs ?? 0;
      for (const step of [...cleanup].reverse()) await step().catch((err: unknown) => log.warn('shutdown step failed', { error: err }));
    })());

  try {
    const baseUrl = config.upstream.baseUrl ?? options.upstream?.baseUrl;
    const apiKey = config.upstream.apiKey ?? options.upstream?.apiKey;
    if (!baseUrl || !apiKey) throw new Error('no payment service: set PAYMENT_BASE_URL and PAYMENT_API_KEY');
    const webhookSecret = config.webhook.secret ?? options.webhookSecret ?? null;

    // First opened, last closed: results of requests still finishing are saved before it goes.
    const redis = config.redis
      ? await connectRedis({
          url: config.redis.url ?? undefined,
          sentinels: config.redis.sentinels ?? undefined,
          sentinelName: config.redis.sentinelName,
          clusterNodes: config.redis.clusterNodes ?? undefined,
          namespace: options.redisNamespace ?? config.redis.keyPrefix,
          minReplicas: config.redis.minReplicas,
          replicaTimeoutMs: config.redis.replicaTimeoutMs,
          log,
        })
      : null;
    if (redis) cleanup.push(() => redis.close());
    // A Redis that evicts keys could drop an idempotency key and let a payment be made twice.
    if (redis && config.mode === 'live') await checkRedisForLiveMode(redis.commands, log);

    // Closed last: spans of the last operations are exported after the server has stopped.
    const observability = await createObservability(config.observability, config.mode, log, {
      version: packageVersion(),
      nodeVersion: process.version,
    });
    cleanup.push(() => observability.close());

    const upstream = createUpstreamClient(
      { ...config.upstream, baseUrl, apiKey },
      { observe: observability.observeUpstreamCall, traceHeaders: observability.upstreamTraceHeaders },
    );
    // The probes' calls are counted in the metrics but not traced: a root trace every few seconds is noise.
    const probedUpstream = { ...upstream, fetchBalance: () => runUntraced(() => upstream.fetchBalance()) };
    cleanup.push(() => upstream.close());

    // One view of the Redis generation for the stores built on it, and the watch of its writes and evictions.
    const epoch = redis ? redisEpoch(redis) : null;
    const redisWrites = redis && epoch ? redisWriteHealth({ redis, epoch, log }) : null;

    const logFile = !redis && options.eventLogFile ? fileLogPersistence(options.eventLogFile) : null;
    const bus = await createEventBus({ redis, log, retentionMs: config.events.retentionMs, memoryLogPersistence: logFile ?? undefined });
    if (logFile) cleanup.push(async () => logFile.flush());
    cleanup.push(() => bus.close());
    const idempotency = observedIdempotencyStore(
      redis
        ? redisIdempotencyStore(redis, {
            pendingTtlMs: config.idempotencyPendingTtlMs,
            epoch: epoch!,
            unsafe: () => redisWrites!.problem,
          })
        : memoryIdempotencyStore({ pendingTtlMs: config.idempotencyPendingTtlMs }),
      observability.observeIdempotency,
    );

    const live = createLiveUpdates({
      bus,
      upstream,
      log,
      polling: { initialMs: config.subscriptions.pollInitialMs, maxMs: config.subscriptions.pollMaxMs },
      ...(options.clock ? { pollTimers: options.clock } : {}),
    });
    cleanup.push(async () => live.close());

    // Resources created through the gateway are watched until final, so a webhook that never comes is made up for.
    const reconciler = startReconciler({
      store: redis ? redisReconcileStore(redis, { itemTtlMs: config.events.reconcileStuckMs + 24 * 3_600_000 }) : memoryReconcileStore(),
      bus,
      upstream,
      clock: options.clock ?? realClock(),
      log,
      afterMs: config.events.reconcileAfterMs,
      stuckMs: config.events.reconcileStuckMs,
    });
    cleanup.push(() => reconciler.stop());

    // Runs the batches set to run (any replica may take one over); stopped before the bus and Redis close.
    // A connection pool of its own: batch calls never queue behind the fetches every webhook triggers (a batch of
    // 10,000 brings 10,000 webhooks).
    const batchUpstream = createUpstreamClient({ ...config.upstream, baseUrl, apiKey }, { observe: observability.observeUpstreamCall });
    cleanup.push(() => batchUpstream.close());
    const payoutBatches = createPayoutBatches({ settings: config.payoutBatches, redis, upstream: batchUpstream, idempotency, bus, log });
    cleanup.push(() => payoutBatches.close());

    if (!webhookSecret) log.warn('WEBHOOK_SECRET is not set: the webhook receiver is disabled and subscriptions rely on polling');
    const webhook = webhookSecret
      ? {
          path: config.webhook.path,
          handle: createWebhookHandler({
            secret: webhookSecret,
            scheme: config.webhook.scheme,
            // In the log before the 200 (de-duplicated in the same atomic step): every replica delivers it from there.
            accept: acceptIntoLog(bus, (event) => live.onWebhook(event)),
            log,
            observe: observability.observeWebhook,
          }),
        }
      : null;

    // Sandbox mode may leave the keys unset: they are generated, and a development token is minted for GraphiQL.
    const { auth } = withGeneratedSecrets(config.auth);
    const tokens = createTokenVerifier(auth);
    const developmentToken =
      config.mode === 'sandbox' && auth.jwtSecret
        ? await mintStaffToken({
            secret: auth.jwtSecret,
            scopes: SCOPES,
            subject: 'development',
            ttlSeconds: DEVELOPMENT_TOKEN_TTL_SECONDS,
            issuer: auth.issuer,
            audience: auth.audience,
          })
        : null;

    const readiness = startReadinessProbe({ upstream: probedUpstream, redis: redisWrites, intervalMs: config.healthProbeMs, log });
    cleanup.push(async () => readiness.stop());

    const server = createGatewayServer({
      services: {
        upstream,
        idempotency,
        idempotencySettleMs: config.idempotencySettleMs,
        live,
        log,
        tokens,
        pageSize: config.upstream.pageSize,
        resourceCreated: (kind, reference) => reconciler.watch(kind, reference),
        payoutBatches,
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
      // Read and checked now: a missing or inconsistent manifest stops the start.
      trustedDocuments: loadTrustedDocuments(config.trustedDocuments),
      maxSubscriptionsPerConnection: config.subscriptions.maxPerConnection,
      maxFrameBytes: config.subscriptions.maxFrameBytes,
      // A payment call in flight ends within its own deadline; the margin covers recording its result.
      drainTimeoutMs: config.upstream.timeoutMs + SHUTDOWN_MARGIN_MS,
      webhook,
      clientAddressing: clientAddressing(config.trustProxy),
      health: createHealthProbe(probedUpstream, config.mode, undefined, redis?.commands ?? null),
      readiness,
      observability,
    });
    const url = await server.listen(config.port, config.host);
    cleanup.push(() => server.close({ graceMs }));
    observability.metrics.watch({ ready: () => readiness.current().ready && !server.leaving, eventLogLag: () => bus.lag() });
    // A service unreachable at start is one warning line (readiness stays 503 until it answers).
    void readiness.firstCheck.then(() => {
      const report = readiness.current();
      if (report.upstream !== 'ok') {
        log.warn('payment service not reachable at start', { upstream: report.upstream, service: new URL(baseUrl).origin });
      }
    });

    const webhookUrl = webhook ? `${url}${webhook.path}` : null;
    return {
      url,
      graphqlUrl: `${url}${GRAPHQL_PATH}`,
      webhookUrl,
      upstream,
      bus,
      live,
      reconciler,
      server,
      readiness,
      developmentToken,
      close: closeAll,
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
