// Typed errors returned by mutations. Each class is one family of failure a
// frontend can act on; each implements PaymentError so a client can always
// fall back to `... on PaymentError { message messageFr code retryable }`.
// The English and French texts are ours, written for the person paying or
// being paid; upstream internals never reach them.
import { GraphQLError } from 'graphql';
import { ERROR_CODES, UpstreamError as UpstreamCallError, isRetryableCode, type ErrorCode } from '../upstream/errors.js';
import { WALLETS, type SettlementStatus, type Wallet } from '../upstream/types.js';
import { builder, type GatewaySchemaTypes } from './builder.js';
import { SettlementStatusEnum, WalletEnum } from './enums.js';

export interface FieldProblem {
  path: string[];
  message: string;
}

/** The base of every typed error. Plain data, so outcomes can be stored for idempotent replays. */
export abstract class PaymentError extends Error {
  abstract readonly code: ErrorCode;
  abstract readonly messageFr: string;
  get retryable(): boolean {
    return isRetryableCode(this.code);
  }
}

export class ValidationError extends PaymentError {
  override readonly name = 'ValidationError';
  readonly messageFr: string;
  constructor(
    readonly fieldErrors: FieldProblem[],
    readonly code: 'VALIDATION_FAILED' | 'INVALID_DATA' = 'VALIDATION_FAILED',
  ) {
    super(fieldErrors.length === 1 ? `Invalid input: ${fieldErrors[0]!.message}` : `Invalid input in ${fieldErrors.length} fields`);
    this.messageFr =
      fieldErrors.length === 1
        ? 'Les informations saisies ne sont pas valides. Vérifiez le champ indiqué.'
        : `Les informations saisies ne sont pas valides : ${fieldErrors.length} champs à corriger.`;
  }
}

export class OtpInvalidError extends PaymentError {
  override readonly name = 'OtpInvalidError';
  readonly code = 'OTP_INVALID' as const;
  readonly messageFr = 'Le code OTP est incorrect. Vérifiez-le et réessayez.';
  constructor() {
    super('The OTP is incorrect. Check it and try again.');
  }
}

export class OtpExpiredError extends PaymentError {
  override readonly name = 'OtpExpiredError';
  readonly code = 'OTP_EXPIRED' as const;
  readonly messageFr = 'Le code OTP a expiré. Demandez un nouveau code.';
  constructor() {
    super('The OTP has expired. Request a new one.');
  }
}

export class OtpStillValidError extends PaymentError {
  override readonly name = 'OtpStillValidError';
  readonly code = 'OTP_STILL_VALID' as const;
  readonly messageFr = 'Le code OTP envoyé est encore valide. Utilisez-le ou attendez son expiration avant d’en demander un autre.';
  constructor() {
    super('The OTP already sent is still valid. Use it, or wait until it expires before asking for another.');
  }
}

export class InsufficientFundsError extends PaymentError {
  override readonly name = 'InsufficientFundsError';
  readonly code = 'INSUFFICIENT_FUNDS' as const;
  readonly messageFr: string;
  constructor(readonly wallet: Wallet | null) {
    super(wallet ? `Insufficient funds in the ${wallet} wallet for this amount and its fees.` : 'Insufficient funds for this amount and its fees.');
    this.messageFr = wallet
      ? `Solde insuffisant sur le portefeuille ${wallet} pour ce montant et ses frais.`
      : 'Solde insuffisant pour ce montant et ses frais.';
  }
}

export class InvalidAccountError extends PaymentError {
  override readonly name = 'InvalidAccountError';
  readonly code = 'INVALID_ACCOUNT' as const;
  readonly messageFr = 'Ce numéro n’est pas valide ou n’a pas de compte mobile money chez cet opérateur.';
  constructor() {
    super('This phone number is invalid or has no mobile-money account with this operator.');
  }
}

export class UnsupportedProviderError extends PaymentError {
  override readonly name = 'UnsupportedProviderError';
  readonly code = 'UNSUPPORTED_PROVIDER' as const;
  readonly messageFr = 'Cet opérateur n’est pas pris en charge.';
  constructor() {
    super('This operator is not supported.');
  }
}

export class UnauthorizedChargeProviderError extends PaymentError {
  override readonly name = 'UnauthorizedChargeProviderError';
  readonly code = 'UNAUTHORIZED_CHARGE_PROVIDER' as const;
  readonly messageFr = 'Ce marchand n’est pas autorisé à encaisser des paiements avec cet opérateur.';
  constructor() {
    super('This merchant is not allowed to collect payments with this operator.');
  }
}

