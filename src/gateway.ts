// Assembles a running gateway from a validated Config: the payment-service
// client, the event bus, the idempotency store, the webhook receiver and the
// HTTP/WebSocket server. Used by `npm start` and by the tests, so they exercise
// the same wiring. It knows nothing of the sandbox: in sandbox mode the entry
// point starts one and hands its URL, key and webhook secret in through options.
import { SCOPES, createTokenVerifier, mintStaffToken, withGeneratedSecrets, type MintedToken } from './auth/index.js';
import type { Config } from './config.js';
import { createEventBus, type EventBus } from './events/bus.js';
import { createHealthProbe } from './health.js';
import { createLiveUpdates, type LiveUpdates } from './live/index.js';
import { memoryIdempotencyStore, redisIdempotencyStore } from './idempotency/store.js';
import { checkRedisForLiveMode, connectRedis } from './redis/index.js';
import { memoryDeduplicator, redisDeduplicator } from './webhooks/dedupe.js';
import type { Logger } from './logger.js';
import { createGatewayServer, GRAPHQL_PATH, type GatewayServer } from './server.js';
import { createUpstreamClient } from './upstream/client.js';
import type { UpstreamClient } from './upstream/types.js';
import { createWebhookHandler } from './webhooks/receiver.js';

export interface RunningGateway {
  url: string;
  graphqlUrl: string;
  webhookUrl: string | null;
  upstream: UpstreamClient;
  bus: EventBus;
  live: LiveUpdates;
  server: GatewayServer;
  /** Sandbox mode: a token with every scope, valid 12 hours, for GraphiQL and scripts. */
  developmentToken: MintedToken | null;
  close(): Promise<void>;
}

export interface StartGatewayOptions {
  /** Namespace for Redis keys and channels (tests isolate runs with it). */
  redisNamespace?: string;
  /** The payment service to use when the configuration names none (sandbox mode). */
  upstream?: { baseUrl: string; apiKey: string };
  /** Webhook secret to use when the configuration has none (sandbox mode generates one). */
  webhookSecret?: string;
}

const DEVELOPMENT_TOKEN_TTL_SECONDS = 12 * 60 * 60;

export async function startGateway(config: Config, log: Logger, options: StartGatewayOptions = {}): Promise<RunningGateway> {
  const cleanup: Array<() => Promise<unknown>> = [];
  // Idempotent: a second close() (signal during shutdown, test teardown) waits for the first.
  let closing: Promise<void> | null = null;
  const closeAll = () =>
    (closing ??= (async () => {
      for (const step of [...cleanup].reverse()) await step().catch((err: unknown) => log.warn('shutdown step failed', { error: err }));
    })());

  try {
    const baseUrl = config.upstream.baseUrl ?? options.upstream?.baseUrl;
    const apiKey = config.upstream.apiKey ?? options.upstream?.apiKey;
    if (!baseUrl || !apiKey) throw new Error('no payment service: set PAYMENT_BASE_URL and PAYMENT_API_KEY');
    const webhookSecret = config.webhook.secret ?? options.webhookSecret ?? null;

    // First opened, last closed: results of requests still finishing are saved before it goes.
    const redis = config.redisUrl ? await connectRedis({ url: config.redisUrl, namespace: options.redisNamespace, log }) : null;
    if (redis) cleanup.push(() => redis.close());
    // A Redis that evicts keys could drop an idempotency key and let a payment be made twice.
    if (redis && config.mode === 'live') await checkRedisForLiveMode(redis.commands, log);

    const upstream = createUpstreamClient({ ...config.upstream, baseUrl, apiKey });
    cleanup.push(() => upstream.close());

    const bus = await createEventBus({ redis, log });
    cleanup.push(() => bus.close());
    const idempotency = redis ? redisIdempotencyStore(redis) : memoryIdempotencyStore();
    const dedupe = redis ? redisDeduplicator(redis) : memoryDeduplicator();

    const live = createLiveUpdates({
      bus,
      upstream,
      log,
      polling: { initialMs: config.subscriptions.pollInitialMs, maxMs: config.subscriptions.pollMaxMs },
    });
    cleanup.push(async () => live.close());

    if (!webhookSecret) log.warn('WEBHOOK_SECRET is not set: the webhook receiver is disabled and subscriptions rely on polling');
    const webhook = webhookSecret
      ? {
          path: config.webhook.path,
          handle: createWebhookHandler({
            secret: webhookSecret,
            scheme: config.webhook.scheme,
            dedupe,
            publish: async (event) => {
              await bus.publishPaymentEvent(event);
              live.onWebhook(event);
            },
            log,
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

    const server = createGatewayServer({
      services: { upstream, idempotency, live, log, tokens, pageSize: config.upstream.pageSize },
      graphiqlToken: developmentToken?.token ?? null,
      maxSubscriptionsPerConnection: config.subscriptions.maxPerConnection,
      maxFrameBytes: config.subscriptions.maxFrameBytes,
      webhook,
      health: createHealthProbe(upstream, config.mode),
    });
    const url = await server.listen(config.port, config.host);
    cleanup.push(() => server.close());

    const webhookUrl = webhook ? `${url}${webhook.path}` : null;
    return { url, graphqlUrl: `${url}${GRAPHQL_PATH}`, webhookUrl, upstream, bus, live, server, developmentToken, close: closeAll };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
