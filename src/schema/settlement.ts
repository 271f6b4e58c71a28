// Settlements: move collected funds to the payout account set up in the
// service's business settings.
import { UpstreamCallError } from '../upstream/call-error.js';
import type { Settlement, SettlementAccount, SettlementStatus } from '../upstream/types.js';
import { access } from './access.js';
import { builder } from './builder.js';
import { AccountTypeEnum, SettlementStatusEnum } from './enums.js';
import {
  IdempotencyConflictError,
  InsufficientFundsError,
  NotFoundError,
  PaymentAccountMissingError,
  RateLimitedError,
  SettlementNotCancellableError,
  UpstreamError,
  ValidationError,
} from '../errors/payment-errors.js';
import { IDEMPOTENCY_KEY_DESCRIPTION, paymentMutation } from './mutation.js';
import { loadNodes } from './nodes.js';
import { canonicalFilter, checkFilterBounds, filteredConnection, listOnce, withinBounds, type CommonFilter } from './list-filter.js';
import { SettlementRef } from './refs.js';

const PayoutAccountRef = builder.objectRef<SettlementAccount>('PayoutAccount').implement({
  description: 'Where a settlement goes. Fields that do not apply to the account type are null.',
  fields: (t) => ({
    accountHolderName: t.exposeString('accountHolderName', { nullable: true, description: 'Account holder.' }),
    accountHolderAddress: t.exposeString('accountHolderAddress', { nullable: true, description: 'Account holder address.' }),
    bankName: t.exposeString('bankName', { nullable: true, description: 'Bank (bank accounts).' }),
    bankAddress: t.exposeString('bankAddress', { nullable: true, description: 'Bank address (bank accounts).' }),
    iban: t.exposeString('iban', { nullable: true, description: 'IBAN (bank accounts).' }),
    rib: t.exposeString('rib', { nullable: true, description: 'RIB (bank accounts).' }),
    swiftBicCode: t.exposeString('swiftBicCode', { nullable: true, description: 'SWIFT/BIC (bank accounts).' }),
    provider: t.exposeString('provider', { nullable: true, description: 'Operator (mobile accounts).' }),
    phone: t.exposeString('phone', { nullable: true, description: 'Phone (mobile accounts).' }),
    usdtWalletAddress: t.exposeString('usdtWalletAddress', { nullable: true, description: 'Wallet address (USDT accounts).' }),
  }),
});

builder.node(SettlementRef, {
  description: 'A transfer of collected funds to your payout account.',
  id: { resolve: (s) => s.reference, description: 'Opaque global ID of this settlement, for node(id) and nodes(ids).' },
  loadManyWithoutCache: (refs, ctx) => loadNodes(ctx.loaders.settlement, refs),
  fields: (t) => ({
    reference: t.exposeString('reference', { description: 'The settlement reference (UUID).' }),
    amount: t.exposeInt('amount', { description: 'Amount settled, in XOF.' }),
    settlementFees: t.exposeInt('settlementFees', { description: 'Fees for this settlement, in XOF.' }),
    currency: t.exposeString('currency', { description: 'Always XOF.' }),
    status: t.field({ type: SettlementStatusEnum, resolve: (s) => s.status, description: 'Where it stands.' }),
    accountType: t.field({ type: AccountTypeEnum, resolve: (s) => s.accountType, description: 'Kind of payout account.' }),
    account: t.field({ type: PayoutAccountRef, resolve: (s) => s.account, description: 'Payout account details.' }),
    liveMode: t.exposeBoolean('liveMode', { description: 'False in test mode.' }),
    createdAt: t.field({ type: 'DateTime', resolve: (s) => s.createdAt, description: 'When it was requested (UTC).' }),
    updatedAt: t.field({ type: 'DateTime', resolve: (s) => s.updatedAt, description: 'When it last changed (UTC).' }),
  }),
});

const SettlementFilterInput = builder.inputType('SettlementFilter', {
  description:
    'Narrows the settlement list. All conditions must hold. The gateway applies them (the service lists settlements unfiltered), with one call to the service per operation whatever the filter.',
  fields: (t) => ({
    reference: t.string({ description: 'Exactly this settlement reference.' }),
    status: t.field({ type: SettlementStatusEnum, description: 'This status only.' }),
    dateFrom: t.field({ type: 'Date', description: 'Requested on or after this day (UTC).' }),
    dateTo: t.field({ type: 'Date', description: 'Requested on or before this day (UTC).' }),
    amountMin: t.int({ description: 'Amount at least this, in XOF.' }),
    amountMax: t.int({ description: 'Amount at most this, in XOF.' }),
  }),
});

interface SettlementFilter extends CommonFilter {
  status?: SettlementStatus | null;
}

