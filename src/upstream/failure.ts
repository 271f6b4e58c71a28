// Maps a failure envelope (`status: false`) to an UpstreamCallError. All message
// matching lives here, in the order below (first rule that applies wins):
//
//  1. `error_code` one of the documented codes        -> that code
//  2. `error_code` any other string                   -> UNKNOWN_ERROR, upstreamCode = the raw string
//  3. message `Invalid API key`                       -> UNAUTHENTICATED
//  4. message `Charge not found`                      -> CHARGE_NOT_FOUND
//  5. "not found" message, where the operation's declaration
//     says `failureMessages.notFound`                 -> NOT_FOUND
//  6. any other failure, where it declares
//     `failureMessages.otherwise`                     -> that code
//  7. a message or field error matching PAYMENT_ACCOUNT_PATTERN,
//     where it declares `failureMessages.paymentAccount` -> PAYMENT_ACCOUNT_MISSING
//  8. an `errors` object with entries                 -> INVALID_DATA (+ fieldErrors)
//  9. HTTP 401                                        -> UNAUTHENTICATED
// 10. anything else                                   -> UNKNOWN_ERROR (upstreamCode null)
//
// `fieldErrors` is filled from `errors` whatever the code. Messages are the
// service's own, with the API key and base URL redacted should they appear.

import { UPSTREAM_ERROR_CODES, UpstreamCallError, type UpstreamErrorCode, type FieldError } from './call-error.js';
import type { Envelope } from './envelope.js';
import { flattenFieldErrors } from './normalize.js';
import { declarationOf, type Operation } from './operations.js';
import { CHARGE_NOT_FOUND_PATTERN, INVALID_API_KEY_PATTERN, NOT_FOUND_PATTERN, PAYMENT_ACCOUNT_PATTERN } from './service-messages.js';

const KNOWN_CODES: ReadonlySet<string> = new Set(UPSTREAM_ERROR_CODES);

interface FailureContext {
  operation: Operation;
  httpStatus: number | null;
  /** Removes secrets (API key, base URL) from text that came from the service. */
  redact: (text: string) => string;
}

export function mapFailure(envelope: Envelope, ctx: FailureContext): UpstreamCallError {
  const message = ctx.redact(envelope.message);
  const fieldErrors: FieldError[] = flattenFieldErrors(envelope.errors).map((f) => ({
    path: f.path,
    message: ctx.redact(f.message),
  }));
  const make = (code: UpstreamErrorCode, upstreamCode: string | null = null) =>
    new UpstreamCallError({
      code,
      message: message || defaultMessage(code, fieldErrors),
      httpStatus: ctx.httpStatus,
      fieldErrors,
      upstreamCode,
    });

  const raw = envelope.errorCode;
  if (raw !== null) {
    return KNOWN_CODES.has(raw) ? make(raw as UpstreamErrorCode) : make('UNKNOWN_ERROR', ctx.redact(raw));
  }
  if (INVALID_API_KEY_PATTERN.test(envelope.message)) return make('UNAUTHENTICATED');
  if (CHARGE_NOT_FOUND_PATTERN.test(envelope.message)) return make('CHARGE_NOT_FOUND');
  const byMessage = declarationOf(ctx.operation).failureMessages ?? {};
  if (byMessage.notFound && NOT_FOUND_PATTERN.test(envelope.message)) return make('NOT_FOUND');
  if (byMessage.otherwise) return make(byMessage.otherwise);
  if (
    byMessage.paymentAccount &&
    (PAYMENT_ACCOUNT_PATTERN.test(envelope.message) || fieldErrors.some((f) => PAYMENT_ACCOUNT_PATTERN.test(f.message)))
  ) {
    return make('PAYMENT_ACCOUNT_MISSING');
  }
  if (fieldErrors.length > 0) return make('INVALID_DATA');
  if (ctx.httpStatus === 401) return make('UNAUTHENTICATED');
  return make('UNKNOWN_ERROR');
}

function defaultMessage(code: UpstreamErrorCode, fieldErrors: FieldError[]): string {
  const first = fieldErrors[0];
  if (first) return first.path.length > 0 ? `${first.path.join('.')}: ${first.message}` : first.message;
  return `Payment service request failed (${code})`;
}
