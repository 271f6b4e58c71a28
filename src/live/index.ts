// Live updates behind the GraphQL subscriptions. Webhooks are the trigger and
// the API is the truth: when a webhook about a resource arrives, the replica
// that received it fetches the resource once and publishes it on the bus,
// and every subscriber on every replica gets that state. Where no webhook
// comes, a shared poller per resource does the same. Subscribers only ever
// see forward changes.
import { Repeater } from '@repeaterjs/repeater';
import type { EventBus, ResourceChange } from '../events/bus.js';
import type { Logger } from '../logger.js';
import type { UpstreamClient } from '../upstream/types.js';
import type { PaymentEventRecord } from '../events/payment-event.js';
import type { ResourceKind } from '../upstream/types.js';
import { createResourceFetcher, type LiveResource } from './fetch-resource.js';
import { createPollers, type PollingOptions } from './pollers.js';
import { isForwardChange, isTerminal } from './status-order.js';
import { isNotFound } from '../upstream/errors.js';

const EVENT_RESOURCE_TTL_MS = 10_000;

export interface LiveUpdates {
  /** After a verified webhook was published: refresh its resource in the background (never in the request path). */
  onWebhook(event: PaymentEventRecord): void;
  /** The resource each time its status moves forward; ends after a final status. */
  watch(type: ResourceKind, reference: string): AsyncIterableIterator<LiveResource>;
  /** Every verified webhook, optionally only some kinds. */
  paymentEvents(kinds: readonly string[] | null): AsyncIterableIterator<PaymentEventRecord>;
  /**
   * The resource a webhook is about, fetched after that webhook arrived, once per event in
   * this process however many subscribers resolve it (null when it no longer exists).
   */
  resourceForEvent(event: PaymentEventRecord): Promise<LiveResource | null>;
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
  const upstreamFetch = (type: ResourceKind, reference: string): Promise<LiveResource> => fetchResource(type, reference, Date.now());
  const byEvent = new Map<string, Promise<LiveResource | null>>();
  const publish = (type: ResourceKind, resource: LiveResource) =>
    bus.publishResourceChanged({ type, reference: resource.reference, status: resource.status, resource });
  const pollers = createPollers(fetchResource, publish, polling, log);

  /** Checkouts have two reference forms; subscriptions and events use the one fetch returns. */
  const canonicalReference = async (type: ResourceKind, reference: string) =>
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
      return new Repeater<LiveResource>(async (push, stop) => {
        let changes: AsyncIterator<ResourceChange> | null = null;
        let release = () => {};
        let stopped = false;
        void stop.then(() => {
          stopped = true;
          release();
          void changes?.return?.();
        });
        const canonical = await canonicalReference(type, reference);
        if (stopped) return;
        changes = bus.subscribeResourceChanged(type, canonical);
        // The bus's streams subscribe on their first pull: pull before reading the baseline, so that
        // no change falls between the two.
        let pending = changes.next();
        pending.catch(() => {}); // consumed below, or dropped when the client leaves first
        const baseline = await fetchResource(type, canonical);
        if (isTerminal(type, baseline.status)) {
          // Nothing will follow a final status: no poller, and the client gets that status.
          await push(baseline);
          return stop();
        }
        if (stopped) return;
        let last = baseline.status;
        release = pollers.acquire(type, canonical, baseline.status);
        const left = stop.then(() => null);
        for (;;) {
          const step = await Promise.race([pending, left]);
          if (step === null || step.done) break;
          const change = step.value;
          if (isForwardChange(type, last, change.status)) {
            last = change.status;
            await push(change.resource as LiveResource);
            if (isTerminal(type, change.status)) break;
          }
          pending = changes.next();
        }
        stop();
      });
    },

    paymentEvents(kinds) {
      const wanted = kinds && kinds.length > 0 ? new Set(kinds) : null;
      return new Repeater<PaymentEventRecord>(async (push, stop) => {
        const events = bus.subscribePaymentEvents();
        void stop.then(() => events.return?.());
        for await (const event of events) {
          if (!wanted || wanted.has(event.kind)) await push(event);
        }
        stop();
      });
    },

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
    close() {
      byEvent.clear();
      pollers.stopAll();
    },
  };
}