function matchesSettlement(f: SettlementFilter) {
  return (s: Settlement) => (!f.reference || s.reference === f.reference) && (!f.status || s.status === f.status) && withinBounds(f, s);
}

builder.queryFields((t) => ({
  settlement: t.field({
    ...access({ scope: 'payments:read' }),
    type: SettlementRef,
    nullable: true,
    description: 'A settlement by reference; null when none exists.',
    args: { reference: t.arg.string({ required: true }) },
    resolve: (_root, { reference }, ctx) => ctx.loaders.settlement.load(reference),
  }),
  settlements: t.connection(
    {
      ...access({ scope: 'payments:read' }),
      type: SettlementRef,
      description:
        'Settlements, newest first, filtered. Cursors belong to one filter: changing the filter means starting again without a cursor.',
      args: { filter: t.arg({ type: SettlementFilterInput }) },
      resolve: async (_root, args, ctx) => {
        const filter = canonicalFilter(args.filter) as SettlementFilter;
        checkFilterBounds(filter);
        const connection = await filteredConnection(args, 'settlements', filter as Record<string, unknown>, async () =>
          (await listOnce(ctx, 'settlements', () => ctx.upstream.listSettlements())).filter(matchesSettlement(filter)),
        );
        for (const { node } of connection.edges) ctx.loaders.settlement.prime(node.reference, node);
        return connection;
      },
    },
    {
      name: 'SettlementConnection',
      description: 'A page of settlements.',
      edgesField: { description: 'The settlements of this page, in list order, each with its cursor.' },
    },
    { name: 'SettlementEdge', description: 'One settlement and its cursor.', nodeField: { description: 'The settlement.' } },
  ),
}));

const CreateSettlementInput = builder.inputType('CreateSettlementInput', {
  description: 'How much to settle.',
  fields: (t) => ({
    amount: t.int({ required: true, description: 'Amount in XOF, from the Collection Balance.' }),
    idempotencyKey: t.string({ required: true, description: IDEMPOTENCY_KEY_DESCRIPTION }),
  }),
});

const SettlementPayload = builder.objectRef<{ settlement: Settlement }>('SettlementPayload').implement({
  description: 'The settlement after the change.',
  fields: (t) => ({
    settlement: t.field({ type: SettlementRef, resolve: (p) => p.settlement, description: 'The settlement.' }),
  }),
});

paymentMutation('createSettlement', {
  description: 'Sends collected funds to your payout account. It can be cancelled while PROCESSING.',
  arg: { name: 'input', type: CreateSettlementInput },
  payload: SettlementPayload,
  errors: [ValidationError, InsufficientFundsError, PaymentAccountMissingError, RateLimitedError, IdempotencyConflictError, UpstreamError],
  result: { name: 'CreateSettlementResult', description: 'The new settlement, or why it was not created.' },
  access: { scope: 'settlements:write' },
  upstream: 'createSettlement',
  validate: (input, checks) => checks.amount(checks.at('amount'), input.amount),
  request: (input) => ({ amount: input.amount }),
  // A settlement carries only its amount: one whose creation got no answer cannot be told apart from another.
  idempotency: { key: (input) => input.idempotencyKey },
  execute: async (request, ctx) => ({ settlement: await ctx.upstream.createSettlement(request) }),
  created: (payload) => [{ kind: 'settlement', reference: payload.settlement.reference }],
});

paymentMutation('cancelSettlement', {
  description: 'Cancels a settlement that is still PROCESSING; the funds return to the Collection Balance.',
  arg: { name: 'reference', type: 'String', description: 'The settlement reference.' },
  payload: SettlementPayload,
  errors: [NotFoundError, SettlementNotCancellableError, UpstreamError],
  result: { name: 'CancelSettlementResult', description: 'The cancelled settlement, or why it was not cancelled.' },
  access: { scope: 'settlements:write' },
  upstream: 'cancelSettlement',
  target: (reference) => ({ resource: 'settlement', reference }),
  request: (reference: string) => reference,
  idempotency: { notNeeded: 'Cancelling is final: a second cancel of the same settlement is refused by the service and moves nothing.' },
  execute: async (reference, ctx) => {
    try {
      return { settlement: await ctx.upstream.cancelSettlement(reference) };
    } catch (err) {
      if (err instanceof UpstreamCallError && err.code === 'SETTLEMENT_NOT_CANCELLABLE') {
        // The service only says "not cancellable"; tell the client where it stands.
        const current = await ctx.upstream.fetchSettlement(reference).catch(() => null);
        throw new SettlementNotCancellableError(current?.status ?? null);
      }
      throw err;
    }
  },
});
