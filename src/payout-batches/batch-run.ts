// One replica's run of one batch, while it holds the batch's lease (runner.ts): sends its chunks paced, follows its
// sent items to their end all along, and ends it (completed, or cancelled once what was sent is final).
//
// Never twice, never lost:
// - every item's ext_id was fixed when its page was added; a chunk is marked `sending` in the batch document (after
//   which a cancel stops it only until its call), takes its pacing slot, and is then sent under its own idempotency
//   key through runIdempotent: a chunk whose answer was lost, or whose sender died, is looked up at the service by
//   ext_id before anything is sent again, by the same rules as every other payment (src/idempotency/run.ts). A
//   sender that died is known by its claim (its holder gone, its deadline passed): its chunk is looked up within
//   PAYMENT_TIMEOUT_MS of its call, not after IDEMPOTENCY_PENDING_TTL_MS;
// - chunks in doubt wait for their answer on their own: the others go on meanwhile, and sent items are followed;
// - a chunk the service refused for rate (RATE_LIMIT_EXCEEDED), or that never left (connection refused), was
//   provably not carried out: it waits and goes again;
// - items the service refused for funds (the batch pauses) are provably not sent: a resume sends them again in a
//   new round of their chunk, each under a new ext_id the resume wrote before the chunk may go (see batch-operations.ts);
// - a cancelled batch is CANCELLING until every item sent, or in doubt, is final: only then is it CANCELLED;
// - item outcomes are written to the chunk documents before the batch's counts, and a runner that takes over
//   derives the counts from the items; a final batch's counts are never written again.
import { auditBatchEndLine } from '../audit/audit-lines.js';
import { IdempotencyConflictError, ServiceUnavailableError } from '../errors/payment-errors.js';
import type { EventBus } from '../events/bus.js';
import { mayHaveReachedService, runIdempotent } from '../idempotency/run.js';
import type { IdempotencyStore } from '../idempotency/store.js';
import type { Logger } from '../logger.js';
import { UpstreamCallError } from '../upstream/call-error.js';
import type { UpstreamClient } from '../upstream/types.js';
import { callBulk, lookUpChunk, transfersByExtId, type ChunkRequest, type ChunkResult } from './chunk-call.js';
import type { DocStore } from './doc-store.js';
import type { PayoutBatchEventKind } from './event-kinds.js';
import { ItemBook } from './item-book.js';
import {
  ACTIVE_KEY,
  FINAL_STATUSES,
  batchKey,
  chunkCallKey,
  chunkKey,
  countsOf,
  inFlight,
  type BatchDoc,
  type BatchStatus,
  type ItemFailure,
} from './model.js';
import type { Pacer, PacerSlot } from './pacing.js';
import { SlotTaker } from './slot-taker.js';
import type { FairShare } from './fair-share.js';
import { addToList, readBatch, removeFromList, updateDoc } from './batch-operations.js';
import { InternalError } from '../errors/internal-error.js';

/**
 * What a runner needs: the batch documents, the pacer shared by every replica, the service, the idempotency store, the event bus and a
 * logger.
 */
export interface RunnerOptions {
  docs: DocStore;
  pacer: Pacer;
  upstream: UpstreamClient;
  idempotency: IdempotencyStore;
  bus: EventBus;
  log: Logger;
  /** A replica that stops renewing loses a batch after this long. */
  leaseMs: number;
  /** How long a chunk in doubt that the service does not show may still appear there before it is sent again. */
  settleWindowMs: number;
  /** First wait before the runner lists transfers to follow sent items no event has moved. */
  followPollMs: number;
  /** How often each replica looks for batches to run. */
  tickMs?: number;
  /** Chunks one run may have on their way at once, counting those ready and waiting for their slot. */
  concurrency: number;
  /** Publishes a batch's event (payout_batch.*). */
  publish: (kind: PayoutBatchEventKind, batch: BatchDoc) => void;
  /** Told of every batch the runner changed (coalesced progress events). */
  progressed: (batch: BatchDoc) => void;
  /** Platform mode: the merchant whose batches these are (only its events move its items); absent: single mode. */
  merchantId?: string;
  /** Platform mode: the workers shared between merchants (fair-share.ts); each chunk holds one while it is worked on. */
  share?: FairShare;
  /**
   * Platform mode: the merchant's status now. SUSPENDED: a chunk not yet sent waits unsent until it is reinstated;
   * GONE (offboarded): the run stops, and its batch is left to the purge.
   */
  merchantStatus?: () => Promise<'ACTIVE' | 'SUSPENDED' | 'GONE'>;
}