export class BatchSizeLimitExceededError extends PaymentError {
  override readonly name = 'BatchSizeLimitExceededError';
  readonly code = 'BATCH_SIZE_LIMIT_EXCEEDED' as const;
  readonly messageFr: string;
  constructor(readonly limit: number, readonly submitted: number | null) {
    super(`A bulk transfer holds at most ${limit} transfers${submitted === null ? '' : ` (got ${submitted})`}. Split it into several requests.`);
    this.messageFr = `Un transfert groupé contient au plus ${limit} transferts${submitted === null ? '' : ` (reçu : ${submitted})`}. Répartissez-les en plusieurs envois.`;
  }
}

export class RateLimitedError extends PaymentError {
  override readonly name = 'RateLimitedError';
  readonly code = 'RATE_LIMIT_EXCEEDED' as const;
  readonly messageFr = 'Trop de requêtes en peu de temps. Patientez un instant puis réessayez.';
  constructor(readonly retryAfterMs: number | null) {
    super('Too many requests in a short time. Wait a moment and try again.');
  }
}

export class NotFoundError extends PaymentError {
  override readonly name = 'NotFoundError';
  readonly messageFr: string;
  constructor(
    readonly resource: 'checkout' | 'charge' | 'transfer' | 'settlement',
    readonly reference: string,
    readonly code: 'NOT_FOUND' | 'CHARGE_NOT_FOUND' | 'TRANSACTION_NOT_FOUND' = 'NOT_FOUND',
  ) {
    super(`No ${resource} with this reference.`);
    const fr = { checkout: 'paiement', charge: 'paiement', transfer: 'transfert', settlement: 'règlement' }[resource];
    this.messageFr = `Aucun ${fr} ne correspond à cette référence.`;
  }
}

export class SettlementNotCancellableError extends PaymentError {
  override readonly name = 'SettlementNotCancellableError';
  readonly code = 'SETTLEMENT_NOT_CANCELLABLE' as const;
  readonly messageFr = 'Ce règlement ne peut être annulé que tant qu’il est en cours de traitement.';
  constructor(readonly status: SettlementStatus | null) {
    super('A settlement can only be cancelled while it is processing.');
  }
}

export class PaymentAccountMissingError extends PaymentError {
  override readonly name = 'PaymentAccountMissingError';
  readonly code = 'PAYMENT_ACCOUNT_MISSING' as const;
  readonly messageFr = 'Aucun compte de versement n’est configuré. Créez-en un dans les paramètres de votre entreprise.';
  constructor() {
    super('No payout account is set up. Create one in your business settings.');
  }
}

export class IdempotencyConflictError extends PaymentError {
  override readonly name = 'IdempotencyConflictError';
  readonly code = 'IDEMPOTENCY_CONFLICT' as const;
  readonly messageFr: string;
  constructor(readonly reason: 'different_input' | 'in_progress' | 'outcome_unknown') {
    super(
      {
        different_input: 'This idempotency key was already used with different input. Use a new key for a new request.',
        in_progress: 'A request with this idempotency key is still in progress. Try again in a moment.',
        outcome_unknown:
          'The payment service did not confirm an earlier request with this idempotency key, and it cannot be checked automatically. Check the list before sending a new request with a new key.',
      }[reason],
    );
    this.messageFr = {
      different_input: 'Cette clé d’idempotence a déjà servi pour une autre demande. Utilisez une nouvelle clé.',
      in_progress: 'Une demande avec cette clé d’idempotence est encore en cours. Réessayez dans un instant.',
      outcome_unknown:
        'Le service de paiement n’a pas confirmé une demande précédente avec cette clé, et elle ne peut pas être vérifiée automatiquement. Consultez la liste avant d’envoyer une nouvelle demande avec une nouvelle clé.',
    }[reason];
  }
  override get retryable(): boolean {
    return this.reason === 'in_progress';
  }
}

/** Network, internal, unknown and external failures: the request did not go through (or we cannot tell). */
export class UpstreamFailureError extends PaymentError {
  override readonly name = 'UpstreamFailureError';
  readonly messageFr: string;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** True when the payment service may have carried out the request although it did not answer. */
    readonly outcomeUnknown = false,
    /** The French of a more specific error this one stands in for (see fallback). */
    messageFr?: string,
  ) {
    super(message);
    this.messageFr =
      messageFr ??
      (outcomeUnknown
        ? 'Le service de paiement n’a pas répondu à temps ; l’opération a pu aboutir. Vérifiez avant de réessayer.'
        : code === 'UPSTREAM_UNAVAILABLE' || code === 'NETWORK_ERROR'
          ? 'Le service de paiement est momentanément indisponible. Réessayez dans quelques instants.'
          : 'Le service de paiement a rencontré une erreur. Réessayez plus tard ou contactez le support.');
  }
  override get retryable(): boolean {
    return !this.outcomeUnknown && isRetryableCode(this.code);
  }
}

