// Payout batches: a durable job the gateway runs for the caller (see the
// README, "Paying many people at once"). This is what the schema uses: the
// batch operations, reads, the live view of one batch, and the runner every
// replica starts. State lives in Redis when the gateway has one (shared by
// replicas, kept across restarts), in memory otherwise (lost on restart).
import type { PayoutBatchConfig } from '../config.js';
import { Repeater } from '@repeaterjs/repeater';
import type { EventBus } from '../events/bus.js';
import type { IdempotencyStore } from '../idempotency/store.js';
import type { Logger } from '../logger.js';
import type { GatewayRedis } from '../redis/index.js';
import type { UpstreamClient, Wallet } from '../upstream/types.js';
import { memoryDocStore, redisDocStore, type DocStore } from './doc-store.js';
import { FINAL_STATUSES, type BatchDoc, type BatchItem, type ItemInput } from './model.js';
import { memoryPacer, redisPacer } from './pacing.js';
import { startRunner, type Runner } from './runner.js';
import {
  addPage,
  approveBatch,
  cancelBatch,
  createBatch,
  listIds,
  readBatch,
  readItems,
  startBatch,
  type AddedPage,
  type StartOutcome,
} from './store.js';

export { BATCH_STATUSES, ITEM_STATUSES, CHUNK_SIZE, PAGE_MAX_ITEMS, FINAL_STATUSES, feeFor, inFlight } from './model.js';
export type { BatchDoc, BatchItem, BatchStatus, ItemStatus, ItemInput, ItemFailure, WalletTotal, Tally } from './model.js';
export { shortfalls } from './store.js';

/** The PAYOUT_BATCH_* settings, as src/config.ts validated them. */
export type PayoutBatchSettings = PayoutBatchConfig;

export interface PayoutBatches {
  readonly settings: PayoutBatchSettings;
  create(input: { scopedKey: string; label: string; createdBy: string }): Promise<BatchDoc>;
  addItems(id: string, page: number, items: ItemInput[]): Promise<AddedPage>;
  /** Null when no batch has this id. */
  get(id: string): Promise<BatchDoc | null>;
  /** Newest first. */
  list(): Promise<BatchDoc[]>;
  items(batch: BatchDoc): Promise<BatchItem[]>;
  start(
    id: string,
    request: { by: string; sendWhatFits: boolean; balance: () => Promise<ReadonlyMap<Wallet, number>> },
  ): Promise<StartOutcome>;
  approve(id: string, request: { by: string; balance: () => Promise<ReadonlyMap<Wallet, number>> }): Promise<StartOutcome>;
  cancel(id: string, by: string): Promise<BatchDoc>;
  /** The batch now, then each change of its counts or status (at most a few per second); ends once it is final and settled. */
  watch(id: string): AsyncIterableIterator<BatchDoc>;
  close(): Promise<void>;
}

export interface PayoutBatchOptions {
  settings: PayoutBatchSettings;
  redis: GatewayRedis | null;
  upstream: UpstreamClient;
  idempotency: IdempotencyStore;
  bus: EventBus;
  log: Logger;
}

/** At most this many progress events per batch per second (each change of counts is one otherwise). */
const PROGRESS_EVENTS_PER_SECOND = 2;
const WATCH_SAFETY_MS = 1_000;
/** Longest a cancel waits for a chunk already on its way (one bulk call's deadline is the usual bound). */
const CANCEL_WAIT_MS = 5_000;

export function createPayoutBatches(options: PayoutBatchOptions): PayoutBatches {
  const { settings, bus, log } = options;
  const docs: DocStore = options.redis ? redisDocStore(options.redis) : memoryDocStore();
  const pacing = { callsPerSecond: settings.callsPerSecond, marginMs: settings.pacingMarginMs };
  const pacer = options.redis ? redisPacer(options.redis, pacing) : memoryPacer(pacing);

  const publish = (kind: string, batch: BatchDoc) => {
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
      })
      .catch((err: unknown) => log.warn('payout batch event not logged', { batchId: batch.id, kind, error: err }));
  };

  // Coalesced: a batch's progress goes out at most PROGRESS_EVENTS_PER_SECOND times a second, the last state always.
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

  const runner: Runner = startRunner({
    docs,
    pacer,
    upstream: options.upstream,
    idempotency: options.idempotency,
    bus,
    log,
    leaseMs: settings.leaseMs,
    settleWindowMs: settings.settleWindowMs,
    followPollMs: settings.followPollMs,
    // Twice the rate: the next second's chunks are marked, claimed and built while this second's calls are answered,
    // and wait at the pacer, so each call goes the moment its slot opens (the pacer alone decides when).
    concurrency: settings.callsPerSecond * 2,
    publish,
    progressed,
  });

  const get = async (id: string) => (await docs.get<BatchDoc>(`batch:${id}`))?.value ?? null;

  return {
    settings,
    async create(input) {
      return createBatch(docs, { ...input, feeBps: settings.feeBps, approvalRequired: settings.approvalRequired, now: new Date() });
    },
    addItems(id, page, items) {
      return addPage(docs, id, page, items, settings.maxItems);
    },
    get,
    async list() {
      const ids = await listIds(docs, 'all');
      const found = await docs.getMany<BatchDoc>(ids.map((id) => `batch:${id}`));
      return found.flatMap((doc) => (doc ? [doc.value] : [])).reverse();
    },
    items(batch) {
      return readItems(docs, batch);
    },
    async start(id, request) {
      const outcome = await startBatch(docs, id, { ...request, approvalRequired: settings.approvalRequired, now: new Date() });
      if (outcome.change === 'queued_for_approval') publish('payout_batch.awaiting_approval', outcome.batch);
      if (outcome.change === 'started' || outcome.change === 'resumed') {
        publish('payout_batch.queued', outcome.batch);
        runner.wake();
      }
      return outcome;
    },
    async approve(id, request) {
      const outcome = await approveBatch(docs, id, { ...request, now: new Date() });
      if (outcome.change !== 'none') {
        publish('payout_batch.approved', outcome.batch);
        runner.wake();
      }
      return outcome;
    },
    async cancel(id, by) {
      const { batch, changed } = await cancelBatch(docs, id, by, new Date());
      if (changed) publish(batch.settled ? 'payout_batch.cancelled' : 'payout_batch.cancelling', batch);
      // A chunk marked as sending before the cancel may still be on its way: the answer waits for it (bounded), so
      // that once the cancel is acknowledged nothing of the batch is being sent.
      const deadline = Date.now() + CANCEL_WAIT_MS;
      let current = batch;
      while (current.chunks.some((c) => c.state === 'sending') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        current = await readBatch(docs, id);
      }
      return current;
    },
    watch(id) {
      return new Repeater<BatchDoc>(async (push, stop) => {
        let wake: (() => void) | null = null;
        const unlisten = bus.onLoggedEvent((event) => {
          if (event.reference === id && event.kind.startsWith('payout_batch.')) wake?.();
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
    },
    async close() {
      await runner.stop();
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
