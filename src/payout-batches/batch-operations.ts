// The batch operations that change a batch's document: create, add a page,
// set to run (start, approve, resume), cancel. Each is one compare-and-set of
// the batch document (retried on a concurrent change), so a page is added
// once, a batch starts once, and a cancel and the runner's next chunk are
// ordered: a chunk is either marked as sending before the cancel, or never sent.
import { randomUUID } from 'node:crypto';
import { IdempotencyConflictError } from '../errors/payment-errors.js';
import {
  PayoutBatchFullError,
  PayoutBatchNotFoundError,
  PayoutBatchShortfallError,
  PayoutBatchStateError,
  SelfApprovalError,
  type WalletShortfall,
} from '../errors/payout-batch-errors.js';
import type { Wallet } from '../upstream/types.js';
import { DocumentContendedError, type DocStore, type Versioned } from './doc-store.js';
import {
  ACTIVE_KEY,
  CHUNK_SIZE,
  FINAL_STATUSES,
  INDEX_KEY,
  addTo,
  batchIdFor,
  batchKey,
  chunkKey,
  countsOf,
  emptyCounts,
  feeFor,
  fingerprintOf,
  inFlight,
  itemExtId,
  pageKey,
  type BatchDoc,
  type BatchItem,
  type ItemInput,
} from './model.js';

const MAX_ATTEMPTS = 50;

/** Read, change, write back if nobody wrote in between; again otherwise. `change` returns what to answer. */
export async function updateDoc<T, R>(
  docs: DocStore,
  key: string,
  change: (doc: T, version: number) => R | Promise<R>,
  missing: () => Error = () => new Error(`document ${key} is missing`),
): Promise<R> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await docs.get<T>(key);
    if (!current) throw missing();
    const result = await change(current.value, current.version);
    if (await docs.put(key, current.value, current.version)) return result;
  }
  throw new DocumentContendedError(`document ${key} kept changing under ${MAX_ATTEMPTS} attempts`);
}

/** Thrown inside updateDoc to answer without writing. */
class Answer<R> {
  constructor(readonly value: R) {}
}

async function updateBatch<R>(docs: DocStore, id: string, change: (batch: BatchDoc) => R): Promise<R> {
  try {
    return await updateDoc<BatchDoc, R>(
      docs,
      batchKey(id),
      (batch) => change(batch),
      () => new PayoutBatchNotFoundError(id),
    );
  } catch (err) {
    if (err instanceof Answer) return err.value as R;
    throw err;
  }
}

/** Reads a batch's document. Throws PayoutBatchNotFoundError when there is none. */
export async function readBatch(docs: DocStore, id: string): Promise<BatchDoc> {
  const found = await docs.get<BatchDoc>(batchKey(id));
  if (!found) throw new PayoutBatchNotFoundError(id);
  return found.value;
}

/**
 * Adds a batch id to a stored list (all batches, or the active ones) once, retrying on a concurrent write. Throws DocumentContendedError
 * when the list kept changing.
 */
export async function addToList(docs: DocStore, key: string, id: string): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await docs.get<{ ids: string[] }>(key);
    const ids = current?.value.ids ?? [];
    if (ids.includes(id)) return;
    if (await docs.put(key, { ids: [...ids, id] }, current?.version ?? 0)) return;
  }
  throw new DocumentContendedError(`list ${key} kept changing`);
}

/**
 * Removes a batch id from a stored list, retrying on a concurrent write; an id that is not there is no error. Throws
 * DocumentContendedError when the list kept changing.
 */
export async function removeFromList(docs: DocStore, key: string, id: string): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await docs.get<{ ids: string[] }>(key);
    if (!current || !current.value.ids.includes(id)) return;
    if (await docs.put(key, { ids: current.value.ids.filter((x) => x !== id) }, current.version)) return;
  }
  throw new DocumentContendedError(`list ${key} kept changing`);
}

/** The ids of every batch (oldest first), or of those a runner must still look after; an empty list when none was stored. */
export async function listIds(docs: DocStore, which: 'all' | 'active'): Promise<string[]> {
  return (await docs.get<{ ids: string[] }>(which === 'all' ? INDEX_KEY : ACTIVE_KEY))?.value.ids ?? [];
}

/**
 * What a new batch is created with: the caller's scoped idempotency key (its id derives from it), who creates it, the fee rate in basis
 * points and whether a second person must approve it.
 */
