// Charges: collect a payment from a phone without a redirect. Create one, tell
// the customer what to do (nextAction), then submit the OTP or wait for the
// confirmation on the phone.
import { topLevelError } from '../errors/top-level.js';
import { extIdForKey } from '../idempotency/ext-id.js';
import {
  CHARGE_FILTER_STATUSES,
  type Charge,
  type ChargeListFilter,
  type ChargeStatus,
  type ConfirmationAttempt,
  type CreatedCharge,
  type Provider,
} from '../upstream/types.js';
import type { GatewayContext } from './context.js';
import { access, merchantOnly } from './access.js';
import { builder } from './builder.js';
import { fetchChargeWindow } from './charge-window.js';
import { canonicalFilter, checkFilterBounds, filteredConnection } from './list-filter.js';
import { chargesByExtId } from './charges-by-ext-id.js';
import { MAX_REFERENCES_PER_EXT_ID } from '../ext-id-index/index.js';
import { ChargeStatusEnum, ConfirmationMethodEnum, ProviderEnum } from './enums.js';
import {
  IdempotencyConflictError,
  InsufficientFundsError,
  InvalidAccountError,
  NotFoundError,
  OtpExpiredError,
  OtpInvalidError,
  OtpStillValidError,
  RateLimitedError,
  UnauthorizedChargeProviderError,
  UnsupportedProviderError,
  UpstreamError,
  ValidationError,
} from '../errors/payment-errors.js';
import { operatorName } from '../errors/operators.js';
import { IDEMPOTENCY_KEY_DESCRIPTION, paymentMutation } from './mutation.js';
import { loadNodes } from './nodes.js';
import { buildConnection, listScope, parseConnectionArgs } from './pagination.js';
import { chargeInstructions, type NextAction } from './charge-instructions.js';
import { normalizedPhone } from './phone-input.js';
import { ChargeRef } from './refs.js';

const ConfirmationAttemptRef = builder.objectRef<ConfirmationAttempt>('ConfirmationAttempt').implement({
  description: 'One attempt at confirming a charge (an OTP submission).',
  fields: (t) => ({
    ipAddress: t.string({
      nullable: true,
      resolve: merchantOnly((a) => a.ipAddress),
      description: 'Where the attempt came from, as the service saw it (null for a client token).',
    }),
    attemptDate: t.field({ type: 'DateTime', resolve: (a) => a.attemptDate, description: 'When it was made (UTC).' }),
    status: t.exposeString('status', { description: '"success" or "failed".' }),
  }),
});

builder.node(ChargeRef, {
  description: "A mobile-money payment collected from a customer's phone.",
  id: { resolve: (c) => c.reference, description: 'Opaque global ID of this charge, for node(id) and nodes(ids).' },
  loadManyWithoutCache: (refs, ctx) => loadNodes(ctx.loaders.charge, refs),
  fields: (t) => ({
    reference: t.exposeString('reference', { description: 'The charge reference.' }),
    amount: t.exposeInt('amount', { description: 'Amount charged, in XOF.' }),
    feePercent: t.exposeFloat('feePercent', { description: 'Fee rate in percent (2.5 means 2.5%).' }),
    currency: t.exposeString('currency', { description: 'Always XOF.' }),
    status: t.field({ type: ChargeStatusEnum, resolve: (c) => c.status, description: 'Payment state.' }),
    provider: t.field({ type: ProviderEnum, resolve: (c) => c.provider, description: 'Operator the customer pays with.' }),
    phone: t.exposeString('phone', { nullable: true, description: 'Customer phone number (may be masked by the service).' }),
    extId: t.string({
      nullable: true,
      resolve: merchantOnly((c) => c.extId),
      description: 'Your external id, as given at creation (null for a client token).',
    }),
    operatorId: t.string({
      nullable: true,
      resolve: merchantOnly((c) => c.operatorId),
      description: "The operator's own transaction id (null for a client token).",
    }),
    ipAddress: t.string({
      nullable: true,
      resolve: merchantOnly((c) => c.ipAddress),
      description: 'IP address the charge was created from (null for a client token).',
    }),
    paymentMethod: t.exposeString('paymentMethod', { description: 'Always "mobile_money" today.' }),
    transactionDate: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (c) => c.transactionDate,
      description: 'When the operator recorded the transaction (UTC).',
    }),
    createdAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.createdAt, description: 'When it was created (UTC).' }),
    updatedAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.updatedAt, description: 'When it last changed (UTC).' }),
    cancelledAt: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (c) => c.cancelledAt,
      description: 'When it was cancelled, if it was.',
    }),
    cancellationReason: t.exposeString('cancellationReason', { nullable: true, description: 'Why it was cancelled, if it was.' }),
    confirmationAttempts: t.field({
      type: [ConfirmationAttemptRef],
      resolve: (c) => c.confirmationAttempts,
      description: 'OTP submissions, oldest first.',
    }),
    liveMode: t.exposeBoolean('liveMode', { description: 'False for test-mode charges.' }),
  }),
});

