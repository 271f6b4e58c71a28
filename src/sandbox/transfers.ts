// Transfers, single and bulk: debited (amount + fee) from the wallet's available
// balance into pending when queued, settled by the operator after transferMs.
import type { SandboxContext } from './context.js';
import { WALLETS, isValidRecipientFor, walletForPhone, type Wallet } from './contract.js';
import { TRANSFER_FEE_BPS, feeAmount, percentNumber, percentString } from './fees.js';
import { ApiError, invalidData, type FieldErrors } from './http.js';
import { newTransferReference } from './ids.js';
import { newestFirst } from './ordering.js';
import type { Account, TransferRecord } from './store.js';
import { transferFailsFor } from './test-data.js';
import { isoOffset } from './timestamps.js';
import { ErrorCollector, REQUIRED, dictExpected, isPlainObject, parseAmount, parseChoice, parseString } from './validation.js';

export const MIN_TRANSFER_AMOUNT = 100;
export const BULK_MAX_ITEMS = 100;
export const BULK_CALLS_PER_SECOND = 5;

export const TRANSFER_NOT_FOUND_MESSAGE = 'Transfer not found';

/** Fetch and list form (also the webhook payload): fees as a decimal string. */
export function transferView(t: TransferRecord) {
  return {
    reference: t.reference,
    amount: t.amount,
    fees: percentString(t.feeBps),
    recipient_phone: t.recipientPhone,
    currency: 'XOF',
    ip_address: t.ipAddress,
    status: t.status,
    live_mode: false,
    recipient_wallet: t.recipientWallet,
    ext_id: t.extId,
    created_at: isoOffset(t.createdAt),
  };
}

/** The create response shows the fee rate as a number. */
export function transferCreatedView(t: TransferRecord) {
  return { ...transferView(t), fees: percentNumber(t.feeBps) };
}

interface TransferItem {
  amount: number;
  recipientPhone: string;
  recipientWallet: Wallet;
  extId: string | null;
}

type ItemResult = { ok: true; item: TransferItem } | { ok: false; errors: FieldErrors };

function parseItem(account: Account, raw: Record<string, unknown>): ItemResult {
  const errors = new ErrorCollector();
  const amount = errors.take('amount', parseAmount(raw.amount, MIN_TRANSFER_AMOUNT));
  const phone = errors.take('recipient_phone', parseString(raw.recipient_phone, { required: true }));
  let wallet: Wallet | null = null;
  if (raw.recipient_wallet !== undefined && raw.recipient_wallet !== null && raw.recipient_wallet !== '') {
    wallet = errors.take('recipient_wallet', parseChoice(raw.recipient_wallet, WALLETS)) ?? null;
  }
  const extId = errors.take('ext_id', parseString(raw.ext_id, { required: false })) ?? null;
  if (extId !== null && account.transferExtIds.has(extId)) errors.add('ext_id', 'A transfer with this ext_id already exists.');
  if (phone && !('recipient_wallet' in errors.errors)) {
    if (wallet === null) {
      wallet = walletForPhone(phone);
      if (wallet === null) errors.add('recipient_phone', 'Enter a valid Burkina Faso or Benin mobile number.');
    } else if (!isValidRecipientFor(wallet, phone)) {
      errors.add('recipient_phone', `This number cannot receive a transfer from the ${wallet} wallet.`);
    }
  }
  if (!errors.empty) return { ok: false, errors: errors.errors };
  return { ok: true, item: { amount: amount!, recipientPhone: phone!, recipientWallet: wallet!, extId } };
}

export const insufficientMessage = (wallet: Wallet) => `Insufficient balance in ${wallet} wallet`;

/** Debits and queues, or returns null when the wallet cannot cover amount + fee. */
function queue(ctx: SandboxContext, account: Account, item: TransferItem, ipAddress: string): TransferRecord | null {
  const debited = item.amount + feeAmount(item.amount, TRANSFER_FEE_BPS);
  const wallet = account.wallets[item.recipientWallet];
  if (wallet.available < debited) return null;
  wallet.available -= debited;
  wallet.pending += debited;
  const transfer: TransferRecord = {
    seq: account.nextSeq(),
    reference: newTransferReference(),
    amount: item.amount,
    feeBps: TRANSFER_FEE_BPS,
    debited,
    recipientPhone: item.recipientPhone,
    recipientWallet: item.recipientWallet,
    extId: item.extId,
    ipAddress,
    status: 'pending',
    createdAt: ctx.clock.now(),
  };
  account.transfers.set(transfer.reference, transfer);
  if (transfer.extId !== null) account.transferExtIds.add(transfer.extId);
  ctx.scheduler.after(ctx.delays.transferMs, () => complete(ctx, account, transfer));
  return transfer;
}

