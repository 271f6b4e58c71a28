// Webhooks to the merchant's servers: endpoints managed through GraphQL, every
// event of the durable log delivered to the endpoints that take its kind,
// signed to the Standard Webhooks spec, retried on a schedule, durable across
// restarts and replicas (see store.ts and worker.ts). This is the service the
// schema calls; gateway.ts assembles it.
import { randomBytes } from 'node:crypto';
import type { Registry } from 'prom-client';
import type { OutboundWebhookConfig } from '../config.js';
import type { EventBus } from '../events/bus.js';
import type { LoggedPaymentEvent } from '../events/payment-event.js';
import type { GatewayRedis } from '../redis/index.js';
import type { Logger } from '../logger.js';
import { createDispatcher, type Resolver } from './dispatcher.js';
import { OutboundWebhookError } from './errors.js';
import { memoryOutboundStore, type OutboundStatePersistence } from './memory-store.js';
import { createWebhookMetrics } from './metrics.js';
import {
  ENDPOINT_DISABLED_KIND,
  WEBHOOK_EVENT_KINDS,
  merchantOfEndpoint,
  newEndpointId,
  takesEvent,
  WEBHOOK_TEST_KIND,
  endpointIdOfDelivery,
  newDeliveryRecord,
  viewOf,
  type DeliveryRecord,
  type EndpointView,
  type StoredEndpoint,
} from './model.js';
import { startMerchantLogRouter, type MerchantLogRouter } from './merchant-log-router.js';
import { merchantLogKey } from './redis-keys.js';
import { redisOutboundStore } from './redis-store.js';
import { ROTATION_OVERLAP_MS, newSigningSecret } from './signer.js';
import type { OutboundStore } from './store.js';
import { urlProblem, type TargetPolicy } from './target-policy.js';
import { openText, rewrapEndpointSecrets, sealText, sealedSecretsStore, type SecretSeal } from './sealed-secrets.js';
import { DeliveryWorker } from './worker.js';
import { encodeGlobalId } from '../relay/global-id.js';

export { WEBHOOK_EVENT_KINDS, type DeliveryRecord, type EndpointView, type DeliveryAttempt, type DeliveryStatus } from './model.js';
export { OutboundWebhookError, type OutboundRefusal } from './errors.js';
export type { OutboundStatePersistence } from './memory-store.js';

interface OutboundWebhooksOptions {
  settings: OutboundWebhookConfig;
  mode: 'sandbox' | 'live';
  /** With Redis: shared by the replicas. Without: memory (sandbox mode), or refused (live mode). */
  redis: GatewayRedis | null;
  bus: Pick<EventBus, 'log' | 'onLoggedEvent' | 'publishPaymentEvent'>;
  log: Logger;
  /** The gateway's metrics registry; null: no metrics. */
  registry: Registry | null;
  /** Sandbox mode without Redis: where the memory store's state survives restarts. */
  persistence?: OutboundStatePersistence;
  /** The time of due dates and the disable period; default Date.now (tests hand in a manual clock). */
  now?: () => number;
  /** Name resolution of the connect-time address check (tests hand in their own). */
  resolve?: Resolver;
  /** How often every endpoint gets a pass; default 1000 ms. */
  pollMs?: number;
  /** Retention of the event log (how far back a replay may go). */
  retentionMs: number;
  /**
   * Platform mode: endpoints per merchant, their keys under its tag and in its key index, their secrets sealed with
   * the merchant key ring, and the worker fair between merchants. Absent or null: single mode.
   */
  platform?: PlatformWebhooks | null;
}

/** What platform mode hands the outgoing webhooks: the key ring that seals secrets, and the merchants' key index. */
export interface PlatformWebhooks {
  keys: SecretSeal;
  /** The hash tag of a merchant's keys. */
  tag(merchantId: string): string;
  /** Records keys a merchant owns (its purge deletes them). */
  ownKeys(merchantId: string, keys: string[]): Promise<void>;
}

interface EndpointInput {
  url: string;
  kinds?: string[] | null;
  description?: string | null;
}

interface EndpointChange {
  url?: string | null;
  kinds?: string[] | null;
  description?: string | null;
  enabled?: boolean | null;
}

/**
 * Webhooks to the merchant's servers: endpoints, the delivery log, redeliveries, replays and test events. Throws
 * OutboundWebhookError on a refusal.
 */
