// Payout batches in the schema: create a draft, fill it page by page, check
// it against the wallets, start it (or queue it for a second person's
// approval), follow it, cancel it. The job itself runs below, in
// src/payout-batches/; this module only maps it to GraphQL.
import { wrapErrorIfMatches } from '@pothos/plugin-errors';
import { typedErrorAtTopLevel } from '../errors/top-level.js';
import {
  InsufficientFundsError,
  InvalidAccountError,
  IdempotencyConflictError,
  UpstreamError,
  ValidationError,
  fromServiceFieldErrors,
  type PaymentError,
} from '../errors/payment-errors.js';
import {
  PAYOUT_BATCH_ERRORS,
  PayoutBatchFullError,
  PayoutBatchNotFoundError,
  PayoutBatchShortfallError,
  PayoutBatchStateError,
  SelfApprovalError,
  TransferFailedError,
  type WalletShortfall,
} from '../errors/payout-batch-errors.js';
import {
  BATCH_STATUSES,
  FINAL_STATUSES,
  ITEM_STATUSES,
  PAGE_MAX_ITEMS,
  feeFor,
  shortfalls,
  type BatchDoc,
  type BatchItem,
  type ItemFailure,
  type PayoutBatchBook,
  type Tally,
  type WalletTotal,
} from '../payout-batches/index.js';
import { walletForPhone } from '../upstream/phone-rules.js';
import type { Wallet } from '../upstream/types.js';
import { access } from './access.js';
import { auditApproval } from './audit.js';
import { builder } from './builder.js';
import type { GatewayContext } from './context.js';
import { WalletEnum } from './enums.js';
import { PaymentErrorInterface, typedErrorObjectTypes } from './error-types.js';
import { canonicalFilter, filteredConnection, listOnce } from './list-filter.js';
import { IDEMPOTENCY_KEY_DESCRIPTION, paymentMutation } from './mutation.js';
import { decodeGlobalId } from './nodes.js';
import { MIN_TRANSFER_AMOUNT } from './validation.js';
import { InvariantError } from '../errors/internal-error.js';

const PayoutBatchStatusEnum = builder.enumType('PayoutBatchStatus', {
  description: 'Where a payout batch stands.',
  values: {
    DRAFT: { value: 'DRAFT', description: 'Being filled; nothing is sent.' },
    QUEUED: { value: 'QUEUED', description: 'Started (or waiting for its approval, see awaitingApproval); a replica will run it.' },
    RUNNING: { value: 'RUNNING', description: 'Chunks are being sent, paced under the service’s rate.' },
    PAUSED: { value: 'PAUSED', description: 'A wallet ran dry mid-batch: top it up and start the batch again to send the rest.' },
    COMPLETED: { value: 'COMPLETED', description: 'Every item was paid.' },
    COMPLETED_WITH_FAILURES: { value: 'COMPLETED_WITH_FAILURES', description: 'Finished; some items failed or were not sent.' },
    CANCELLING: {
      value: 'CANCELLING',
      description:
        'Cancelled: nothing more is sent; items already sent (or whose chunk was on its way) are followed to their end, and the counts still grow. Not final.',
    },
    CANCELLED: {
      value: 'CANCELLED',
      description:
        'Cancelled, and every item sent has reached its end (succeeded or failed); the rest is NOT_SENT. Final: no count changes again.',
    },
  } satisfies Record<(typeof BATCH_STATUSES)[number], { value: string; description: string }>,
});

const PayoutBatchItemStatusEnum = builder.enumType('PayoutBatchItemStatus', {
  description: 'Where one item of a payout batch stands.',
  values: {
    PENDING: { value: 'PENDING', description: 'Not sent yet (or sent and not yet answered).' },
    QUEUED: { value: 'QUEUED', description: 'Accepted by the service; the transfer is on its way.' },
    SUCCEEDED: { value: 'SUCCEEDED', description: 'Paid.' },
    FAILED: { value: 'FAILED', description: 'Refused by the service, or the transfer failed (see failure).' },
    NOT_SENT: { value: 'NOT_SENT', description: 'Never sent: the batch was cancelled, or the wallet could not cover it.' },
  } satisfies Record<(typeof ITEM_STATUSES)[number], { value: string; description: string }>,
});

