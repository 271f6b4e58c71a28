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

export interface LiveUpdates {
  /** After a verified webhook was published: refresh its resource in the background (never in the request path). */
  onWebhook(event: PaymentEventRecord): void;
  /** The resource each time its status moves forward; ends after a final status. */
  watch(type: ResourceType, reference: string): AsyncIterableIterator<LiveResource>;
  /** Every verified webhook, optionally only some kinds. */
  paymentEvents(kinds: readonly string[] | null): AsyncIterableIterator<PaymentEventRecord>;
  /** The current resource, coalescing concurrent fetches of the same one. */
  fetchResource(type: ResourceType, reference: string): Promise<LiveResource>;
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
      fetchResource(type, event.reference)
        .then((resource) => publish(type, resource))
        .catch((err: unknown) => log.warn('could not refresh resource after webhook', { type, reference: event.reference, error: err }));
    },

    watch(type, reference) {
      let changes: AsyncIterator<{ status: string; resource: unknown }> | null = null;
      let release = () => {};
      let ended = false;
      let last: string | null = null;
      const source: AsyncIterator<{ status: string; resource: unknown }> = {
        next: () => changes!.next(),
        return: () => changes?.return?.() ?? Promise.resolve({ done: true, value: undefined }),
      };
      // Subscribe to the bus before reading the baseline, so no change falls between the two.
      const ready = (async () => {
        const canonical = await canonicalReference(type, reference);
        changes = bus.subscribeResourceChanged(type, canonical);
        if (ended) return void changes.return?.();
        const baseline = await fetchResource(type, canonical);
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
    get activePollers() {
      return pollers.active;
    },
    close() {
      pollers.stopAll();
    },
  };
}