export interface OutboundWebhooks {
  /** False in live mode without Redis: every change is refused (needs_redis). */
  readonly available: boolean;
  create(input: EndpointInput): Promise<{ endpoint: EndpointView; secret: string }>;
  update(endpointId: string, change: EndpointChange): Promise<EndpointView>;
  delete(endpointId: string): Promise<void>;
  rotate(endpointId: string): Promise<{ endpoint: EndpointView; secret: string; previousSecretExpiresAt: string }>;
  list(): Promise<EndpointView[]>;
  get(endpointId: string): Promise<EndpointView | null>;
  deliveries(endpointId: string): Promise<DeliveryRecord[]>;
  delivery(deliveryId: string): Promise<DeliveryRecord | null>;
  redeliver(deliveryId: string): Promise<DeliveryRecord>;
  replay(endpointId: string, sinceMs: number): Promise<{ endpoint: EndpointView; eventsQueued: number }>;
  sendTest(endpointId: string): Promise<DeliveryRecord>;
  /**
   * Platform mode: the same operations for one merchant, on its endpoints only (another merchant's endpoint or
   * delivery is not found); its endpoints receive only its events.
   */
  forMerchant(merchantId: string): OutboundWebhooks;
  /**
   * The secret a creation answered with. In platform mode `create` answers it sealed for the merchant (the answer
   * is kept for its idempotency key: Redis holds no secret in clear), opened here as the answer is written out.
   */
  revealSecret(answered: string): string;
  /**
   * Platform mode, after a rotation of the key-encryption key: re-wraps every endpoint secret still under the
   * previous key (compare-and-set per endpoint); resolves with how many endpoints changed.
   */
  rewrapSecrets(): Promise<number>;
  close(): Promise<void>;
}

const refuse = (refusal: OutboundWebhookError['refusal']) => new OutboundWebhookError(refusal);

function checkedKinds(kinds: string[] | null | undefined): string[] {
  const distinct = [...new Set(kinds ?? [])].sort();
  const unknown = distinct.filter((k) => !WEBHOOK_EVENT_KINDS.includes(k));
  if (unknown.length > 0) throw refuse({ kind: 'unknown_kinds', unknown, known: WEBHOOK_EVENT_KINDS });
  return distinct;
}

function buildStore(options: OutboundWebhooksOptions): { store: OutboundStore | null; rewrap: () => Promise<number> } {
  const platform = options.platform ?? null;
  const merchantKeys = platform
    ? { tag: platform.tag, own: (merchantId: string, keys: string[]) => platform.ownKeys(merchantId, keys) }
    : null;
  const store = options.redis
    ? redisOutboundStore({
        redis: options.redis,
        logKey: options.redis.key('events', 'log'),
        merchantKeys,
        retentionMs: options.retentionMs,
      })
    : options.mode === 'sandbox'
      ? memoryOutboundStore(options.bus.log, options.persistence)
      : null;
  if (!store || !platform) return { store, rewrap: async () => 0 };
  return { store: sealedSecretsStore(store, platform.keys), rewrap: () => rewrapEndpointSecrets(store, platform.keys) };
}

/**
 * The service over Redis (shared by replicas) or, in sandbox mode, memory kept in SANDBOX_DATA_DIR; starts the
 * delivery worker.
 */
export function createOutboundWebhooks(options: OutboundWebhooksOptions): OutboundWebhooks {
  const { settings, log } = options;
  const now = options.now ?? Date.now;
  const { store, rewrap } = buildStore(options);
  const policy: TargetPolicy = {
    allowPrivateTargets: settings.allowPrivateTargets,
    allowHttp: options.mode === 'sandbox' || settings.allowPrivateTargets,
  };
  const dispatcher = createDispatcher({
    timeoutMs: settings.timeoutMs,
    allowPrivateTargets: settings.allowPrivateTargets,
    resolve: options.resolve,
  });
  const oldestWaiting = async () => {
    const ends = store ? await store.listEndpoints() : [];
    return new Map(await Promise.all(ends.map(async (e) => [e.id, (await store!.waiting(e.id)).oldestMs] as const)));
  };
  const worker = store
    ? new DeliveryWorker(
        { ...settings, pollMs: options.pollMs, fairness: options.platform ? settings.fairness : null },
        {
          store,
          dispatcher,
          log,
          metrics: createWebhookMetrics(options.registry, oldestWaiting),
          now,
          onDisabled: (endpoint, reason) => announceDisabled(options, endpoint, reason, now()),
        },
      )
    : null;
  const router = worker && store ? routeMerchantEvents(options, store, worker) : null;
  // A merchant's event is read from the merchant's own log (platform mode over Redis): where this replica's router
  // holds the lease, its endpoints are woken once it copied the event there; elsewhere by the event itself (a pass
  // that finds no copy yet leaves the event heard of, which the next full pass reads).
  const unlistenWorker = worker
    ? options.bus.onLoggedEvent((event) => !(router?.holding() && event.merchantId) && worker.wakeFor(event))
    : () => {};
  const unlistenPurges = store && options.platform ? forgetPurgedMerchants(options.bus, store, log) : () => {};
  const unlisten = () => {
    unlistenWorker();
    unlistenPurges();
  };
  worker?.start();
  return endpointsService({
    options,
    merchantId: null,
    store,
    rewrap,
    worker,
    policy,
    now,
    close: async () => {
      unlisten();
      await router?.stop();
      await worker?.stop(Math.min(settings.timeoutMs, 2_000));
      await dispatcher.close().catch(() => {});
      await store?.close();
    },
  });
}

