// Every `code` a typed error may carry (the GraphQL enum ErrorCode): the service's own and those its client derives
// (src/upstream/call-error.ts), and the gateway's refusals, declared here, above the layer that calls the service.
import { CLIENT_DERIVED_CODES, UPSTREAM_ERROR_CODES, isRetryableUpstreamCode, type UpstreamErrorCode } from '../upstream/call-error.js';

/** Codes of the gateway's own refusals: access, idempotency, its stores, payout batches, webhook endpoints. */
export const GATEWAY_ERROR_CODES = [
  'FORBIDDEN',
  'IDEMPOTENCY_CONFLICT',
  'SERVICE_UNAVAILABLE',
  'PAYOUT_BATCH_STATE',
  'SELF_APPROVAL_FORBIDDEN',
  'TRANSFER_FAILED',
  'WEBHOOK_ENDPOINT_LIMIT',
  'INVALID_WEBHOOK_URL',
  'WEBHOOKS_UNAVAILABLE',
  'MERCHANT_SUSPENDED',
  'MERCHANT_OFFBOARDED',
] as const;
type GatewayErrorCode = (typeof GATEWAY_ERROR_CODES)[number];

/** Every value of the GraphQL enum ErrorCode: the service's, its client's, and the gateway's own. */
export const ERROR_CODES = [...UPSTREAM_ERROR_CODES, ...CLIENT_DERIVED_CODES, ...GATEWAY_ERROR_CODES] as const;
/** A typed error's stable `code`. */
export type ErrorCode = UpstreamErrorCode | GatewayErrorCode;

/** Whether the very same request may succeed later, for the gateway's codes (a new code without it fails tsc). */
const RETRYABLE: { readonly [C in GatewayErrorCode]: boolean } = {
  FORBIDDEN: false,
  IDEMPOTENCY_CONFLICT: false,
  // Refused before anything was sent (the idempotency store unreachable): the same request may simply be sent again.
  SERVICE_UNAVAILABLE: true,
  PAYOUT_BATCH_STATE: false,
  SELF_APPROVAL_FORBIDDEN: false,
  TRANSFER_FAILED: false,
  WEBHOOK_ENDPOINT_LIMIT: false,
  INVALID_WEBHOOK_URL: false,
  WEBHOOKS_UNAVAILABLE: false,
  MERCHANT_SUSPENDED: false,
  MERCHANT_OFFBOARDED: false,
};

const isGatewayCode = (code: ErrorCode): code is GatewayErrorCode => Object.hasOwn(RETRYABLE, code);

/** Whether the very same request may succeed if sent again later, for any code. */
export function isRetryableCode(code: ErrorCode): boolean {
  return isGatewayCode(code) ? RETRYABLE[code] : isRetryableUpstreamCode(code);
}