const ChargeFilterInput = builder.inputType('ChargeFilter', {
  description: 'Narrows the charge list. All conditions must hold.',
  fields: (t) => ({
    reference: t.string({ description: 'Exactly this charge reference.' }),
    status: t.field({
      type: ChargeStatusEnum,
      description: 'PENDING, SUCCESS or FAILED (the service filters on these three; PENDING includes charges awaiting confirmation).',
    }),
    provider: t.field({ type: ProviderEnum, description: 'This operator only.' }),
    phone: t.string({ description: 'This customer phone only.' }),
    extId: t.string({
      description: `Exactly this external id of yours. It finds the charges the gateway has created or seen (made through it, or announced by a webhook, fetched or listed through it since), within the event retention (EVENT_RETENTION_HOURS), at most ${MAX_REFERENCES_PER_EXT_ID} per ext_id, each confirmed at the service before it is answered: the service itself cannot search by ext_id.`,
    }),
    dateFrom: t.field({ type: 'Date', description: 'Created on or after this day.' }),
    dateTo: t.field({ type: 'Date', description: 'Created on or before this day.' }),
    amountMin: t.int({ description: 'Amount at least this, in XOF.' }),
    amountMax: t.int({ description: 'Amount at most this, in XOF.' }),
  }),
});

type ChargeFilterArgs = {
  reference?: string | null;
  status?: ChargeStatus | null;
  provider?: Provider | null;
  phone?: string | null;
  extId?: string | null;
  dateFrom?: string | null;
  dateTo?: string | null;
  amountMin?: number | null;
  amountMax?: number | null;
};

function toUpstreamFilter(filter: ChargeFilterArgs | null | undefined): ChargeListFilter {
  const f = filter ?? {};
  if (f.status && !(CHARGE_FILTER_STATUSES as readonly string[]).includes(f.status)) {
    throw topLevelError('BAD_USER_INPUT', { kind: 'filter_status', allowed: CHARGE_FILTER_STATUSES.map((s) => s.toUpperCase()) });
  }
  checkFilterBounds(f);
  const out: ChargeListFilter = {};
  if (f.reference) out.reference = f.reference;
  if (f.status) out.status = f.status as ChargeListFilter['status'];
  if (f.provider) out.provider = f.provider;
  if (f.phone) out.phone = normalizedPhone(f.phone, f.provider);
  if (f.dateFrom) out.dateFrom = f.dateFrom;
  if (f.dateTo) out.dateTo = f.dateTo;
  if (f.amountMin != null) out.amountMin = f.amountMin;
  if (f.amountMax != null) out.amountMax = f.amountMax;
  return out;
}