/**
 * Platform mode over Redis: each merchant's events copied into its own log, where its endpoints read them
 * (merchant-log-router.ts); the worker's endpoints woken for each event copied. Null in single mode and in memory.
 */
function routeMerchantEvents(options: OutboundWebhooksOptions, store: OutboundStore, worker: DeliveryWorker): MerchantLogRouter | null {
  const { redis, platform } = options;
  if (!redis || !platform) return null;
  return startMerchantLogRouter({
    redis,
    logKey: redis.key('events', 'log'),
    merchantLog: (merchantId) => merchantLogKey(redis, platform.tag(merchantId)),
    retentionMs: options.retentionMs,
    adoptEarlierGroups: () => store.adoptEarlierGroups?.() ?? Promise.resolve(),
    merchantsWithLogs: () => store.endpointMerchants?.() ?? Promise.resolve([]),
    routed: (events) => events.forEach((event) => worker.wakeFor(event)),
    log: options.log,
  });
}

/** The `webhook_endpoint.disabled` event, in the log: other endpoints that take it hear of it. */
async function announceDisabled(options: OutboundWebhooksOptions, endpoint: StoredEndpoint, reason: string, at: number): Promise<void> {
  // The endpoint's global id as GraphQL shows it.
  const endpointId = encodeGlobalId('WebhookEndpoint', endpoint.id);
  const data = { endpointId, url: endpoint.url, reason, failingSince: endpoint.failingSince, disabledAt: new Date(at).toISOString() };
  await options.bus
    .publishPaymentEvent({
      id: `${ENDPOINT_DISABLED_KIND}:${endpoint.id}:${at}`,
      kind: ENDPOINT_DISABLED_KIND,
      receivedAt: new Date(at).toISOString(),
      reference: endpointId,
      resourceType: null,
      payload: { event: ENDPOINT_DISABLED_KIND, data },
      source: 'POLL',
      // Platform mode: its merchant's other endpoints hear of it, no other merchant's.
      ...(merchantOfEndpoint(endpoint.id) ? { merchantId: merchantOfEndpoint(endpoint.id)! } : {}),
    })
    .catch((err: unknown) => options.log.warn('webhook_endpoint.disabled event not logged', { endpointId: endpoint.id, error: err }));
}

interface ServiceParts {
  options: OutboundWebhooksOptions;
  /** The merchant the operations serve (platform mode); null: single mode's only one. */
  merchantId: string | null;
  /** Re-wraps every endpoint secret under the current key-encryption key (platform mode). */
  rewrap: () => Promise<number>;
  store: OutboundStore | null;
  worker: DeliveryWorker | null;
  policy: TargetPolicy;
  now: () => number;
  close: () => Promise<void>;
}

function endpointsService(parts: ServiceParts): OutboundWebhooks {
  const tools = serviceTools(parts);
  const scoped = new Map<string, OutboundWebhooks>();
  return {
    available: parts.store !== null,
    ...manageEndpoints(parts, tools),
    ...deliveryOperations(parts, tools),
    forMerchant(merchantId) {
      let service = scoped.get(merchantId);
      if (!service) {
        service = endpointsService({ ...parts, merchantId });
        scoped.set(merchantId, service);
        // Cheap to make again: only the most recent merchants' are kept.
        if (scoped.size > 1_000) scoped.delete(scoped.keys().next().value!);
      }
      return service;
    },
    revealSecret(answered) {
      const platform = parts.options.platform;
      if (!platform || parts.merchantId === null) return answered;
      const secret = openText(platform.keys, parts.merchantId, answered);
      if (secret === null) throw refuse({ kind: 'needs_redis' });
      return secret;
    },
    rewrapSecrets: () => parts.rewrap(),
    close: parts.close,
  };
}

