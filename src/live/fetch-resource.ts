// Fetches the authoritative state of a resource, coalescing concurrent asks
// for the same one: a burst of webhooks, pollers and subscribers about one
// reference costs one upstream call.
import type { UpstreamClient } from '../upstream/types.js';
import type { ResourceKind } from '../upstream/types.js';

/** A resource as a subscription compares it: its reference and status. */
export interface LiveResource {
  reference: string;
  status: string;
}

interface InFlight {
  promise: Promise<LiveResource>;
  /** Epoch ms when the upstream call started. */
  startedAt: number;
}

export function createResourceFetcher(upstream: UpstreamClient) {
  const inFlight = new Map<string, InFlight>();
  const fetchers: Record<ResourceKind, (ref: string) => Promise<LiveResource>> = {
    checkout: (ref) => upstream.fetchCheckout(ref),
    charge: (ref) => upstream.fetchCharge(ref),
    transfer: (ref) => upstream.fetchTransfer(ref),
    settlement: (ref) => upstream.fetchSettlement(ref),
  };
  /**
   * `notBefore` (epoch ms): join only a fetch that started at or after it. A
   * webhook passes its receipt time: a fetch started before the webhook came
   * may be answered with the state from before the change it announces.
   */
  return function fetchResource(type: ResourceKind, reference: string, notBefore?: number): Promise<LiveResource> {
    const key = `${type}:${reference}`;
    const current = inFlight.get(key);
    if (current && (notBefore === undefined || current.startedAt >= notBefore)) return current.promise;
    const entry: InFlight = { startedAt: Date.now(), promise: fetchers[type](reference) };
    // An older fetch still running must not remove its successor.
    entry.promise = entry.promise.finally(() => {
      if (inFlight.get(key) === entry) inFlight.delete(key);
    });
    inFlight.set(key, entry);
    return entry.promise;
  };
}

export type ResourceFetcher = ReturnType<typeof createResourceFetcher>;
