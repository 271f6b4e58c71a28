// Charges: creation with the test-number rules, OTP submission, the pay_offline
// completion, fetch and the paginated list.
import { settleCheckoutOfCharge } from './checkouts.js';
import type { SandboxContext } from './context.js';
import { PHONE_RULES, isProvider, isValidPhoneFor, type ChargeListStatusFilter, type ChargeStatus, type Provider } from './contract.js';
import { CHARGE_FEE_BPS, feeAmount, percentNumber, percentString } from './fees.js';
import { ApiError, invalidData, type FieldErrors } from './http.js';
import { newestFirst } from './ordering.js';
import { newChargeReference, newOperatorId } from './ids.js';
import type { Account, ChargeRecord, ConfirmationAttemptRecord } from './store.js';
import { TEST_OTP, chargeOutcomeFor } from './test-data.js';
import { isoOffset, isoZ, utcDay } from './timestamps.js';
import { ErrorCollector, dictExpected, isPlainObject, parseAmount, parseChoice, parseString } from './validation.js';

export const CHARGE_NOT_FOUND_MESSAGE = 'Charge not found';

// ---------------------------------------------------------------- wire forms

/** The reduced form of the create response. */
export function chargeCreatedView(c: ChargeRecord) {
  return { reference: c.reference, status: c.status, display_text: c.displayText, live_mode: false };
}

/** Fetch and list form (also the webhook payload): fees as a decimal string. */
export function chargeView(c: ChargeRecord) {
  return {
    reference: c.reference,
    amount: c.amount,
    fees: percentString(c.feeBps),
    currency: c.currency,
    transaction_date: isoOffset(c.createdAt),
    ip_address: c.ipAddress,
    status: c.status,
    live_mode: false,
    payment_method: c.paymentMethod,
    provider: c.provider,
    phone: c.phone,
    ext_id: c.extId,
    operator_id: c.operatorId,
    cancelled_at: null,
    cancellation_reason: null,
    created_at: isoZ(c.createdAt),
    updated_at: isoOffset(c.updatedAt),
    confirmation_attempts: c.attempts.map(attemptView),
  };
}

/** OTP-submit form: fees as a float; per the spec, no phone, created_at or updated_at. */
export function chargeSubmitView(c: ChargeRecord) {
  const { phone: _phone, created_at: _created, updated_at: _updated, ...rest } = chargeView(c);
  return { ...rest, fees: percentNumber(c.feeBps) };
}

function attemptView(a: ConfirmationAttemptRecord) {
  return { ip_address: a.ipAddress, attempt_date: isoZ(a.at), confirmation_status: a.status };
}

// ---------------------------------------------------------------- create

const SMS_OTP_TEXT =
  'Un code OTP vous a été envoyé par SMS : saisissez-le pour confirmer le paiement. / An OTP was sent to you by SMS: enter it to confirm the payment.';

function flowFor(
  provider: Provider,
  confirmation: 'otp' | 'ussd' | null,
  amount: number,
): { status: 'send_otp' | 'pay_offline'; displayText: string } {
  switch (provider) {
    case 'opa_bf':
      return {
        status: 'send_otp',
        displayText: `Composez *144*4*6*${amount}# pour obtenir votre code OTP, puis saisissez-le. / Dial *144*4*6*${amount}# to get your OTP, then enter it.`,
      };
    case 'opb_bf':
      return confirmation === 'ussd'
        ? {
            status: 'pay_offline',
            displayText: `Composez *115*6*${amount}# et validez avec votre code secret. / Dial *115*6*${amount}# and confirm with your PIN.`,
          }
        : { status: 'send_otp', displayText: SMS_OTP_TEXT };
    case 'ope_bj':
      return {
        status: 'pay_offline',
        displayText:
          'Validez le paiement dans la demande affichée sur votre téléphone. / Approve the payment in the prompt shown on your phone.',
      };
    case 'opc_bf':
    case 'opd_bf':
    case 'opf_bj':
      return { status: 'send_otp', displayText: SMS_OTP_TEXT };
  }
}

export interface ChargeRequest {
  amount: number;
  provider: Provider;
  phone: string;
  confirmation: 'otp' | 'ussd' | null;
  extId: string | null;
}