export interface CreateBatch {
  scopedKey: string;
  label: string;
  createdBy: string;
  feeBps: number;
  approvalRequired: boolean;
  now: Date;
}

/** A draft; the id comes from the caller's key, so a repeat finds the same batch. */
export async function createBatch(docs: DocStore, input: CreateBatch): Promise<BatchDoc> {
  const id = batchIdFor(input.scopedKey);
  const batch: BatchDoc = {
    id,
    label: input.label,
    key: input.scopedKey,
    createdBy: input.createdBy,
    createdAt: input.now.toISOString(),
    status: 'DRAFT',
    itemCount: 0,
    pages: {},
    wallets: [],
    feeBps: input.feeBps,
    sendWhatFits: false,
    approval: { required: input.approvalRequired, requestedBy: null, approvedBy: null },
    startedBy: null,
    startedAt: null,
    cancelledBy: null,
    finishedAt: null,
    settled: false,
    chunkSet: null,
    chunks: [],
    counts: emptyCounts(),
  };
  if (!(await docs.put(batchKey(id), batch, 0))) return readBatch(docs, id);
  await addToList(docs, INDEX_KEY, id);
  return batch;
}

/** A page added to a batch: the batch after it, the index of the page's first item, and how many items it added. */
export interface AddedPage {
  batch: BatchDoc;
  firstIndex: number;
  added: number;
}

/**
 * Adds one page of items to a batch still being filled. Idempotent by page number: the same page again returns what it added the first
 * time. Throws IdempotencyConflictError when a page number comes back with other items, and PayoutBatchStateError when the batch no longer
 * takes pages.
 */
export async function addPage(docs: DocStore, id: string, page: number, items: ItemInput[], maxItems: number): Promise<AddedPage> {
  const fingerprint = fingerprintOf(items);
  const outcome = await updateBatch(docs, id, (batch) => {
    const existing = batch.pages[String(page)];
    if (existing) {
      // The same page again (a retry whose answer was lost): what was added the first time.
      if (existing.fingerprint !== fingerprint) throw new IdempotencyConflictError('different_input');
      throw new Answer({ batch, firstIndex: existing.start, added: existing.count });
    }
    if (batch.status !== 'DRAFT') throw new PayoutBatchStateError(batch.status, 'not_draft');
    if (batch.itemCount + items.length > maxItems) throw new PayoutBatchFullError(maxItems, batch.itemCount + items.length);
    const start = batch.itemCount;
    batch.pages[String(page)] = { start, count: items.length, fingerprint };
    batch.itemCount += items.length;
    for (const item of items) {
      addTo(batch.counts.added, item.amount);
      let total = batch.wallets.find((w) => w.wallet === item.recipientWallet);
      if (!total) batch.wallets.push((total = { wallet: item.recipientWallet, items: 0, amount: 0, fees: 0 }));
      total.items += 1;
      total.amount += item.amount;
      total.fees += feeFor(item.amount, batch.feeBps);
    }
    batch.wallets.sort((a, b) => a.wallet.localeCompare(b.wallet));
    return { batch, firstIndex: start, added: items.length };
  });
  // After the batch took the page: a page document is only ever written with the items its number holds. A crash
  // in between leaves the page recorded without items; the same page sent again writes them (start refuses until then).
  const key = pageKey(id, page);
  const stored = await docs.get<BatchItem[]>(key);
  if (!stored) {
    const batch = outcome.batch;
    const pageItems: BatchItem[] = items.map((item, i) => ({
      ...item,
      index: outcome.firstIndex + i,
      extId: itemExtId(batch.key, outcome.firstIndex + i),
      status: 'PENDING',
      transferReference: null,
      failure: null,
    }));
    await docs.put(key, pageItems, 0);
  }
  return outcome;
}

/** Every item of a batch, in index order, with its current status. */
export async function readItems(docs: DocStore, batch: BatchDoc): Promise<BatchItem[]> {
  if (batch.chunkSet) {
    const chunks = await docs.getMany<BatchItem[]>(batch.chunks.map((_, n) => chunkKey(batch.id, batch.chunkSet!, n)));
    return chunks.flatMap((chunk, n) =>
      (chunk?.value ?? []).map((item) =>
        // A chunk the cancel stopped: its items were never sent.
        batch.chunks[n]!.state === 'cancelled' && item.status === 'PENDING' ? { ...item, status: 'NOT_SENT' as const } : item,
      ),
    );
  }
  const pages = Object.entries(batch.pages).sort((a, b) => a[1].start - b[1].start);
  const stored = await docs.getMany<BatchItem[]>(pages.map(([page]) => pageKey(batch.id, Number(page))));
  const status = batch.status === 'CANCELLED' ? ('NOT_SENT' as const) : ('PENDING' as const);
  return stored.flatMap((page) => (page?.value ?? []).map((item) => ({ ...item, status })));
}

