// Transfers: pay out from a wallet's Transfer Balance to a phone, one at a
// time or up to 100 at once. They are queued (PENDING) and settle by themselves.
import { wrapErrorIfMatches } from '@pothos/plugin-errors';
import { extIdForKey } from '../idempotency/ext-id.js';
import { walletForPhone } from '../upstream/phone-rules.js';
import type { BulkTransferFailure, CreateTransferInput, Transfer, TransferStatus, Wallet } from '../upstream/types.js';
import { UpstreamCallError, isDuplicateExtId } from '../upstream/call-error.js';
import { access } from './access.js';
import { builder, type GatewaySchemaTypes } from './builder.js';
import type { GatewayContext } from './context.js';
import { TransferStatusEnum, WalletEnum } from './enums.js';
import {
  BULK_TRANSFER_LIMIT,
  BatchSizeLimitExceededError,
  IdempotencyConflictError,
  InsufficientFundsError,
  InvalidAccountError,
  RateLimitedError,
  UpstreamError,
  ValidationError,
  fromServiceFieldErrors,
  walletNamedIn,
  type PaymentError,
} from '../errors/payment-errors.js';
import { NOT_SENT_BULK_ITEM } from '../errors/field-messages.js';
import { PaymentErrorInterface } from './error-types.js';
import { IDEMPOTENCY_KEY_DESCRIPTION, paymentMutation } from './mutation.js';
import { loadNodes } from './nodes.js';
import { canonicalFilter, checkFilterBounds, filteredConnection, listOnce, withinBounds, type CommonFilter } from './list-filter.js';
import { normalizedPhone } from './phone-input.js';
import { TransferRef } from './refs.js';
import { Checks, MIN_TRANSFER_AMOUNT } from './validation.js';
import { INSUFFICIENT_FUNDS_PATTERN, INVALID_ACCOUNT_PATTERN } from '../upstream/service-messages.js';

builder.node(TransferRef, {
  description: 'Money sent from one of your wallets to a phone.',
  id: { resolve: (tr) => tr.reference, description: 'Opaque global ID of this transfer, for node(id) and nodes(ids).' },
  loadManyWithoutCache: (refs, ctx) => loadNodes(ctx.loaders.transfer, refs),
  fields: (t) => ({
    reference: t.exposeString('reference', { description: 'The transfer reference.' }),
    amount: t.exposeInt('amount', { description: 'Amount the recipient receives, in XOF.' }),
    feePercent: t.exposeFloat('feePercent', { description: 'Fee rate in percent, charged on top of the amount.' }),
    currency: t.exposeString('currency', { description: 'Always XOF.' }),
    recipientPhone: t.exposeString('recipientPhone', { description: 'Recipient phone number.' }),
    recipientWallet: t.field({
      type: WalletEnum,
      nullable: true,
      resolve: (tr) => tr.recipientWallet,
      description: 'The wallet it was paid from.',
    }),
    status: t.field({ type: TransferStatusEnum, resolve: (tr) => tr.status, description: 'Delivery state.' }),
    extId: t.exposeString('extId', { nullable: true, description: 'Your external id.' }),
    ipAddress: t.exposeString('ipAddress', { nullable: true, description: 'IP address it was requested from.' }),
    liveMode: t.exposeBoolean('liveMode', { description: 'False for test-mode transfers.' }),
    createdAt: t.field({ type: 'DateTime', resolve: (tr) => tr.createdAt, description: 'When it was requested (UTC).' }),
  }),
});