const FOLLOW_POLL_MAX_MS = 30_000;
/**
 * How long after its claim a chunk sent again (in doubt before) may still start its call: it claims, then waits for
 * its pacing slot, a few seconds at most. Its claim's deadline allows for it (src/idempotency/store.ts).
 */
const RESEND_START_WITHIN_MS = 5_000;

/** Another replica wrote the batch's documents: it holds the lease now, and this run stops. */
export class LeaseLostError extends InternalError {
  readonly code = 'PAYOUT_BATCH_LEASE_LOST';
}

/**
 * One replica's run of one batch while it holds the batch's lease: sends its chunks paced, follows sent items to their end, and ends the
 * batch. Never sends an item twice (see the file's header); stops with LeaseLostError when another replica took the lease.
 */
export class BatchRun {
  private readonly book = new ItemBook();
  /** Chunks this run is working on now, and their promises. */
  private readonly sending = new Set<number>();
  private readonly inFlightSends = new Set<Promise<void>>();
  /** Chunks in doubt, or refused for now, and when to try them again: meanwhile they hold back no other chunk. */
  private readonly retryAt = new Map<number, number>();
  /** One save at a time: chunk documents are written by version. */
  private saving: Promise<unknown> = Promise.resolve();
  private lostLease = false;
  /** Platform mode: the merchant was offboarded; nothing of the batch is sent or written any more. */
  private merchantGone = false;
  private lastFollowChange = Date.now();
  private followPollMs: number;
  private nextPollAt = 0;
  private readonly slots: SlotTaker;

  constructor(
    private readonly id: string,
    private readonly o: RunnerOptions,
    private readonly holder: string,
    private readonly stopping: () => boolean,
    private readonly pause: (ms: number) => Promise<void>,
  ) {
    this.followPollMs = o.followPollMs;
    this.slots = new SlotTaker({
      pacer: o.pacer,
      log: o.log,
      batchId: id,
      pause,
      stopped: () => this.done,
      stillRunning: () =>
        readBatch(o.docs, id).then(
          (b) => b.status === 'RUNNING',
          () => null,
        ),
    });
  }

  private get done() {
    return this.stopping() || this.lostLease || this.merchantGone;
  }

  async run(): Promise<void> {
    const renew = this.keepLease();
    const unlisten = this.o.bus.onLoggedEvent((event) => {
      // Platform mode: another merchant's events say nothing of this merchant's transfers.
      if (this.o.merchantId !== undefined && event.merchantId !== this.o.merchantId) return;
      if (this.book.fromEvent(event)) this.lastFollowChange = Date.now();
    });
    try {
      const batch = await readBatch(this.o.docs, this.id);
      if (batch.settled || batch.chunkSet === null) return await removeFromList(this.o.docs, ACTIVE_KEY, this.id);
      await this.load(batch);
      while (!this.done) if (await this.step()) return;
    } finally {
      await Promise.allSettled([...this.inFlightSends]);
      clearInterval(renew);
      unlisten();
    }
  }

  private keepLease(): NodeJS.Timeout {
    const renew = () =>
      this.o.docs
        .acquireLease(`batch:${this.id}`, this.holder, this.o.leaseMs)
        .then((held) => {
          if (!held) this.lostLease = true;
        })
        // Redis unreachable: another replica may take the batch once the lease runs out; stop before that.
        .catch(() => void (this.lostLease = true));
    return setInterval(() => void renew(), Math.max(50, Math.floor(this.o.leaseMs / 3)));
  }

