// Per-operation DataLoaders: within one GraphQL operation each reference is
// fetched from the payment service at most once, and distinct references are
// fetched concurrently, a bounded number at a time (the service has no batch
// endpoint and we must not flood it).
import DataLoader from 'dataloader';
import { isNotFound } from '../upstream/errors.js';
import type { Charge, Checkout, Settlement, Transfer, UpstreamClient } from '../upstream/types.js';

export const LOADER_CONCURRENCY = 8;

export interface ResourceLoaders {
  checkout: DataLoader<string, Checkout | null>;
  charge: DataLoader<string, Charge | null>;
  transfer: DataLoader<string, Transfer | null>;
  settlement: DataLoader<string, Settlement | null>;
}

export function createLoaders(upstream: UpstreamClient): ResourceLoaders {
  return {
    checkout: byReference((ref) => upstream.fetchCheckout(ref)),
    charge: byReference((ref) => upstream.fetchCharge(ref)),
    transfer: byReference((ref) => upstream.fetchTransfer(ref)),
    settlement: byReference((ref) => upstream.fetchSettlement(ref)),
  };
}

function byReference<T>(fetchOne: (reference: string) => Promise<T>): DataLoader<string, T | null> {
  return new DataLoader<string, T | null>(
    (references) =>
      mapWithConcurrency(references, LOADER_CONCURRENCY, (ref) =>
        fetchOne(ref).then(
          (value) => value,
          (err: unknown) => (isNotFound(err) ? null : (err as Error)),
        ),
      ),
    // Batch across one tick so sibling fields' lookups share the concurrency limit.
    { maxBatchSize: 100 },
  );
}

/** Runs `fn` over `items` with at most `limit` calls in flight; results keep the input order. */
export async function mapWithConcurrency<I, O>(items: readonly I[], limit: number, fn: (item: I) => Promise<O>): Promise<O[]> {
  const results = new Array<O>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