const TransferFilterInput = builder.inputType('TransferFilter', {
  description:
    'Narrows the transfer list. All conditions must hold. The gateway applies them (the service lists transfers unfiltered), with one call to the service per operation whatever the filter.',
  fields: (t) => ({
    reference: t.string({ description: 'Exactly this transfer reference.' }),
    status: t.field({ type: TransferStatusEnum, description: 'This status only.' }),
    wallet: t.field({ type: WalletEnum, description: 'Paid from this wallet only.' }),
    phone: t.string({ description: 'To this recipient phone only.' }),
    extId: t.string({ description: 'Exactly this external id of yours.' }),
    dateFrom: t.field({ type: 'Date', description: 'Requested on or after this day (UTC).' }),
    dateTo: t.field({ type: 'Date', description: 'Requested on or before this day (UTC).' }),
    amountMin: t.int({ description: 'Amount at least this, in XOF.' }),
    amountMax: t.int({ description: 'Amount at most this, in XOF.' }),
  }),
});

interface TransferFilter extends CommonFilter {
  status?: TransferStatus | null;
  wallet?: Wallet | null;
  phone?: string | null;
  extId?: string | null;
}

function matchesTransfer(f: TransferFilter) {
  return (tr: Transfer) =>
    (!f.reference || tr.reference === f.reference) &&
    (!f.status || tr.status === f.status) &&
    (!f.wallet || tr.recipientWallet === f.wallet) &&
    (!f.phone || tr.recipientPhone === normalizedPhone(f.phone, f.wallet)) &&
    (!f.extId || tr.extId === f.extId) &&
    withinBounds(f, tr);
}

builder.queryFields((t) => ({
  transfer: t.field({
    ...access({ scope: 'payments:read' }),
    type: TransferRef,
    nullable: true,
    description: 'A transfer by reference; null when none exists.',
    args: { reference: t.arg.string({ required: true }) },
    resolve: (_root, { reference }, ctx) => ctx.loaders.transfer.load(reference),
  }),
  transfers: t.connection(
    {
      ...access({ scope: 'payments:read' }),
      type: TransferRef,
      description:
        'Transfers, newest first, filtered. Cursors belong to one filter: changing the filter means starting again without a cursor.',
      args: { filter: t.arg({ type: TransferFilterInput }) },
      resolve: async (_root, args, ctx) => {
        const filter = canonicalFilter(args.filter) as TransferFilter;
        checkFilterBounds(filter);
        const connection = await filteredConnection(args, 'transfers', filter as Record<string, unknown>, async () =>
          (await listOnce(ctx, 'transfers', () => ctx.upstream.listTransfers())).filter(matchesTransfer(filter)),
        );
        for (const { node } of connection.edges) ctx.loaders.transfer.prime(node.reference, node);
        return connection;
      },
    },
    {
      name: 'TransferConnection',
      description: 'A page of transfers.',
      edgesField: { description: 'The transfers of this page, in list order, each with its cursor.' },
    },
    { name: 'TransferEdge', description: 'One transfer and its cursor.', nodeField: { description: 'The transfer.' } },
  ),
}));

const payoutFields = (t: PothosSchemaTypes.InputFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<GatewaySchemaTypes>, 'InputObject'>) => ({
  amount: t.int({
    required: true,
    description: `Amount in XOF the recipient receives, at least ${MIN_TRANSFER_AMOUNT}. Fees are debited on top.`,
  }),
  recipientPhone: t.string({
    required: true,
    description: 'Recipient phone number as typed (national, or with +226/00226 or +229/00229; spaces, dots and dashes are fine).',
  }),
  recipientWallet: t.field({ type: WalletEnum, description: "Wallet to pay from; by default the one matching the recipient's operator." }),
  extId: t.string({
    description: 'Your own reference for this payout (at most 100 characters, unique: the service refuses an ext_id it has seen).',
  }),
});

const CreateTransferInputRef = builder.inputType('CreateTransferInput', {
  description: 'One payout.',
  fields: (t) => ({
    ...payoutFields(t),
    idempotencyKey: t.string({ required: true, description: IDEMPOTENCY_KEY_DESCRIPTION }),
  }),
});

const BulkTransferItemInput = builder.inputType('BulkTransferItemInput', {
  description: "One payout of a bulk transfer. The bulk's idempotency key covers every item.",
  fields: (t) => payoutFields(t),
});

