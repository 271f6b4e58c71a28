// Every failure of a call to the payment service becomes one UpstreamCallError with
// a stable code. Codes come from the service's `error_code` where it sends one;
// where the spec gives only a message (invalid key, charge not found, settlement
// not cancellable, no payment account), the client derives the code; transport
// faults (refused, deadline, a body that is not the envelope) are UPSTREAM_UNAVAILABLE.
import { InternalError } from '../errors/internal-error.js';
import { DUPLICATE_EXT_ID_PATTERN } from './service-messages.js';

/** Codes the service documents in its error table. */
export const UPSTREAM_ERROR_CODES = [
  'BATCH_SIZE_LIMIT_EXCEEDED',
  'RATE_LIMIT_EXCEEDED',
  'UNSUPPORTED_PROVIDER',
  'OTP_INVALID',
  'OTP_EXPIRED',
  'OTP_STILL_VALID',
  'INSUFFICIENT_FUNDS',
  'INVALID_ACCOUNT',
  'NETWORK_ERROR',
  'CHARGE_NOT_FOUND',
  'INTERNAL_ERROR',
  'UNKNOWN_ERROR',
  'TRANSACTION_NOT_FOUND',
  'UNAUTHORIZED_CHARGE_PROVIDER',
  'EXTERNAL_API_ERROR',
  'INVALID_DATA',
] as const;

/**
 * Codes the client derives where the service gives none: from its message (an invalid key, a charge not found, a
 * settlement not cancellable, no payment account), from a transport fault, or for a value it must not send. The
 * codes of the gateway's own refusals (access, idempotency, payout batches, webhooks) are src/errors/error-codes.ts'.
 */
export const CLIENT_DERIVED_CODES = [
  'VALIDATION_FAILED',
  'NOT_FOUND',
  'SETTLEMENT_NOT_CANCELLABLE',
  'PAYMENT_ACCOUNT_MISSING',
  'UPSTREAM_UNAVAILABLE',
  'UNAUTHENTICATED',
] as const;

/** Every code an UpstreamCallError may carry. */
export type UpstreamErrorCode = (typeof UPSTREAM_ERROR_CODES)[number] | (typeof CLIENT_DERIVED_CODES)[number];

/**
 * Whether the very same request may succeed if sent again later, stated once for every code (a new code
 * without it fails the type check). Typed payment errors read it too (through src/errors/error-codes.ts): only a
 * class whose answer depends on more than its code (an idempotency conflict, an unknown outcome) says otherwise.
 */
const RETRYABLE: { readonly [C in UpstreamErrorCode]: boolean } = {
  BATCH_SIZE_LIMIT_EXCEEDED: false,
  RATE_LIMIT_EXCEEDED: true,
  UNSUPPORTED_PROVIDER: false,
  OTP_INVALID: false,
  OTP_EXPIRED: false,
  OTP_STILL_VALID: false,
  INSUFFICIENT_FUNDS: false,
  INVALID_ACCOUNT: false,
  NETWORK_ERROR: true,
  CHARGE_NOT_FOUND: false,
  INTERNAL_ERROR: true,
  UNKNOWN_ERROR: true,
  TRANSACTION_NOT_FOUND: false,
  UNAUTHORIZED_CHARGE_PROVIDER: false,
  EXTERNAL_API_ERROR: true,
  INVALID_DATA: false,
  VALIDATION_FAILED: false,
  NOT_FOUND: false,
  SETTLEMENT_NOT_CANCELLABLE: false,
  PAYMENT_ACCOUNT_MISSING: false,
  UPSTREAM_UNAVAILABLE: true,
  UNAUTHENTICATED: false,
};

/** Whether a call that failed with `code` may succeed if sent again later. */
export function isRetryableUpstreamCode(code: UpstreamErrorCode): boolean {
  return RETRYABLE[code];
}

/** The service answered that no resource has this reference. */
export function isNotFound(err: unknown): boolean {
  return (
    err instanceof UpstreamCallError &&
    (err.code === 'NOT_FOUND' || err.code === 'CHARGE_NOT_FOUND' || err.code === 'TRANSACTION_NOT_FOUND')
  );
}

/**
 * The service refused an ext_id it has seen before: the request was already carried out (a
 * retry whose first answer was lost). Its words are not specified, so any field error on
 * ext_id that speaks of existence or uniqueness counts.
 */
export function isDuplicateExtId(fieldErrors: readonly FieldError[]): boolean {
  return fieldErrors.some((e) => e.path.at(-1) === 'ext_id' && DUPLICATE_EXT_ID_PATTERN.test(e.message));
}

/** A problem the service found with one field of a request, at the path it named. */
export interface FieldError {
  /** e.g. ["payment_method_details", "phone"] as the service named it (snake_case is kept: it is the service's path). */
  path: string[];
  message: string;
}

/** What kind of transport fault produced an UPSTREAM_UNAVAILABLE, for logs and retry decisions. */
export type TransportFault = 'refused' | 'timeout' | 'reset' | 'bad_body' | 'http_status';

export interface UpstreamErrorInit {
  code: UpstreamErrorCode;
  message: string;
  httpStatus?: number | null;
  fieldErrors?: FieldError[];
  /** The raw `error_code` when the service sent one we do not know (code is then UNKNOWN_ERROR). */
  upstreamCode?: string | null;
  fault?: TransportFault | null;
  /**
   * True when a request that moves money may have been carried out although we got no answer
   * (a POST that timed out or whose connection dropped after it was sent).
   */
  outcomeUnknown?: boolean;
  /**
   * True when the request provably never left the gateway (connection refused, or still waiting for a
   * pooled connection at its deadline): nothing can have been carried out.
   */
  neverSent?: boolean;
  cause?: unknown;
}

/**
 * A failed call to the payment service, with a stable code, whether its outcome is unknown, and whether it
 * provably never left.
 */
export class UpstreamCallError extends InternalError {
  override readonly name = 'UpstreamCallError';
  readonly code: UpstreamErrorCode;
  readonly httpStatus: number | null;
  readonly fieldErrors: FieldError[];
  readonly upstreamCode: string | null;
  readonly fault: TransportFault | null;
  readonly outcomeUnknown: boolean;
  readonly neverSent: boolean;
  readonly retryable: boolean;

  constructor(init: UpstreamErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.httpStatus = init.httpStatus ?? null;
    this.fieldErrors = init.fieldErrors ?? [];
    this.upstreamCode = init.upstreamCode ?? null;
    this.fault = init.fault ?? null;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.neverSent = init.neverSent ?? false;
    this.retryable = isRetryableUpstreamCode(init.code);
  }
}
