// Typed errors returned by mutations, each declared once with typedError() (src/errors/typed-errors.ts):
// one family of failure a frontend can act on, implementing PaymentError so a client can always fall back
// to `... on PaymentError { message messageFr code retryable }`. The class and its GraphQL object type
// (src/schema/error-types.ts) both come from the declaration. The English and French texts are ours,
// written for the person paying or being paid; upstream internals never reach them.
import type { GraphQLError } from 'graphql';
import { UpstreamCallError } from '../upstream/call-error.js';
import { isRetryableCode, type ErrorCode } from './error-codes.js';
import { WALLETS, type ResourceKind, type SettlementStatus, type Wallet } from '../upstream/types.js';
import { serviceFieldMessage, withOperatorNames } from './field-messages.js';
import { operatorName } from './operators.js';
import { topLevelError, topLevelText } from './top-level.js';
import { PaymentError, typedError } from './typed-errors.js';

/** What is wrong with one input field: its path in the input, and the sentence in English and in French. */
export interface FieldProblem {
  path: string[];
  message: string;
  /**
   * The same in French. The gateway's own checks always give it; a message
   * that comes without one (the payment service's words) is translated by
   * serviceFieldMessage.
   */
  messageFr?: string;
}

/** The French of a field problem, whoever wrote it. */
export function fieldMessageFr(problem: FieldProblem): string {
  return problem.messageFr ?? serviceFieldMessage(problem.message).fr;
}

/** Field errors as the payment service reported them, in both languages, with operators named. */
export function fromServiceFieldErrors(problems: ReadonlyArray<{ path: string[]; message: string }>): FieldProblem[] {
  return problems.map(({ path, message }) => {
    const { en, fr } = serviceFieldMessage(message);
    return { path, message: en, messageFr: fr };
  });
}

