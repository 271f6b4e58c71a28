// Live reconciliation. The payment service may send a callback once and never
// retry it, and a merchant may forget to enable an event kind: so every
// resource created through the gateway is watched until it is final. When no
// event has moved one for `afterMs`, the gateway fetches it; if its state
// changed, it appends a synthesized event (source POLL) to the log, exactly as
// if a webhook had announced it, so the log and every subscriber end
// complete. Looks back off while nothing changes; a resource still not final
// after `stuckMs` gives one `reconciliation.stuck` event and is let go.
//
// Every replica records the events it reads about watched resources (which
// pushes their next look back); only the replica holding the lease looks.
import { randomUUID } from 'node:crypto';
import type { EventBus } from '../events/bus.js';
import type { PaymentEventRecord } from '../events/payment-event.js';
import { isForwardChange, isTerminal, statusRank } from '../live/status-order.js';
import type { LiveResource } from '../live/fetch-resource.js';
import type { Logger } from '../logger.js';
import { canonicalReference } from '../upstream/checkout-reference.js';
import { isNotFound } from '../upstream/call-error.js';
import type { ResourceKind, UpstreamClient } from '../upstream/types.js';
import type { Clock } from './clock.js';
import type { ReconcileStore, WatchedResource } from './store.js';

export const STUCK_EVENT_KIND = 'reconciliation.stuck';
/** The rank of a resource's first status (send_otp, pending, processing...): a higher one is news. */
const CREATION_RANK = 1;
const BATCH = 50;

export interface ReconcilerOptions {
  store: ReconcileStore;
  bus: EventBus;
  upstream: UpstreamClient;
  clock: Clock;
  log: Logger;
  /** RECONCILE_AFTER_MS. */
  afterMs: number;
  /** RECONCILE_STUCK_HOURS, in ms. */
  stuckMs: number;
  /** Longest wait between two looks while nothing changes. Default 16 × afterMs. */
  maxIntervalMs?: number;
  /** How often the lease holder looks for due resources. Default min(afterMs / 4, 30 s). */
  tickMs?: number;
}