const TallyRef = builder.objectRef<Tally>('PayoutBatchTally').implement({
  description: 'A number of items and their amount.',
  fields: (t) => ({
    items: t.exposeInt('items', { description: 'How many items.' }),
    amount: t.exposeInt('amount', { description: 'Their amount, in XOF (fees not included).' }),
  }),
});

type WalletView = WalletTotal & { available: number | null; shortfall: number | null };

const WalletTotalRef = builder.objectRef<WalletView>('PayoutBatchWalletTotal').implement({
  description: 'What the batch pays from one wallet, and (before it starts) whether the wallet covers it.',
  fields: (t) => ({
    wallet: t.field({ type: WalletEnum, resolve: (w) => w.wallet, description: 'The wallet.' }),
    items: t.exposeInt('items', { description: 'Items paid from it.' }),
    amount: t.exposeInt('amount', { description: 'Their amount, in XOF.' }),
    fees: t.exposeInt('fees', { description: 'Their fees, in XOF (PAYOUT_FEE_BPS, rounded up per item).' }),
    total: t.int({ resolve: (w) => w.amount + w.fees, description: 'Amount plus fees: what the wallet must hold.' }),
    available: t.int({
      nullable: true,
      resolve: (w) => w.available,
      description: 'The wallet’s available Transfer Balance now; null once the batch has started.',
    }),
    shortfall: t.int({
      nullable: true,
      resolve: (w) => w.shortfall,
      description: 'How much the wallet lacks (0: it covers the batch); null once the batch has started.',
    }),
  }),
});

const ShortfallRef = builder.objectRef<WalletShortfall>('PayoutBatchShortfall').implement({
  description: 'A wallet that cannot cover the items it should pay.',
  fields: (t) => ({
    wallet: t.field({ type: WalletEnum, resolve: (s) => s.wallet, description: 'The wallet.' }),
    required: t.exposeInt('required', { description: 'Amount plus fees of its items still to send, in XOF.' }),
    available: t.exposeInt('available', { description: 'Its available Transfer Balance, in XOF.' }),
    shortfall: t.exposeInt('shortfall', { description: 'What it lacks, in XOF.' }),
  }),
});

// The typed errors of batches, made from their declarations (src/errors/payout-batch-errors.ts) with this module's types.
typedErrorObjectTypes(PAYOUT_BATCH_ERRORS, { PayoutBatchStatus: PayoutBatchStatusEnum, '[PayoutBatchShortfall]': [ShortfallRef] });

const ITEM_FAILURES = [InsufficientFundsError, InvalidAccountError, ValidationError, TransferFailedError, UpstreamError] as const;

function typedFailure(failure: ItemFailure): PaymentError {
  switch (failure.code) {
    case 'INSUFFICIENT_FUNDS':
      return new InsufficientFundsError(failure.wallet ?? null);
    case 'INVALID_ACCOUNT':
      return new InvalidAccountError();
    case 'TRANSFER_FAILED':
      return new TransferFailedError();
    case 'INVALID_DATA':
    case 'VALIDATION_FAILED':
      return new ValidationError(
        fromServiceFieldErrors(
          failure.fieldErrors && failure.fieldErrors.length > 0 ? failure.fieldErrors : [{ path: [], message: failure.message }],
        ),
        'INVALID_DATA',
      );
    default:
      return new UpstreamError(failure.code, 'The payment service refused this item.');
  }
}