type ServiceTools = ReturnType<typeof serviceTools>;

/** What the operations share: the store (or the needs_redis refusal), lookups that refuse what is missing, URL checks. */
function serviceTools(parts: ServiceParts) {
  const { worker, policy, merchantId } = parts;
  const platform = Boolean(parts.options.platform);
  const need = (): OutboundStore => {
    if (!parts.store) throw refuse({ kind: 'needs_redis' });
    return parts.store;
  };
  /** Whether an endpoint id is this service's merchant's (another merchant's is not found, unread). */
  const owns = (endpointId: string | null): endpointId is string =>
    endpointId !== null && (!platform || (merchantId !== null && merchantOfEndpoint(endpointId) === merchantId));
  const view = async (e: StoredEndpoint) => {
    const waiting = await need().waiting(e.id);
    return viewOf(e, waiting.retrying + waiting.inFlight);
  };
  const found = async (id: string) => {
    const e = owns(id) ? await need().getEndpoint(id) : null;
    if (!e) throw refuse({ kind: 'endpoint_not_found', endpointId: id });
    return e;
  };
  const checkUrl = (url: string) => {
    const problem = urlProblem(url, policy);
    if (problem) throw refuse({ kind: 'invalid_url', reason: problem });
  };
  const changed = async () => void (await worker?.refresh());
  const queue = async (record: DeliveryRecord) => {
    if (!(await need().enqueue(record))) throw refuse({ kind: 'endpoint_not_found', endpointId: record.endpointId });
    worker?.wake(record.endpointId);
  };
  return { need, view, found, checkUrl, changed, queue, owns };
}

type EndpointOperations = 'create' | 'update' | 'delete' | 'rotate' | 'list' | 'get';

function manageEndpoints(
  parts: ServiceParts,
  { need, view, found, checkUrl, changed, owns }: ServiceTools,
): Pick<OutboundWebhooks, EndpointOperations> {
  const { options, now, merchantId } = parts;
  const settings = options.settings;
  return {
    async create(input) {
      checkUrl(input.url);
      const secret = newSigningSecret();
      const endpoint: StoredEndpoint = {
        id: newEndpointId(options.platform ? merchantId : null),
        url: input.url,
        description: input.description ?? null,
        kinds: checkedKinds(input.kinds),
        enabled: true,
        disabledReason: null,
        createdAt: new Date(now()).toISOString(),
        secrets: { current: secret, previous: null, previousExpiresAt: null },
        lastSuccessAt: null,
        failingSince: null,
        consecutiveFailures: 0,
      };
      if (!(await need().createEndpoint(endpoint, settings.maxEndpoints))) throw refuse({ kind: 'limit', max: settings.maxEndpoints });
      await changed();
      // Platform mode: sealed in the answer, which is kept for its idempotency key (revealSecret opens it).
      const answered = options.platform && merchantId ? sealText(options.platform.keys, merchantId, secret) : secret;
      return { endpoint: viewOf(endpoint, 0), secret: answered };
    },
    async update(id, change) {
      await found(id);
      if (change.url != null) checkUrl(change.url);
      const kinds = change.kinds == null ? undefined : checkedKinds(change.kinds);
      const enabling = change.enabled === true;
      const updated = await need().updateEndpoint(id, {
        ...(change.url != null ? { url: change.url } : {}),
        ...(kinds ? { kinds } : {}),
        ...(change.description !== undefined ? { description: change.description } : {}),
        ...(change.enabled != null ? { enabled: change.enabled, disabledReason: change.enabled ? null : 'disabled by hand' } : {}),
        resetHealth: enabling,
      });
      if (!updated) throw refuse({ kind: 'endpoint_not_found', endpointId: id });
      await changed();
      return view(updated);
    },
    async delete(id) {
      if (!owns(id) || !(await need().deleteEndpoint(id))) throw refuse({ kind: 'endpoint_not_found', endpointId: id });
      await changed();
    },
    async rotate(id) {
      const endpoint = await found(id);
      const secret = newSigningSecret();
      const expires = now() + ROTATION_OVERLAP_MS;
      const updated = await need().updateEndpoint(id, {
        secrets: { current: secret, previous: endpoint.secrets.current, previousExpiresAt: expires },
      });
      if (!updated) throw refuse({ kind: 'endpoint_not_found', endpointId: id });
      await changed();
      return { endpoint: await view(updated), secret, previousSecretExpiresAt: new Date(expires).toISOString() };
    },
    async list() {
      if (!parts.store) return [];
      return Promise.all((await parts.store.listEndpoints(merchantId)).map(view));
    },
    async get(id) {
      const e = parts.store && owns(id) ? await parts.store.getEndpoint(id) : null;
      return e ? view(e) : null;
    },
  };
}

