// Fetches the authoritative state of a resource, coalescing concurrent asks
// for the same one: a burst of webhooks, pollers and subscribers about one
// reference costs one upstream call.
import type { UpstreamClient } from '../upstream/types.js';
import type { ResourceType } from '../webhooks/event.js';

export interface LiveResource {
  reference: string;
  status: string;
}

export function createResourceFetcher(upstream: UpstreamClient) {
  const inFlight = new Map<string, Promise<LiveResource>>();
  const fetchers: Record<ResourceType, (ref: string) => Promise<LiveResource>> = {
    checkout: (ref) => upstream.fetchCheckout(ref),
    charge: (ref) => upstream.fetchCharge(ref),
    transfer: (ref) => upstream.fetchTransfer(ref),
    settlement: (ref) => upstream.fetchSettlement(ref),
  };
  return function fetchResource(type: ResourceType, reference: string): Promise<LiveResource> {
    const key = `${type}:${reference}`;
    let pending = inFlight.get(key);
    if (!pending) {
      pending = fetchers[type](reference).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return pending;
  };
}

export type ResourceFetcher = ReturnType<typeof createResourceFetcher>;
