// Runs one mutation under an idempotency key (when the client gave one).
import { createHash } from 'node:crypto';
import { UpstreamError } from '../upstream/errors.js';
import { IdempotencyConflictError } from '../schema/errors.js';
import type { IdempotencyStore } from './store.js';

export interface IdempotentRun<T> {
  store: IdempotencyStore;
  /** Mutation name; keys are scoped by it so one key can't collide across operations. */
  operation: string;
  key: string | null | undefined;
  /** The input that defines "the same request" (without the key itself). */
  input: unknown;
  /** Facts to keep if the outcome turns out unknown, for `reconcile` (e.g. the ext_id sent). */
  meta?: Record<string, string>;
  execute: () => Promise<T>;
  /**
   * After an unknown outcome: look the request up at the service. Resolves
   * with the result if it went through, null if it cannot be found (it may
   * still be on its way, so the key stays blocked rather than pay twice).
   */
  reconcile?: (meta: Record<string, string>) => Promise<T | null>;
}

export async function runIdempotent<T>(run: IdempotentRun<T>): Promise<T> {
  if (!run.key) return run.execute();
  const key = `${run.operation}:${run.key}`;
  const fingerprint = createHash('sha256').update(stableJson(run.input)).digest('hex');

  const claim = await run.store.claim(key, fingerprint);
  switch (claim.kind) {
    case 'replay':
      return claim.value as T;
    case 'conflict':
      throw new IdempotencyConflictError('different_input');
    case 'in_progress':
      throw new IdempotencyConflictError('in_progress');
    case 'unknown': {
      const found = run.reconcile ? await run.reconcile(claim.meta) : null;
      if (found === null) throw new IdempotencyConflictError('outcome_unknown');
      await run.store.complete(key, fingerprint, found);
      return found;
    }
    case 'claimed':
      break;
  }

  try {
    const value = await run.execute();
    await run.store.complete(key, fingerprint, value);
    return value;
  } catch (err) {
    if (err instanceof UpstreamError && err.outcomeUnknown) {
      await run.store.markUnknown(key, fingerprint, run.meta ?? {});
    } else {
      await run.store.release(key);
    }
    throw err;
  }
}

/** JSON with sorted keys, so {a,b} and {b,a} are the same request. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
