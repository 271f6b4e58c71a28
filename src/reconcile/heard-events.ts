// The replica that appends an event about a watched resource records it: a webhook pushes the resource's
// next look back, and a final status lets it go. Only that replica (not every replica reading the log): one
// look at the watch per event, whatever the number of replicas. Should it die between the append and this
// record, nothing is lost: the resource stays in the schedule (reconcile:due) at its old time, and the lease
// holder then fetches it as for any due resource (the status the webhook brought may be announced a second
// time, as a POLL event, before the watch ends or moves on).
import type { EventBus } from '../events/bus.js';
import { isForwardChange, isTerminal } from '../live/status-order.js';
import type { Logger } from '../logger.js';
import type { Clock } from './clock.js';
import type { ReconcileStore } from './store.js';

/** Listens to the events this replica appends; returns the unlisten function. */
export function recordHeardEvents(settings: {
  /** The watch list an event's resource is in: its merchant's in platform mode. */
  storeFor(merchantId: string | undefined): ReconcileStore;
  bus: Pick<EventBus, 'onAppendedEvent'>;
  clock: Clock;
  log: Logger;
  afterMs: number;
}): () => void {
  const { bus, clock, log, afterMs } = settings;
  return bus.onAppendedEvent((event) => {
    if (!event.resourceType || !event.reference || event.source === 'POLL') return;
    const { resourceType: type, reference } = event;
    const data = (event.payload as { data?: { status?: unknown } } | null)?.data;
    const status = typeof data?.status === 'string' ? data.status.toLowerCase() : null;
    const store = settings.storeFor(event.merchantId);
    void (async () => {
      const item = await store.get(type, reference);
      if (!item) return;
      if (status && isTerminal(type, status)) return store.remove(type, reference);
      const lastStatus = status && isForwardChange(type, item.lastStatus, status) ? status : item.lastStatus;
      await store.put({ ...item, lastStatus, intervalMs: afterMs, dueAt: clock.now() + afterMs });
    })().catch((err: unknown) => log.warn('could not record an event for reconciliation', { type, reference, error: err }));
  });
}