/** Per wallet: what the items still to send need (amount + fees) against what the wallet has. */
export function shortfalls(items: BatchItem[], feeBps: number, available: ReadonlyMap<Wallet, number>): WalletShortfall[] {
  const required = new Map<Wallet, number>();
  for (const item of items) {
    if (item.status !== 'PENDING') continue;
    required.set(item.recipientWallet, (required.get(item.recipientWallet) ?? 0) + item.amount + feeFor(item.amount, feeBps));
  }
  const short: WalletShortfall[] = [];
  for (const [wallet, need] of [...required].sort((a, b) => a[0].localeCompare(b[0]))) {
    const has = Math.floor(available.get(wallet) ?? 0);
    if (need > has) short.push({ wallet, required: need, available: has, shortfall: need - has });
  }
  return short;
}

/** Sets aside (NOT_SENT) the items a wallet cannot cover, in index order, keeping every one that still fits. */
function setAsideWhatDoesNotFit(items: BatchItem[], feeBps: number, available: ReadonlyMap<Wallet, number>): void {
  const left = new Map<Wallet, number>([...available].map(([w, a]) => [w, Math.floor(a)]));
  for (const item of items) {
    if (item.status !== 'PENDING') continue;
    const cost = item.amount + feeFor(item.amount, feeBps);
    const has = left.get(item.recipientWallet) ?? 0;
    if (cost <= has) left.set(item.recipientWallet, has - cost);
    else {
      item.status = 'NOT_SENT';
      item.notSent = 'set_aside';
      item.failure = {
        code: 'INSUFFICIENT_FUNDS',
        message: 'The wallet could not cover this item when the batch started.',
        wallet: item.recipientWallet,
      };
    }
  }
}

interface StartRequest {
  by: string;
  sendWhatFits: boolean;
  approvalRequired: boolean;
  /** Available Transfer Balance per wallet, fetched now. */
  balance: () => Promise<ReadonlyMap<Wallet, number>>;
  now: Date;
}

/** A batch after a start, an approval or a resume, and what changed: queued for approval, started, resumed, or nothing (already so). */
export type StartOutcome = { batch: BatchDoc; change: 'queued_for_approval' | 'started' | 'resumed' | 'none' };

/** startPayoutBatch: refuses a shortfall unless told to send what fits; with approval required (by the settings or the batch's own rule), only queues. */
export async function startBatch(docs: DocStore, id: string, request: StartRequest): Promise<StartOutcome> {
  const batch = await readBatch(docs, id);
  if (FINAL_STATUSES.has(batch.status) || batch.status === 'CANCELLING') throw new PayoutBatchStateError(batch.status, 'final');
  if (batch.status === 'QUEUED' || batch.status === 'RUNNING') return { batch, change: 'none' };
  if (batch.status === 'DRAFT' && batch.itemCount === 0) throw new PayoutBatchStateError(batch.status, 'empty');
  if (batch.status === 'DRAFT' && (request.approvalRequired || batch.approval.required)) {
    const items = await readItems(docs, batch);
    checkPagesComplete(batch, items);
    const short = shortfalls(items, batch.feeBps, await request.balance());
    if (short.length > 0 && !request.sendWhatFits) throw new PayoutBatchShortfallError(short);
    const queued = await updateBatch(docs, id, (b) => {
      if (b.status !== 'DRAFT') throw new Answer(b);
      b.status = 'QUEUED';
      b.sendWhatFits = request.sendWhatFits;
      b.approval = { required: true, requestedBy: request.by, approvedBy: null };
      b.startedBy = request.by;
      return b;
    });
    return { batch: queued, change: 'queued_for_approval' };
  }
  return setToRun(docs, batch, { ...request, approvedBy: null });
}

/**
 * Approves a batch that waits for approval and sets it to run. Throws PayoutBatchStateError when the batch is not waiting for approval,
 * and SelfApprovalError when its creator or requester approves it.
 */