builder.queryFields((t) => ({
  charge: t.field({
    ...access<{ reference: string }>({ scope: 'payments:read', client: ({ reference }) => ({ kind: 'charge', reference }) }),
    type: ChargeRef,
    nullable: true,
    description: 'A charge by reference; null when none exists.',
    args: { reference: t.arg.string({ required: true }) },
    resolve: (_root, { reference }, ctx) => ctx.loaders.charge.load(reference),
  }),
  charges: t.connection(
    {
      ...access({ scope: 'payments:read' }),
      type: ChargeRef,
      description:
        'Charges, newest first, filtered. Cursors belong to one filter: changing the filter means starting again without a cursor.',
      args: { filter: t.arg({ type: ChargeFilterInput }) },
      resolve: async (_root, args, ctx) => {
        const filter = toUpstreamFilter(args.filter as ChargeFilterArgs | null | undefined);
        const extId = (args.filter as ChargeFilterArgs | null | undefined)?.extId;
        if (extId) {
          // Platform mode: ctx.extIds is the merchant's own index (src/schema/context.ts), never another's.
          return filteredConnection(args, 'charges', canonicalFilter({ ...filter, extId }), () => chargesByExtId(ctx, extId, filter));
        }
        const scope = listScope('charges', filter as Record<string, unknown>);
        const request = parseConnectionArgs(args, scope);
        const window = await fetchChargeWindow(ctx.upstream, filter, request, ctx.pageSize);
        for (const charge of window.items) ctx.loaders.charge.prime(charge.reference, charge);
        return buildConnection(scope, window.start, window.items, window.total);
      },
    },
    {
      name: 'ChargeConnection',
      description: 'A page of charges.',
      edgesField: { description: 'The charges of this page, in list order, each with its cursor.' },
    },
    { name: 'ChargeEdge', description: 'One charge and its cursor.', nodeField: { description: 'The charge.' } },
  ),
}));

// ---- createCharge ---------------------------------------------------------

const NextActionEnum = builder.enumType('ChargeNextAction', {
  description: 'What the customer must do next to complete a charge.',
  values: {
    ENTER_OTP: { description: 'The customer received an OTP by SMS: collect it and call submitChargeOtp.' },
    DIAL_USSD_THEN_ENTER_OTP: {
      description: 'The customer dials the USSD code in displayText to get an OTP, then you call submitChargeOtp.',
    },
    CONFIRM_ON_PHONE: {
      description: 'The customer confirms on the phone (USSD prompt); no OTP. Follow the outcome with chargeUpdated or by query.',
    },
    NONE: { description: 'Nothing: the charge already reached a final state.' },
  } as const,
});

/** opa_bf sends no OTP until the customer dials the USSD code shown in displayText. */
export function nextActionFor(status: ChargeStatus, provider: Provider): NextAction {
  if (status === 'pay_offline') return 'CONFIRM_ON_PHONE';
  if (status === 'send_otp') return provider === 'opa_bf' ? 'DIAL_USSD_THEN_ENTER_OTP' : 'ENTER_OTP';
  if (status === 'pending') return 'CONFIRM_ON_PHONE';
  return 'NONE';
}

interface CreateChargePayloadShape extends CreatedCharge {
  provider: Provider;
  nextAction: NextAction;
}

const CreateChargePayload = builder.objectRef<CreateChargePayloadShape>('CreateChargePayload').implement({
  description: 'A new charge and what the customer must do next.',
  fields: (t) => ({
    reference: t.exposeString('reference', { description: 'The charge reference (give it to submitChargeOtp).' }),
    status: t.field({ type: ChargeStatusEnum, resolve: (p) => p.status, description: 'SEND_OTP or PAY_OFFLINE.' }),
    displayText: t.string({
      description: 'Instructions for the customer, in English (with the USSD code to dial, when the operator gives one).',
      resolve: (p) => chargeInstructions(p.nextAction, p.displayText).en,
    }),
    displayTextFr: t.string({
      description: 'The same instructions in French.',
      resolve: (p) => chargeInstructions(p.nextAction, p.displayText).fr,
    }),
    operatorDisplayText: t.exposeString('displayText', {
      description:
        "The operator's own instructions, as it sent them (any language, often several in one string; empty when the charge was found again after a lost answer).",
    }),
    nextAction: t.field({ type: NextActionEnum, resolve: (p) => p.nextAction, description: 'What the customer must do next.' }),
    liveMode: t.exposeBoolean('liveMode', { description: 'False in test mode.' }),
    clientToken: t.string({
      description:
        "A token for the customer's browser, bound to this one charge (see CLIENT_TOKEN_TTL): it may read the charge, submit its OTP and follow chargeUpdated. Send it as `Authorization: Bearer <clientToken>`.",
      resolve: async (p, _args, ctx) =>
        (await ctx.tokens.mintClientToken({ kind: 'charge', reference: p.reference }, undefined, ctx.merchant?.id)).token,
    }),
    charge: t.field({
      type: ChargeRef,
      nullable: true,
      description: 'The full charge, fetched on demand.',
      resolve: (p, _args, ctx) => ctx.loaders.charge.load(p.reference),
    }),
  }),
});

