// What a payout batch is, as stored: the batch document (status, pages,
// totals, chunk progress and counts; small, rewritten by compare-and-set) and
// the item documents (one per chunk of at most 100 items, with each item's
// outcome). Plain data only: everything here is kept as JSON.
import { createHash } from 'node:crypto';
import type { ErrorCode } from '../errors/error-codes.js';
import type { Wallet } from '../upstream/types.js';

/** CANCELLING: cancelled, nothing more is sent, and items already sent (or in doubt) are followed to their end. */
export const BATCH_STATUSES = [
  'DRAFT',
  'QUEUED',
  'RUNNING',
  'PAUSED',
  'CANCELLING',
  'COMPLETED',
  'COMPLETED_WITH_FAILURES',
  'CANCELLED',
] as const;
/** One of BATCH_STATUSES: where a batch stands. */
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** The statuses of a batch's item, in the order of its life. */
export const ITEM_STATUSES = ['PENDING', 'QUEUED', 'SUCCEEDED', 'FAILED', 'NOT_SENT'] as const;
/** One of ITEM_STATUSES: where one item of a batch stands. */
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** The service takes at most this many transfers per bulk call. */
export const CHUNK_SIZE = 100;
/** Most items one addPayoutBatchItems call may carry. */
export const PAGE_MAX_ITEMS = 500;

/** One payout of a batch as the caller gave it: integer XOF amount, recipient phone and wallet, and the caller's own reference. */
export interface ItemInput {
  amount: number;
  recipientPhone: string;
  recipientWallet: Wallet;
  /** The caller's own reference for this item (kept, shown; not sent). */
  reference: string | null;
}

/** Why an item was not paid: plain data, turned into a typed error when read. */
export interface ItemFailure {
  code: ErrorCode;
  message: string;
  wallet?: Wallet | null;
  fieldErrors?: Array<{ path: string[]; message: string }>;
}

/** One payout of a batch: its input, ext_id, status, transfer reference and failure. */
export interface BatchItem extends ItemInput {
  index: number;
  /**
   * Derived from the batch's key and the index (and the round, when sent again after a refusal) before anything is
   * sent: how the item is found again.
   */
  extId: string;
  status: ItemStatus;
  transferReference: string | null;
  failure: ItemFailure | null;
  /**
   * Why a NOT_SENT item was not sent: `refused` by the service (a wallet ran dry mid-batch; a resume sends it again),
   * `set_aside` by the caller's "send what fits" (it stays unsent), or `cancelled`: its chunk was on its way when the
   * batch was cancelled, and the service never showed it within the settle window. Absent otherwise.
   */
  notSent?: 'refused' | 'set_aside' | 'cancelled';
  /** The ext_ids the service refused this item under (each attempt has its own: see itemExtId). */
  refusedExtIds?: string[];
}

/** One chunk's progress. waiting: not sent; sending: sent or about to be (in doubt until answered); done; cancelled. */
export type ChunkState = 'waiting' | 'sending' | 'done' | 'cancelled';

interface ChunkProgress {
  state: ChunkState;
  /** How many times a resume put this chunk back to send the items the service refused (0 or absent: never). */
  round?: number;
  /** Items of the chunk to send (not set aside as not sent), and their amount. */
  items: number;
  amount: number;
}

/** A count of items and their amount (XOF, an integer). */
export interface Tally {
  items: number;
  amount: number;
}

interface BatchCounts {
  added: Tally;
  /** Accepted by the service (then succeeded, failed or still in flight). */
  sent: Tally;
  succeeded: Tally;
  /** Refused by the service, or accepted and then failed. */
  failed: Tally;
  /** Of `failed`, those the service had accepted (so `sent - succeeded - failedAfterSend` are in flight). */
  failedAfterSend: Tally;
  notSent: Tally;
}

/** Per wallet of a batch: items, amount, fees, total, and before the start what it holds and lacks. */
export interface WalletTotal {
  wallet: Wallet;
  items: number;
  amount: number;
  fees: number;
}

interface PageRecord {
  start: number;
  count: number;
  fingerprint: string;
}

/**
 * A batch's record: its status, chunks, counts and who created, started, approved or cancelled it (one
 * compare-and-set document).
 */
export interface BatchDoc {
  id: string;
  label: string;
  /** The creator's scoped idempotency key: the root of every item's ext_id. */
  key: string;
  createdBy: string;
  createdAt: string;
  status: BatchStatus;
  itemCount: number;
  pages: Record<string, PageRecord>;
  wallets: WalletTotal[];
  feeBps: number;
  sendWhatFits: boolean;
  approval: { required: boolean; requestedBy: string | null; approvedBy: string | null };
  startedBy: string | null;
  startedAt: string | null;
  cancelledBy: string | null;
  finishedAt: string | null;
  /** Every sent item has reached a final status and nothing more will be sent (then no count changes again). */
  settled: boolean;
  /** Which chunk documents hold the items (written once, when the batch is set to run). */
  chunkSet: string | null;
  chunks: ChunkProgress[];
  counts: BatchCounts;
}