export interface Reconciler {
  /** Watches a resource just created through the gateway (idempotent). Never throws. */
  watch(type: ResourceKind, reference: string): void;
  /** One pass now (what each tick does); resolves when it is done. */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

export function startReconciler(options: ReconcilerOptions): Reconciler {
  const { store, bus, upstream, clock, log, afterMs, stuckMs } = options;
  const maxIntervalMs = options.maxIntervalMs ?? afterMs * 16;
  const tickMs = options.tickMs ?? Math.max(1, Math.min(Math.floor(afterMs / 4), 30_000));
  const leaseMs = Math.max(tickMs * 3, 10_000);
  const holder = randomUUID();
  const fetchers: Record<ResourceKind, (reference: string) => Promise<LiveResource>> = {
    checkout: (r) => upstream.fetchCheckout(r),
    charge: (r) => upstream.fetchCharge(r),
    transfer: (r) => upstream.fetchTransfer(r),
    settlement: (r) => upstream.fetchSettlement(r),
  };
  let stopped = false;
  let timer: { cancel(): void } | null = null;
  let running: Promise<void> = Promise.resolve();

  const append = async (record: Omit<PaymentEventRecord, 'receivedAt' | 'source'>, resource?: LiveResource) => {
    const logged = await bus.publishPaymentEvent({ ...record, receivedAt: new Date(clock.now()).toISOString(), source: 'POLL' });
    if (resource && record.resourceType) {
      // What was fetched is the news: subscribers of the resource need not fetch it again.
      await bus
        .publishResourceChanged({
          type: record.resourceType,
          reference: resource.reference,
          status: resource.status,
          resource,
          cause: logged.seq,
        })
        .catch(() => {});
    }
    return logged;
  };

  const reconcile = async (item: WatchedResource, now: number) => {
    const { type, reference } = item;
    let resource: LiveResource;
    try {
      resource = await fetchers[type](reference);
    } catch (err) {
      if (isNotFound(err)) return store.remove(type, reference);
      log.warn('reconciliation fetch failed', { type, reference, error: err });
      const intervalMs = Math.min(maxIntervalMs, item.intervalMs * 2);
      return store.put({ ...item, intervalMs, dueAt: now + intervalMs });
    }
    const changed =
      item.lastStatus === null
        ? statusRank(type, resource.status) > CREATION_RANK
        : isForwardChange(type, item.lastStatus, resource.status);
    if (changed) {
      const kind = `${type}.${resource.status}`;
      await append(
        {
          id: `poll:${type}:${reference}:${resource.status}`,
          kind,
          reference,
          resourceType: type,
          payload: { event: kind, data: resource, source: 'POLL' },
        },
        resource,
      );
      log.info('reconciliation found a change no webhook announced', { type, reference, status: resource.status });
    }
    if (isTerminal(type, resource.status)) return store.remove(type, reference);
    if (now - item.createdAt >= stuckMs) {
      await append({
        id: `stuck:${type}:${reference}`,
        kind: STUCK_EVENT_KIND,
        reference,
        resourceType: type,
        payload: {
          event: STUCK_EVENT_KIND,
          data: { type, reference, status: resource.status, watchedSince: new Date(item.createdAt).toISOString() },
          source: 'POLL',
        },
      });
      log.warn('resource still not final after the reconciliation limit', { type, reference, status: resource.status });
      return store.remove(type, reference);
    }
    const intervalMs = changed ? afterMs : Math.min(maxIntervalMs, item.intervalMs * 2);
    await store.put({
      ...item,
      lastStatus: changed || item.lastStatus === null ? resource.status : item.lastStatus,
      intervalMs,
      dueAt: now + intervalMs,
    });
  };

  const tick = async () => {
    if (stopped) return;
    try {
      if (!(await store.acquireLease(holder, leaseMs))) return;
      const now = clock.now();
      for (const item of await store.due(now, BATCH)) {
        if (stopped) return;
        // One resource's trouble (Redis refusing the append...) leaves it due: the next tick tries again.
        await reconcile(item, now).catch((err: unknown) =>
          log.warn('reconciliation failed', { type: item.type, reference: item.reference, error: err }),
        );
      }
    } catch (err) {
      log.warn('reconciliation pass failed', { error: err });
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = clock.setTimeout(() => {
      running = tick().finally(schedule);
      return running;
    }, tickMs);
  };
  schedule();

  // Any event about a watched resource (a webhook, or another replica's poll) pushes its next look back.
  const unlisten = bus.onLoggedEvent((event) => {
    if (!event.resourceType || !event.reference || event.source === 'POLL') return;
    const { resourceType: type, reference } = event;
    const data = (event.payload as { data?: { status?: unknown } } | null)?.data;
    const status = typeof data?.status === 'string' ? data.status.toLowerCase() : null;
    void (async () => {
      const item = await store.get(type, reference);
      if (!item) return;
      if (status && isTerminal(type, status)) return store.remove(type, reference);
      const lastStatus = status && isForwardChange(type, item.lastStatus, status) ? status : item.lastStatus;
      await store.put({ ...item, lastStatus, intervalMs: afterMs, dueAt: clock.now() + afterMs });
    })().catch((err: unknown) => log.warn('could not record an event for reconciliation', { type, reference, error: err }));
  });

  return {
    watch(type, reference) {
      void (async () => {
        // Events name checkouts by their UUID: watch that form, not the chk_ one the creation returned.
        const canonical = await canonicalReference(type, reference, fetchers.checkout);
        const now = clock.now();
        await store.add({ type, reference: canonical, createdAt: now, lastStatus: null, intervalMs: afterMs, dueAt: now + afterMs });
      })().catch((err: unknown) => log.warn('could not start watching a created resource', { type, reference, error: err }));
    },
    tick,
    async stop() {
      stopped = true;
      unlisten();
      timer?.cancel();
      await running.catch(() => {});
      await store.releaseLease(holder).catch(() => {});
    },
  };
}
