// Payout batches: a durable job the gateway runs for the caller (see
// docs/payout-batches.md). This is what the schema uses: the
// batch operations, reads, the live view of one batch, and the runner every
// replica starts. State lives in Redis when the gateway has one (shared by
// replicas, kept across restarts), in memory otherwise (lost on restart).
// In platform mode each merchant has its own book of batches (`forMerchant`):
// its documents under its hash tag and in its key index, its own pacer (its
// account at the service has its own rate), its events carrying its id, and
// its runs calling the service with its own key, on workers shared fairly
// between merchants (fair-share.ts).
import type { PayoutBatchConfig } from '../config.js';
import type { EventBus } from '../events/bus.js';
import type { IdempotencyStore } from '../idempotency/store.js';
import type { Logger } from '../logger.js';
import type { GatewayRedis } from '../redis/index.js';
import type { UpstreamClient, Wallet } from '../upstream/types.js';
import { batchEvents } from './batch-events.js';
import { memoryDocStore, redisDocStore, type DocLayout, type DocStore } from './doc-store.js';
import { ACTIVE_KEY, type BatchDoc, type BatchItem, type ItemInput } from './model.js';
import { memoryPacer, redisPacer, type Pacer } from './pacing.js';
import { startRunner, startRunnerLoop, type RunnerOptions } from './runner.js';
import { memoryActiveMerchants, redisActiveMerchants, type ActiveMerchants } from './active-merchants.js';
import { fairShare } from './fair-share.js';
import { untilNoChunkOnItsWay, watchBatch } from './watch.js';
import { InternalError, InvariantError } from '../errors/internal-error.js';
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
export { fairShare, type FairShare, type Release } from './fair-share.js';

/** The PAYOUT_BATCH_* settings, as src/config.ts validated them. */
export type PayoutBatchSettings = PayoutBatchConfig;

/** One book of payout batches (single mode's, or one merchant's): create, fill, start, approve, cancel, read and watch. */
export interface PayoutBatchBook {
  /** `requireApproval`: a second person must approve it, whatever PAYOUT_BATCH_APPROVAL says (it never waives it). */
  create(input: { scopedKey: string; label: string; createdBy: string; requireApproval?: boolean }): Promise<BatchDoc>;
  addItems(id: string, page: number, items: ItemInput[]): Promise<AddedPage>;
  /** Null when no batch has this id (in this book). */
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
}

/** Payout batches for the schema (single mode's book, or a merchant's in platform mode); the runner sends them. */
export interface PayoutBatches extends PayoutBatchBook {
  readonly settings: PayoutBatchSettings;
  /** Platform mode: one merchant's book. Single mode has none (InvariantError). */
  forMerchant(merchantId: string): PayoutBatchBook;
  close(): Promise<void>;
}

/** Platform mode: what the runner needs of the merchants (the gateway's registry and directory). */
export interface MerchantBatchAccess {
  /** Where a merchant's batches are in Redis: under its hash tag, with its key index (given with Redis only). */
  layout?(merchantId: string): Required<DocLayout> & { pacing: string };
  /** ACTIVE, SUSPENDED (its batches send nothing until reinstated) or GONE (offboarded, purged, never was). */
  status(merchantId: string): Promise<'ACTIVE' | 'SUSPENDED' | 'GONE'>;
  /** The service's client with the merchant's own key. */
  upstreamFor(merchantId: string): Promise<UpstreamClient>;
}

interface PayoutBatchOptions {
  settings: PayoutBatchSettings;
  redis: GatewayRedis | null;
  upstream: UpstreamClient;
  idempotency: IdempotencyStore;
  bus: EventBus;
  log: Logger;
  /** Platform mode; absent: single mode. */
  merchants?: MerchantBatchAccess;
}

/** What one book is kept in, and tells of its batches. */
interface BookScope {
  docs: DocStore;
  pacer: Pacer;
  events: ReturnType<typeof batchEvents>;
}