const PayoutBatchItemRef = builder.objectRef<BatchItem>('PayoutBatchItem').implement({
  description: 'One payout of a batch, and what became of it.',
  fields: (t) => ({
    index: t.exposeInt('index', { description: 'Position in the batch (0-based, in the order pages were added).' }),
    amount: t.exposeInt('amount', { description: 'Amount in XOF the recipient receives.' }),
    recipientPhone: t.exposeString('recipientPhone', { description: 'Recipient phone.' }),
    recipientWallet: t.field({ type: WalletEnum, resolve: (i) => i.recipientWallet, description: 'The wallet it is paid from.' }),
    reference: t.exposeString('reference', { nullable: true, description: 'Your own reference for this item.' }),
    extId: t.exposeString('extId', { description: 'The ext_id it is sent with (derived from the batch’s key and index).' }),
    status: t.field({ type: PayoutBatchItemStatusEnum, resolve: (i) => i.status, description: 'Where it stands.' }),
    transferReference: t.exposeString('transferReference', {
      nullable: true,
      description: 'Its transfer at the service, once known (see `transfer(reference)`).',
    }),
    failure: t.field({
      type: PaymentErrorInterface,
      nullable: true,
      // A resolver may not hand an Error to graphql as a value: wrapped as the errors plugin wraps a mutation's.
      resolve: (i) => (i.failure ? (wrapErrorIfMatches(typedFailure(i.failure), [...ITEM_FAILURES]) as PaymentError) : null),
      description: 'Why it failed or was not sent, as a typed error.',
    }),
  }),
});

const ItemFilterInput = builder.inputType('PayoutBatchItemFilter', {
  description: 'Narrows the items of a batch. All conditions must hold.',
  fields: (t) => ({
    status: t.field({ type: PayoutBatchItemStatusEnum, description: 'This status only.' }),
    transferReference: t.string({ description: 'The item paid by this transfer.' }),
  }),
});

const BatchFilterInput = builder.inputType('PayoutBatchFilter', {
  description: 'Narrows the list of payout batches.',
  fields: (t) => ({ status: t.field({ type: PayoutBatchStatusEnum, description: 'This status only.' }) }),
});

const PayoutBatchRef = builder.objectRef<BatchDoc>('PayoutBatch');

/** The request's book of batches: in platform mode its merchant's own (another merchant's batch is not found in it). */
function batches(ctx: GatewayContext): PayoutBatchBook {
  if (!ctx.payoutBatches) throw new InvariantError('payout batches are not configured');
  return ctx.merchant ? ctx.payoutBatches.forMerchant(ctx.merchant.id) : ctx.payoutBatches;
}

/** A batch's id as given: its global ID (`PayoutBatch.id`) or its own id (`pb_…`). */
function batchIdOf(id: string): string {
  if (id.startsWith('pb_')) return id;
  const decoded = decodeGlobalId(id);
  return decoded.typename === 'PayoutBatch' ? decoded.id : id;
}

/** Available Transfer Balance per wallet, read once per operation. */
async function balances(ctx: GatewayContext): Promise<ReadonlyMap<Wallet, number>> {
  const [balance] = await listOnce(ctx, 'balance', async () => [await ctx.upstream.fetchBalance()]);
  return new Map(balance!.wallets.map((w) => [w.wallet, w.available]));
}

const notStarted = (b: BatchDoc) => b.status === 'DRAFT' || (b.status === 'QUEUED' && b.chunkSet === null);

