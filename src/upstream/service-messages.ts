// The service's words the gateway reads meaning into, in one place. The spec gives no `error_code` for some failures
// (an invalid key, a charge not found, no payment account), and bulk items and field errors come as sentences: each
// pattern here is the one guess made about them, so a change of the service's wording is fixed here once.

/** An API key the service refuses. */
export const INVALID_API_KEY_PATTERN = /\binvalid api key\b/i;
/** A charge the service does not know. */
export const CHARGE_NOT_FOUND_PATTERN = /\bcharge not found\b/i;
/** "... not found", and Django's "No X matches the given query." / "... does not exist". */
export const NOT_FOUND_PATTERN = /\bnot found\b|\bdoes not exist\b|\bno \w+ matches the given query\b/i;
/**
 * The failure shape of create-settlement without a payment account is not shown in the spec ("fails when the
 * integrator has no payment account"): a message (or a field error) speaking of a payment account.
 */
export const PAYMENT_ACCOUNT_PATTERN = /payment account/i;
/** A field error on ext_id saying the service has seen it before (its words are not specified). */
export const DUPLICATE_EXT_ID_PATTERN = /already exists|already used|unique|duplicate/i;
/** A bulk item refused for the wallet's balance. */
export const INSUFFICIENT_FUNDS_PATTERN = /insufficient/i;
/** A bulk item refused because the recipient has no mobile-money account. */
export const INVALID_ACCOUNT_PATTERN = /invalid account|no account|not registered/i;
