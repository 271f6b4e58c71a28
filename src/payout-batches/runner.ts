// Runs payout batches: on every replica a loop looks for batches set to run,
// takes a batch's lease (one replica at a time runs it; a replica that dies
// loses it within the lease time and another takes over), sends its chunks
// paced under the service's rate for the whole deployment, and follows every
// sent item to a final status.
//
// Never twice, never lost:
// - every item's ext_id was fixed when its page was added; a chunk is marked
//   `sending` in the batch document (after which a cancel stops it only while
//   it waits for its slot) and then sent under its own idempotency key
//   through runIdempotent, so a chunk whose answer was lost, or whose sender
//   died, is looked up at the service by ext_id before anything is sent
//   again, by the same rules as every other payment (src/idempotency/run.ts);
// - a chunk the service refused for rate (RATE_LIMIT_EXCEEDED), or that never
//   left (connection refused), was provably not carried out: it waits and goes
//   again;
// - items the service refused for funds (the batch pauses) are provably not
//   sent: a resume sends them again in a new round of their chunk, each under
//   a new ext_id the resume wrote before the chunk may go (see store.ts);
// - item outcomes are written to the chunk documents before the batch's
//   counts, and a runner that takes over derives the counts from the items.
import { randomUUID } from 'node:crypto';
import { IdempotencyConflictError, ServiceUnavailableError } from '../errors/payment-errors.js';
import type { EventBus } from '../events/bus.js';
import type { LoggedPaymentEvent } from '../events/payment-event.js';
import { mayHaveReachedService, runIdempotent } from '../idempotency/run.js';
import type { IdempotencyStore } from '../idempotency/store.js';
import type { Logger } from '../logger.js';
import { UpstreamCallError, isDuplicateExtId } from '../upstream/call-error.js';
import type { BulkTransferFailure, CreateTransferInput, Transfer, UpstreamClient, Wallet } from '../upstream/types.js';
import type { DocStore } from './doc-store.js';
import {
  ACTIVE_KEY,
  CHUNK_SIZE,
  batchKey,
  chunkCallKey,
  chunkKey,
  countsOf,
  inFlight,
  type BatchDoc,
  type BatchItem,
  type BatchStatus,
  type ItemFailure,
} from './model.js';
import type { Pacer, PacerSlot, Take } from './pacing.js';
import { addToList, listIds, readBatch, removeFromList, updateDoc } from './store.js';

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
  publish: (kind: string, batch: BatchDoc) => void;
  /** Told of every batch the runner changed (coalesced progress events). */
  progressed: (batch: BatchDoc) => void;
}

export interface Runner {
  /** Looks for work now (after a start, an approval, a resume). */
  wake(): void;
  stop(): Promise<void>;
}

const FOLLOW_POLL_MAX_MS = 30_000;
const MAX_RETRY_WAIT_MS = 5_000;