  /** One turn: sends what may go, follows what was sent; true once this run is over. */
  private async step(): Promise<boolean> {
    // Offboarded: nothing of it runs any more (chunks waiting for a slot give up; its documents refuse writes).
    if (this.o.merchantStatus && (await this.o.merchantStatus()) === 'GONE') return (this.merchantGone = true);
    let batch = await readBatch(this.o.docs, this.id);
    if (batch.settled) {
      await removeFromList(this.o.docs, ACTIVE_KEY, this.id);
      return true;
    }
    if (batch.status === 'QUEUED') batch = await this.begin();
    // Several chunks on their way at once (up to the rate): a slow answer or a chunk in doubt does not hold the next
    // chunk back; the pacer alone decides when each call goes. A cancelling batch only resolves its chunks in doubt.
    if (batch.status === 'RUNNING' || batch.status === 'CANCELLING') this.launch(batch);
    // Sent items are followed all along, while chunks go: events as they come, a list when none came for a while.
    await this.follow(batch);
    if (this.inFlightSends.size > 0) {
      await Promise.race([...this.inFlightSends, this.pause(200)]);
      return false;
    }
    batch = await readBatch(this.o.docs, this.id);
    if (batch.chunks.every((c) => c.state === 'done' || c.state === 'cancelled') && inFlight(batch.counts) === 0) {
      if (batch.status === 'RUNNING' || batch.status === 'CANCELLING') return this.finish().then(() => true);
      if (batch.status === 'PAUSED') return this.park().then(() => true);
    }
    if (nextChunks(batch, this.sending, 1, this.retryAt).length > 0) return false;
    await this.pause(Math.min(200, this.followPollMs));
    return false;
  }

  /** Started, approved or resumed: this replica runs it now. */
  private async begin(): Promise<BatchDoc> {
    // A resume may have put refused items back to send (under new ext_ids, in the chunk documents): what this run
    // holds is saved, then read again.
    if (this.book.dirty.size > 0) await this.saveCounts();
    await this.load(await readBatch(this.o.docs, this.id));
    let began = false;
    const batch = await this.saveCounts((b) => {
      began = b.status === 'QUEUED';
      if (began) b.status = 'RUNNING';
    });
    if (began) this.o.publish('payout_batch.running', batch);
    return batch;
  }

  private launch(batch: BatchDoc): void {
    for (const n of nextChunks(batch, this.sending, this.o.concurrency - this.sending.size, this.retryAt)) {
      this.sending.add(n);
      this.retryAt.delete(n);
      const sent = this.withWorker(() => this.sendChunk(n))
        .catch((err: unknown) => this.o.log.warn('payout batch chunk attempt failed', { batchId: this.id, chunk: n, error: err }))
        .finally(() => {
          this.sending.delete(n);
          this.inFlightSends.delete(sent);
        });
      this.inFlightSends.add(sent);
    }
  }

  /** Platform mode: the chunk's work holds one of the workers shared between merchants, taken in the merchants' turn. */
  private async withWorker(work: () => Promise<void>): Promise<void> {
    if (!this.o.share || this.o.merchantId === undefined) return work();
    const release = await this.o.share.acquire(this.o.merchantId);
    try {
      if (this.done) return;
      return await work();
    } finally {
      release();
    }
  }

  /** Nothing to do until a resume or a cancel (each puts it back in the list of batches to run). */
  private async park(): Promise<void> {
    // A resume between the read and the removal would be lost: so it is put back when the batch is no longer paused.
    await removeFromList(this.o.docs, ACTIVE_KEY, this.id);
    if ((await readBatch(this.o.docs, this.id)).status !== 'PAUSED') await addToList(this.o.docs, ACTIVE_KEY, this.id);
  }

  private async load(batch: BatchDoc): Promise<void> {
    this.book.load(await this.o.docs.getMany(batch.chunks.map((_, n) => chunkKey(this.id, batch.chunkSet!, n))));
  }

  /** Writes the changed chunk documents, then the batch's counts (derived from the items) and `change`. */
  private saveCounts(change?: (batch: BatchDoc) => void): Promise<BatchDoc> {
    const next = this.saving.then(() => this.saveCountsNow(change));
    this.saving = next.catch(() => {});
    return next;
  }