/** The book's operations over its documents; `wake` tells the runner there is work. */
function book(settings: PayoutBatchSettings, scope: BookScope, bus: EventBus, wake: () => void): PayoutBatchBook {
  const { docs } = scope;
  const { publish } = scope.events;
  const get = async (id: string) => (await docs.get<BatchDoc>(`batch:${id}`))?.value ?? null;
  return {
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
        wake();
      }
      return outcome;
    },
    async approve(id, request) {
      const outcome = await approveBatch(docs, id, { ...request, now: new Date() });
      if (outcome.change !== 'none') {
        publish('payout_batch.approved', outcome.batch);
        wake();
      }
      return outcome;
    },
    async cancel(id, by) {
      const { batch, changed } = await cancelBatch(docs, id, by, new Date());
      if (changed) {
        publish(batch.settled ? 'payout_batch.cancelled' : 'payout_batch.cancelling', batch);
        if (!batch.settled) wake();
      }
      return untilNoChunkOnItsWay(docs, batch);
    },
    watch(id) {
      return watchBatch(docs, bus, id, scope.events.merchantId);
    },
  };
}

/** A merchant's documents: a batch entering its active list puts the merchant in the runner's list of merchants with work. */
function markingActive(docs: DocStore, active: ActiveMerchants, merchantId: string): DocStore {
  return {
    ...docs,
    async put(key, value, expected) {
      const done = await docs.put(key, value, expected);
      if (done && key === ACTIVE_KEY && (value as { ids: string[] }).ids.length > 0) await active.add(merchantId);
      return done;
    },
  };
}

/** A write for a merchant that was offboarded: its keys are left to the purge, never made again. */
export class MerchantGoneError extends InternalError {
  readonly code = 'MERCHANT_GONE';
}

/** An offboarded merchant's documents take no write (a run still ending must not remake what the purge removes). */
function refusingWhenGone(docs: DocStore, status: () => Promise<'ACTIVE' | 'SUSPENDED' | 'GONE'>): DocStore {
  const check = async () => {
    if ((await status()) === 'GONE') throw new MerchantGoneError('the merchant was offboarded');
  };
  return {
    ...docs,
    async put(key, value, expected) {
      await check();
      return docs.put(key, value, expected);
    },
    async acquireLease(name, holder, ttlMs) {
      await check();
      return docs.acquireLease(name, holder, ttlMs);
    },
  };
}

/** Batches over Redis (shared by replicas) or memory, and the runner every replica starts. */
export function createPayoutBatches(options: PayoutBatchOptions): PayoutBatches {
  const { settings, bus, log } = options;
  const base = {
    idempotency: options.idempotency,
    bus,
    log,
    leaseMs: settings.leaseMs,
    settleWindowMs: settings.settleWindowMs,
    followPollMs: settings.followPollMs,
    // Twice the rate: the next second's chunks are marked, claimed and built while this second's calls are answered,
    // and wait at the pacer, so each call goes the moment its slot opens (the pacer alone decides when).
    concurrency: settings.callsPerSecond * 2,
  };
  const runOptions = (scope: BookScope, upstream: UpstreamClient): RunnerOptions => ({
    ...base,
    docs: scope.docs,
    pacer: scope.pacer,
    upstream,
    publish: scope.events.publish,
    progressed: scope.events.progressed,
  });
  return options.merchants ? platformBatches(options, options.merchants, runOptions) : singleBatches(options, runOptions);
}

type RunOptionsOf = (scope: BookScope, upstream: UpstreamClient) => RunnerOptions;

const pacingOf = (settings: PayoutBatchSettings) => ({ callsPerSecond: settings.callsPerSecond, marginMs: settings.pacingMarginMs });

