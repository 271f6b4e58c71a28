// Settlements: collection funds move to the payout account through
// processing -> in_transit -> success on the clock; cancellable only while processing.
import type { SandboxContext } from './context.js';
import type { SettlementStatus } from './contract.js';
import { SETTLEMENT_FEE_BPS, feeAmount } from './fees.js';
import { ApiError, invalidData } from './http.js';
import { newUuid } from './ids.js';
import { newestFirst } from './ordering.js';
import type { Account, SettlementRecord } from './store.js';
import { isoOffset, isoZ } from './timestamps.js';
import { ErrorCollector, dictExpected, isPlainObject, parseAmount } from './validation.js';

export const NO_PAYMENT_ACCOUNT_MESSAGE = 'No payment account found. Create one in your business settings.';
export const NOT_CANCELLABLE_MESSAGE = 'Settlement can only be cancelled when in processing status';
export const SETTLEMENT_NOT_FOUND_MESSAGE = 'Settlement not found';

export function settlementView(s: SettlementRecord) {
  return {
    reference: s.reference,
    amount: s.amount,
    settlement_fees: s.fees,
    currency: 'XOF',
    status: s.status,
    live_mode: false,
    created_at: isoZ(s.createdAt),
    updated_at: isoOffset(s.updatedAt),
    ...s.payout,
  };
}

export function createSettlement(ctx: SandboxContext, account: Account, raw: unknown): SettlementRecord {
  // Checked first: without a payout account no amount can ever be valid.
  if (!account.paymentAccount) throw new ApiError(400, NO_PAYMENT_ACCOUNT_MESSAGE);
  if (!isPlainObject(raw)) throw invalidData(dictExpected(raw));
  const errors = new ErrorCollector();
  const amount = errors.take('amount', parseAmount(raw.amount, 1));
  if (!errors.empty) throw invalidData(errors.errors);
  if (amount! > account.collection.available) {
    throw new ApiError(400, `Insufficient collection balance: ${account.collection.available} XOF available.`, {
      errorCode: 'INSUFFICIENT_FUNDS',
    });
  }
  account.collection.available -= amount!;
  account.collection.pending += amount!;
  const now = ctx.clock.now();
  const settlement: SettlementRecord = {
    seq: account.nextSeq(),
    reference: newUuid(),
    amount: amount!,
    fees: feeAmount(amount!, SETTLEMENT_FEE_BPS),
    status: 'processing',
    payout: { ...account.paymentAccount },
    createdAt: now,
    updatedAt: now,
    nextMove: null,
  };
  account.settlements.set(settlement.reference, settlement);
  ctx.emit('settlement.processing', settlementView(settlement), account);
  settlement.nextMove = ctx.scheduler.after(ctx.delays.settlementInTransitMs, () => {
    move(ctx, account, settlement, 'in_transit');
    settlement.nextMove = ctx.scheduler.after(ctx.delays.settlementSuccessMs, () => {
      settlement.nextMove = null;
      account.collection.pending -= settlement.amount;
      move(ctx, account, settlement, 'success');
    });
  });
  return settlement;
}

function move(ctx: SandboxContext, account: Account, settlement: SettlementRecord, status: SettlementStatus): void {
  settlement.status = status;
  settlement.updatedAt = ctx.clock.now();
  ctx.emit(`settlement.${status}` as const, settlementView(settlement), account);
}

export function findSettlement(account: Account, reference: string): SettlementRecord {
  const settlement = account.settlements.get(reference);
  if (!settlement) throw new ApiError(404, SETTLEMENT_NOT_FOUND_MESSAGE);
  return settlement;
}

export function cancelSettlement(ctx: SandboxContext, account: Account, reference: string): SettlementRecord {
  const settlement = findSettlement(account, reference);
  if (settlement.status !== 'processing') {
    throw new ApiError(400, NOT_CANCELLABLE_MESSAGE, { errors: { non_field_errors: [NOT_CANCELLABLE_MESSAGE] } });
  }
  settlement.nextMove?.cancel();
  settlement.nextMove = null;
  account.collection.pending -= settlement.amount;
  account.collection.available += settlement.amount;
  move(ctx, account, settlement, 'cancelled');
  return settlement;
}

export function listSettlements(account: Account) {
  return newestFirst(account.settlements.values()).map(settlementView);
}