export function startRunner(options: RunnerOptions): Runner {
  const { docs, log } = options;
  const holder = randomUUID();
  const tickMs = options.tickMs ?? 500;
  const running = new Map<string, Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const stopWaiters = new Set<() => void>();

  /** Resolves after `ms`, or at once when the runner stops. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopped) return resolve();
      const done = () => {
        clearTimeout(t);
        stopWaiters.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      stopWaiters.add(done);
    });

  const tick = async () => {
    if (stopped) return;
    try {
      for (const id of await listIds(docs, 'active')) {
        if (stopped || running.has(id)) continue;
        // Reserved before the lease is asked for: a tick that overlaps this one (wake()) must not start a second run.
        running.set(id, Promise.resolve());
        let held = false;
        try {
          held = await docs.acquireLease(`batch:${id}`, holder, options.leaseMs);
        } finally {
          if (!held) running.delete(id);
        }
        if (!held) continue;
        // Which replica runs which batch (after a crash: which one took it over).
        log.info('payout batch taken', { batchId: id, runner: holder });
        const run = new BatchRun(id, options, holder, () => stopped, pause)
          .run()
          .catch((err: unknown) => log.warn('payout batch run stopped', { batchId: id, error: err }))
          .finally(() => {
            running.delete(id);
            void docs.releaseLease(`batch:${id}`, holder).catch(() => {});
          });
        running.set(id, run);
      }
    } catch (err) {
      log.warn('payout batch scan failed', { error: err });
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void tick().finally(schedule), tickMs);
  };
  schedule();

  return {
    wake() {
      void tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      for (const wake of [...stopWaiters]) wake();
      await Promise.allSettled([...running.values()]);
    },
  };
}

type ChunkResult = {
  accepted: Array<{ extId: string; reference: string | null }>;
  failures: Array<{ extId: string; failure: ItemFailure }>;
};

class BatchRun {
  private items: BatchItem[] = [];
  private chunkVersions: number[] = [];
  private byExtId = new Map<string, BatchItem>();
  /** Final statuses seen in events for items not yet known as queued (an event may beat the bulk's answer). */
  private early = new Map<string, { status: 'success' | 'failed'; reference: string }>();
  private dirtyChunks = new Set<number>();
  /** Chunks this run is sending now, and their promises. */
  private sending = new Set<number>();
  private inFlightSends = new Set<Promise<void>>();
  /** Chunks of this run waiting for a slot. */
  private slotWaiters = new Set<() => void>();
  /** One save at a time: chunk documents are written by version. */
  private saving: Promise<unknown> = Promise.resolve();
  private lostLease = false;
  private lastFollowChange = Date.now();
  private followPollMs: number;
  private nextPollAt = 0;

  constructor(
    private readonly id: string,
    private readonly o: RunnerOptions,
    private readonly holder: string,
    private readonly stopping: () => boolean,
    private readonly pause: (ms: number) => Promise<void>,
  ) {
    this.followPollMs = o.followPollMs;
  }

  private get done() {
    return this.stopping() || this.lostLease;
  }

  async run(): Promise<void> {
    const renew = setInterval(
      () => {
        void this.o.docs
          .acquireLease(`batch:${this.id}`, this.holder, this.o.leaseMs)
          .then((held) => {
            if (!held) this.lostLease = true;
          })
          .catch(() => {
            // Redis unreachable: another replica may take the batch once the lease runs out; stop before that.
            this.lostLease = true;
          });
      },
      Math.max(50, Math.floor(this.o.leaseMs / 3)),
    );
    const unlisten = this.o.bus.onLoggedEvent((event) => this.onEvent(event));
    try {
      let batch = await readBatch(this.o.docs, this.id);
      if (batch.settled || batch.chunkSet === null) return removeFromList(this.o.docs, ACTIVE_KEY, this.id);
      await this.load(batch);
      while (!this.done) {
        batch = await readBatch(this.o.docs, this.id);
        if (batch.status === 'QUEUED') {
          // Started, approved or resumed: this replica runs it now. A resume may have put refused items back to send
          // (under new ext_ids, in the chunk documents): what this run holds is saved, then read again.
          if (this.dirtyChunks.size > 0) await this.saveCounts();
          await this.load(await readBatch(this.o.docs, this.id));
          let began = false;
          batch = await this.saveCounts((b) => {
            began = b.status === 'QUEUED';
            if (began) b.status = 'RUNNING';
          });
          if (began) this.o.publish('payout_batch.running', batch);
        }
        // Several chunks on their way at once (up to the rate): a slow answer or a busy event loop does not hold the
        // next chunk back; the pacer alone decides when each call goes.
        if (batch.status === 'RUNNING') {
          for (const n of nextChunks(batch, this.sending, this.o.concurrency - this.sending.size)) {
            this.sending.add(n);
            const sent = this.sendChunk(n)
              .catch((err: unknown) => this.o.log.warn('payout batch chunk attempt failed', { batchId: this.id, chunk: n, error: err }))
              .finally(() => {
                this.sending.delete(n);
                this.inFlightSends.delete(sent);
              });
            this.inFlightSends.add(sent);
          }
        }
        if (this.inFlightSends.size > 0) {
          await Promise.race([...this.inFlightSends, this.pause(200)]);
          continue;
        }
        await this.follow(batch);
        batch = await readBatch(this.o.docs, this.id);
        if (batch.chunks.every((c) => c.state === 'done' || c.state === 'cancelled') && inFlight(batch.counts) === 0) {
          if (batch.status === 'RUNNING' || batch.status === 'CANCELLED') return await this.finish();
          if (batch.status === 'PAUSED') {
            // Nothing to do until a resume or a cancel (each puts it back in the list of batches to run). A resume
            // between the read and the removal would be lost: so it is put back when the batch is no longer paused.
            await removeFromList(this.o.docs, ACTIVE_KEY, this.id);
            if ((await readBatch(this.o.docs, this.id)).status !== 'PAUSED') await addToList(this.o.docs, ACTIVE_KEY, this.id);
            return;
          }
        }
        if (batch.status === 'RUNNING' && nextChunks(batch, this.sending, 1).length > 0) continue;
        await this.pause(Math.min(200, this.followPollMs));
      }
    } finally {
      await Promise.allSettled([...this.inFlightSends]);
      clearInterval(renew);
      unlisten();
    }
  }

  private async load(batch: BatchDoc): Promise<void> {
    const chunks = await this.o.docs.getMany<BatchItem[]>(batch.chunks.map((_, n) => chunkKey(this.id, batch.chunkSet!, n)));
    this.items = chunks.flatMap((c) => c?.value ?? []);
    this.chunkVersions = chunks.map((c) => c?.version ?? 0);
    this.byExtId = new Map(this.items.map((item) => [item.extId, item]));
  }

  /** Writes the changed chunk documents, then the batch's counts (derived from the items) and `change`. */
  private saveCounts(change?: (batch: BatchDoc) => void): Promise<BatchDoc> {
    const next = this.saving.then(() => this.saveCountsNow(change));
    this.saving = next.catch(() => {});
    return next;
  }

  private async saveCountsNow(change?: (batch: BatchDoc) => void): Promise<BatchDoc> {
    const batch0 = await readBatch(this.o.docs, this.id);
    for (const n of [...this.dirtyChunks]) {
      const key = chunkKey(this.id, batch0.chunkSet!, n);
      const slice = this.items.slice(n * CHUNK_SIZE, (n + 1) * CHUNK_SIZE);
      if (!(await this.o.docs.put(key, slice, this.chunkVersions[n]!))) {
        // Someone else wrote it (a replica that took the lease): this run is no longer the batch's.
        this.lostLease = true;
        throw new Error('chunk document changed under the runner');
      }
      this.chunkVersions[n]! += 1;
      this.dirtyChunks.delete(n);
    }
    let before: string | null = null;
    const saved = await updateDoc<BatchDoc, BatchDoc>(this.o.docs, batchKey(this.id), (b) => {
      before ??= JSON.stringify({ s: b.status, c: b.counts });
      change?.(b);
      b.counts = countsOf(b, this.items);
      return b;
    });
    if (before !== JSON.stringify({ s: saved.status, c: saved.counts })) this.o.progressed(saved);
    return saved;
  }

  /** A slot for one bulk call, or null when the run stops or the batch was cancelled while it waited. */
  private async takeSlot(): Promise<PacerSlot | null> {
    for (;;) {
      if (this.done) return null;
      let take: Take;
      try {
        take = await this.o.pacer.tryTake();
      } catch (err) {
        this.o.log.warn('payout batch pacing unavailable', { batchId: this.id, error: err });
        take = { waitMs: 1_000 };
      }
      if ('slot' in take) return take.slot;
      await this.untilSlotMayFree(take.waitMs);
      // Waited for a slot (chunks are made ready ahead of their turn): one cancelled or paused meanwhile (a wallet ran
      // dry) goes no further. A read that fails is not a reason to send, nor to give up: asked again after the next wait.
      const stopped = await readBatch(this.o.docs, this.id).then(
        (b) => b.status !== 'RUNNING',
        () => null,
      );
      if (stopped) return null;
      if (stopped === null) continue;
    }
  }

  private async sendChunk(n: number): Promise<void> {
    let batch = await readBatch(this.o.docs, this.id);
    // Marked as sending by this attempt: no earlier attempt of it can have reached the service (see reconcile below).
    const fresh = batch.chunks[n]!.state === 'waiting';
    if (fresh) {
      // Ordered with a cancel by the batch document: marked before it (then sent), or stopped by it (never sent).
      const marked = await updateDoc<BatchDoc, boolean>(this.o.docs, batchKey(this.id), (b) => {
        if (b.status !== 'RUNNING' || b.chunks[n]!.state !== 'waiting') return false;
        b.chunks[n]!.state = 'sending';
        return true;
      });
      if (!marked) return;
      batch = await readBatch(this.o.docs, this.id);
    }
    const pending = this.items.slice(n * CHUNK_SIZE, (n + 1) * CHUNK_SIZE).filter((item) => item.status === 'PENDING');
    const request: Array<CreateTransferInput & { extId: string }> = pending.map((item) => ({
      amount: item.amount,
      recipientPhone: item.recipientPhone,
      recipientWallet: item.recipientWallet,
      extId: item.extId,
    }));
    let result: ChunkResult;
    try {
      result =
        request.length === 0
          ? { accepted: [], failures: [] }
          : await runIdempotent<ChunkResult>({
              store: this.o.idempotency,
              principal: batch.createdBy,
              operation: 'payoutBatchChunk',
              key: chunkCallKey(this.id, n, batch.chunks[n]!.round),
              input: request,
              execute: () => this.execute(request),
              // A chunk never sent before is only looked up when its record is in doubt (an unknown outcome): the
              // idempotency store asks for a lookup of every fresh key too while its memory is younger than a key's
              // lifetime (a Redis started within the day), and a lookup lists every transfer, which for a whole
              // batch would grow with the square of its size. Skipping that one is safe because the batch's record
              // lives in the same Redis as the key, written as durably (a Redis that lost its data lost the batch
              // too, so nothing of it is run again), and the chunk was marked sending before any call: a record
              // that says "waiting" was never sent. (The service's spec does not say it refuses a repeated ext_id;
              // when it does, execute() finds the transfer by ext_id.)
              reconcile: (_meta, settled) => (fresh && !settled ? Promise.resolve(null) : this.reconcile(request)),
              settleWindowMs: this.o.settleWindowMs,
              log: this.o.log,
            });
    } catch (err) {
      return this.chunkFailed(n, err, request);
    }
    this.applyChunk(n, result);
    const pauseNow = !batch.sendWhatFits && result.failures.some((f) => f.failure.code === 'INSUFFICIENT_FUNDS');
    const saved = await this.saveCounts((b) => {
      b.chunks[n]!.state = 'done';
      // A wallet ran dry mid-batch: stop sending until someone tops it up and resumes (startPayoutBatch).
      if (pauseNow && b.status === 'RUNNING') b.status = 'PAUSED';
    });
    if (pauseNow && saved.status === 'PAUSED') this.o.publish('payout_batch.paused', saved);
  }

  private async execute(request: Array<CreateTransferInput & { extId: string }>): Promise<ChunkResult> {
    const notSent = (why: string) =>
      new UpstreamCallError({ code: 'UPSTREAM_UNAVAILABLE', message: `${why}; the chunk was not sent`, fault: 'refused' });
    // Anything that fails before the call is a call not made: said so, so that runIdempotent frees the key rather than
    // marking the chunk in doubt (which would hold it for the settle window and list every transfer to look it up).
    let slot: PacerSlot | null;
    try {
      // Cancelled or paused since this chunk was marked: it stays unsent (a cancel waits for the chunks on their way;
      // a paused batch sends nothing more until it is resumed).
      const status = (await readBatch(this.o.docs, this.id)).status;
      if (status !== 'RUNNING') throw notSent(`the batch is ${status.toLowerCase()}`);
      // Nothing between the slot and the call: the slot is held from its grant, so any delay here is held for nothing.
      slot = await this.takeSlot();
    } catch (err) {
      if (err instanceof UpstreamCallError) throw err;
      throw notSent('the batch could not be read before the call');
    }
    if (!slot) throw notSent('the gateway is stopping, or the batch was cancelled or paused');
    let answer: Awaited<ReturnType<UpstreamClient['createBulkTransfer']>>;
    try {
      answer = await this.o.upstream.createBulkTransfer(request);
    } finally {
      // Over (answered, refused, or lost): the call reached the service by now or never will; its second starts now.
      this.finished(slot);
    }
    const failed = new Set<string>();
    const failures: ChunkResult['failures'] = [];
    const duplicates: string[] = [];
    for (const f of answer.failures) {
      const extId = f.item.extId ?? (f.index !== null ? request[f.index]?.extId : undefined);
      if (!extId) continue;
      failed.add(extId);
      if (isDuplicateExtId(f.fieldErrors)) duplicates.push(extId);
      else failures.push({ extId, failure: failureOf(f) });
    }
    const accepted: ChunkResult['accepted'] = request.filter((r) => !failed.has(r.extId)).map((r) => ({ extId: r.extId, reference: null }));
    if (duplicates.length > 0) {
      // Refused as a repeat: an earlier attempt of this chunk (its answer lost) queued it, if it is that very payout.
      const found = await this.transfersByExtId();
      for (const extId of duplicates) {
        const transfer = found.get(extId);
        const item = request.find((r) => r.extId === extId)!;
        if (transfer && samePayout(transfer, item)) accepted.push({ extId, reference: transfer.reference });
        else
          failures.push({
            extId,
            failure: { code: 'INVALID_DATA', message: 'The service already holds another payout with this ext_id.' },
          });
      }
    }
    return { accepted, failures };
  }

  /** Tells the pacer the call is over (its slot frees a second from now, not HOLD_MS after its grant). */
  private finished(slot: PacerSlot): void {
    // Not waited for: if it fails the slot is held a little longer, which is only slower.
    slot
      .finished()
      // This run's chunks waiting for a slot ask again now: told then exactly when it frees, they sleep once, not twice.
      .then(() => [...this.slotWaiters].forEach((wake) => wake()))
      .catch((err: unknown) => this.o.log.warn('payout batch pacing not told of a call', { batchId: this.id, error: err }));
  }

  /** Waits `ms`, or less if one of this run's calls is over meanwhile (the wait was counted while it was on its way). */
  private untilSlotMayFree(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        this.slotWaiters.delete(wake);
        resolve();
      };
      this.slotWaiters.add(wake);
      void this.pause(ms).then(wake);
    });
  }

  /** A chunk in doubt: carried out if the service shows every item of it (by ext_id, same payout). */
  private async reconcile(request: Array<CreateTransferInput & { extId: string }>): Promise<ChunkResult | null> {
    const found = await this.transfersByExtId();
    const accepted = request.flatMap((r) => {
      const transfer = found.get(r.extId);
      return transfer && samePayout(transfer, r) ? [{ extId: r.extId, reference: transfer.reference }] : [];
    });
    // Part of it found: the rest was refused, or is not visible yet. The retry sends it all again with the same
    // ext_ids, and those already queued come back as repeats (counted as accepted above).
    return accepted.length === request.length ? { accepted, failures: [] } : null;
  }

  private async transfersByExtId(): Promise<Map<string, Transfer>> {
    const list = await this.o.upstream.listTransfers();
    return new Map(list.flatMap((t) => (t.extId ? [[t.extId, t] as const] : [])));
  }

  private async chunkFailed(n: number, err: unknown, request: Array<{ extId: string }>): Promise<void> {
    const provablyNotSent =
      err instanceof UpstreamCallError &&
      !mayHaveReachedService(err) &&
      (err.code === 'RATE_LIMIT_EXCEEDED' || err.fault === 'refused' || err.code === 'UPSTREAM_UNAVAILABLE');
    if (provablyNotSent) {
      if (err.code === 'RATE_LIMIT_EXCEEDED')
        this.o.log.warn('payout batch chunk refused for rate; it waits and goes again', { batchId: this.id, chunk: n });
      // Back to waiting: a cancel may still stop it, and it goes again after a pause (never resent blindly).
      await updateDoc<BatchDoc, void>(this.o.docs, batchKey(this.id), (b) => {
        if (b.chunks[n]!.state !== 'sending') return;
        b.chunks[n]!.state = b.status === 'CANCELLED' ? 'cancelled' : 'waiting';
        if (b.status === 'CANCELLED') b.counts = countsOf(b, this.items);
      });
      await this.pause(1_000);
      return;
    }
    if (err instanceof UpstreamCallError && !mayHaveReachedService(err)) {
      // The service refused the whole chunk (its items are invalid to it): each item failed with that reason.
      const failure: ItemFailure = { code: err.code, message: err.message, fieldErrors: err.fieldErrors };
      this.applyChunk(n, { accepted: [], failures: request.map((r) => ({ extId: r.extId, failure })) });
      await this.saveCounts((b) => {
        b.chunks[n]!.state = 'done';
      });
      return;
    }
    // In doubt (no answer, a 5xx, Redis unreachable) or still settling: the chunk stays `sending` and the next attempt
    // reconciles before anything is sent again.
    const inProgress = err instanceof IdempotencyConflictError && err.reason === 'in_progress';
    if (!inProgress && !(err instanceof ServiceUnavailableError)) {
      this.o.log.warn('payout batch chunk in doubt; it will be looked up before anything is resent', {
        batchId: this.id,
        chunk: n,
        error: err,
      });
    }
    await this.pause(Math.min(MAX_RETRY_WAIT_MS, inProgress ? 1_000 : 500));
  }

  private applyChunk(n: number, result: ChunkResult): void {
    for (const { extId, reference } of result.accepted) {
      const item = this.byExtId.get(extId);
      if (!item || item.status !== 'PENDING') continue;
      item.status = 'QUEUED';
      item.transferReference = reference;
      const early = this.early.get(extId);
      if (early) this.settle(item, early.status, early.reference);
    }
    for (const { extId, failure } of result.failures) {
      const item = this.byExtId.get(extId);
      if (!item || item.status !== 'PENDING') continue;
      // Not enough money: provably not sent (the service refused it). A resume sends it again, in a new round.
      if (failure.code === 'INSUFFICIENT_FUNDS') Object.assign(item, { status: 'NOT_SENT', notSent: 'refused' });
      else item.status = 'FAILED';
      item.failure = failure;
    }
    this.dirtyChunks.add(n);
  }

  private settle(item: BatchItem, status: 'success' | 'failed', reference: string): boolean {
    if (item.status !== 'QUEUED') return false;
    item.transferReference = reference;
    item.status = status === 'success' ? 'SUCCEEDED' : 'FAILED';
    if (status === 'failed')
      item.failure = {
        code: 'TRANSFER_FAILED',
        message: 'The operator could not deliver this transfer; its amount and fees went back to the wallet.',
      };
    this.dirtyChunks.add(Math.floor(item.index / CHUNK_SIZE));
    this.early.delete(item.extId);
    return true;
  }

  /** A transfer event from the log (a webhook, or a reconciliation poll): the item it is about moves on. */
  private onEvent(event: LoggedPaymentEvent): void {
    if (event.resourceType !== 'transfer') return;
    const data = (event.payload as { data?: Record<string, unknown> } | null)?.data;
    const extId = data?.ext_id ?? data?.extId;
    const status = typeof data?.status === 'string' ? data.status.toLowerCase() : null;
    const reference = typeof data?.reference === 'string' ? data.reference : null;
    if (typeof extId !== 'string' || !reference || (status !== 'success' && status !== 'failed')) return;
    const item = this.byExtId.get(extId);
    if (!item) return;
    if (item.status === 'QUEUED') {
      if (this.settle(item, status, reference)) this.lastFollowChange = Date.now();
    } else if (item.status === 'PENDING') this.early.set(extId, { status, reference });
  }

  /** Saves what events brought; lists the transfers when no event moved the sent items for a while. */
  private async follow(batch: BatchDoc): Promise<void> {
    const waiting = this.items.some((item) => item.status === 'QUEUED');
    if (waiting && Date.now() >= Math.max(this.nextPollAt, this.lastFollowChange + this.followPollMs)) {
      let changed = false;
      try {
        const found = await this.transfersByExtId();
        for (const item of this.items) {
          const transfer = item.status === 'QUEUED' ? found.get(item.extId) : undefined;
          if (!transfer) continue;
          if (item.transferReference === null) {
            item.transferReference = transfer.reference;
            this.dirtyChunks.add(Math.floor(item.index / CHUNK_SIZE));
          }
          if (transfer.status === 'success' || transfer.status === 'failed')
            changed = this.settle(item, transfer.status, transfer.reference) || changed;
        }
      } catch (err) {
        this.o.log.warn('payout batch could not list transfers to follow its items', { batchId: this.id, error: err });
      }
      this.followPollMs = changed ? this.o.followPollMs : Math.min(FOLLOW_POLL_MAX_MS, this.followPollMs * 2);
      this.nextPollAt = Date.now() + this.followPollMs;
    }
    if (this.dirtyChunks.size > 0 || batch.counts.sent.items !== countsOf(batch, this.items).sent.items) await this.saveCounts();
  }

  private async finish(): Promise<void> {
    let final: BatchStatus | null = null;
    const batch = await this.saveCounts((b) => {
      if (b.settled) return;
      if (b.status === 'RUNNING') {
        const c = countsOf(b, this.items);
        b.status = c.failed.items + c.notSent.items > 0 ? 'COMPLETED_WITH_FAILURES' : 'COMPLETED';
      }
      if (b.status !== 'COMPLETED' && b.status !== 'COMPLETED_WITH_FAILURES' && b.status !== 'CANCELLED') return;
      b.settled = true;
      b.finishedAt = new Date().toISOString();
      final = b.status;
    });
    if (!final) return;
    await removeFromList(this.o.docs, ACTIVE_KEY, this.id);
    this.o.publish(final === 'CANCELLED' ? 'payout_batch.cancelled' : 'payout_batch.completed', batch);
    const c = batch.counts;
    // The audit line of the batch's end (its start and cancel have theirs from the mutations).
    this.o.log.info('audit', {
      audit: true,
      operation: 'payoutBatchCompleted',
      subject: batch.createdBy,
      startedBy: batch.startedBy,
      approvedBy: batch.approval.approvedBy,
      cancelledBy: batch.cancelledBy,
      references: [batch.id],
      items: c.added.items,
      amount: c.added.amount,
      succeeded: c.succeeded.items,
      failed: c.failed.items,
      notSent: c.notSent.items,
      outcome: final,
    });
  }
}

