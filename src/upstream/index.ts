// Public surface of the payment-service client.
export * from './types.js';
export * from './errors.js';
export { createUpstreamClient, type UpstreamClientOptions } from './client.js';
export {
  BadBodyError,
  parseAmount,
  parseDecimal,
  parseFeePercent,
  parseTimestamp,
  parseNullableTimestamp,
  emptyToNull,
  parseProvider,
  parseWallet,
  walletFromBalanceKey,
  flattenFieldErrors,
  parseQueuedCount,
  matchBulkFailures,
  normalizeCheckout,
  normalizeInitializedCheckout,
  normalizeCharge,
  normalizeCreatedCharge,
  normalizeTransfer,
  normalizeSettlement,
  normalizeBalance,
  normalizePagination,
  normalizeBulkResult,
} from './normalize.js';
export { mapFailure, OPERATIONS, PAYMENT_ACCOUNT_PATTERN, type Operation } from './failure.js';
