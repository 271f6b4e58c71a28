// Assembles a running gateway from a validated Config: the payment-service
// client (or an in-process sandbox when none is configured), the event bus,
// the idempotency store, the webhook receiver and the HTTP/WebSocket server.
// Used by `npm start` and by the tests, so they exercise the same wiring.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { createEventBus, type EventBus } from './events/bus.js';
import { createHealthProbe } from './health.js';
import { createLiveUpdates, type LiveUpdates } from './live/index.js';
import { memoryIdempotencyStore, redisIdempotencyStore, type IdempotencyStore } from './idempotency/store.js';
import type { Logger } from './logger.js';
import { startSandbox, type Sandbox } from './sandbox/index.js';
import { createGatewayServer, GRAPHQL_PATH, type GatewayServer } from './server.js';
import { createUpstreamClient } from './upstream/client.js';
import type { UpstreamClient } from './upstream/types.js';
import { createWebhookHandler } from './webhooks/receiver.js';

export interface RunningGateway {
  url: string;
  graphqlUrl: string;
  webhookUrl: string | null;
  /** The in-process sandbox, in sandbox mode. */
  sandbox: Sandbox | null;
  upstream: UpstreamClient;
  bus: EventBus;
  live: LiveUpdates;
  server: GatewayServer;
  close(): Promise<void>;
}

export interface StartGatewayOptions {
  /** Namespace for Redis keys and channels (tests isolate runs with it). */
  redisNamespace?: string;
}

export async function startGateway(config: Config, log: Logger, options: StartGatewayOptions = {}): Promise<RunningGateway> {
  const cleanup: Array<() => Promise<unknown>> = [];
  // Idempotent: a second close() (signal during shutdown, test teardown) waits for the first.
  let closing: Promise<void> | null = null;
  const closeAll = () =>
    (closing ??= (async () => {
      for (const step of [...cleanup].reverse()) await step().catch((err: unknown) => log.warn('shutdown step failed', { error: err }));
    })());

  try {
    let sandbox: Sandbox | null = null;
    let baseUrl = config.upstream.baseUrl;
    let apiKey = config.upstream.apiKey;
    let webhookSecret = config.webhook.secret;

    if (config.mode === 'sandbox') {
      sandbox = await startSandbox({ port: config.sandboxPort, host: config.host, log: (line) => log.debug(line) });
      cleanup.push(() => sandbox!.close());
      baseUrl = sandbox.url;
      // A fresh test account per start: the sandbox keeps one account per key.
      apiKey = `sk_test_${randomBytes(12).toString('hex')}`;
      webhookSecret ??= randomBytes(24).toString('base64url');
    }

    const upstream = createUpstreamClient({ ...config.upstream, baseUrl: baseUrl!, apiKey: apiKey! });
    cleanup.push(() => upstream.close());

    const bus = await createEventBus({ redisUrl: config.redisUrl, namespace: options.redisNamespace, log });
    cleanup.push(() => bus.close());

    let idempotency: IdempotencyStore;
    if (config.redisUrl) {
      const redis = new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 });
      cleanup.push(() => redis.quit());
      idempotency = redisIdempotencyStore(redis, `${options.redisNamespace ?? 'momo-gateway'}:idem:`);
    } else {
      idempotency = memoryIdempotencyStore();
    }

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
            dedupe: bus.dedupe,
            publish: async (event) => {
              await bus.publishPaymentEvent(event);
              live.onWebhook(event);
            },
            log,
          }),
        }
      : null;

    const server = createGatewayServer({
      services: { upstream, idempotency, live, log, pageSize: config.upstream.pageSize },
      maxSubscriptionsPerConnection: config.subscriptions.maxPerConnection,
      maxFrameBytes: config.subscriptions.maxFrameBytes,
      webhook,
      health: createHealthProbe(upstream, config.mode),
    });
    const url = await server.listen(config.port, config.host);
    cleanup.push(() => server.close());

    const webhookUrl = webhook ? `${url}${webhook.path}` : null;
    if (sandbox && webhookUrl && webhookSecret) {
      sandbox.setWebhook({
        url: webhookUrl,
        secret: webhookSecret,
        scheme: config.webhook.scheme === 'sha256-base64' ? 'sha256-base64' : 'hmac-sha256-hex',
      });
    }

    return { url, graphqlUrl: `${url}${GRAPHQL_PATH}`, webhookUrl, sandbox, upstream, bus, live, server, close: closeAll };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
