// Reading a batch as it changes: the live view (payoutBatchUpdated) and a cancel's wait for chunks on their way.
import { Repeater } from '@repeaterjs/repeater';
import type { EventBus } from '../events/bus.js';
import { PROGRESS_EVENTS_PER_SECOND } from './batch-events.js';
import type { DocStore } from './doc-store.js';
import { FINAL_STATUSES, type BatchDoc } from './model.js';
import { readBatch } from './batch-operations.js';

const WATCH_SAFETY_MS = 1_000;
/** Longest a cancel waits for a chunk already on its way (one bulk call's deadline is the usual bound). */
const CANCEL_WAIT_MS = 5_000;

/**
 * The batch now, then each change of its status or counts; the final view (a final status, settled) once, and then
 * it ends. A CANCELLING batch is not final: its counts still grow.
 */
export function watchBatch(docs: DocStore, bus: EventBus, id: string, merchantId?: string): AsyncIterableIterator<BatchDoc> {
  return new Repeater<BatchDoc>(async (push, stop) => {
    let wake: (() => void) | null = null;
    const unlisten = bus.onLoggedEvent((event) => {
      if (event.reference === id && event.kind.startsWith('payout_batch.') && event.merchantId === merchantId) wake?.();
    });
    let ended = false;
    void stop.then(() => {
      ended = true;
      wake?.();
    });
    try {
      let last = '';
      while (!ended) {
        const batch = await readBatch(docs, id);
        const view = JSON.stringify({ s: batch.status, c: batch.counts, settled: batch.settled, a: batch.approval });
        if (view !== last) {
          last = view;
          await push(batch);
        }
        if (FINAL_STATUSES.has(batch.status) && batch.settled) break;
        // The log tells every replica of a change; the timer covers an event this replica missed.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, WATCH_SAFETY_MS);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
        // Coalesced: changes that arrive together are read once.
        if (!ended) await new Promise((resolve) => setTimeout(resolve, 1_000 / (PROGRESS_EVENTS_PER_SECOND * 2)));
      }
    } finally {
      unlisten();
      stop();
    }
  });
}

/**
 * A cancel's answer: a chunk marked as sending before the cancel may still be on its way, so the answer waits for it
 * (bounded): once the cancel is acknowledged nothing of the batch is being sent. A chunk in doubt stays `sending`
 * past the wait, until it is looked up (the batch is CANCELLING meanwhile).
 */
export async function untilNoChunkOnItsWay(docs: DocStore, batch: BatchDoc): Promise<BatchDoc> {
  const deadline = Date.now() + CANCEL_WAIT_MS;
  let current = batch;
  while (current.chunks.some((c) => c.state === 'sending') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    current = await readBatch(docs, batch.id);
  }
  return current;
}