  private async saveCountsNow(change?: (batch: BatchDoc) => void): Promise<BatchDoc> {
    const batch0 = await readBatch(this.o.docs, this.id);
    // Taken before the writes: an item that moves on while its chunk is being written marks the chunk again, for the
    // next save (cleared after the write, that change would be counted in the batch but never written in its chunk).
    const unwritten = this.book.takeDirty();
    try {
      while (unwritten.length > 0) {
        const n = unwritten[0]!;
        if (!(await this.o.docs.put(chunkKey(this.id, batch0.chunkSet!, n), this.book.chunk(n), this.book.versions[n]!))) {
          // Someone else wrote it (a replica that took the lease): this run is no longer the batch's.
          this.lostLease = true;
          throw new LeaseLostError('chunk document changed under the runner');
        }
        this.book.versions[n]! += 1;
        unwritten.shift();
      }
    } catch (err) {
      this.book.giveBackDirty(unwritten);
      throw err;
    }
    let before: string | null = null;
    const saved = await updateDoc<BatchDoc, BatchDoc>(this.o.docs, batchKey(this.id), (b) => {
      before ??= JSON.stringify({ s: b.status, c: b.counts });
      // A final batch never changes again.
      if (b.settled) return b;
      change?.(b);
      b.counts = countsOf(b, this.book.items);
      return b;
    });
    if (before !== JSON.stringify({ s: saved.status, c: saved.counts })) this.o.progressed(saved);
    return saved;
  }

  private async sendChunk(n: number): Promise<void> {
    const batch = await readBatch(this.o.docs, this.id);
    // Marked as sending by this attempt: no earlier attempt of it can have reached the service (see reconcile below).
    const fresh = batch.chunks[n]!.state === 'waiting';
    if (fresh && !(await this.markSending(n))) return;
    const request = this.book.request(n);
    if (request.length === 0) return this.chunkDone(n, batch, { accepted: [], failures: [] });
    // A chunk sent for the first time takes its slot before its claim: the claim's deadline then starts with its call,
    // and a runner killed while its chunks waited for their slots leaves none of them in doubt.
    const held: { slot: PacerSlot | null } = { slot: fresh ? await this.slots.take() : null };
    if (fresh && !held.slot) return this.notSent(n);
    let result: ChunkResult;
    try {
      result = await runIdempotent<ChunkResult>({
        store: this.o.idempotency,
        principal: batch.createdBy,
        operation: 'payoutBatchChunk',
        key: chunkCallKey(this.id, n, batch.chunks[n]!.round),
        input: request,
        execute: ({ startBy }) => {
          const slot = held.slot;
          held.slot = null;
          return this.callNow(request, slot, startBy);
        },
        startWithinMs: fresh ? 0 : RESEND_START_WITHIN_MS,
        // A chunk never sent before is only looked up when its record is in doubt (an unknown outcome): the
        // idempotency store asks for a lookup of every fresh key too while its memory is younger than a key's
        // lifetime (a Redis started within the day), and a lookup lists every transfer, which for a whole
        // batch would grow with the square of its size. Skipping that one is safe because the batch's record
        // lives in the same Redis as the key, written as durably (a Redis that lost its data lost the batch
        // too, so nothing of it is run again), and the chunk was marked sending before any call: a record
        // that says "waiting" was never sent. (The service's spec does not say it refuses a repeated ext_id;
        // when it does, callBulk finds the transfer by ext_id.)
        reconcile: (_meta, settled) => (fresh && !settled ? Promise.resolve(null) : this.lookUp(request, settled)),
        settleWindowMs: this.o.settleWindowMs,
        log: this.o.log,
      });
    } catch (err) {
      return this.chunkFailed(n, err, request);
    } finally {
      // A slot taken for a call that was not made (the key was answered otherwise): over now.
      if (held.slot) this.slots.finished(held.slot);
    }
    return this.chunkDone(n, batch, result);
  }

  /** Ordered with a cancel by the batch document: marked before it (then sent), or stopped by it (never sent). */
  private markSending(n: number): Promise<boolean> {
    return updateDoc<BatchDoc, boolean>(this.o.docs, batchKey(this.id), (b) => {
      if (b.status !== 'RUNNING' || b.chunks[n]!.state !== 'waiting') return false;
      b.chunks[n]!.state = 'sending';
      return true;
    });
  }