function complete(ctx: SandboxContext, account: Account, transfer: TransferRecord): void {
  const wallet = account.wallets[transfer.recipientWallet];
  wallet.pending -= transfer.debited;
  if (transferFailsFor(transfer.recipientPhone)) {
    transfer.status = 'failed';
    wallet.available += transfer.debited;
  } else {
    transfer.status = 'success';
  }
  ctx.emit(transfer.status === 'success' ? 'transfer.success' : 'transfer.failed', transferView(transfer), account);
}

export function createTransfer(ctx: SandboxContext, account: Account, raw: unknown, ipAddress: string): TransferRecord {
  if (!isPlainObject(raw)) throw invalidData(dictExpected(raw));
  const parsed = parseItem(account, raw);
  if (!parsed.ok) throw invalidData(parsed.errors);
  const transfer = queue(ctx, account, parsed.item, ipAddress);
  if (!transfer) {
    throw new ApiError(400, insufficientMessage(parsed.item.recipientWallet), { errorCode: 'INSUFFICIENT_FUNDS' });
  }
  return transfer;
}

/** Sliding one-second window on the sandbox clock; only calls let through count. */
function enforceBulkRate(ctx: SandboxContext, account: Account): void {
  const now = ctx.clock.now();
  while (account.bulkCalls.length > 0 && now - account.bulkCalls[0]! >= 1_000) account.bulkCalls.shift();
  if (account.bulkCalls.length >= BULK_CALLS_PER_SECOND) {
    const waitMs = account.bulkCalls[0]! + 1_000 - now;
    throw new ApiError(429, `Rate limit exceeded: at most ${BULK_CALLS_PER_SECOND} bulk transfer calls per second.`, {
      errorCode: 'RATE_LIMIT_EXCEEDED',
      headers: { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1_000))) },
    });
  }
  account.bulkCalls.push(now);
}

export interface BulkOutcome {
  queued: TransferRecord[];
  failed: Array<{ data: Record<string, unknown>; errors: FieldErrors }>;
  message: string;
}

export function bulkTransfer(ctx: SandboxContext, account: Account, raw: unknown, ipAddress: string): BulkOutcome {
  enforceBulkRate(ctx, account);
  if (!isPlainObject(raw)) throw invalidData(dictExpected(raw));
  const items = raw.transfers;
  if (items === undefined || items === null) throw invalidData({ transfers: [REQUIRED] });
  if (!Array.isArray(items)) throw invalidData({ transfers: [`Expected a list of items but got type "${typeof items}".`] });
  if (items.length === 0) throw invalidData({ transfers: ['This list may not be empty.'] });
  if (items.length > BULK_MAX_ITEMS) {
    throw new ApiError(400, `Batch size limit exceeded: at most ${BULK_MAX_ITEMS} transfers per request.`, {
      errorCode: 'BATCH_SIZE_LIMIT_EXCEEDED',
    });
  }

  // In order, so each item sees the balance left by the ones before it.
  const outcome: BulkOutcome = { queued: [], failed: [], message: '' };
  for (const rawItem of items as unknown[]) {
    if (!isPlainObject(rawItem)) {
      outcome.failed.push({ data: echo({}), errors: dictExpected(rawItem) });
      continue;
    }
    const parsed = parseItem(account, rawItem);
    if (!parsed.ok) {
      outcome.failed.push({ data: echo(rawItem), errors: parsed.errors });
      continue;
    }
    const transfer = queue(ctx, account, parsed.item, ipAddress);
    if (transfer) outcome.queued.push(transfer);
    else outcome.failed.push({ data: echo(rawItem), errors: { non_field_errors: [insufficientMessage(parsed.item.recipientWallet)] } });
  }
  const n = outcome.queued.length;
  outcome.message = `${n} transfer${n === 1 ? '' : 's'} queued for processing`;
  return outcome;
}

/** The submitted item as sent (values not coerced), absent fields as null. */
function echo(item: Record<string, unknown>) {
  return {
    amount: item.amount ?? null,
    recipient_phone: item.recipient_phone ?? null,
    recipient_wallet: item.recipient_wallet ?? null,
    ext_id: item.ext_id ?? null,
  };
}

export function findTransfer(account: Account, reference: string): TransferRecord {
  const transfer = account.transfers.get(reference);
  if (!transfer) throw new ApiError(404, TRANSFER_NOT_FOUND_MESSAGE, { errorCode: 'TRANSACTION_NOT_FOUND' });
  return transfer;
}

export function listTransfers(account: Account) {
  return newestFirst(account.transfers.values()).map(transferView);
}