const CreateChargeInput = builder.inputType('CreateChargeInput', {
  description: 'Who pays, how much, with which operator.',
  fields: (t) => ({
    amount: t.int({ required: true, description: 'Amount in XOF, a positive whole number.' }),
    phone: t.string({
      required: true,
      description:
        'Customer phone as typed: national (8 digits in Burkina Faso, 10 in Benin) or with +226/00226 or +229/00229; spaces, dots and dashes are fine. Sent to the service in national form.',
    }),
    provider: t.field({ type: ProviderEnum, required: true, description: "The customer's operator." }),
    confirmationMethod: t.field({
      type: ConfirmationMethodEnum,
      description: 'OPB_BF only: USSD to confirm on the phone instead of an OTP.',
    }),
    extId: t.string({ description: 'Your own reference for this payment (at most 100 characters).' }),
    idempotencyKey: t.string({ required: true, description: IDEMPOTENCY_KEY_DESCRIPTION }),
  }),
});

type ChargeRequest = Parameters<GatewayContext['upstream']['createCharge']>[0];

function chargePayload(created: CreatedCharge, provider: Provider): CreateChargePayloadShape {
  return { ...created, provider, nextAction: nextActionFor(created.status, provider) };
}

paymentMutation('createCharge', {
  description: 'Starts collecting a payment from a phone. The customer then confirms (see nextAction).',
  arg: { name: 'input', type: CreateChargeInput },
  payload: CreateChargePayload,
  errors: [
    ValidationError,
    InvalidAccountError,
    UnsupportedProviderError,
    UnauthorizedChargeProviderError,
    OtpStillValidError,
    RateLimitedError,
    IdempotencyConflictError,
    UpstreamError,
  ],
  result: { name: 'CreateChargeResult', description: 'The new charge, or why it was not created.' },
  access: { scope: 'payments:collect' },
  upstream: 'createCharge',
  validate: (input, checks) => {
    checks.amount(checks.at('amount'), input.amount);
    checks.phoneFor(checks.at('phone'), input.provider, input.phone);
    checks.maxLength(checks.at('extId'), input.extId, 100);
    if (input.confirmationMethod && input.provider !== 'opb_bf') {
      const opb = operatorName('opb_bf');
      checks.fail(
        checks.at('confirmationMethod'),
        `Only ${opb.en} lets the customer choose how to confirm.`,
        `Seul ${opb.fr} permet au client de choisir comment confirmer.`,
      );
    }
  },
  // Without an extId of the client's, one derived from the key lets a charge whose answer was lost be found again.
  request: (input, key): ChargeRequest => ({
    amount: input.amount,
    phone: normalizedPhone(input.phone, input.provider),
    provider: input.provider,
    confirmationMethod: input.confirmationMethod ?? null,
    extId: input.extId ?? (key ? extIdForKey(key) : null),
  }),
  idempotency: {
    key: (input) => input.idempotencyKey,
    meta: (request): Record<string, string> => (request.extId ? { extId: request.extId } : {}),
    reconcile: async (request, ctx) => {
      if (!request.extId) return null;
      const page = await ctx.upstream.listCharges({ phone: request.phone, provider: request.provider }, { page: 1, pageSize: 100 });
      const found = page.items.find((c) => c.extId === request.extId && c.amount === request.amount);
      return found
        ? chargePayload({ reference: found.reference, status: found.status, displayText: '', liveMode: found.liveMode }, request.provider)
        : null;
    },
  },
  execute: async (request, ctx) => chargePayload(await ctx.upstream.createCharge(request), request.provider),
  created: (payload) => [{ kind: 'charge', reference: payload.reference }],
});

