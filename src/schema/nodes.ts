// Relay node plumbing: global IDs are base64url("Type:reference"); anything
// that does not decode to one of our node types resolves to null rather than
// an error, so a stale or foreign ID cannot crash a client's query.
import type DataLoader from 'dataloader';
import { decodeGlobalIdParts, encodeGlobalId } from '../relay/global-id.js';

/** The types a global ID may name; `node(id:)` answers null for any other. */
export const NODE_TYPES = new Set([
  'Checkout',
  'Charge',
  'Transfer',
  'Settlement',
  'PayoutBatch',
  'WebhookEndpoint',
  'WebhookDelivery',
  'Merchant',
]);

/** Most ids one `nodes(ids:)` may ask for. */
export const NODES_MAX_IDS = 100;

export { encodeGlobalId };

/** Never throws: an undecodable ID becomes a typename no type has. */
export function decodeGlobalId(globalId: string): { typename: string; id: string } {
  const parts = decodeGlobalIdParts(globalId);
  return parts && NODE_TYPES.has(parts.typename) ? parts : { typename: '', id: '' };
}

/**
 * Relay's loadMany contract: one entry per id, in order; missing ones are null,
 * a failed lookup is its Error (only that node fails). The entries are resolved
 * before they are returned: Pothos brands each entry with its type as it gets
 * it, and a brand put on a promise never reaches the node (node(id) would then
 * fail to tell which type it is).
 */
export async function loadNodes<T>(loader: DataLoader<string, T | null>, refs: string[]): Promise<Array<T | null>> {
  const settled = await Promise.allSettled(refs.map((ref) => loader.load(ref)));
  // An Error entry is what graphql raises for that one node (typed as T for Pothos, which passes it through).
  return settled.map((s) =>
    s.status === 'fulfilled' ? s.value : ((s.reason instanceof Error ? s.reason : new Error(String(s.reason))) as T),
  );
}