export type PaymentErrorClass = abstract new (...args: never[]) => PaymentError;

/** The error a mutation returns in place of a class it does not list (kept typed, never a crash). */
function fallback(error: PaymentError): UpstreamFailureError {
  // Same failure, same words: keep the French that goes with the English.
  return new UpstreamFailureError(error.code, error.message, false, error.messageFr);
}

/**
 * Turns a failed upstream call into the typed error the mutation may return.
 * `allowed` is the mutation's own list: a code outside it still comes back as
 * an UpstreamError carrying the real code. Invalid credentials are the
 * operator's configuration, not the user's input, so they become a top-level
 * GraphQL error instead of a union member.
 */
export function toPaymentError(
  err: unknown,
  allowed: readonly PaymentErrorClass[],
  context: { resource?: 'checkout' | 'charge' | 'transfer' | 'settlement'; reference?: string } = {},
): PaymentError {
  if (err instanceof PaymentError) return isAllowed(err, allowed) ? err : fallback(err);
  if (!(err instanceof UpstreamCallError)) throw err;
  if (err.code === 'UNAUTHENTICATED' || err.code === 'FORBIDDEN') throw upstreamUnauthenticated();
  const typed = typedFromUpstream(err, context);
  return isAllowed(typed, allowed) ? typed : fallback(typed);
}

export function upstreamUnauthenticated(): GraphQLError {
  return new GraphQLError('The gateway could not authenticate with the payment service. The operator must check its API key.', {
    extensions: { code: 'UPSTREAM_UNAUTHENTICATED' },
  });
}

function isAllowed(error: PaymentError, allowed: readonly PaymentErrorClass[]): boolean {
  return allowed.some((cls) => error instanceof cls);
}

function typedFromUpstream(
  err: UpstreamCallError,
  context: { resource?: 'checkout' | 'charge' | 'transfer' | 'settlement'; reference?: string },
): PaymentError {
  switch (err.code) {
    case 'INVALID_DATA':
    case 'VALIDATION_FAILED':
      return new ValidationError(
        err.fieldErrors.length > 0 ? err.fieldErrors : [{ path: [], message: 'The payment service rejected the input.' }],
        'INVALID_DATA',
      );
    case 'OTP_INVALID':
      return new OtpInvalidError();
    case 'OTP_EXPIRED':
      return new OtpExpiredError();
    case 'OTP_STILL_VALID':
      return new OtpStillValidError();
    case 'INSUFFICIENT_FUNDS':
      return new InsufficientFundsError(walletNamedIn(err.message));
    case 'INVALID_ACCOUNT':
      return new InvalidAccountError();
    case 'UNSUPPORTED_PROVIDER':
      return new UnsupportedProviderError();
    case 'UNAUTHORIZED_CHARGE_PROVIDER':
      return new UnauthorizedChargeProviderError();
    case 'BATCH_SIZE_LIMIT_EXCEEDED':
      return new BatchSizeLimitExceededError(BULK_TRANSFER_LIMIT, null);
    case 'RATE_LIMIT_EXCEEDED':
      return new RateLimitedError(1000);
    case 'CHARGE_NOT_FOUND':
    case 'TRANSACTION_NOT_FOUND':
    case 'NOT_FOUND':
      return new NotFoundError(context.resource ?? 'charge', context.reference ?? '', err.code);
    case 'SETTLEMENT_NOT_CANCELLABLE':
      return new SettlementNotCancellableError(null);
    case 'PAYMENT_ACCOUNT_MISSING':
      return new PaymentAccountMissingError();
    case 'UNKNOWN_ERROR':
      // The service's own words are the only information we have about a code we do not know.
      return new UpstreamFailureError('UNKNOWN_ERROR', err.upstreamCode ? err.message : 'The payment service reported an unknown error. Try again later.');
    case 'UPSTREAM_UNAVAILABLE':
      return new UpstreamFailureError(
        'UPSTREAM_UNAVAILABLE',
        err.outcomeUnknown
          ? 'The payment service did not answer in time; the operation may have gone through. Check before retrying.'
          : 'The payment service is unavailable right now. Try again in a moment.',
        err.outcomeUnknown,
      );
    default:
      return new UpstreamFailureError(err.code, DEFAULT_MESSAGES[err.code] ?? 'The payment service reported an error. Try again later.');
  }
}

const DEFAULT_MESSAGES: Partial<Record<ErrorCode, string>> = {
  NETWORK_ERROR: 'The operator network is not responding. Try again later.',
  INTERNAL_ERROR: 'The payment service had an internal error. Try again later.',
  EXTERNAL_API_ERROR: 'The operator returned an error. Try again later or contact support.',
};

