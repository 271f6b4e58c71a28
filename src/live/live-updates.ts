// Live updates behind the GraphQL subscriptions. Every event is appended to
// the event log, and every replica reads the log (src/events): that is what
// makes delivery complete. Webhooks are the trigger and the API is the truth:
// - paymentEvents: the logged events themselves, resumable after an id;
// - *Updated(reference): the resource's current state first, then each
//   forward change. The replica that took a webhook fetches the resource once
//   and publishes it on the bus (fast path, one fetch for the deployment); a
//   watcher that sees an event about its resource in the log and no such
//   refresh within a grace period fetches the resource itself, so a lost
//   pub/sub message (a Redis blip, a replica that died after appending) costs
//   a fetch, never a missed update (resource-watch.ts). Subscribers only ever see forward changes.
import type { EventBus } from '../events/bus.js';
import type { EventLog } from '../events/log.js';
import type { Logger } from '../logger.js';
import type { UpstreamClient } from '../upstream/types.js';
import type { LoggedPaymentEvent, PaymentEventRecord } from '../events/payment-event.js';
import type { StreamId } from '../events/stream-id.js';
import type { ResourceKind } from '../upstream/types.js';
import { createResourceFetcher, type LiveResource } from './fetch-resource.js';
import { createPollers, type PollingOptions, type PollTimers } from './pollers.js';
import { SubscriptionInterruption } from './interruption.js';
import { watchResource, type WatchServices } from './resource-watch.js';
import { isNotFound } from '../upstream/call-error.js';
import { canonicalReference } from '../upstream/checkout-reference.js';

const EVENT_RESOURCE_TTL_MS = 10_000;
const DEFAULT_REFRESH_GRACE_MS = 1_000;

export { SubscriptionInterruption };

/** The subscriptions' sources: the logged events (resumable) and each resource's forward-only updates. */
export interface LiveUpdates {
  /** After a webhook was appended: refresh its resource in the background (never in the request path). */
  onWebhook(event: PaymentEventRecord | LoggedPaymentEvent): void;
  /**
   * The resource's current state, then each forward change; ends after a final status. The first next()
   * rejects when the resource does not exist (UpstreamCallError, not found).
   */
  watch(type: ResourceKind, reference: string): AsyncIterableIterator<LiveResource | SubscriptionInterruption>;
  /**
   * Logged events, optionally only some kinds, after `after` (replayed from the log) or from now on.
   * Rejects with ResumeTooOldError when `after` is older than the log.
   */
  paymentEvents(
    kinds: readonly string[] | null,
    after?: StreamId | null,
    /** The generation of the log `after` was issued in (null: an id from before generations). */
    afterGeneration?: string | null,
  ): Promise<AsyncIterableIterator<LoggedPaymentEvent | SubscriptionInterruption>>;
  /**
   * The resource an event is about, fetched after that event arrived, once per event in
   * this process however many subscribers resolve it (null when it no longer exists).
   */
  resourceForEvent(event: PaymentEventRecord | LoggedPaymentEvent): Promise<LiveResource | null>;
  /** The event log, for the `events` history. */
  readonly history: EventLog;
  /**
   * Platform mode: the same sources for one merchant, calling the service with its own client: its own pollers,
   * its resources' changes on channels of its own, and only its own events about them.
   */
  forMerchant(merchantId: string, upstream: UpstreamClient): LiveUpdates;
  close(): void;
}

/** Merchants whose sources are kept at once; the least recently used one beyond is closed. */
const MERCHANTS_KEPT = 1_000;

/** The bus as one merchant's sources see it: its resources' changes on channels of its own, its own events only. */
export function merchantBus(bus: EventBus, merchantId: string): EventBus {
  const own = (reference: string) => `${merchantId}/${reference}`;
  return Object.assign(Object.create(bus) as EventBus, {
    publishResourceChanged: (change: Parameters<EventBus['publishResourceChanged']>[0]) =>
      bus.publishResourceChanged({ ...change, reference: own(change.reference) }),
    subscribeResourceChanged: (type: ResourceKind, reference: string) => bus.subscribeResourceChanged(type, own(reference)),
    subscribeResourceEvents: (type: ResourceKind, reference: string) => bus.subscribeResourceEvents(type, reference, merchantId),
  });
}

interface LiveUpdatesOptions {
  bus: EventBus;
  upstream: UpstreamClient;
  log: Logger;
  polling: PollingOptions;
  /** The pollers' timers; default: the real ones (tests hand in a manual clock). */
  pollTimers?: PollTimers;
  /** How long a watcher waits for another replica's refresh before fetching itself. Default 1000 ms. */
  refreshGraceMs?: number;
}

