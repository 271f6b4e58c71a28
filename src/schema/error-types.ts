// GraphQL types of the typed errors (src/errors/payment-errors.ts holds the classes).
import { ERROR_CODES, type ErrorCode } from '../upstream/call-error.js';
import { builder } from './builder.js';
import { SettlementStatusEnum, WalletEnum } from './enums.js';
import {
  BatchSizeLimitExceededError,
  IdempotencyConflictError,
  InsufficientFundsError,
  InvalidAccountError,
  NotFoundError,
  OtpExpiredError,
  OtpInvalidError,
  OtpStillValidError,
  PaymentAccountMissingError,
  PaymentError,
  RateLimitedError,
  ServiceUnavailableError,
  SettlementNotCancellableError,
  UnauthorizedChargeProviderError,
  UnsupportedProviderError,
  UpstreamError,
  ValidationError,
  fieldMessageFr,
  type FieldProblem,
} from '../errors/payment-errors.js';

export const ErrorCodeEnum = builder.enumType('ErrorCode', {
  description: 'Every error code of the payment service, plus those the gateway adds.',
  values: Object.fromEntries(ERROR_CODES.map((code) => [code, { value: code }])) as Record<ErrorCode, { value: ErrorCode }>,
});

const FieldErrorRef = builder.objectRef<FieldProblem>('FieldError').implement({
  description: 'What is wrong with one input field.',
  fields: (t) => ({
    path: t.exposeStringList('path', { description: 'Path to the field in the input, e.g. ["input", "transfers", "3", "amount"].' }),
    message: t.exposeString('message', { description: 'What is wrong, in English.' }),
    messageFr: t.string({ description: 'The same, in French.', resolve: (problem) => fieldMessageFr(problem) }),
  }),
});

export const PaymentErrorInterface = builder.interfaceRef<PaymentError>('PaymentError').implement({
  description: 'A failure the frontend can act on. Every typed error implements it.',
  fields: (t) => ({
    message: t.exposeString('message', { description: 'What went wrong, in English, suitable to show to a person.' }),
    messageFr: t.exposeString('messageFr', { description: 'The same, in French.' }),
    code: t.field({ type: ErrorCodeEnum, description: 'Stable machine-readable code.', resolve: (e) => e.code }),
    retryable: t.boolean({ description: 'True when the very same request may succeed if sent again later.', resolve: (e) => e.retryable }),
  }),
});

/** What every error type shares: its class's name, the PaymentError interface, and recognition by class. */
function paymentErrorType(cls: abstract new (...args: never[]) => PaymentError, description: string) {
  return { name: cls.name, description, interfaces: [PaymentErrorInterface], isTypeOf: (value: unknown) => value instanceof cls };
}

builder.objectType(ValidationError, {
  ...paymentErrorType(ValidationError, 'The input is invalid; nothing was sent to the operator.'),
  fields: (t) => ({
    fieldErrors: t.field({ type: [FieldErrorRef], description: 'One entry per invalid field.', resolve: (e) => e.fieldErrors }),
  }),
});
builder.objectType(OtpInvalidError, paymentErrorType(OtpInvalidError, 'The OTP is wrong. The customer may try again with the right one.'));
builder.objectType(OtpExpiredError, paymentErrorType(OtpExpiredError, 'The OTP has expired. Start a new charge to get a new one.'));
builder.objectType(OtpStillValidError, paymentErrorType(OtpStillValidError, 'An OTP already sent is still valid.'));
builder.objectType(InsufficientFundsError, {
  ...paymentErrorType(InsufficientFundsError, 'The wallet cannot cover the amount and its fees.'),
  fields: (t) => ({
    wallet: t.field({
      type: WalletEnum,
      nullable: true,
      description: 'The wallet that lacks funds, when the service named it.',
      resolve: (e) => e.wallet,
    }),
  }),
});
builder.objectType(
  InvalidAccountError,
  paymentErrorType(InvalidAccountError, 'The phone number is invalid or has no account at the operator.'),
);
builder.objectType(UnsupportedProviderError, paymentErrorType(UnsupportedProviderError, 'The operator is not supported.'));
builder.objectType(
  UnauthorizedChargeProviderError,
  paymentErrorType(UnauthorizedChargeProviderError, 'The merchant may not collect from this operator.'),
);
builder.objectType(BatchSizeLimitExceededError, {
  ...paymentErrorType(BatchSizeLimitExceededError, 'Too many items in one bulk transfer.'),
  fields: (t) => ({
    limit: t.exposeInt('limit', { description: 'The most items one bulk transfer may hold.' }),
  }),
});
builder.objectType(RateLimitedError, {
  ...paymentErrorType(RateLimitedError, 'Too many calls in a short time.'),
  fields: (t) => ({
    retryAfterMs: t.exposeInt('retryAfterMs', {
      nullable: true,
      description: 'How long to wait before trying again, in milliseconds, when known.',
    }),
  }),
});
builder.objectType(NotFoundError, {
  ...paymentErrorType(NotFoundError, 'No resource has this reference.'),
  fields: (t) => ({
    reference: t.exposeString('reference', { description: 'The reference that was looked up.' }),
  }),
});
builder.objectType(SettlementNotCancellableError, {
  ...paymentErrorType(SettlementNotCancellableError, 'The settlement has left the processing state and can no longer be cancelled.'),
  fields: (t) => ({
    status: t.field({
      type: SettlementStatusEnum,
      nullable: true,
      description: "The settlement's current status, when known.",
      resolve: (e) => e.status,
    }),
  }),
});
builder.objectType(PaymentAccountMissingError, paymentErrorType(PaymentAccountMissingError, 'No payout account exists for settlements.'));
builder.objectType(
  ServiceUnavailableError,
  paymentErrorType(
    ServiceUnavailableError,
    'The gateway could not reach what keeps a payment from being made twice; nothing was sent. Retry with the same key.',
  ),
);
const IdempotencyConflictReasonEnum = builder.enumType('IdempotencyConflictReason', {
  description: 'Why an idempotency key was refused.',
  values: {
    DIFFERENT_INPUT: { value: 'different_input', description: 'The key was used with other input: use a new key for a new request.' },
    IN_PROGRESS: {
      value: 'in_progress',
      description:
        'A request with the key is still running or not visible at the service yet: retry with the same key after `retryAfterMs`.',
    },
    OUTCOME_UNKNOWN: {
      value: 'outcome_unknown',
      description:
        'An earlier request with the key may have been carried out and cannot be checked automatically: check the list (settlements, checkouts) before sending a new request with a new key. Never retried by the gateway.',
    },
  } as const,
});
builder.objectType(IdempotencyConflictError, {
  ...paymentErrorType(IdempotencyConflictError, 'The idempotency key cannot be used for this request.'),
  fields: (t) => ({
    reason: t.field({ type: IdempotencyConflictReasonEnum, description: 'Why the key was refused.', resolve: (e) => e.reason }),
    retryAfterMs: t.exposeInt('retryAfterMs', {
      nullable: true,
      description:
        'For IN_PROGRESS: milliseconds until a retry with the same key may get an answer (the rest of the settle window, IDEMPOTENCY_SETTLE_MS, or of the pending claim). Null otherwise.',
    }),
  }),
});
builder.objectType(UpstreamError, {
  ...paymentErrorType(UpstreamError, 'The payment service or the operator failed (network, internal, unknown or external error).'),
  fields: (t) => ({
    outcomeUnknown: t.exposeBoolean('outcomeUnknown', {
      description: 'True when the request may have been carried out although no answer came: check before retrying.',
    }),
  }),
});
