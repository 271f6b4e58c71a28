// Every replica records the events it reads about watched resources: a webhook (or another replica's
// poll) pushes the resource's next look back, and a final status lets it go.
import type { EventBus } from '../events/bus.js';
import { isForwardChange, isTerminal } from '../live/status-order.js';
import type { Logger } from '../logger.js';
import type { Clock } from './clock.js';
import type { ReconcileStore } from './store.js';

/** Listens to the log; returns the unlisten function. */
export function recordHeardEvents(settings: {
  store: ReconcileStore;
  bus: EventBus;
  clock: Clock;
  log: Logger;
  afterMs: number;
}): () => void {
  const { store, bus, clock, log, afterMs } = settings;
  return bus.onLoggedEvent((event) => {
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
}
