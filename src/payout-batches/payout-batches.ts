// Payout batches: a durable job the gateway runs for the caller (see
// docs/payout-batches.md). This is what the schema uses: the
// batch operations, reads, the live view of one batch, and the runner every
// replica starts. State lives in Redis when the gateway has one (shared by
// replicas, kept across restarts), in memory otherwise (lost on restart).
import type { PayoutBatchConfig } from '../config.js';
import type { EventBus } from '../events/bus.js';
import type { IdempotencyStore } from '../idempotency/store.js';
import type { Logger } from '../logger.js';
import type { GatewayRedis } from '../redis/index.js';
import type { UpstreamClient, Wallet } from '../upstream/types.js';
import { batchEvents } from './batch-events.js';
import { memoryDocStore, redisDocStore, type DocStore } from './doc-store.js';
import type { BatchDoc, BatchItem, ItemInput } from './model.js';
import { memoryPacer, redisPacer } from './pacing.js';
import { startRunner, type Runner } from './runner.js';
import { untilNoChunkOnItsWay, watchBatch } from './watch.js';
import {
  addPage,
  approveBatch,
  cancelBatch,
  createBatch,
  listIds,
  readItems,
  startBatch,
  type AddedPage,
  type StartOutcome,
} from './batch-operations.js';

export { BATCH_STATUSES, ITEM_STATUSES, CHUNK_SIZE, PAGE_MAX_ITEMS, FINAL_STATUSES, feeFor, inFlight } from './model.js';
export type { BatchDoc, BatchItem, BatchStatus, ItemStatus, ItemInput, ItemFailure, WalletTotal, Tally } from './model.js';
export { shortfalls } from './batch-operations.js';
export { PAYOUT_BATCH_EVENT_KINDS, type PayoutBatchEventKind } from './event-kinds.js';

/** The PAYOUT_BATCH_* settings, as src/config.ts validated them. */
export type PayoutBatchSettings = PayoutBatchConfig;

/** Payout batches for the schema: create, fill, start, approve, cancel, read and watch; the runner sends them. */
export interface PayoutBatches {
  readonly settings: PayoutBatchSettings;
  /** `requireApproval`: a second person must approve it, whatever PAYOUT_BATCH_APPROVAL says (it never waives it). */
  create(input: { scopedKey: string; label: string; createdBy: string; requireApproval?: boolean }): Promise<BatchDoc>;
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

interface PayoutBatchOptions {
  settings: PayoutBatchSettings;
  redis: GatewayRedis | null;
  upstream: UpstreamClient;
  idempotency: IdempotencyStore;
  bus: EventBus;
  log: Logger;
}

/** Batches over Redis (shared by replicas) or memory, and the runner every replica starts. */
export function createPayoutBatches(options: PayoutBatchOptions): PayoutBatches {
  const { settings, bus, log } = options;
  const docs: DocStore = options.redis ? redisDocStore(options.redis) : memoryDocStore();
  const pacing = { callsPerSecond: settings.callsPerSecond, marginMs: settings.pacingMarginMs };
  const pacer = options.redis ? redisPacer(options.redis, pacing) : memoryPacer(pacing);

  const { publish, progressed, close: closeEvents } = batchEvents(bus, log);

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
    async create({ requireApproval = false, ...input }) {
      const approvalRequired = settings.approvalRequired || requireApproval;
      return createBatch(docs, { ...input, feeBps: settings.feeBps, approvalRequired, now: new Date() });
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
      if (changed) {
        publish(batch.settled ? 'payout_batch.cancelled' : 'payout_batch.cancelling', batch);
        if (!batch.settled) runner.wake();
      }
      return untilNoChunkOnItsWay(docs, batch);
    },
    watch(id) {
      return watchBatch(docs, bus, id);
    },
    async close() {
      await runner.stop();
      closeEvents();
    },
  };
}