  /** A chunk in doubt, looked up; once settled in a cancelled batch, what the service does not show was never sent. */
  private async lookUp(request: ChunkRequest, settled: boolean): Promise<ChunkResult | null> {
    const cancelling = settled && (await readBatch(this.o.docs, this.id)).status === 'CANCELLING';
    return lookUpChunk(this.o.upstream, request, cancelling);
  }

  private async chunkDone(n: number, batch: BatchDoc, result: ChunkResult): Promise<void> {
    this.book.apply(n, result);
    // Items just sent: the next list of transfers comes a poll's time from now, not after a long quiet wait.
    if (result.accepted.length > 0) {
      this.followPollMs = this.o.followPollMs;
      this.nextPollAt = Math.min(this.nextPollAt, Date.now() + this.o.followPollMs);
    }
    const pauseNow = !batch.sendWhatFits && result.failures.some((f) => f.failure.code === 'INSUFFICIENT_FUNDS');
    const saved = await this.saveCounts((b) => {
      b.chunks[n]!.state = 'done';
      // A wallet ran dry mid-batch: stop sending until someone tops it up and resumes (startPayoutBatch).
      if (pauseNow && b.status === 'RUNNING') b.status = 'PAUSED';
    });
    if (pauseNow && saved.status === 'PAUSED') this.o.publish('payout_batch.paused', saved);
  }

  /** The bulk call, with the slot taken for it (or one taken now), if it can still start within its claim's deadline. */
  private async callNow(request: ChunkRequest, held: PacerSlot | null, startBy: number): Promise<ChunkResult> {
    // Anything that fails before the call is a call not made: said so, so that runIdempotent frees the key rather than
    // marking the chunk in doubt (which would hold it for the settle window and list every transfer to look it up).
    const notSent = (why: string) =>
      new UpstreamCallError({ code: 'UPSTREAM_UNAVAILABLE', message: `${why}; the chunk was not sent`, fault: 'refused' });
    let slot = held;
    try {
      // Cancelled or paused since this chunk was marked: it stays unsent.
      const status = (await readBatch(this.o.docs, this.id)).status;
      if (status !== 'RUNNING') throw notSent(`the batch is ${status.toLowerCase()}`);
      // Suspended meanwhile (platform mode): its money moves are refused, so the chunk waits unsent until reinstated.
      if (this.o.merchantStatus && (await this.o.merchantStatus()) !== 'ACTIVE') throw notSent('the merchant may not move money now');
      slot ??= await this.slots.take();
    } catch (err) {
      if (slot) this.slots.finished(slot);
      if (err instanceof UpstreamCallError) throw err;
      throw notSent('the batch could not be read before the call');
    }
    if (!slot) throw notSent('the gateway is stopping, or the batch was cancelled or paused');
    if (Date.now() > startBy) {
      this.slots.finished(slot);
      throw notSent('its slot came after the start its claim allowed for');
    }
    // Over (answered, refused, or lost): the call reached the service by now or never will; its second starts now.
    const taken = slot;
    return callBulk(this.o.upstream, request, () => this.slots.finished(taken));
  }

  private async chunkFailed(n: number, err: unknown, request: ChunkRequest): Promise<void> {
    const provablyNotSent =
      err instanceof UpstreamCallError &&
      !mayHaveReachedService(err) &&
      (err.code === 'RATE_LIMIT_EXCEEDED' || err.fault === 'refused' || err.code === 'UPSTREAM_UNAVAILABLE');
    if (provablyNotSent) {
      if (err.code === 'RATE_LIMIT_EXCEEDED')
        this.o.log.warn('payout batch chunk refused for rate; it waits and goes again', { batchId: this.id, chunk: n });
      // Never resent blindly: it goes again after a pause, unless a cancel stops it meanwhile.
      this.retryAt.set(n, Date.now() + 1_000);
      return this.notSent(n);
    }
    if (err instanceof UpstreamCallError && !mayHaveReachedService(err)) {
      // The service refused the whole chunk (its items are invalid to it): each item failed with that reason.
      const failure: ItemFailure = { code: err.code, message: err.message, fieldErrors: err.fieldErrors };
      return this.chunkDone(n, await readBatch(this.o.docs, this.id), {
        accepted: [],
        failures: request.map((r) => ({ extId: r.extId, failure })),
      });
    }
    // In doubt (no answer, a 5xx, Redis unreachable) or still settling, or its sender's claim still held: the chunk
    // stays `sending`, and its next attempt, a moment later, looks it up before anything is sent again.
    const inProgress = err instanceof IdempotencyConflictError && err.reason === 'in_progress';
    if (!inProgress && !(err instanceof ServiceUnavailableError)) {
      this.o.log.warn('payout batch chunk in doubt; it will be looked up before anything is resent', {
        batchId: this.id,
        chunk: n,
        error: err,
      });
    }
    this.retryAt.set(n, Date.now() + (inProgress ? 1_000 : 500));
  }