type TransferItemInput = { amount: number; recipientPhone: string; recipientWallet?: Wallet | null; extId?: string | null };

function checkTransferItem(checks: Checks, path: Array<string | number>, item: TransferItemInput): void {
  checks.amount(checks.at(...path, 'amount'), item.amount, MIN_TRANSFER_AMOUNT);
  checks.recipient(checks.at(...path, 'recipientPhone'), item.recipientPhone, item.recipientWallet);
  checks.maxLength(checks.at(...path, 'extId'), item.extId, 100);
}

function toUpstreamItem(item: TransferItemInput): CreateTransferInput {
  return {
    amount: item.amount,
    recipientPhone: normalizedPhone(item.recipientPhone, item.recipientWallet),
    recipientWallet: item.recipientWallet ?? null,
    extId: item.extId ?? null,
  };
}

const CreateTransferPayload = builder.objectRef<{ transfer: Transfer }>('CreateTransferPayload').implement({
  description: 'The queued transfer.',
  fields: (t) => ({
    transfer: t.field({ type: TransferRef, resolve: (p) => p.transfer, description: 'The transfer, PENDING until delivered.' }),
  }),
});

paymentMutation('createTransfer', {
  description: 'Sends money to a phone. The amount plus fees leave the wallet now; a failed transfer gives them back.',
  arg: { name: 'input', type: CreateTransferInputRef },
  payload: CreateTransferPayload,
  errors: [ValidationError, InsufficientFundsError, InvalidAccountError, RateLimitedError, IdempotencyConflictError, UpstreamError],
  result: { name: 'CreateTransferResult', description: 'The queued transfer, or why it was not sent.' },
  access: { scope: 'payouts:write' },
  upstream: 'createTransfer',
  validate: (input, checks) => checkTransferItem(checks, [], input),
  // Without an extId of the client's, one derived from the key lets a transfer whose answer was lost be found again.
  request: (input, key) => ({ ...toUpstreamItem(input), extId: input.extId ?? (key ? extIdForKey(key) : null) }),
  idempotency: {
    key: (input) => input.idempotencyKey,
    meta: (request): Record<string, string> => (request.extId ? { extId: request.extId } : {}),
    reconcile: async (request, ctx) => {
      const transfer = request.extId ? await transferByExtId(ctx, request.extId) : null;
      return transfer && isSamePayout(transfer, request) ? { transfer } : null;
    },
  },
  execute: async (request, ctx) => {
    let transfer: Transfer;
    try {
      transfer = await ctx.upstream.createTransfer(request);
    } catch (err) {
      // The service has this ext_id already. If it is this very payout, this request made it before (its
      // answer was lost): that is the result, not an error. Another payout under the same ext_id is the caller's mistake.
      const existing =
        request.extId && err instanceof UpstreamCallError && isDuplicateExtId(err.fieldErrors)
          ? await transferByExtId(ctx, request.extId)
          : null;
      if (!existing || !isSamePayout(existing, request)) throw err;
      transfer = existing;
    }
    ctx.loaders.transfer.prime(transfer.reference, transfer);
    return { transfer };
  },
  created: (payload) => [{ kind: 'transfer', reference: payload.transfer.reference }],
});

/** The transfer found under an ext_id is the payout asked for: same recipient, same amount. */
function isSamePayout(transfer: Transfer, item: CreateTransferInput): boolean {
  return transfer.amount === item.amount && transfer.recipientPhone === item.recipientPhone;
}

async function transferByExtId(ctx: GatewayContext, extId: string): Promise<Transfer | null> {
  return (await ctx.upstream.listTransfers()).find((tr) => tr.extId === extId) ?? null;
}

// ---- createBulkTransfer ---------------------------------------------------