/** The statuses after which a batch never changes again. */
export const FINAL_STATUSES: ReadonlySet<BatchStatus> = new Set(['COMPLETED', 'COMPLETED_WITH_FAILURES', 'CANCELLED']);

/** Counts of a new batch: zero items and zero XOF in every column. */
export function emptyCounts(): BatchCounts {
  const zero = () => ({ items: 0, amount: 0 });
  return { added: zero(), sent: zero(), succeeded: zero(), failed: zero(), failedAfterSend: zero(), notSent: zero() };
}

/** Adds items and their integer XOF amount to a tally, in place. */
export function addTo(tally: Tally, amount: number, items = 1): void {
  tally.items += items;
  tally.amount += amount;
}

/** Fee in whole XOF, rounded up, in integers only (bps: basis points, 100 = 1%). */
export function feeFor(amount: number, feeBps: number): number {
  const product = amount * feeBps;
  const rest = product % 10_000;
  return (product - rest) / 10_000 + (rest > 0 ? 1 : 0);
}

/** Items still in the service's hands. */
export function inFlight(counts: BatchCounts): number {
  return counts.sent.items - counts.succeeded.items - counts.failedAfterSend.items;
}

/** The id of the batch created under a scoped idempotency key: the same key always names the same batch, so a retried create finds it. */
export function batchIdFor(scopedKey: string): string {
  return `pb_${createHash('sha256').update(scopedKey).digest('hex').slice(0, 24)}`;
}

/**
 * An item's ext_id, from the batch's key, the item's index and the round (the same on every replica, every retry of
 * that round). Round 0 is the first send; a resume sends the items the service refused in a new round, under a new
 * ext_id: a service that remembers the ext_ids it refused would otherwise refuse them again as repeats.
 */
export function itemExtId(batchKey: string, index: number, round = 0): string {
  const seed = round === 0 ? `${batchKey}#${index}` : `${batchKey}#${index}#${round}`;
  return `pbi_${createHash('sha256').update(seed).digest('hex').slice(0, 24)}`;
}

/** The idempotency key of one round of one chunk's bulk call (round 0 keeps the first form). */
export function chunkCallKey(id: string, n: number, round = 0): string {
  return round === 0 ? `${id}:${n}` : `${id}:${n}:r${round}`;
}

/** A digest of a page's items, to tell a page sent again (same items) from a page number reused for others. */
export function fingerprintOf(items: ItemInput[]): string {
  return createHash('sha256').update(JSON.stringify(items)).digest('hex');
}

/** The document key of a batch. */
export const batchKey = (id: string) => `batch:${id}`;
/** The document key of one page of a batch, by page number. */
export const pageKey = (id: string, page: number) => `page:${id}:${page}`;
/** The document key of one chunk of a batch's items, in the given set. */
export const chunkKey = (id: string, set: string, n: number) => `chunk:${id}:${set}:${n}`;
/** The list of every batch (newest last) and of those a runner must look after. */
export const INDEX_KEY = 'index';
/** The document key of the list of batches a runner must look after (neither final nor waiting). */
export const ACTIVE_KEY = 'active';

/** The counts, derived from the items (so a runner that takes over after a crash counts from what was saved). */
export function countsOf(batch: Pick<BatchDoc, 'counts' | 'chunks'>, items: readonly BatchItem[]): BatchCounts {
  const counts = emptyCounts();
  counts.added = { ...batch.counts.added };
  for (const item of items) {
    const cancelled = batch.chunks[Math.floor(item.index / CHUNK_SIZE)]?.state === 'cancelled';
    switch (item.status) {
      case 'PENDING':
        if (cancelled) addTo(counts.notSent, item.amount);
        break;
      case 'QUEUED':
        addTo(counts.sent, item.amount);
        break;
      case 'SUCCEEDED':
        addTo(counts.sent, item.amount);
        addTo(counts.succeeded, item.amount);
        break;
      case 'FAILED':
        addTo(counts.failed, item.amount);
        if (item.transferReference !== null || item.failure?.code === 'TRANSFER_FAILED') {
          addTo(counts.sent, item.amount);
          addTo(counts.failedAfterSend, item.amount);
        }
        break;
      case 'NOT_SENT':
        addTo(counts.notSent, item.amount);
        break;
    }
  }
  return counts;
}