export async function approveBatch(
  docs: DocStore,
  id: string,
  request: Omit<StartRequest, 'sendWhatFits' | 'approvalRequired'>,
): Promise<StartOutcome> {
  const batch = await readBatch(docs, id);
  if (batch.status !== 'QUEUED' || !batch.approval.required || batch.approval.approvedBy !== null) {
    throw new PayoutBatchStateError(batch.status, FINAL_STATUSES.has(batch.status) ? 'final' : 'not_awaiting_approval');
  }
  if (request.by === batch.createdBy || request.by === batch.approval.requestedBy) throw new SelfApprovalError();
  return setToRun(docs, batch, { ...request, sendWhatFits: batch.sendWhatFits, approvalRequired: true, approvedBy: request.by });
}

function checkPagesComplete(batch: BatchDoc, items: BatchItem[]): void {
  if (items.length !== batch.itemCount) throw new PayoutBatchStateError(batch.status, 'page_incomplete');
}

/**
 * Writes the chunk documents (first run), or on a resume puts back to send the items the service refused for funds
 * (each under its round's new ext_id, written before the chunk may go) and sets aside what no longer fits; then lets
 * a runner take it.
 */
async function setToRun(docs: DocStore, batch: BatchDoc, request: StartRequest & { approvedBy: string | null }): Promise<StartOutcome> {
  const items = await readItems(docs, batch);
  checkPagesComplete(batch, items);
  const resuming = batch.status === 'PAUSED';
  const chunkOf = (item: BatchItem) => Math.floor(item.index / CHUNK_SIZE);
  // On a resume: the items still to send, and those the service refused mid-batch (provably not sent), again.
  const resent = new Set(
    resuming
      ? items
          .filter((i) => i.status === 'NOT_SENT' && i.notSent === 'refused' && batch.chunks[chunkOf(i)]!.state === 'done')
          .map((i) => i.index)
      : [],
  );
  for (const item of items) if (resent.has(item.index)) Object.assign(item, { status: 'PENDING', failure: null, notSent: undefined });
  // A chunk on its way (sent before the pause, not answered yet) is the runner's: what it holds is not counted again.
  const toSend = resuming
    ? items.filter((item) => item.status === 'PENDING' && ['waiting', 'done'].includes(batch.chunks[chunkOf(item)]!.state))
    : items;
  const balance = await request.balance();
  const short = shortfalls(toSend, batch.feeBps, balance);
  if (short.length > 0 && !request.sendWhatFits) throw new PayoutBatchShortfallError(short);
  setAsideWhatDoesNotFit(toSend, batch.feeBps, balance);

  const chunkSet = batch.chunkSet ?? randomUUID();
  const chunkCount = Math.ceil(items.length / CHUNK_SIZE);
  /** Per chunk the round it goes in: a chunk already sent goes again in a new round for what is left of it. */
  const rounds = new Map<number, number>();
  if (!resuming) {
    // A set of its own per attempt: a concurrent start that loses the race below leaves only unused documents.
    // All at once (one pipeline's worth of round trips): the start answers, and the first chunk goes, sooner.
    await Promise.all(
      Array.from({ length: chunkCount }, (_, n) =>
        docs.put(chunkKey(batch.id, chunkSet, n), items.slice(n * CHUNK_SIZE, (n + 1) * CHUNK_SIZE), 0),
      ),
    );
  } else {
    for (let n = 0; n < chunkCount; n++) {
      const slice = items.slice(n * CHUNK_SIZE, (n + 1) * CHUNK_SIZE);
      const state = batch.chunks[n]!.state;
      // A chunk already sent with items to send again (refused ones, or put back by a resume that stopped before the
      // batch's record took it): a new round, whose ext_ids are derived before anything is sent.
      const round = state === 'done' && slice.some((i) => i.status === 'PENDING') ? (batch.chunks[n]!.round ?? 0) + 1 : null;
      if (round !== null) rounds.set(n, round);
      if (state !== 'waiting' && state !== 'done') continue;
      const wanted = new Map(slice.filter((i) => i.status === 'NOT_SENT' || resent.has(i.index)).map((i) => [i.index, i]));
      if (wanted.size === 0) continue;
      await updateDoc<BatchItem[], void>(docs, chunkKey(batch.id, chunkSet, n), (chunk) => {
        for (const item of chunk) {
          const want = wanted.get(item.index);
          if (!want) continue;
          if (want.status === 'NOT_SENT' && want.notSent === 'set_aside' && (item.status === 'PENDING' || item.notSent === 'refused')) {
            // Set aside now ("send what fits"): it stays unsent.
            Object.assign(item, { status: 'NOT_SENT', failure: want.failure, notSent: 'set_aside' });
          } else if (want.status === 'PENDING' && item.status === 'NOT_SENT' && item.notSent === 'refused' && round !== null) {
            // Sent again under a new ext_id, recorded here before the chunk may go (a crash cannot make two).
            item.refusedExtIds = [...(item.refusedExtIds ?? []), item.extId];
            Object.assign(item, { status: 'PENDING', failure: null, notSent: undefined, extId: itemExtId(batch.key, item.index, round) });
          }
        }
      });
    }
  }

  const outcome = await updateBatch<StartOutcome>(docs, batch.id, (b) => {
    const allowed = resuming ? b.status === 'PAUSED' : b.status === 'DRAFT' || (b.status === 'QUEUED' && b.approval.approvedBy === null);
    if (!allowed) throw new Answer<StartOutcome>({ batch: b, change: 'none' });
    if (!resuming) {
      b.chunkSet = chunkSet;
      b.chunks = [];
      b.startedBy ??= request.by;
      b.startedAt = request.now.toISOString();
      b.sendWhatFits = request.sendWhatFits;
    }
    for (let n = 0; n < chunkCount; n++) {
      const slice = items.slice(n * CHUNK_SIZE, (n + 1) * CHUNK_SIZE);
      const toGo = slice.filter((i) => i.status === 'PENDING');
      const progress = { state: 'waiting' as const, items: toGo.length, amount: toGo.reduce((s, i) => s + i.amount, 0) };
      if (!resuming) b.chunks.push(progress.items > 0 ? progress : { ...progress, state: 'done' });
      else if (b.chunks[n]!.state === 'waiting')
        b.chunks[n] = { ...b.chunks[n]!, ...(progress.items > 0 ? progress : { ...progress, state: 'done' }) };
      else if (b.chunks[n]!.state === 'done' && rounds.has(n) && progress.items > 0) b.chunks[n] = { ...progress, round: rounds.get(n)! };
    }
    b.counts = countsOf(b, items);
    if (request.approvedBy) b.approval = { ...b.approval, approvedBy: request.approvedBy };
    b.status = 'QUEUED';
    return { batch: b, change: resuming ? ('resumed' as const) : ('started' as const) };
  });
  if (outcome.change !== 'none') await addToList(docs, ACTIVE_KEY, batch.id);
  return outcome;
}