const CreateBulkTransferInput = builder.inputType('CreateBulkTransferInput', {
  description: `Up to ${BULK_TRANSFER_LIMIT} payouts in one request.`,
  fields: (t) => ({
    transfers: t.field({ type: [BulkTransferItemInput], required: true, description: `The payouts, at most ${BULK_TRANSFER_LIMIT}.` }),
    idempotencyKey: t.string({ required: true, description: IDEMPOTENCY_KEY_DESCRIPTION }),
  }),
});

/** Plain data (the idempotency store may keep it as JSON); the typed error is built when resolved. */
type BulkFailure = BulkTransferFailure;

const TransferItemRef = builder.objectRef<TransferItemInput>('TransferItem').implement({
  description: 'A payout as it was submitted.',
  fields: (t) => ({
    amount: t.exposeInt('amount', { description: 'Amount in XOF.' }),
    recipientPhone: t.exposeString('recipientPhone', { description: 'Recipient phone.' }),
    recipientWallet: t.field({
      type: WalletEnum,
      nullable: true,
      resolve: (i) => i.recipientWallet ?? null,
      description: 'Wallet named, if any.',
    }),
    extId: t.string({ nullable: true, resolve: (i) => i.extId ?? null, description: 'Your external id, if any.' }),
  }),
});

/** The classes itemError returns. */
const ITEM_ERRORS = [InsufficientFundsError, InvalidAccountError, ValidationError] as const;

const BulkTransferFailureRef = builder.objectRef<BulkFailure>('BulkTransferFailure').implement({
  description: 'One payout of a bulk transfer that was not queued.',
  fields: (t) => ({
    index: t.int({
      nullable: true,
      resolve: (f) => f.index,
      description: 'Position of the item in `input.transfers` (0-based), when it could be matched.',
    }),
    item: t.field({ type: TransferItemRef, resolve: (f) => f.item, description: 'The item as submitted.' }),
    error: t.field({
      type: PaymentErrorInterface,
      // A resolver may not hand an Error to graphql as a value (it would be raised as a field
      // error): wrap it the way the errors plugin wraps a mutation's typed errors.
      resolve: (f) => wrapErrorIfMatches(itemError(f, f.index), [...ITEM_ERRORS]) as PaymentError,
      description: 'Why it was not queued.',
    }),
  }),
});

const CreateBulkTransferPayload = builder
  .objectRef<{ queuedCount: number; failures: BulkFailure[]; message: string }>('CreateBulkTransferPayload')
  .implement({
    description:
      'What a bulk transfer queued and what it rejected. Queued items are processed in the background: follow them in `transfers`.',
    fields: (t) => ({
      queuedCount: t.exposeInt('queuedCount', { description: 'How many payouts were queued.' }),
      failures: t.field({
        type: [BulkTransferFailureRef],
        resolve: (p) => p.failures,
        description: 'Items that were not queued, each with a typed error. Empty when all were queued.',
      }),
    }),
  });

/** A rejected bulk item's reasons, as a typed error the frontend can show next to that row. */
function itemError(failure: BulkTransferFailure, index: number | null): PaymentError {
  const reasons = failure.nonFieldErrors.join(' ');
  if (INSUFFICIENT_FUNDS_PATTERN.test(reasons))
    return new InsufficientFundsError(
      walletNamedIn(reasons) ?? failure.item.recipientWallet ?? walletForPhone(failure.item.recipientPhone),
    );
  if (INVALID_ACCOUNT_PATTERN.test(reasons)) return new InvalidAccountError();
  const base = index === null ? ['input', 'transfers'] : ['input', 'transfers', String(index)];
  const problems = fromServiceFieldErrors([
    ...failure.fieldErrors.map((e) => ({ path: [...base, ...e.path.map(camelCase)], message: e.message })),
    ...failure.nonFieldErrors.map((message) => ({ path: base, message })),
  ]);
  return new ValidationError(
    problems.length > 0 ? problems : fromServiceFieldErrors([{ path: base, message: 'The payment service rejected this item.' }]),
    'INVALID_DATA',
  );
}

