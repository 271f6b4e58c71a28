// Relay node plumbing: global IDs are base64url("Type:reference"); anything
// that does not decode to one of our node types resolves to null rather than
// an error, so a stale or foreign ID cannot crash a client's query.
import type DataLoader from 'dataloader';

export const NODE_TYPES = new Set(['Checkout', 'Charge', 'Transfer', 'Settlement']);

export function encodeGlobalId(typename: string, id: string | number | bigint): string {
  return Buffer.from(`${typename}:${String(id)}`, 'utf8').toString('base64url');
}

/** Never throws: an undecodable ID becomes a typename no type has. */
export function decodeGlobalId(globalId: string): { typename: string; id: string } {
  const text = /^[A-Za-z0-9_-]+={0,2}$/.test(globalId) ? Buffer.from(globalId, 'base64url').toString('utf8') : '';
  const colon = text.indexOf(':');
  const typename = colon > 0 ? text.slice(0, colon) : '';
  const id = colon > 0 ? text.slice(colon + 1) : '';
  return NODE_TYPES.has(typename) && id.length > 0 ? { typename, id } : { typename: '', id: '' };
}

/** Relay's loadMany contract: one entry per id; errors reject, missing ones are null. */
export function loadNodes<T>(loader: DataLoader<string, T | null>, refs: string[]): Array<Promise<T | null>> {
  return refs.map((ref) => loader.load(ref));
}