/** Wires the event bus, the service's client and the shared pollers into the subscriptions' sources. */
export function createLiveUpdates(options: LiveUpdatesOptions): LiveUpdates {
  const merchants = new Map<string, { upstream: UpstreamClient; live: LiveUpdates }>();
  const forMerchant = (merchantId: string, upstream: UpstreamClient): LiveUpdates => {
    const hit = merchants.get(merchantId);
    merchants.delete(merchantId);
    // A new client (its API key rotated) gets new sources; watchers of the old ones end as they would.
    if (hit && hit.upstream === upstream) {
      merchants.set(merchantId, hit);
      return hit.live;
    }
    const live = sourcesOf({ ...options, upstream, bus: merchantBus(options.bus, merchantId) }, forMerchant);
    merchants.set(merchantId, { upstream, live });
    if (merchants.size > MERCHANTS_KEPT) {
      const [oldest, evicted] = merchants.entries().next().value!;
      merchants.delete(oldest);
      evicted.live.close();
    }
    return live;
  };
  const single = sourcesOf(options, forMerchant);
  return {
    ...single,
    close() {
      single.close();
      for (const { live } of merchants.values()) live.close();
      merchants.clear();
    },
  };
}

/** One set of sources: single mode's, or one merchant's. */
function sourcesOf(
  { bus, upstream, log, polling, pollTimers, refreshGraceMs }: LiveUpdatesOptions,
  forMerchant: LiveUpdates['forMerchant'],
): LiveUpdates {
  const graceMs = refreshGraceMs ?? DEFAULT_REFRESH_GRACE_MS;
  const fetchResource = createResourceFetcher(upstream);
  // A fresh fetch (not joined to one already running, which may predate the event).
  const upstreamFetch = (type: ResourceKind, reference: string): Promise<LiveResource> => fetchResource(type, reference, Date.now());
  const byEvent = new Map<string, Promise<LiveResource | null>>();
  const publish = (type: ResourceKind, resource: LiveResource, cause?: string) =>
    bus.publishResourceChanged({ type, reference: resource.reference, status: resource.status, resource, ...(cause ? { cause } : {}) });
  const pollers = createPollers(fetchResource, (type, resource) => publish(type, resource), polling, log, pollTimers);

  /** Checkouts have two reference forms; subscriptions and events use the one fetch returns. */
  const toCanonical = (type: ResourceKind, reference: string) => canonicalReference(type, reference, (r) => fetchResource('checkout', r));
  const watchServices: WatchServices = { bus, log, fetchResource, pollers, graceMs, toCanonical };

  return {
    history: bus.log,
    forMerchant,

    onWebhook(event) {
      if (!event.resourceType || !event.reference) return;
      const type = event.resourceType;
      const cause = 'seq' in event ? event.seq : undefined;
      // Not an answer to a fetch that started before the webhook came: it may predate the change.
      fetchResource(type, event.reference, Date.parse(event.receivedAt))
        .then((resource) => publish(type, resource, cause))
        .catch((err: unknown) => log.warn('could not refresh resource after webhook', { type, reference: event.reference, error: err }));
    },

    watch: (type, reference) => watchResource(watchServices, type, reference),

    async paymentEvents(kinds, after = null, afterGeneration = null) {
      if (after) await bus.checkResumable(after, afterGeneration);
      const wanted = kinds && kinds.length > 0 ? new Set(kinds) : null;
      // The bus's stream as it is: no layer of our own per subscriber (this runs once per subscriber per event).
      // A failure of the stream becomes its last value, an interruption the client can resume after.
      return bus.subscribePaymentEvents<SubscriptionInterruption>({
        after,
        kinds: wanted,
        failureAs: (err: unknown) => {
          log.warn('paymentEvents subscription interrupted', { error: err });
          return new SubscriptionInterruption((err as Error)?.message ?? String(err));
        },
      });
    },

    resourceForEvent(event) {
      if (!event.resourceType || !event.reference) return Promise.resolve(null);
      const key = 'seq' in event ? event.seq : event.id;
      let pending = byEvent.get(key);
      if (!pending) {
        pending = upstreamFetch(event.resourceType, event.reference).catch((err: unknown) => {
          if (isNotFound(err)) return null;
          throw err;
        });
        byEvent.set(key, pending);
        // Subscribers resolve an event within moments of each other; keep it that long only.
        setTimeout(() => byEvent.delete(key), EVENT_RESOURCE_TTL_MS).unref();
      }
      return pending;
    },
    close() {
      byEvent.clear();
      pollers.stopAll();
    },
  };
}