builder.node(PayoutBatchRef, {
  description: 'A durable payout job the gateway runs: up to PAYOUT_BATCH_MAX_ITEMS payouts, paced under the service’s limits.',
  id: { resolve: (b) => b.id, description: 'Opaque global ID of this batch, for node(id) and payoutBatch(id).' },
  loadManyWithoutCache: (ids, ctx) => Promise.all(ids.map((id) => batches(ctx).get(id))),
  fields: (t) => ({
    batchId: t.exposeString('id', { description: 'The batch’s own id (`pb_…`), derived from its idempotency key.' }),
    label: t.exposeString('label', { description: 'Your label.' }),
    status: t.field({ type: PayoutBatchStatusEnum, resolve: (b) => b.status, description: 'Where it stands.' }),
    awaitingApproval: t.boolean({
      resolve: (b) => b.status === 'QUEUED' && b.approval.required && b.approval.approvedBy === null,
      description: 'Started, and waiting for approvePayoutBatch by another person (PAYOUT_BATCH_APPROVAL=required, or requireApproval).',
    }),
    settled: t.exposeBoolean('settled', {
      description: 'Nothing more will be sent and every sent item has its final status (the batch will not change again).',
    }),
    sendWhatFits: t.exposeBoolean('sendWhatFits', { description: 'Started with sendWhatFits: items no wallet covered were set aside.' }),
    createdBy: t.exposeString('createdBy', { description: 'Subject of the token that created it.' }),
    startedBy: t.exposeString('startedBy', { nullable: true, description: 'Who started it.' }),
    approvedBy: t.string({ nullable: true, resolve: (b) => b.approval.approvedBy, description: 'Who approved it.' }),
    cancelledBy: t.exposeString('cancelledBy', { nullable: true, description: 'Who cancelled it.' }),
    createdAt: t.field({ type: 'DateTime', resolve: (b) => b.createdAt, description: 'When it was created (UTC).' }),
    startedAt: t.field({ type: 'DateTime', nullable: true, resolve: (b) => b.startedAt, description: 'When it was set to run.' }),
    finishedAt: t.field({ type: 'DateTime', nullable: true, resolve: (b) => b.finishedAt, description: 'When it settled.' }),
    added: t.field({ type: TallyRef, resolve: (b) => b.counts.added, description: 'Items added.' }),
    sent: t.field({ type: TallyRef, resolve: (b) => b.counts.sent, description: 'Items the service accepted.' }),
    succeeded: t.field({ type: TallyRef, resolve: (b) => b.counts.succeeded, description: 'Items paid.' }),
    failed: t.field({
      type: TallyRef,
      resolve: (b) => b.counts.failed,
      description: 'Items refused by the service or whose transfer failed.',
    }),
    notSent: t.field({ type: TallyRef, resolve: (b) => b.counts.notSent, description: 'Items never sent (cancelled, or not covered).' }),
    wallets: t.field({
      type: [WalletTotalRef],
      description:
        'Totals per wallet with fees. Before the batch starts, each wallet’s available balance and shortfall (one balance read per operation).',
      resolve: async (b, _args, ctx) => {
        if (!notStarted(b)) return b.wallets.map((w) => ({ ...w, available: null, shortfall: null }));
        const available = await balances(ctx);
        return b.wallets.map((w) => {
          const has = Math.floor(available.get(w.wallet) ?? 0);
          return { ...w, available: has, shortfall: Math.max(0, w.amount + w.fees - has) };
        });
      },
    }),
    items: t.connection(
      {
        type: PayoutBatchItemRef,
        description: 'The items, in index order, filtered. Cursors belong to one filter.',
        args: { filter: t.arg({ type: ItemFilterInput }) },
        resolve: async (b, args, ctx) => {
          const filter = canonicalFilter(args.filter) as { status?: string; transferReference?: string };
          return filteredConnection(args, `payoutBatchItems:${b.id}`, filter, async () =>
            (await batches(ctx).items(b)).filter(
              (i) =>
                (!filter.status || i.status === filter.status) &&
                (!filter.transferReference || i.transferReference === filter.transferReference),
            ),
          );
        },
      },
      {
        name: 'PayoutBatchItemConnection',
        description: 'A page of a batch’s items.',
        edgesField: { description: 'The items of this page, each with its cursor.' },
      },
      { name: 'PayoutBatchItemEdge', description: 'One item and its cursor.', nodeField: { description: 'The item.' } },
    ),
  }),
});

builder.queryFields((t) => ({
  payoutBatch: t.field({
    ...access({ scope: 'payments:read' }),
    type: PayoutBatchRef,
    nullable: true,
    description: 'A payout batch by its global ID or its own id (`pb_…`); null when none exists.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => batches(ctx).get(batchIdOf(String(id))),
  }),
  payoutBatches: t.connection(
    {
      ...access({ scope: 'payments:read' }),
      type: PayoutBatchRef,
      description: 'Payout batches, newest first, filtered. Cursors belong to one filter.',
      args: { filter: t.arg({ type: BatchFilterInput }) },
      resolve: async (_root, args, ctx) => {
        const filter = canonicalFilter(args.filter) as { status?: string };
        return filteredConnection(args, 'payoutBatches', filter, async () =>
          (await batches(ctx).list()).filter((b) => !filter.status || b.status === filter.status),
        );
      },
    },
    {
      name: 'PayoutBatchConnection',
      description: 'A page of payout batches.',
      edgesField: { description: 'The batches of this page, newest first, each with its cursor.' },
    },
    { name: 'PayoutBatchEdge', description: 'One batch and its cursor.', nodeField: { description: 'The batch.' } },
  ),
}));