function lowerFirst(text: string): string {
  // Keeps an operator's name ("OPB Money…") and acronyms ("URL") as they are.
  return /^\p{Lu}\p{Ll}/u.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

export { PaymentError };

const OTP_RETRY_HINT = 'The customer may try again with the right one.';

export const ValidationError = typedError({
  name: 'ValidationError',
  description: 'The input is invalid; nothing was sent to the operator.',
  fields: (fieldErrors: FieldProblem[], code: 'VALIDATION_FAILED' | 'INVALID_DATA' = 'VALIDATION_FAILED') => ({ fieldErrors, code }),
  code: ({ code }) => code,
  graphql: { fieldErrors: { type: '[FieldError]', description: 'One entry per invalid field.' } },
  text: ({ fieldErrors }) =>
    fieldErrors.length === 1
      ? {
          en: `Invalid input: ${fieldErrors[0]!.message}`,
          fr: `Les informations saisies ne sont pas valides : ${lowerFirst(fieldMessageFr(fieldErrors[0]!))}`,
        }
      : {
          en: `Invalid input in ${fieldErrors.length} fields`,
          fr: `Les informations saisies ne sont pas valides : ${fieldErrors.length} champs à corriger.`,
        },
});

export const OtpInvalidError = typedError({
  name: 'OtpInvalidError',
  description: `The OTP is wrong. ${OTP_RETRY_HINT}`,
  code: 'OTP_INVALID',
  text: () => ({ en: 'The OTP is incorrect. Check it and try again.', fr: 'Le code OTP est incorrect. Vérifiez-le et réessayez.' }),
});

export const OtpExpiredError = typedError({
  name: 'OtpExpiredError',
  description: 'The OTP has expired. Start a new charge to get a new one.',
  code: 'OTP_EXPIRED',
  text: () => ({ en: 'The OTP has expired. Request a new one.', fr: 'Le code OTP a expiré. Demandez un nouveau code.' }),
});

export const OtpStillValidError = typedError({
  name: 'OtpStillValidError',
  description: 'An OTP already sent is still valid.',
  code: 'OTP_STILL_VALID',
  text: () => ({
    en: 'The OTP already sent is still valid. Use it, or wait until it expires before asking for another.',
    fr: 'Le code OTP envoyé est encore valide. Utilisez-le ou attendez son expiration avant d’en demander un autre.',
  }),
});

export const InsufficientFundsError = typedError({
  name: 'InsufficientFundsError',
  description: 'The wallet cannot cover the amount and its fees.',
  code: 'INSUFFICIENT_FUNDS',
  fields: (wallet: Wallet | null) => ({ wallet }),
  graphql: { wallet: { type: 'Wallet', nullable: true, description: 'The wallet that lacks funds, when the service named it.' } },
  text: ({ wallet }) =>
    wallet
      ? {
          en: `Insufficient funds in the ${operatorName(wallet).en} wallet for this amount and its fees.`,
          fr: `Solde insuffisant sur le portefeuille ${operatorName(wallet).fr} pour ce montant et ses frais.`,
        }
      : { en: 'Insufficient funds for this amount and its fees.', fr: 'Solde insuffisant pour ce montant et ses frais.' },
});

export const InvalidAccountError = typedError({
  name: 'InvalidAccountError',
  description: 'The phone number is invalid or has no account at the operator.',
  code: 'INVALID_ACCOUNT',
  text: () => ({
    en: 'This phone number is invalid or has no mobile-money account with this operator.',
    fr: 'Ce numéro n’est pas valide ou n’a pas de compte mobile money chez cet opérateur.',
  }),
});

export const UnsupportedProviderError = typedError({
  name: 'UnsupportedProviderError',
  description: 'The operator is not supported.',
  code: 'UNSUPPORTED_PROVIDER',
  text: () => ({ en: 'This operator is not supported.', fr: 'Cet opérateur n’est pas pris en charge.' }),
});

export const UnauthorizedChargeProviderError = typedError({
  name: 'UnauthorizedChargeProviderError',
  description: 'The merchant may not collect from this operator.',
  code: 'UNAUTHORIZED_CHARGE_PROVIDER',
  text: () => ({
    en: 'This merchant is not allowed to collect payments with this operator.',
    fr: 'Ce marchand n’est pas autorisé à encaisser des paiements avec cet opérateur.',
  }),
});

export const BatchSizeLimitExceededError = typedError({
  name: 'BatchSizeLimitExceededError',
  description: 'Too many items in one bulk transfer.',
  code: 'BATCH_SIZE_LIMIT_EXCEEDED',
  fields: (limit: number, submitted: number | null) => ({ limit, submitted }),
  graphql: { limit: { type: 'Int', description: 'The most items one bulk transfer may hold.' } },
  text: ({ limit, submitted }) => ({
    en: `A bulk transfer holds at most ${limit} transfers${submitted === null ? '' : ` (got ${submitted})`}. Split it into several requests.`,
    fr: `Un transfert groupé contient au plus ${limit} transferts${submitted === null ? '' : ` (reçu : ${submitted})`}. Répartissez-les en plusieurs envois.`,
  }),
});

export const RateLimitedError = typedError({
  name: 'RateLimitedError',
  description: 'Too many calls in a short time.',
  code: 'RATE_LIMIT_EXCEEDED',
  fields: (retryAfterMs: number | null) => ({ retryAfterMs }),
  graphql: {
    retryAfterMs: { type: 'Int', nullable: true, description: 'How long to wait before trying again, in milliseconds, when known.' },
  },
  text: () => ({
    en: 'Too many requests in a short time. Wait a moment and try again.',
    fr: 'Trop de requêtes en peu de temps. Patientez un instant puis réessayez.',
  }),
});

export const NotFoundError = typedError({
  name: 'NotFoundError',
  description: 'No resource has this reference.',
  fields: (resource: ResourceKind, reference: string, code: 'NOT_FOUND' | 'CHARGE_NOT_FOUND' | 'TRANSACTION_NOT_FOUND' = 'NOT_FOUND') => ({
    resource,
    reference,
    code,
  }),
  code: ({ code }) => code,
  graphql: { reference: { type: 'String', description: 'The reference that was looked up.' } },
  text: ({ resource }) => topLevelText('NOT_FOUND', { resource }),
});

export const SettlementNotCancellableError = typedError({
  name: 'SettlementNotCancellableError',
  description: 'The settlement has left the processing state and can no longer be cancelled.',
  code: 'SETTLEMENT_NOT_CANCELLABLE',
  fields: (settlementStatus: SettlementStatus | null) => ({ settlementStatus }),
  graphql: {
    settlementStatus: { type: 'SettlementStatus', nullable: true, description: "The settlement's current status, when known." },
  },
  text: () => ({
    en: 'A settlement can only be cancelled while it is processing.',
    fr: 'Ce règlement ne peut être annulé que tant qu’il est en cours de traitement.',
  }),
});

export const PaymentAccountMissingError = typedError({
  name: 'PaymentAccountMissingError',
  description: 'No payout account exists for settlements.',
  code: 'PAYMENT_ACCOUNT_MISSING',
  text: () => ({
    en: 'No payout account is set up. Create one in your business settings.',
    fr: 'Aucun compte de versement n’est configuré. Créez-en un dans les paramètres de votre entreprise.',
  }),
});

const IDEMPOTENCY_CONFLICT_TEXTS = {
  different_input: {
    en: 'This idempotency key was already used with different input. Use a new key for a new request.',
    fr: 'Cette clé d’idempotence a déjà servi pour une autre demande. Utilisez une nouvelle clé.',
  },
  in_progress: {
    en: 'A request with this idempotency key is still in progress. Try again in a moment.',
    fr: 'Une demande avec cette clé d’idempotence est encore en cours. Réessayez dans un instant.',
  },
  outcome_unknown: {
    en: 'The payment service did not confirm an earlier request with this idempotency key (or the gateway lost track of it), and it cannot be checked automatically. Check the list before sending a new request with a new key.',
    fr: 'Le service de paiement n’a pas confirmé une demande précédente avec cette clé (ou la passerelle l’a perdue de vue), et elle ne peut pas être vérifiée automatiquement. Consultez la liste avant d’envoyer une nouvelle demande avec une nouvelle clé.',
  },
} as const;

export const IdempotencyConflictError = typedError({
  name: 'IdempotencyConflictError',
  description: 'The idempotency key cannot be used for this request.',
  code: 'IDEMPOTENCY_CONFLICT',
  /** `retryAfterMs`, for `in_progress`: how long until a retry with the key may get an answer (ms), when known. */
  fields: (reason: keyof typeof IDEMPOTENCY_CONFLICT_TEXTS, retryAfterMs: number | null = null) => ({ reason, retryAfterMs }),
  graphql: {
    reason: { type: 'IdempotencyConflictReason', description: 'Why the key was refused.' },
    retryAfterMs: {
      type: 'Int',
      nullable: true,
      description:
        'For IN_PROGRESS: milliseconds until a retry with the same key may get an answer (the rest of the settle window, IDEMPOTENCY_SETTLE_MS, or of the pending claim). Null otherwise.',
    },
  },
  text: ({ reason }) => IDEMPOTENCY_CONFLICT_TEXTS[reason],
  retryable: ({ reason }) => reason === 'in_progress',
});

/**
 * A store the gateway needs to run a request safely (the idempotency keys in
 * Redis) cannot be reached. The request was refused before anything was sent
 * to the payment service, so the same request may simply be sent again later.
 */
export const ServiceUnavailableError = typedError({
  name: 'ServiceUnavailableError',
  description: 'The gateway could not reach what keeps a payment from being made twice; nothing was sent. Retry with the same key.',
  code: 'SERVICE_UNAVAILABLE',
  fields: (options?: { cause?: unknown }) => ({ cause: options?.cause }),
  text: () => ({
    en: 'The service is temporarily unavailable; nothing was done. Try again in a moment with the same idempotency key.',
    fr: 'Le service est momentanément indisponible ; rien n’a été effectué. Réessayez dans un instant avec la même clé d’idempotence.',
  }),
});

const OUTCOME_UNKNOWN_FR =
  'Le service de paiement n’a pas confirmé l’opération ; elle a pu aboutir. Renvoyez la même demande avec la même clé d’idempotence : la passerelle vérifie avant de renvoyer, rien ne sera payé deux fois.';

/** Network, internal, unknown and external failures: the request did not go through (or we cannot tell). */
export const UpstreamError = typedError({
  name: 'UpstreamError',
  description: 'The payment service or the operator failed (network, internal, unknown or external error).',
  /**
   * `outcomeUnknown`: the payment service may have carried out the request although it did not answer.
   * `messageFr`: the French of a more specific error this one stands in for (see fallback).
   */
  fields: (code: ErrorCode, message: string, outcomeUnknown: boolean = false, messageFr?: string) => ({
    code,
    outcomeUnknown,
    english: message,
    french: messageFr,
  }),
  code: ({ code }) => code,
  graphql: {
    outcomeUnknown: {
      type: 'Boolean',
      description: 'True when the request may have been carried out although no answer came: check before retrying.',
    },
  },
  text: ({ code, outcomeUnknown, english, french }) => ({
    en: english,
    fr:
      french ??
      (outcomeUnknown
        ? OUTCOME_UNKNOWN_FR
        : code === 'UPSTREAM_UNAVAILABLE' || code === 'NETWORK_ERROR'
          ? 'Le service de paiement est momentanément indisponible. Réessayez dans quelques instants.'
          : 'Le service de paiement a rencontré une erreur. Réessayez plus tard ou contactez le support.'),
  }),
  // An unknown outcome is safe to retry with the same idempotency key: the gateway reconciles before sending again.
  retryable: ({ code, outcomeUnknown }) => outcomeUnknown || isRetryableCode(code),
});

/** Each declared error is also the type of its instances (as a class would be). */
export type ValidationError = InstanceType<typeof ValidationError>;
export type OtpInvalidError = InstanceType<typeof OtpInvalidError>;
export type OtpExpiredError = InstanceType<typeof OtpExpiredError>;
export type OtpStillValidError = InstanceType<typeof OtpStillValidError>;
export type InsufficientFundsError = InstanceType<typeof InsufficientFundsError>;
export type InvalidAccountError = InstanceType<typeof InvalidAccountError>;
export type UnsupportedProviderError = InstanceType<typeof UnsupportedProviderError>;
export type UnauthorizedChargeProviderError = InstanceType<typeof UnauthorizedChargeProviderError>;
export type BatchSizeLimitExceededError = InstanceType<typeof BatchSizeLimitExceededError>;
export type RateLimitedError = InstanceType<typeof RateLimitedError>;
export type NotFoundError = InstanceType<typeof NotFoundError>;
export type SettlementNotCancellableError = InstanceType<typeof SettlementNotCancellableError>;
export type PaymentAccountMissingError = InstanceType<typeof PaymentAccountMissingError>;
export type ServiceUnavailableError = InstanceType<typeof ServiceUnavailableError>;
export type IdempotencyConflictError = InstanceType<typeof IdempotencyConflictError>;
export type UpstreamError = InstanceType<typeof UpstreamError>;

/** Every typed error of payments, for src/schema/error-types.ts (the payout batches' are in payout-batch-errors.ts). */
export const PAYMENT_ERRORS = [
  ValidationError,
  OtpInvalidError,
  OtpExpiredError,
  OtpStillValidError,
  InsufficientFundsError,
  InvalidAccountError,
  UnsupportedProviderError,
  UnauthorizedChargeProviderError,
  BatchSizeLimitExceededError,
  RateLimitedError,
  NotFoundError,
  SettlementNotCancellableError,
  PaymentAccountMissingError,
  ServiceUnavailableError,
  IdempotencyConflictError,
  UpstreamError,
] as const;

type PaymentErrorClass = abstract new (...args: never[]) => PaymentError;

/** The error a mutation returns in place of a class it does not list (kept typed, never a crash). */
function fallback(error: PaymentError): UpstreamError {
  // Same failure, same words: keep the French that goes with the English.
  return new UpstreamError(error.code, error.message, false, error.messageFr);
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
  context: { resource?: ResourceKind; reference?: string } = {},
): PaymentError {
  if (err instanceof PaymentError) return isAllowed(err, allowed) ? err : fallback(err);
  if (!(err instanceof UpstreamCallError)) throw err;
  if (err.code === 'UNAUTHENTICATED') throw upstreamUnauthenticated();
  if (err.outcomeUnknown) return outcomeUnknown(err.code);
  const typed = typedFromUpstream(err, context);
  return isAllowed(typed, allowed) ? typed : fallback(typed);
}

/** The service may have carried out the request (no answer, a 5xx, an internal error): the client retries with the same key. */
function outcomeUnknown(code: ErrorCode): UpstreamError {
  return new UpstreamError(
    code,
    'The payment service did not confirm the operation; it may have gone through. Send the same request again with the same idempotency key: the gateway checks before sending it again, so nothing is paid twice.',
    true,
  );
}

function upstreamUnauthenticated(): GraphQLError {
  return topLevelError('UPSTREAM_UNAUTHENTICATED', undefined);
}

function isAllowed(error: PaymentError, allowed: readonly PaymentErrorClass[]): boolean {
  return allowed.some((cls) => error instanceof cls);
}

/** A failure whose outcome is known (toPaymentError has returned for the others): refused, nothing done. */
function typedFromUpstream(err: UpstreamCallError, context: { resource?: ResourceKind; reference?: string }): PaymentError {
  switch (err.code) {
    case 'INVALID_DATA':
    case 'VALIDATION_FAILED':
      return new ValidationError(
        fromServiceFieldErrors(
          err.fieldErrors.length > 0 ? err.fieldErrors : [{ path: [], message: 'The payment service rejected the input.' }],
        ),
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
      if (err.upstreamCode) {
        return new UpstreamError(
          'UNKNOWN_ERROR',
          withOperatorNames(err.message, 'en'),
          false,
          `Le service de paiement a signalé une erreur qu’il ne décrit qu’en anglais : « ${withOperatorNames(err.message, 'fr')} ». Réessayez plus tard.`,
        );
      }
      return upstreamError('UNKNOWN_ERROR', UPSTREAM_TEXTS.UNKNOWN_ERROR!);
    default:
      return upstreamError(err.code, UPSTREAM_TEXTS[err.code] ?? SERVICE_ERROR);
  }
}

function upstreamError(code: ErrorCode, text: { en: string; fr: string }): UpstreamError {
  return new UpstreamError(code, text.en, false, text.fr);
}

const SERVICE_ERROR = {
  en: 'The payment service reported an error. Try again later.',
  fr: 'Le service de paiement a signalé une erreur. Réessayez plus tard.',
};

/** What the service's failures without a typed error of their own mean, in both languages. */
const UPSTREAM_TEXTS: Partial<Record<ErrorCode, { en: string; fr: string }>> = {
  NETWORK_ERROR: {
    en: 'The operator network is not responding. Try again later.',
    fr: 'Le réseau de l’opérateur ne répond pas. Réessayez plus tard.',
  },
  INTERNAL_ERROR: {
    en: 'The payment service had an internal error. Try again later.',
    fr: 'Le service de paiement a rencontré une erreur interne. Réessayez plus tard.',
  },
  EXTERNAL_API_ERROR: {
    en: 'The operator returned an error. Try again later or contact support.',
    fr: 'L’opérateur a renvoyé une erreur. Réessayez plus tard ou contactez le support.',
  },
  UPSTREAM_UNAVAILABLE: {
    en: 'The payment service is unavailable right now. Try again in a moment.',
    fr: 'Le service de paiement est momentanément indisponible. Réessayez dans un instant.',
  },
  UNKNOWN_ERROR: {
    en: 'The payment service reported an unknown error. Try again later.',
    fr: 'Le service de paiement a signalé une erreur inconnue. Réessayez plus tard.',
  },
};

/** The service names the wallet only inside its message ("... in opb_bf wallet"). */
export function walletNamedIn(message: string): Wallet | null {
  const lower = message.toLowerCase();
  return WALLETS.find((w) => lower.includes(w)) ?? null;
}

/** The most transfers one bulk call to the service may carry. */
export const BULK_TRANSFER_LIMIT = 100;
