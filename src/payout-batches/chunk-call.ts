// One chunk's bulk call and its look-up at the service: what the answer (or the service's list, for a chunk whose
// answer was lost) says of each item. Plain functions of the upstream client: the runner decides what to do with it.
import { isDuplicateExtId } from '../upstream/call-error.js';
import { INSUFFICIENT_FUNDS_PATTERN, INVALID_ACCOUNT_PATTERN } from '../upstream/service-messages.js';
import type { BulkTransferFailure, CreateTransferInput, Transfer, UpstreamClient, Wallet } from '../upstream/types.js';
import type { ItemFailure } from './model.js';

/** The items of one chunk as sent to the service's bulk transfer, each under the ext_id fixed when its page was added. */
export type ChunkRequest = Array<CreateTransferInput & { extId: string }>;

/**
 * What became of a chunk: the items the service accepted (with their transfer reference once known), those it refused and why, and those
 * never sent.
 */
export type ChunkResult = {
  accepted: Array<{ extId: string; reference: string | null }>;
  failures: Array<{ extId: string; failure: ItemFailure }>;
  /** Items of a chunk in doubt that the service never showed within the settle window, once the batch was cancelled. */
  notSent?: string[];
};

/**
 * Every transfer the service lists, by the ext_id it was sent under (transfers without one left out): how a chunk in doubt is looked up
 * before anything is sent again.
 */
export async function transfersByExtId(upstream: UpstreamClient): Promise<Map<string, Transfer>> {
  const list = await upstream.listTransfers();
  return new Map(list.flatMap((t) => (t.extId ? [[t.extId, t] as const] : [])));
}

/** The service's transfer under an item's ext_id is that item's payout only with the same amount and recipient. */
export function samePayout(transfer: Transfer, item: CreateTransferInput): boolean {
  return transfer.amount === item.amount && transfer.recipientPhone === item.recipientPhone;
}

/**
 * A chunk in doubt, looked up by ext_id: each item is carried out if the service shows its payout under its ext_id,
 * failed if the service holds another payout (another recipient or amount) under it: that one is not ours. With
 * every item accounted for, that is the chunk's result; otherwise null (the rest may not be visible yet; a retry sends
 * it all again with the same ext_ids), unless `giveUp`: the settle window is over and the batch was cancelled, so
 * what is not shown now never arrived, and is not sent again.
 */
export async function lookUpChunk(upstream: UpstreamClient, request: ChunkRequest, giveUp: boolean): Promise<ChunkResult | null> {
  const found = await transfersByExtId(upstream);
  const accepted: ChunkResult['accepted'] = [];
  const failures: ChunkResult['failures'] = [];
  const missing: string[] = [];
  for (const r of request) {
    const transfer = found.get(r.extId);
    if (!transfer) missing.push(r.extId);
    else if (samePayout(transfer, r)) accepted.push({ extId: r.extId, reference: transfer.reference });
    else failures.push({ extId: r.extId, failure: notOurs() });
  }
  if (missing.length === 0) return { accepted, failures };
  return giveUp ? { accepted, failures, notSent: missing } : null;
}

/**
 * The bulk call, made now: each item accepted or refused, items refused as repeats looked up (an earlier attempt's).
 * `over`: told as soon as the call itself is over (answered, refused, or lost), before any look-up.
 */
export async function callBulk(upstream: UpstreamClient, request: ChunkRequest, over: () => void): Promise<ChunkResult> {
  let answer: Awaited<ReturnType<UpstreamClient['createBulkTransfer']>>;
  try {
    answer = await upstream.createBulkTransfer(request);
  } finally {
    over();
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
    const found = await transfersByExtId(upstream);
    for (const extId of duplicates) {
      const transfer = found.get(extId);
      const item = request.find((r) => r.extId === extId)!;
      if (transfer && samePayout(transfer, item)) accepted.push({ extId, reference: transfer.reference });
      else failures.push({ extId, failure: notOurs() });
    }
  }
  return { accepted, failures };
}

function notOurs(): ItemFailure {
  return { code: 'INVALID_DATA', message: 'The service already holds another payout with this ext_id.' };
}

/** A refused bulk item's reasons, as plain data (the schema makes the typed error). */
function failureOf(f: BulkTransferFailure): ItemFailure {
  const reasons = f.nonFieldErrors.join(' ');
  if (INSUFFICIENT_FUNDS_PATTERN.test(reasons))
    return { code: 'INSUFFICIENT_FUNDS', message: reasons, wallet: (f.item.recipientWallet as Wallet | null) ?? null };
  if (INVALID_ACCOUNT_PATTERN.test(reasons)) return { code: 'INVALID_ACCOUNT', message: reasons };
  return {
    code: 'INVALID_DATA',
    message: reasons || 'The payment service rejected this item.',
    fieldErrors: f.fieldErrors.map((e) => ({ path: e.path, message: e.message })),
  };
}
