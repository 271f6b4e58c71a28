// Live updates behind the GraphQL subscriptions. Webhooks are the trigger and
// the API is the truth: when a webhook about a resource arrives, the replica
// that received it fetches the resource once and publishes it on the bus,
// and every subscriber on every replica gets that state. Where no webhook
// comes, a shared poller per resource does the same. Subscribers only ever
// see forward changes.
import type { EventBus } from '../events/bus.js';
import type { Logger } from '../logger.js';
import type { UpstreamClient } from '../upstream/types.js';
import type { PaymentEventRecord, ResourceType } from '../webhooks/event.js';
import { createResourceFetcher, type LiveResource } from './fetch-resource.js';
import { filterMap } from './iterators.js';
import { createPollers, type PollingOptions } from './pollers.js';
import { isForwardChange, isTerminal } from './status-order.js';
import { isNotFound } from '../schema/loaders.js';

const EVENT_RESOURCE_TTL_MS = 10_000;

export interface LiveUpdates {
  /** After a verified webhook was published: refresh its resource in the background (never in the request path). */
  onWebhook(event: PaymentEventRecord): void;
  /** The resource each time its status moves forward; ends after a final status. */
  watch(type: ResourceType, reference: string): AsyncIterableIterator<LiveResource>;
  /** Every verified webhook, optionally only some kinds. */
  paymentEvents(kinds: readonly string[] | null): AsyncIterableIterator<PaymentEventRecord>;
  /**
   * The current resource, coalescing concurrent fetches of the same one. With `notBefore`
   * (epoch ms, e.g. a webhook's receipt) only a fetch started at or after it is joined.
   */
  fetchResource(type: ResourceType, reference: string, notBefore?: number): Promise<LiveResource>;
  /**
   * The resource a webhook is about, fetched after that webhook arrived, once per event in
   * this process however many subscribers resolve it (null when it no longer exists).
   */
  resourceForEvent(event: PaymentEventRecord): Promise<LiveResource | null>;
  readonly activePollers: number;
  close(): void;
}

export interface LiveUpdatesOptions {
  bus: EventBus;
  upstream: UpstreamClient;
  log: Logger;
  polling: PollingOptions;
}

export function createLiveUpdates({ bus, upstream, log, polling }: LiveUpdatesOptions): LiveUpdates {
  const fetchResource = createResourceFetcher(upstream);
  // A fresh fetch (not joined to one already running, which may predate the event).
  const upstreamFetch = (type: ResourceType, reference: string): Promise<LiveResource> => fetchResource(type, reference, Date.now());
  const byEvent = new Map<string, Promise<LiveResource | null>>();
  const publish = (type: ResourceType, resource: LiveResource) =>
    bus.publishResourceChanged({ type, reference: resource.reference, status: resource.status, resource });
  const pollers = createPollers(fetchResource, publish, polling, log);

  /** Checkouts have two reference forms; subscriptions and events use the one fetch returns. */
  const canonicalReference = async (type: ResourceType, reference: string) =>
    type === 'checkout' && reference.startsWith('chk_') ? (await fetchResource(type, reference)).reference : reference;

  return {
    onWebhook(event) {
      if (!event.resourceType || !event.reference) return;
      const type = event.resourceType;
      // Not an answer to a fetch that started before the webhook came: it may predate the change.
      fetchResource(type, event.reference, Date.parse(event.receivedAt))
        .then((resource) => publish(type, resource))
        .catch((err: unknown) => log.warn('could not refresh resource after webhook', { type, reference: event.reference, error: err }));
    },

    watch(type, reference) {
      type Change = { status: string; resource: unknown };
      let changes: AsyncIterator<Change> | null = null;
      // The bus's iterators are lazy (a Repeater adds its listener on the first next()): the first
      // pull is made as soon as the iterator exists and kept for the first next() of the stream.
      let firstPull: Promise<IteratorResult<Change>> | null = null;
      // A resource already final when the client subscribes: its state is the one item, then the end.
      let finalBaseline: Change | null = null;
      let release = () => {};
      let ended = false;
      let last: string | null = null;
      const source: AsyncIterator<Change> = {
        next: () => {
          if (finalBaseline) {
            const value = finalBaseline;
            finalBaseline = null;
            return Promise.resolve({ done: false, value });
          }
          if (firstPull) {
            const pull = firstPull;
            firstPull = null;
            return pull;
          }
          return changes!.next();
        },
        return: () => changes?.return?.() ?? Promise.resolve({ done: true, value: undefined }),
      };
      // Subscribe to the bus before reading the baseline, so no change falls between the two.
      const ready = (async () => {
        const canonical = await canonicalReference(type, reference);
        changes = bus.subscribeResourceChanged(type, canonical);
        if (ended) return void changes.return?.();
        firstPull = changes.next();
        firstPull.catch(() => {}); // consumed (or ended) by the stream; never an unhandled rejection
        const baseline = await fetchResource(type, canonical);
        if (isTerminal(type, baseline.status)) {
          // Nothing will follow a final status: no poller, and the client gets that status.
          finalBaseline = { status: baseline.status, resource: baseline };
          return;
        }
        last = baseline.status;
        release = pollers.acquire(type, canonical, baseline.status);
        // The client may have left while we were fetching.
        if (ended) release();
      })();
      return filterMap(
        source,
        {
          map: (change) => {
            if (!isForwardChange(type, last, change.status)) return undefined;
            last = change.status;
            return change.resource as LiveResource;
          },
          isLast: (resource) => isTerminal(type, resource.status),
          onEnd: () => {
            ended = true;
            release();
          },
        },
        ready,
      );
    },

    paymentEvents(kinds) {
      const wanted = kinds && kinds.length > 0 ? new Set(kinds) : null;
      return filterMap(bus.subscribePaymentEvents(), { map: (event) => (wanted && !wanted.has(event.kind) ? undefined : event) });
    },

    fetchResource,
    resourceForEvent(event) {
      if (!event.resourceType || !event.reference) return Promise.resolve(null);
      let pending = byEvent.get(event.id);
      if (!pending) {
        pending = upstreamFetch(event.resourceType, event.reference).catch((err: unknown) => {
          if (isNotFound(err)) return null;
          throw err;
        });
        byEvent.set(event.id, pending);
        // Subscribers resolve an event within moments of each other; keep it that long only.
        setTimeout(() => byEvent.delete(event.id), EVENT_RESOURCE_TTL_MS).unref();
      }
      return pending;
    },
    get activePollers() {
      return pollers.active;
    },
    close() {
      byEvent.clear();
      pollers.stopAll();
    },
  };
}