/** Chunks to work on, not already on their way here: those in doubt first (their outcome decides what is left), then the first not sent. */
function nextChunks(batch: BatchDoc, busy: ReadonlySet<number>, room: number): number[] {
  if (room <= 0) return [];
  const pick = (state: string) => batch.chunks.flatMap((c, n) => (c.state === state && !busy.has(n) ? [n] : []));
  return [...pick('sending'), ...pick('waiting')].slice(0, room);
}

function samePayout(transfer: Transfer, item: CreateTransferInput): boolean {
  return transfer.amount === item.amount && transfer.recipientPhone === item.recipientPhone;
}

/** A refused bulk item's reasons, as plain data (the schema makes the typed error). */
function failureOf(f: BulkTransferFailure): ItemFailure {
  const reasons = f.nonFieldErrors.join(' ');
  if (/insufficient/i.test(reasons))
    return { code: 'INSUFFICIENT_FUNDS', message: reasons, wallet: (f.item.recipientWallet as Wallet | null) ?? null };
  if (/invalid account|no account|not registered/i.test(reasons)) return { code: 'INVALID_ACCOUNT', message: reasons };
  return {
    code: 'INVALID_DATA',
    message: reasons || 'The payment service rejected this item.',
    fieldErrors: f.fieldErrors.map((e) => ({ path: e.path, message: e.message })),
  };
}
