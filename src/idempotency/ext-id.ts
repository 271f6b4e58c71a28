// The ext_id the gateway sends with a payment when the client gave none: derived
// from the idempotency key, so a request whose answer was lost can be found again
// in the service's list (and recognized when the service refuses it as a repeat).
import { createHash } from 'node:crypto';

/**
 * The ext_id a payment sends, derived from its idempotency key: the same on every retry, so the service can find
 * or refuse a repeat.
 */
export function extIdForKey(key: string): string {
  return `idem_${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
}