  /** A chunk provably not sent: back to waiting, or, in a cancelled batch, cancelled (its items NOT_SENT). */
  private async notSent(n: number): Promise<void> {
    await updateDoc<BatchDoc, void>(this.o.docs, batchKey(this.id), (b) => {
      if (b.chunks[n]!.state !== 'sending') return;
      const cancelled = b.status === 'CANCELLING' || b.status === 'CANCELLED';
      b.chunks[n]!.state = cancelled ? 'cancelled' : 'waiting';
      if (cancelled && !b.settled) b.counts = countsOf(b, this.book.items);
    });
  }

  /** Saves what events brought; lists the transfers when no event moved the sent items for a while. */
  private async follow(batch: BatchDoc): Promise<void> {
    if (this.book.hasQueued() && Date.now() >= Math.max(this.nextPollAt, this.lastFollowChange + this.followPollMs)) {
      let changed = false;
      try {
        changed = this.book.fromList(await transfersByExtId(this.o.upstream));
      } catch (err) {
        this.o.log.warn('payout batch could not list transfers to follow its items', { batchId: this.id, error: err });
      }
      this.followPollMs = changed ? this.o.followPollMs : Math.min(FOLLOW_POLL_MAX_MS, this.followPollMs * 2);
      this.nextPollAt = Date.now() + this.followPollMs;
    }
    if (this.book.dirty.size > 0 || batch.counts.sent.items !== countsOf(batch, this.book.items).sent.items) await this.saveCounts();
  }

  /** Every chunk done or cancelled and every sent item final: the batch ends (a cancelled one only now). */
  private async finish(): Promise<void> {
    let final: BatchStatus | null = null;
    const finishedAt = new Date().toISOString();
    const batch = await this.saveCounts((b) => {
      if (b.status === 'RUNNING') {
        const c = countsOf(b, this.book.items);
        b.status = c.failed.items + c.notSent.items > 0 ? 'COMPLETED_WITH_FAILURES' : 'COMPLETED';
      }
      if (b.status === 'CANCELLING') b.status = 'CANCELLED';
      if (!FINAL_STATUSES.has(b.status)) return;
      b.settled = true;
      b.finishedAt = finishedAt;
      final = b.status;
    });
    // The change may have run on a read that lost its write to a cancel that settled the batch first (the retry then
    // finds it settled and changes nothing): only the write that settled it announces its end.
    if (!final || batch.status !== final || batch.finishedAt !== finishedAt) return;
    await removeFromList(this.o.docs, ACTIVE_KEY, this.id);
    this.o.publish(final === 'CANCELLED' ? 'payout_batch.cancelled' : 'payout_batch.completed', batch);
    auditBatchEndLine(this.o.log, batch, final);
  }
}

/**
 * Chunks to work on, not already on their way here nor waiting to be tried again: those in doubt first (their outcome
 * decides what is left), then, while the batch runs, the first not sent.
 */
export function nextChunks(batch: BatchDoc, busy: ReadonlySet<number>, room: number, retryAt: ReadonlyMap<number, number>): number[] {
  if (room <= 0) return [];
  const now = Date.now();
  const pick = (state: string) =>
    batch.chunks.flatMap((c, n) => (c.state === state && !busy.has(n) && (retryAt.get(n) ?? 0) <= now ? [n] : []));
  return [...pick('sending'), ...(batch.status === 'RUNNING' ? pick('waiting') : [])].slice(0, room);
}