export function parseChargeRequest(raw: unknown): ChargeRequest {
  if (!isPlainObject(raw)) throw invalidData(dictExpected(raw));
  const errors = new ErrorCollector();
  const amount = errors.take('amount', parseAmount(raw.amount, 1));
  if (raw.currency !== undefined && raw.currency !== null) errors.take('currency', parseChoice(raw.currency, ['XOF']));
  if (raw.payment_method !== undefined && raw.payment_method !== null) {
    errors.take('payment_method', parseChoice(raw.payment_method, ['mobile_money']));
  }
  const extId = errors.take('ext_id', parseString(raw.ext_id, { required: false }));

  let phone: string | null | undefined;
  let provider: string | null | undefined;
  let confirmation: 'otp' | 'ussd' | null = null;
  const details = raw.payment_method_details;
  if (details === undefined || details === null) {
    errors.add('payment_method_details', 'This field is required.');
  } else if (!isPlainObject(details)) {
    errors.nest('payment_method_details', dictExpected(details));
  } else {
    const nested = new ErrorCollector();
    phone = nested.take('phone', parseString(details.phone, { required: true }));
    provider = nested.take('provider', parseString(details.provider, { required: true }));
    if (details.confirmation_method !== undefined && details.confirmation_method !== null) {
      confirmation = nested.take('confirmation_method', parseChoice(details.confirmation_method, ['otp', 'ussd'] as const)) ?? null;
    }
    if (phone && provider && isProvider(provider) && !isValidPhoneFor(provider, phone)) {
      nested.add('phone', `Enter a valid ${provider} number: ${PHONE_RULES[provider].description}.`);
    }
    if (!nested.empty) errors.nest('payment_method_details', nested.errors);
  }
  if (!errors.empty) throw invalidData(errors.errors);
  if (!isProvider(provider!)) {
    throw new ApiError(400, `Provider "${provider}" is not supported.`, { errorCode: 'UNSUPPORTED_PROVIDER' });
  }
  return { amount: amount!, provider: provider!, phone: phone!, confirmation, extId: extId ?? null };
}

export function createCharge(
  ctx: SandboxContext,
  account: Account,
  request: ChargeRequest,
  ipAddress: string,
  checkoutUuid: string | null = null,
): ChargeRecord {
  const outcome = chargeOutcomeFor(request.provider, request.phone);
  if (outcome === 'rejected') {
    throw new ApiError(400, 'The phone number is invalid or has no account with the operator.', { errorCode: 'INVALID_ACCOUNT' });
  }
  // confirmation_method only means something for opb_bf (spec); elsewhere it is ignored.
  const flow = flowFor(request.provider, request.provider === 'opb_bf' ? request.confirmation : null, request.amount);
  const now = ctx.clock.now();
  const charge: ChargeRecord = {
    seq: account.nextSeq(),
    reference: newChargeReference(),
    amount: request.amount,
    feeBps: CHARGE_FEE_BPS[request.provider],
    currency: 'XOF',
    paymentMethod: 'mobile_money',
    provider: request.provider,
    phone: request.phone,
    extId: request.extId,
    operatorId: null,
    ipAddress,
    status: flow.status,
    displayText: flow.displayText,
    outcome,
    createdAt: now,
    updatedAt: now,
    attempts: [],
    checkoutUuid,
  };
  account.charges.set(charge.reference, charge);
  if (charge.status === 'pay_offline') {
    ctx.scheduler.after(ctx.delays.payOfflineMs, () =>
      finishCharge(ctx, account, charge, charge.outcome === 'succeeds' ? 'success' : 'failed'),
    );
  }
  return charge;
}

/** The operator's final answer: status, operator id, balance, webhooks, and the checkout it pays. */
export function finishCharge(ctx: SandboxContext, account: Account, charge: ChargeRecord, status: 'success' | 'failed'): void {
  const now = ctx.clock.now();
  charge.status = status;
  charge.updatedAt = now;
  charge.operatorId = newOperatorId(charge.provider, now);
  if (status === 'success') account.collection.available += charge.amount - feeAmount(charge.amount, charge.feeBps);
  ctx.emit(status === 'success' ? 'charge.success' : 'charge.failed', chargeView(charge), account);
  settleCheckoutOfCharge(ctx, account, charge);
}

// ---------------------------------------------------------------- submit OTP

export function findCharge(account: Account, reference: string): ChargeRecord {
  const charge = account.charges.get(reference);
  if (!charge) throw new ApiError(404, CHARGE_NOT_FOUND_MESSAGE, { errorCode: 'CHARGE_NOT_FOUND' });
  return charge;
}

export function parseSubmitRequest(raw: unknown): { otp: string; chargeReference: string } {
  if (!isPlainObject(raw)) throw invalidData(dictExpected(raw));
  const errors = new ErrorCollector();
  const otp = errors.take('otp', parseString(raw.otp, { required: true }));
  const chargeReference = errors.take('charge_reference', parseString(raw.charge_reference, { required: true }));
  if (!errors.empty) throw invalidData(errors.errors);
  return { otp: otp!, chargeReference: chargeReference! };
}

/**
 * Returns the charge on success; throws OTP_INVALID / OTP_EXPIRED (charge stays
 * send_otp), or INSUFFICIENT_FUNDS with the failed charge as `data` for the
 * "ends failed" test numbers.
 */