/** Single mode: one book, run with the gateway's client of the service. */
function singleBatches(options: PayoutBatchOptions, runOptions: RunOptionsOf): PayoutBatches {
  const { settings, bus, log, redis } = options;
  const single: BookScope = {
    docs: redis ? redisDocStore(redis) : memoryDocStore(),
    pacer: redis ? redisPacer(redis, pacingOf(settings)) : memoryPacer(pacingOf(settings)),
    events: batchEvents(bus, log),
  };
  const runner = startRunner(runOptions(single, options.upstream));
  return {
    settings,
    ...book(settings, single, bus, () => runner.wake()),
    forMerchant() {
      throw new InvariantError('payout batches per merchant exist in platform mode only');
    },
    async close() {
      await runner.stop();
      single.events.close();
    },
  };
}

/** Platform mode: a book per merchant, made on first use (an idle merchant costs nothing here), run on shared fair workers. */
function platformBatches(options: PayoutBatchOptions, merchants: MerchantBatchAccess, runOptions: RunOptionsOf): PayoutBatches {
  const { settings, bus, log, redis } = options;
  const pacing = pacingOf(settings);
  const active = redis ? redisActiveMerchants(redis) : memoryActiveMerchants();
  const share = fairShare({ workers: settings.workers, perMerchant: settings.merchantWorkers });
  const scopes = new Map<string, BookScope>();
  const scopeOf = (merchantId: string): BookScope => {
    let scope = scopes.get(merchantId);
    if (!scope) {
      const layout = redis ? (merchants.layout?.(merchantId) ?? null) : null;
      const docs = layout && redis ? redisDocStore(redis, undefined, layout) : memoryDocStore();
      scope = {
        docs: refusingWhenGone(markingActive(docs, active, merchantId), () => merchants.status(merchantId)),
        pacer: layout && redis ? redisPacer(redis, pacing, layout.pacing, layout.index) : memoryPacer(pacing),
        events: batchEvents(bus, log, merchantId),
      };
      scopes.set(merchantId, scope);
    }
    return scope;
  };
  const merchantRun = async (merchantId: string): Promise<RunnerOptions | null> => {
    const status = await merchants.status(merchantId);
    if (status === 'GONE') {
      await active.remove(merchantId);
      return null;
    }
    // Suspended: its batches wait (a run under way holds its chunks unsent: merchantStatus).
    if (status === 'SUSPENDED') return null;
    return {
      ...runOptions(scopeOf(merchantId), await merchants.upstreamFor(merchantId)),
      // Its chunks' claims are the merchant's keys, under its tag like its batches.
      idempotency: options.idempotency.forMerchant?.(merchantId) ?? options.idempotency,
      merchantId,
      share,
      merchantStatus: () => merchants.status(merchantId),
    };
  };
  const runner = startRunnerLoop({
    log,
    leaseMs: settings.leaseMs,
    async scopes() {
      const found = await Promise.allSettled((await active.list()).map(merchantRun));
      return found.flatMap((r) => (r.status === 'fulfilled' && r.value ? [r.value] : []));
    },
    async emptied(scope) {
      // Read again after the removal: a batch that entered the list meanwhile puts the merchant back.
      await active.remove(scope.merchantId!);
      if ((await listIds(scope.docs, 'active')).length > 0) await active.add(scope.merchantId!);
    },
  });
  return {
    settings,
    // Platform mode has no batches outside a merchant's book (the schema serves them per merchant only).
    ...noBook(),
    forMerchant: (merchantId) => book(settings, scopeOf(merchantId), bus, () => runner.wake()),
    async close() {
      await runner.stop();
      for (const scope of scopes.values()) scope.events.close();
    },
  };
}

/** The book of no merchant, in platform mode: every batch is a merchant's, so reaching this is a bug. */
function noBook(): PayoutBatchBook {
  const refuse = (): never => {
    throw new InvariantError('platform mode keeps payout batches per merchant only');
  };
  return {
    create: refuse,
    addItems: refuse,
    get: refuse,
    list: refuse,
    items: refuse,
    start: refuse,
    approve: refuse,
    cancel: refuse,
    watch: refuse,
  };
}
