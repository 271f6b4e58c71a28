// A batch's events in the shared log (payout_batch.*): what subscribers and the other replicas hear of it. Progress
// is coalesced: at most PROGRESS_EVENTS_PER_SECOND per batch, the last state always.
import type { EventBus } from '../events/bus.js';
import type { Logger } from '../logger.js';
import type { PayoutBatchEventKind } from './event-kinds.js';
import type { BatchDoc } from './model.js';

/** At most this many progress events per batch per second (each change of counts is one otherwise). */
export const PROGRESS_EVENTS_PER_SECOND = 2;

/**
 * Publishes a batch's lifecycle and progress to the shared event log as `payout_batch.*`, progress coalesced to PROGRESS_EVENTS_PER_SECOND
 * per batch with the last state always sent. A failed publish is logged as a warning and never fails the batch. In platform mode each
 * event carries the merchant's id.
 */
export function batchEvents(bus: EventBus, log: Logger, merchantId?: string) {
  const publish = (kind: PayoutBatchEventKind, batch: BatchDoc) => {
    const c = batch.counts;
    void bus
      .publishPaymentEvent({
        id: `payout_batch:${batch.id}:${kind}:${Date.now()}:${c.sent.items}:${c.succeeded.items}:${c.failed.items}:${c.notSent.items}`,
        kind,
        receivedAt: new Date().toISOString(),
        reference: batch.id,
        resourceType: null,
        payload: { event: kind, data: summaryOf(batch) },
        source: 'POLL',
        // Platform mode: the merchant's own, so that only its event history and subscribers see it.
        ...(merchantId ? { merchantId } : {}),
      })
      .catch((err: unknown) => log.warn('payout batch event not logged', { batchId: batch.id, kind, error: err }));
  };

  const lastProgress = new Map<string, { at: number; timer: NodeJS.Timeout | null; latest: BatchDoc }>();
  const progressed = (batch: BatchDoc) => {
    const gap = 1_000 / PROGRESS_EVENTS_PER_SECOND;
    const entry = lastProgress.get(batch.id) ?? { at: 0, timer: null, latest: batch };
    entry.latest = batch;
    lastProgress.set(batch.id, entry);
    if (entry.timer) return;
    const wait = Math.max(0, entry.at + gap - Date.now());
    entry.timer = setTimeout(() => {
      entry.timer = null;
      entry.at = Date.now();
      publish('payout_batch.progress', entry.latest);
      if (entry.latest.settled) lastProgress.delete(batch.id);
    }, wait);
  };

  return {
    merchantId,
    publish,
    progressed,
    close() {
      for (const entry of lastProgress.values()) if (entry.timer) clearTimeout(entry.timer);
    },
  };
}

/** What a payout_batch.* event carries: the batch's state, no phone number. */
function summaryOf(batch: BatchDoc) {
  const c = batch.counts;
  return {
    id: batch.id,
    label: batch.label,
    status: batch.status,
    settled: batch.settled,
    added: c.added,
    sent: c.sent,
    succeeded: c.succeeded,
    failed: c.failed,
    notSent: c.notSent,
  };
}