/** A bulk item the service has no record of once the settle window is over: it was rejected, or never arrived. */
function notSentFailure(item: CreateTransferInput, index: number): BulkTransferFailure {
  return {
    item: {
      amount: item.amount,
      recipientPhone: item.recipientPhone,
      recipientWallet: item.recipientWallet ?? null,
      extId: item.extId ?? null,
    },
    index,
    nonFieldErrors: [NOT_SENT_BULK_ITEM.en],
    fieldErrors: [],
  };
}

function camelCase(s: string): string {
  return s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

paymentMutation('createBulkTransfer', {
  description: `Sends up to ${BULK_TRANSFER_LIMIT} payouts at once. Valid items are queued even when others are rejected; see \`failures\`. The service accepts at most 5 bulk calls per second.`,
  arg: { name: 'input', type: CreateBulkTransferInput },
  payload: CreateBulkTransferPayload,
  errors: [ValidationError, BatchSizeLimitExceededError, RateLimitedError, IdempotencyConflictError, UpstreamError],
  result: { name: 'CreateBulkTransferResult', description: 'What was queued, or why nothing was.' },
  access: { scope: 'payouts:write' },
  upstream: 'createBulkTransfer',
  validate: (input, checks) => {
    if (input.transfers.length > BULK_TRANSFER_LIMIT) throw new BatchSizeLimitExceededError(BULK_TRANSFER_LIMIT, input.transfers.length);
    if (input.transfers.length === 0) checks.fail(checks.at('transfers'), 'Give at least one transfer.', 'Indiquez au moins un transfert.');
    input.transfers.forEach((item, i) => checkTransferItem(checks, ['transfers', i], item));
  },
  // Every item carries an ext_id (the client's, or one derived from the bulk's key and its position), so
  // each can be found again, and the service refuses to queue it twice.
  request: (input, key) => input.transfers.map((item, i) => ({ ...toUpstreamItem(item), extId: item.extId ?? extIdForKey(`${key}#${i}`) })),
  idempotency: {
    key: (input) => input.idempotencyKey,
    reconcile: async (items, ctx, settled) => {
      const byExtId = new Map((await ctx.upstream.listTransfers()).map((tr) => [tr.extId, tr]));
      const isFound = (item: (typeof items)[number]) => {
        const existing = byExtId.get(item.extId);
        return existing !== undefined && isSamePayout(existing, item);
      };
      const missing = items.flatMap((item, index) => (isFound(item) ? [] : [{ item, index }]));
      if (missing.length === 0) return { queuedCount: items.length, message: '', failures: [] };
      // Nothing found: the bulk never arrived (after the window, the retry sends it). Part of it found: the
      // rest was rejected, or is not visible yet. Once the window is over it never will be: the found items
      // are the answer, the rest is reported as not sent (never sent again under this key).
      if (missing.length === items.length || !settled) return null;
      return {
        queuedCount: items.length - missing.length,
        message: '',
        failures: missing.map(({ item, index }) => notSentFailure(item, index)),
      };
    },
  },
  execute: async (items, ctx) => {
    const result = await ctx.upstream.createBulkTransfer(items);
    // An item refused because its ext_id exists, and found at the service as that very payout, was queued by an
    // earlier attempt of this request (its answer lost): it counts as queued, not as a failure.
    const duplicates = result.failures.filter((f) => f.item.extId && isDuplicateExtId(f.fieldErrors));
    const existing =
      duplicates.length > 0
        ? new Map((await ctx.upstream.listTransfers()).map((tr) => [tr.extId, tr]))
        : new Map<string | null, Transfer>();
    const alreadyQueued = (f: BulkTransferFailure) => {
      const found = f.item.extId ? existing.get(f.item.extId) : undefined;
      return duplicates.includes(f) && found !== undefined && isSamePayout(found, f.item);
    };
    const failures = result.failures.filter((f) => !alreadyQueued(f));
    return { queuedCount: result.queuedCount + (result.failures.length - failures.length), message: result.message, failures };
  },
});