// ---- mutations --------------------------------------------------------------

/** Payloads carry the id: the batch is read fresh when resolved (a replayed answer never shows an old state). */
type BatchPayload = { reference: string };

async function freshBatch(p: BatchPayload, ctx: GatewayContext): Promise<BatchDoc> {
  const batch = await batches(ctx).get(p.reference);
  if (!batch) throw new InvariantError('payout batch vanished');
  return batch;
}

function payload(name: string, description: string) {
  return builder.objectRef<BatchPayload>(name).implement({
    description,
    fields: (t) => ({
      batch: t.field({ type: PayoutBatchRef, description: 'The batch as it is now.', resolve: (p, _args, ctx) => freshBatch(p, ctx) }),
    }),
  });
}

const AddPayoutBatchItemsPayload = builder
  .objectRef<BatchPayload & { page: number; firstIndex: number; added: number }>('AddPayoutBatchItemsPayload')
  .implement({
    description: 'The page as the batch holds it.',
    fields: (t) => ({
      batch: t.field({ type: PayoutBatchRef, description: 'The batch as it is now.', resolve: (p, _args, ctx) => freshBatch(p, ctx) }),
      page: t.exposeInt('page', { description: 'The page’s number.' }),
      firstIndex: t.exposeInt('firstIndex', { description: 'Index of the page’s first item in the batch.' }),
      added: t.exposeInt('added', { description: 'Items the page holds.' }),
    }),
  });

const CreatePayoutBatchInput = builder.inputType('CreatePayoutBatchInput', {
  description: 'A new, empty draft batch.',
  fields: (t) => ({
    idempotencyKey: t.string({
      required: true,
      description: `${IDEMPOTENCY_KEY_DESCRIPTION} The batch's items derive their ext_ids from it.`,
    }),
    label: t.string({ required: true, description: 'Your name for the batch (e.g. "Salaries March"), at most 200 characters.' }),
    requireApproval: t.boolean({
      defaultValue: false,
      description:
        'Once started, the batch waits for approvePayoutBatch by someone else (four eyes), as under PAYOUT_BATCH_APPROVAL=required. It can only add that rule: false never waives PAYOUT_BATCH_APPROVAL=required.',
    }),
  }),
});

paymentMutation('createPayoutBatch', {
  description: 'Creates a draft payout batch. Fill it with addPayoutBatchItems, check it with payoutBatch, then startPayoutBatch.',
  arg: { name: 'input', type: CreatePayoutBatchInput },
  payload: payload('CreatePayoutBatchPayload', 'The new draft.'),
  errors: [ValidationError, IdempotencyConflictError],
  result: { name: 'CreatePayoutBatchResult', description: 'The draft, or why none was made.' },
  access: { scope: 'payouts:write' },
  movesMoney: false,
  validate: (input, checks) => {
    checks.nonEmpty(checks.at('label'), input.label, { en: 'The label', fr: 'Le libellé' });
    checks.maxLength(checks.at('label'), input.label, 200);
  },
  idempotency: { key: (input) => input.idempotencyKey },
  request: (input, key) => ({ label: input.label, scopedKey: key!, requireApproval: input.requireApproval ?? false }),
  execute: async (request, ctx) => {
    const batch = await batches(ctx).create({ ...request, createdBy: ctx.principal!.subject });
    return { reference: batch.id };
  },
});

const PayoutBatchItemInput = builder.inputType('PayoutBatchItemInput', {
  description: 'One payout of a batch, checked like a single transfer.',
  fields: (t) => ({
    amount: t.int({
      required: true,
      description: `Amount in XOF the recipient receives, at least ${MIN_TRANSFER_AMOUNT}. Fees are debited on top.`,
    }),
    recipientPhone: t.string({ required: true, description: 'Recipient phone number.' }),
    recipientWallet: t.field({
      type: WalletEnum,
      description: "Wallet to pay from; by default the one matching the recipient's operator.",
    }),
    reference: t.string({ description: 'Your own reference for this item (at most 100 characters), shown with it.' }),
  }),
});

