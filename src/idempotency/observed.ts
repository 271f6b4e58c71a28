// Counts what happens to idempotency keys (for src/observability/'s metrics)
// by wrapping a store, so the run rules in run.ts stay free of bookkeeping.
import type { IdempotencyStore } from './store.js';

/**
 * `replay`: a retry got the first success back; `conflict`: the key came with other input;
 * `in_progress`: the key's request was still running; `outcome_unknown`: a request that may have
 * moved money ended without a known result (the client must retry with the same key).
 */
export type IdempotencyEvent = 'replay' | 'conflict' | 'in_progress' | 'outcome_unknown';

/** The same store, reporting replays, conflicts and unknown outcomes to `observe` (metrics). */
export function observedIdempotencyStore(store: IdempotencyStore, observe: (event: IdempotencyEvent) => void): IdempotencyStore {
  const tell = (event: IdempotencyEvent) => {
    try {
      observe(event);
    } catch {
      // Bookkeeping must never change a payment's outcome.
    }
  };
  return {
    async claim(key, fingerprint, meta, options) {
      const result = await store.claim(key, fingerprint, meta, options);
      if (result.kind === 'replay' || result.kind === 'conflict' || result.kind === 'in_progress') tell(result.kind);
      return result;
    },
    reclaim: (key, token, fingerprint, meta, options) => store.reclaim(key, token, fingerprint, meta, options),
    complete: (key, fingerprint, value) => store.complete(key, fingerprint, value),
    markUnknown(key, fingerprint, meta) {
      // Counted even if the store then fails: the outcome is unknown either way.
      tell('outcome_unknown');
      return store.markUnknown(key, fingerprint, meta);
    },
    release: (key) => store.release(key),
    close: () => store.close(),
    ...(store.forMerchant
      ? { forMerchant: (merchantId: string) => observedIdempotencyStore(store.forMerchant!(merchantId), observe) }
      : {}),
  };
}
