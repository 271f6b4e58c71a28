// Typed errors returned by mutations. Each class is one family of failure a
// frontend can act on; each implements PaymentError so a client can always
// fall back to `... on PaymentError { message messageFr code retryable }`.
// The English and French texts are ours, written for the person paying or
// being paid; upstream internals never reach them.
import { GraphQLError } from 'graphql';
import { UpstreamCallError, isRetryableCode, type ErrorCode } from '../upstream/call-error.js';
import { WALLETS, type ResourceKind, type SettlementStatus, type Wallet } from '../upstream/types.js';
import { serviceFieldMessage, withOperatorNames } from './field-messages.js';
import { operatorName } from './operators.js';
import { topLevelError, topLevelText } from './top-level.js';

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
        ? `Les informations saisies ne sont pas valides : ${lowerFirst(fieldMessageFr(fieldErrors[0]!))}`
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
    super(
      wallet
        ? `Insufficient funds in the ${operatorName(wallet).en} wallet for this amount and its fees.`
        : 'Insufficient funds for this amount and its fees.',
    );
    this.messageFr = wallet
      ? `Solde insuffisant sur le portefeuille ${operatorName(wallet).fr} pour ce montant et ses frais.`
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
  constructor(
    readonly limit: number,
    readonly submitted: number | null,
  ) {
    super(
      `A bulk transfer holds at most ${limit} transfers${submitted === null ? '' : ` (got ${submitted})`}. Split it into several requests.`,
    );
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
    readonly resource: ResourceKind,
    readonly reference: string,
    readonly code: 'NOT_FOUND' | 'CHARGE_NOT_FOUND' | 'TRANSACTION_NOT_FOUND' = 'NOT_FOUND',
  ) {
    const text = topLevelText('NOT_FOUND', { resource });
    super(text.en);
    this.messageFr = text.fr;
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
  constructor(
    readonly reason: 'different_input' | 'in_progress' | 'outcome_unknown',
    /** For `in_progress`: how long until a retry with the key may get an answer (ms), when known. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(
      {
        different_input: 'This idempotency key was already used with different input. Use a new key for a new request.',
        in_progress: 'A request with this idempotency key is still in progress. Try again in a moment.',
        outcome_unknown:
          'The payment service did not confirm an earlier request with this idempotency key (or the gateway lost track of it), and it cannot be checked automatically. Check the list before sending a new request with a new key.',
      }[reason],
    );
    this.messageFr = {
      different_input: 'Cette clé d’idempotence a déjà servi pour une autre demande. Utilisez une nouvelle clé.',
      in_progress: 'Une demande avec cette clé d’idempotence est encore en cours. Réessayez dans un instant.',
      outcome_unknown:
        'Le service de paiement n’a pas confirmé une demande précédente avec cette clé (ou la passerelle l’a perdue de vue), et elle ne peut pas être vérifiée automatiquement. Consultez la liste avant d’envoyer une nouvelle demande avec une nouvelle clé.',
    }[reason];
  }
  override get retryable(): boolean {
    return this.reason === 'in_progress';
  }
}

/**
 * A store the gateway needs to run a request safely (the idempotency keys in
 * Redis) cannot be reached. The request was refused before anything was sent
 * to the payment service, so the same request may simply be sent again later.
 */
export class ServiceUnavailableError extends PaymentError {
  override readonly name = 'ServiceUnavailableError';
  readonly code = 'SERVICE_UNAVAILABLE' as const;
  readonly messageFr =
    'Le service est momentanément indisponible ; rien n’a été effectué. Réessayez dans un instant avec la même clé d’idempotence.';
  constructor(options?: { cause?: unknown }) {
    super('The service is temporarily unavailable; nothing was done. Try again in a moment with the same idempotency key.', options);
  }
}

/** Network, internal, unknown and external failures: the request did not go through (or we cannot tell). */
export class UpstreamError extends PaymentError {
  override readonly name = 'UpstreamError';
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
        ? 'Le service de paiement n’a pas confirmé l’opération ; elle a pu aboutir. Renvoyez la même demande avec la même clé d’idempotence : la passerelle vérifie avant de renvoyer, rien ne sera payé deux fois.'
        : code === 'UPSTREAM_UNAVAILABLE' || code === 'NETWORK_ERROR'
          ? 'Le service de paiement est momentanément indisponible. Réessayez dans quelques instants.'
          : 'Le service de paiement a rencontré une erreur. Réessayez plus tard ou contactez le support.');
  }
  /** An unknown outcome is safe to retry with the same idempotency key: the gateway reconciles before sending again. */
  override get retryable(): boolean {
    return this.outcomeUnknown || isRetryableCode(this.code);
  }
}

export type PaymentErrorClass = abstract new (...args: never[]) => PaymentError;

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
  if (err.code === 'UNAUTHENTICATED' || err.code === 'FORBIDDEN') throw upstreamUnauthenticated();
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

export function upstreamUnauthenticated(): GraphQLError {
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

export const BULK_TRANSFER_LIMIT = 100;