const AddPayoutBatchItemsInput = builder.inputType('AddPayoutBatchItemsInput', {
  description: `One page of items (at most ${PAGE_MAX_ITEMS}).`,
  fields: (t) => ({
    batchId: t.id({ required: true, description: 'The draft batch.' }),
    page: t.int({
      required: true,
      description:
        'The page’s number (1, 2, …): sending the same page again (a retry) adds nothing more; another page under a used number is refused.',
    }),
    items: t.field({ type: [PayoutBatchItemInput], required: true, description: `The items, 1 to ${PAGE_MAX_ITEMS}.` }),
  }),
});

type ItemArg = { amount: number; recipientPhone: string; recipientWallet?: Wallet | null; reference?: string | null };

paymentMutation('addPayoutBatchItems', {
  description: `Adds a page of up to ${PAGE_MAX_ITEMS} items to a draft batch. A page with an invalid item adds none (ValidationError names each item by its index).`,
  arg: { name: 'input', type: AddPayoutBatchItemsInput },
  payload: AddPayoutBatchItemsPayload,
  errors: [ValidationError, PayoutBatchNotFoundError, PayoutBatchStateError, PayoutBatchFullError, IdempotencyConflictError],
  result: { name: 'AddPayoutBatchItemsResult', description: 'The page added, or why nothing was.' },
  access: { scope: 'payouts:write' },
  movesMoney: false,
  validate: (input, checks) => {
    if (!Number.isSafeInteger(input.page) || input.page < 1)
      checks.fail(checks.at('page'), 'The page number must be 1 or more.', 'Le numéro de page doit être 1 ou plus.');
    if (input.items.length === 0 || input.items.length > PAGE_MAX_ITEMS) {
      checks.fail(checks.at('items'), `Give 1 to ${PAGE_MAX_ITEMS} items.`, `Indiquez de 1 à ${PAGE_MAX_ITEMS} paiements.`);
    }
    input.items.forEach((item: ItemArg, i: number) => {
      checks.amount(checks.at('items', i, 'amount'), item.amount, MIN_TRANSFER_AMOUNT);
      checks.recipient(checks.at('items', i, 'recipientPhone'), item.recipientPhone, item.recipientWallet);
      checks.maxLength(checks.at('items', i, 'reference'), item.reference, 100);
    });
  },
  idempotency: { notNeeded: 'A page is kept by its number: the same page again answers what was added the first time and adds nothing.' },
  request: (input) => ({
    batchId: batchIdOf(String(input.batchId)),
    page: input.page,
    items: input.items.map((item: ItemArg) => ({
      amount: item.amount,
      recipientPhone: item.recipientPhone,
      recipientWallet: item.recipientWallet ?? walletForPhone(item.recipientPhone)!,
      reference: item.reference ?? null,
    })),
  }),
  execute: async (request, ctx) => {
    const added = await batches(ctx).addItems(request.batchId, request.page, request.items);
    return { reference: request.batchId, page: request.page, firstIndex: added.firstIndex, added: added.added };
  },
});

const StartPayoutBatchInput = builder.inputType('StartPayoutBatchInput', {
  description: 'Starts (or resumes) a batch.',
  fields: (t) => ({
    batchId: t.id({ required: true, description: 'The batch.' }),
    sendWhatFits: t.boolean({
      defaultValue: false,
      description:
        'When a wallet cannot cover its items: send those it covers (in index order) and report the rest NOT_SENT, instead of refusing.',
    }),
  }),
});

const START_ERRORS = [PayoutBatchShortfallError, PayoutBatchNotFoundError, PayoutBatchStateError, UpstreamError];