// ---- submitChargeOtp ------------------------------------------------------

const SubmitChargeOtpInput = builder.inputType('SubmitChargeOtpInput', {
  description: 'The OTP the customer received for a charge.',
  fields: (t) => ({
    chargeReference: t.string({ required: true, description: 'Reference returned by createCharge.' }),
    otp: t.string({ required: true, description: 'The code, as the customer typed it.' }),
  }),
});

/**
 * The OTP-submit answer is the charge without phone, created_at and updated_at
 * (spec: those are "in fetch and list responses"): fill them in from a fetch of
 * the same charge rather than answer null for values the charge has. The submit
 * answer stays authoritative for everything it does carry.
 */
async function withFetchedFields(charge: Charge, loader: GatewayContext['loaders']['charge']): Promise<Charge> {
  if (charge.phone !== null && charge.createdAt !== null && charge.updatedAt !== null) return charge;
  const full = await loader.load(charge.reference).catch(() => null);
  if (!full) return charge;
  return {
    ...charge,
    phone: charge.phone ?? full.phone,
    createdAt: charge.createdAt ?? full.createdAt,
    updatedAt: charge.updatedAt ?? full.updatedAt,
  };
}

const SubmitChargeOtpPayload = builder.objectRef<{ charge: Charge }>('SubmitChargeOtpPayload').implement({
  description: 'The confirmed charge.',
  fields: (t) => ({
    charge: t.field({
      type: ChargeRef,
      resolve: (p, _args, ctx) => withFetchedFields(p.charge, ctx.loaders.charge),
      description: 'The charge after confirmation.',
    }),
  }),
});

paymentMutation('submitChargeOtp', {
  description: "Confirms a SEND_OTP charge with the customer's OTP. A wrong OTP can be corrected: submit again with the right one.",
  arg: { name: 'input', type: SubmitChargeOtpInput },
  payload: SubmitChargeOtpPayload,
  // InsufficientFundsError here is the customer's: the operator declined the payment for lack of funds.
  errors: [ValidationError, OtpInvalidError, OtpExpiredError, InsufficientFundsError, NotFoundError, RateLimitedError, UpstreamError],
  result: { name: 'SubmitChargeOtpResult', description: 'The confirmed charge, or why it was not confirmed.' },
  // The customer's browser confirms its own charge with the charge's client token.
  access: { scope: 'payments:collect', client: (input) => ({ kind: 'charge', reference: input.chargeReference.trim() }) },
  upstream: 'submitChargeOtp',
  target: (input) => ({ resource: 'charge', reference: input.chargeReference }),
  validate: (input, checks) => {
    checks.nonEmpty(checks.at('chargeReference'), input.chargeReference, { en: 'The charge reference', fr: 'La référence du paiement' });
    checks.nonEmpty(checks.at('otp'), input.otp, { en: 'The OTP', fr: 'Le code OTP' });
    if (input.otp.trim() !== '' && !/^\d{4,8}$/.test(input.otp.trim()))
      checks.fail(checks.at('otp'), 'The OTP is 4 to 8 digits.', 'Le code OTP compte 4 à 8 chiffres.');
  },
  request: (input) => ({ chargeReference: input.chargeReference.trim(), otp: input.otp.trim() }),
  idempotency: { notNeeded: 'A charge is confirmed at most once: a second submit of a confirmed charge is refused by the service.' },
  execute: async (request, ctx) => {
    // Never retried automatically: the service counts attempts.
    const charge = await ctx.upstream.submitChargeOtp(request);
    // Whatever this operation read of the charge before is stale now; the submit form is incomplete (see withFetchedFields).
    ctx.loaders.charge.clear(charge.reference);
    return { charge };
  },
});