function deliveryOperations(
  parts: ServiceParts,
  { need, view, found, queue, owns }: ServiceTools,
): Omit<OutboundWebhooks, EndpointOperations | 'available' | 'close' | 'forMerchant' | 'revealSecret' | 'rewrapSecrets'> {
  const { options, worker, now } = parts;
  return {
    async deliveries(endpointId) {
      await found(endpointId);
      return need().listDeliveries(endpointId);
    },
    async delivery(deliveryId) {
      const endpointId = endpointIdOfDelivery(deliveryId);
      return owns(endpointId) && parts.store ? parts.store.getDelivery(endpointId, deliveryId) : null;
    },
    async redeliver(deliveryId) {
      const endpointId = endpointIdOfDelivery(deliveryId);
      // One attempt at a time (store.ts): an attempt under way is not doubled, a retry waiting is brought forward.
      const done = owns(endpointId) ? await need().redeliver(endpointId, deliveryId, now()) : null;
      if (!done?.record) throw refuse({ kind: 'delivery_not_found', deliveryId });
      if (done.outcome === 'queued') worker?.wake(done.record.endpointId);
      return done.record;
    },
    async replay(endpointId, sinceMs) {
      const endpoint = await found(endpointId);
      // The log's positions are Redis's (real) time, whatever clock the retries follow.
      const from = Math.max(sinceMs, Date.now() - options.retentionMs, 0);
      // Counted in the log the endpoint reads (its merchant's own in platform mode over Redis, which starts with the
      // merchant's first endpoint), else in the bus's.
      const store = need();
      const log = store.eventsAfter
        ? { ascending: (after: string | null, count: number) => store.eventsAfter!(endpointId, after, count) }
        : options.bus.log;
      const eventsQueued = await countSince(log, endpoint, from);
      await need().rewind(endpointId, `${from}-0`);
      worker?.wake(endpointId);
      return { endpoint: await view(endpoint), eventsQueued };
    },
    async sendTest(endpointId) {
      const endpoint = await found(endpointId);
      const at = now();
      const event: LoggedPaymentEvent = {
        id: `${WEBHOOK_TEST_KIND}:${randomBytes(8).toString('hex')}`,
        kind: WEBHOOK_TEST_KIND,
        receivedAt: new Date(at).toISOString(),
        reference: null,
        resourceType: null,
        payload: { event: WEBHOOK_TEST_KIND, data: { message: 'A test event sent by sendTestWebhook.', url: endpoint.url } },
        source: 'POLL',
        seq: `${at}-0`,
      };
      const record = newDeliveryRecord(endpoint.id, event, `evt_test_${randomBytes(12).toString('hex')}`, at);
      await queue(record);
      return record;
    },
  };
}

/** Events of the log from `fromMs` on that the endpoint takes (what a replay sends again), counted page by page. */
async function countSince(log: Pick<EventBus['log'], 'ascending'>, endpoint: StoredEndpoint, fromMs: number): Promise<number> {
  let count = 0;
  let after: string | null = fromMs > 0 ? `${fromMs - 1}-${Number.MAX_SAFE_INTEGER}` : null;
  for (;;) {
    const page = await log.ascending(after, 1_000);
    count += page.filter((e) => takesEvent(endpoint, e)).length;
    if (page.length < 1_000) return count;
    after = page.at(-1)!.seq;
  }
}

/**
 * Sandbox mode without Redis (the store in memory): a purged merchant's endpoints and their deliveries go with it,
 * as in Redis, where they are listed in the merchant's key index and the purge deletes them. Only the gateway's own
 * `merchant.purged` event counts (it names no merchant: a merchant's webhook route could post one of that kind).
 */
function forgetPurgedMerchants(bus: OutboundWebhooksOptions['bus'], store: OutboundStore, log: Logger): () => void {
  if (store.mode !== 'memory') return () => {};
  return bus.onLoggedEvent((event) => {
    if (event.kind !== 'merchant.purged' || event.merchantId !== undefined || event.source !== 'POLL' || !event.reference) return;
    const merchantId = event.reference;
    void (async () => {
      for (const endpoint of await store.listEndpoints(merchantId)) await store.deleteEndpoint(endpoint.id);
    })().catch((error: unknown) => log.warn('webhook endpoints of a purged merchant not removed', { merchantId, error }));
  });
}