paymentMutation('startPayoutBatch', {
  description:
    'Checks every wallet covers its items (amount + fees) and starts the batch: a replica sends it in chunks of 100, paced under the service’s rate. With PAYOUT_BATCH_APPROVAL=required, or a batch created with requireApproval, it only queues the batch for approvePayoutBatch. A PAUSED batch resumes: the items the service refused for funds are checked again with the rest and sent again, each under a new ext_id; items set aside by sendWhatFits stay unsent. Starting a started batch changes nothing.',
  arg: { name: 'input', type: StartPayoutBatchInput },
  payload: payload('StartPayoutBatchPayload', 'The batch, queued to run or waiting for approval.'),
  errors: START_ERRORS,
  result: { name: 'StartPayoutBatchResult', description: 'The started batch, or why it was not started.' },
  access: { scope: 'payouts:write' },
  movesMoney: true,
  idempotency: { notNeeded: 'A batch starts once: starting it again changes nothing, and its items carry their own ext_ids.' },
  request: (input) => ({ batchId: batchIdOf(String(input.batchId)), sendWhatFits: input.sendWhatFits ?? false }),
  execute: async (request, ctx) => {
    await batches(ctx).start(request.batchId, {
      by: ctx.principal!.subject,
      sendWhatFits: request.sendWhatFits,
      balance: () => balances(ctx),
    });
    return { reference: request.batchId };
  },
});

const BatchIdInput = (name: string, description: string) =>
  builder.inputType(name, { description, fields: (t) => ({ batchId: t.id({ required: true, description: 'The batch.' }) }) });

paymentMutation('approvePayoutBatch', {
  description:
    'Approves a batch waiting for approval (PAYOUT_BATCH_APPROVAL=required, or created with requireApproval) and starts it. Needs payouts:approve, and someone other than who created or started it.',
  arg: { name: 'input', type: BatchIdInput('ApprovePayoutBatchInput', 'The batch to approve.') },
  payload: payload('ApprovePayoutBatchPayload', 'The approved batch, queued to run.'),
  errors: [SelfApprovalError, ...START_ERRORS],
  result: { name: 'ApprovePayoutBatchResult', description: 'The approved batch, or why it was not approved.' },
  access: { scope: 'payouts:approve' },
  movesMoney: true,
  idempotency: { notNeeded: 'A batch is approved once; a second approval is refused as the batch no longer waits for one.' },
  request: (input) => ({ batchId: batchIdOf(String(input.batchId)) }),
  execute: async (request, ctx) => {
    const { batch } = await batches(ctx).approve(request.batchId, { by: ctx.principal!.subject, balance: () => balances(ctx) });
    // Four eyes: the audit trail names both people.
    auditApproval(ctx, { batchId: batch.id, createdBy: batch.createdBy, startedBy: batch.startedBy });
    return { reference: request.batchId };
  },
});

paymentMutation('cancelPayoutBatch', {
  description:
    'Cancels a batch: no chunk is sent after this answer; chunks already sent are followed to their end (their items stay in the counts).',
  arg: { name: 'input', type: BatchIdInput('CancelPayoutBatchInput', 'The batch to cancel.') },
  payload: payload('CancelPayoutBatchPayload', 'The cancelled batch.'),
  errors: [PayoutBatchNotFoundError, PayoutBatchStateError],
  result: { name: 'CancelPayoutBatchResult', description: 'The cancelled batch, or why it could not be cancelled.' },
  access: { scope: 'payouts:write' },
  // Not a payment, but it decides what is paid: audited like one.
  movesMoney: true,
  idempotency: { notNeeded: 'Cancelling a cancelled batch changes nothing.' },
  request: (input) => ({ batchId: batchIdOf(String(input.batchId)) }),
  execute: async (request, ctx) => {
    await batches(ctx).cancel(request.batchId, ctx.principal!.subject);
    return { reference: request.batchId };
  },
});

// ---- subscription -----------------------------------------------------------

builder.subscriptionFields((t) => ({
  payoutBatchUpdated: t.field({
    ...access({ scope: 'events:read' }),
    type: PayoutBatchRef,
    description:
      'The batch now, then each change of its status or counts (coalesced, a few per second at most); completes once it is final and settled. Unknown id: NOT_FOUND.',
    args: { id: t.arg.id({ required: true }) },
    subscribe: async (_root, { id }, ctx) => {
      const batchId = batchIdOf(String(id));
      if (!(await batches(ctx).get(batchId))) {
        const notFound = new PayoutBatchNotFoundError(batchId);
        throw typedErrorAtTopLevel(notFound);
      }
      return batches(ctx).watch(batchId);
    },
    resolve: (batch) => batch,
  }),
}));

export { FINAL_STATUSES, feeFor, shortfalls };