/**
 * cancelPayoutBatch: chunks not marked as sending are never sent (their items NOT_SENT). While a chunk is on its
 * way (or in doubt) or a sent item is not final, the batch is CANCELLING (the runner follows them, counts still grow);
 * CANCELLED, final, once nothing can change any more (here at once when nothing was sent, else by the runner).
 */
export async function cancelBatch(docs: DocStore, id: string, by: string, now: Date): Promise<{ batch: BatchDoc; changed: boolean }> {
  const outcome = await updateBatch(docs, id, (b) => {
    if (b.status === 'CANCELLED' || b.status === 'CANCELLING') throw new Answer({ batch: b, changed: false });
    if (FINAL_STATUSES.has(b.status)) throw new PayoutBatchStateError(b.status, 'final');
    if (b.chunkSet === null) {
      b.counts.notSent = { ...b.counts.added };
    } else {
      for (const chunk of b.chunks) {
        if (chunk.state !== 'waiting') continue;
        chunk.state = 'cancelled';
        addTo(b.counts.notSent, chunk.amount, chunk.items);
      }
    }
    b.cancelledBy = by;
    if (!b.chunks.some((c) => c.state === 'sending') && inFlight(b.counts) === 0) {
      b.status = 'CANCELLED';
      b.settled = true;
      b.finishedAt = now.toISOString();
    } else b.status = 'CANCELLING';
    return { batch: b, changed: true };
  });
  // A paused batch may have left the runners' list: a cancelling one is followed to its end by one of them.
  if (outcome.batch.settled) await removeFromList(docs, ACTIVE_KEY, id);
  else if (outcome.changed) await addToList(docs, ACTIVE_KEY, id);
  return outcome;
}

export type { Versioned };