export function submitOtp(ctx: SandboxContext, account: Account, otp: string, chargeReference: string, ipAddress: string): ChargeRecord {
  const charge = findCharge(account, chargeReference);
  if (charge.status !== 'send_otp') {
    const message = `This charge is not awaiting an OTP (status: ${charge.status}).`;
    throw invalidData({ charge_reference: [message] }, message);
  }
  const now = ctx.clock.now();
  const attempt = (status: 'success' | 'failed') => {
    charge.attempts.push({ ipAddress, at: now, status });
    charge.updatedAt = now;
  };
  if (now - charge.createdAt > ctx.delays.otpLifetimeMs) {
    attempt('failed');
    throw new ApiError(400, 'The OTP has expired. Request a new one.', { errorCode: 'OTP_EXPIRED' });
  }
  if (otp !== TEST_OTP) {
    attempt('failed');
    throw new ApiError(400, 'The OTP is invalid. Please try again.', { errorCode: 'OTP_INVALID' });
  }
  if (charge.outcome === 'ends_failed') {
    attempt('failed');
    finishCharge(ctx, account, charge, 'failed');
    throw new ApiError(400, "Payment failed: the customer's mobile-money balance is insufficient.", {
      errorCode: 'INSUFFICIENT_FUNDS',
      data: chargeSubmitView(charge),
    });
  }
  attempt('success');
  finishCharge(ctx, account, charge, 'success');
  return charge;
}

// ---------------------------------------------------------------- list

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** The list's `status` filter knows three values; each covers these charge statuses. */
export const STATUS_FILTER: Readonly<Record<ChargeListStatusFilter, readonly ChargeStatus[]>> = {
  pending: ['pending', 'send_otp', 'pay_offline'],
  success: ['success'],
  failed: ['failed', 'canceled'],
};

interface ChargeQuery {
  reference: string | null;
  statuses: readonly ChargeStatus[] | null;
  provider: Provider | null;
  phone: string | null;
  dateFrom: string | null;
  dateTo: string | null;
  amountMin: number | null;
  amountMax: number | null;
  page: number;
  pageSize: number;
}

function parseChargeQuery(query: URLSearchParams): ChargeQuery {
  const errors: FieldErrors = {};
  const text = (name: string) => {
    const v = query.get(name);
    return v === null || v.trim() === '' ? null : v.trim();
  };
  const integer = (name: string, min: number): number | null => {
    const v = text(name);
    if (v === null) return null;
    if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) {
      errors[name] = ['A valid integer is required.'];
      return null;
    }
    const n = Number(v);
    if (n < min) {
      errors[name] = [`Ensure this value is greater than or equal to ${min}.`];
      return null;
    }
    return n;
  };
  const date = (name: string): string | null => {
    const v = text(name);
    if (v === null) return null;
    if (!isCalendarDate(v)) {
      errors[name] = ['Enter a valid date in the format YYYY-MM-DD.'];
      return null;
    }
    return v;
  };

  let statuses: readonly ChargeStatus[] | null = null;
  const status = text('status');
  if (status !== null) {
    if (status in STATUS_FILTER) statuses = STATUS_FILTER[status as keyof typeof STATUS_FILTER];
    else errors.status = [`Select a valid choice. ${status} is not one of the available choices.`];
  }
  let provider: Provider | null = null;
  const rawProvider = text('provider');
  if (rawProvider !== null) {
    if (isProvider(rawProvider)) provider = rawProvider;
    else errors.provider = [`Select a valid choice. ${rawProvider} is not one of the available choices.`];
  }
  const parsed: ChargeQuery = {
    reference: text('reference'),
    statuses,
    provider,
    phone: text('phone'),
    dateFrom: date('date_from'),
    dateTo: date('date_to'),
    amountMin: integer('amount_min', 0),
    amountMax: integer('amount_max', 0),
    page: integer('page', 1) ?? 1,
    pageSize: Math.min(integer('page_size', 1) ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
  };
  if (Object.keys(errors).length > 0) throw invalidData(errors);
  return parsed;
}

function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}

export function listCharges(account: Account, query: URLSearchParams) {
  const q = parseChargeQuery(query);
  const matching = newestFirst(account.charges.values()).filter((c) => {
    const day = utcDay(c.createdAt);
    return (
      (q.reference === null || c.reference === q.reference) &&
      (q.statuses === null || q.statuses.includes(c.status)) &&
      (q.provider === null || c.provider === q.provider) &&
      (q.phone === null || c.phone === q.phone) &&
      (q.dateFrom === null || day >= q.dateFrom) &&
      (q.dateTo === null || day <= q.dateTo) &&
      (q.amountMin === null || c.amount >= q.amountMin) &&
      (q.amountMax === null || c.amount <= q.amountMax)
    );
  });
  const totalPages = Math.ceil(matching.length / q.pageSize);
  const start = (q.page - 1) * q.pageSize;
  return {
    data: matching.slice(start, start + q.pageSize).map(chargeView),
    pagination: {
      total_records: matching.length,
      current_page: q.page,
      total_pages: totalPages,
      has_next: q.page < totalPages,
      has_previous: q.page > 1,
    },
  };
}