/** The service names the wallet only inside its message ("... in opb_bf wallet"). */
export function walletNamedIn(message: string): Wallet | null {
  const lower = message.toLowerCase();
  return WALLETS.find((w) => lower.includes(w)) ?? null;
}

export const BULK_TRANSFER_LIMIT = 100;

// ---- GraphQL types -------------------------------------------------------

export const ErrorCodeEnum = builder.enumType('ErrorCode', {
  description: 'Every error code of the payment service, plus those the gateway adds.',
  values: Object.fromEntries(ERROR_CODES.map((code) => [code, { value: code }])) as Record<ErrorCode, { value: ErrorCode }>,
});

const FieldErrorRef = builder.objectRef<FieldProblem>('FieldError').implement({
  description: 'What is wrong with one input field.',
  fields: (t) => ({
    path: t.exposeStringList('path', { description: 'Path to the field in the input, e.g. ["input", "transfers", "3", "amount"].' }),
    message: t.exposeString('message', { description: 'What is wrong, in English.' }),
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

type ErrorFields = (t: PothosSchemaTypes.ObjectFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<GatewaySchemaTypes>, PaymentError>) => Record<string, unknown>;

function errorType(cls: PaymentErrorClass, name: string, description: string, fields?: ErrorFields) {
  // Pothos types object classes by constructor; ours are abstract-typed, so we hand it the class as is.
  return builder.objectType(cls as unknown as new () => PaymentError, {
    name,
    description,
    interfaces: [PaymentErrorInterface],
    isTypeOf: (value: unknown) => value instanceof cls,
    fields: fields as never,
  });
}

errorType(ValidationError, 'ValidationError', 'The input is invalid; nothing was sent to the operator.', (t) => ({
  fieldErrors: t.field({ type: [FieldErrorRef], description: 'One entry per invalid field.', resolve: (e) => (e as ValidationError).fieldErrors }),
}));
errorType(OtpInvalidError, 'OtpInvalidError', 'The OTP is wrong. The customer may try again with the right one.');
errorType(OtpExpiredError, 'OtpExpiredError', 'The OTP has expired. Start a new charge to get a new one.');
errorType(OtpStillValidError, 'OtpStillValidError', 'An OTP already sent is still valid.');
errorType(InsufficientFundsError, 'InsufficientFundsError', 'The wallet cannot cover the amount and its fees.', (t) => ({
  wallet: t.field({ type: WalletEnum, nullable: true, description: 'The wallet that lacks funds, when the service named it.', resolve: (e) => (e as InsufficientFundsError).wallet }),
}));
errorType(InvalidAccountError, 'InvalidAccountError', 'The phone number is invalid or has no account at the operator.');
errorType(UnsupportedProviderError, 'UnsupportedProviderError', 'The operator is not supported.');
errorType(UnauthorizedChargeProviderError, 'UnauthorizedChargeProviderError', 'The merchant may not collect from this operator.');
errorType(BatchSizeLimitExceededError, 'BatchSizeLimitExceededError', 'Too many items in one bulk transfer.', (t) => ({
  limit: t.int({ description: 'The most items one bulk transfer may hold.', resolve: (e) => (e as BatchSizeLimitExceededError).limit }),
}));
errorType(RateLimitedError, 'RateLimitedError', 'Too many calls in a short time.', (t) => ({
  retryAfterMs: t.int({ nullable: true, description: 'How long to wait before trying again, in milliseconds, when known.', resolve: (e) => (e as RateLimitedError).retryAfterMs }),
}));
errorType(NotFoundError, 'NotFoundError', 'No resource has this reference.', (t) => ({
  reference: t.string({ description: 'The reference that was looked up.', resolve: (e) => (e as NotFoundError).reference }),
}));
errorType(SettlementNotCancellableError, 'SettlementNotCancellableError', 'The settlement has left the processing state and can no longer be cancelled.', (t) => ({
  status: t.field({ type: SettlementStatusEnum, nullable: true, description: 'The settlement\'s current status, when known.', resolve: (e) => (e as SettlementNotCancellableError).status }),
}));
errorType(PaymentAccountMissingError, 'PaymentAccountMissingError', 'No payout account exists for settlements.');
errorType(IdempotencyConflictError, 'IdempotencyConflictError', 'The idempotency key cannot be used for this request.');
errorType(UpstreamFailureError, 'UpstreamError', 'The payment service or the operator failed (network, internal, unknown or external error).', (t) => ({
  outcomeUnknown: t.boolean({
    description: 'True when the request may have been carried out although no answer came: check before retrying.',
    resolve: (e) => (e as UpstreamFailureError).outcomeUnknown,
  }),
}));
