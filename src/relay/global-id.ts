// Relay's global object ids, as this API writes them: base64url of "<Type>:<id>". The one encoder, imported by the
// schema (src/schema/nodes.ts, which also knows which types are nodes) and by the layers below it that hand ids to
// clients outside GraphQL (a webhook_endpoint.disabled event names its endpoint by the id GraphQL shows). A leaf.

/** The opaque id of object `id` of GraphQL type `typename`. */
export function encodeGlobalId(typename: string, id: string | number | bigint): string {
  return Buffer.from(`${typename}:${String(id)}`, 'utf8').toString('base64url');
}

/** The type name and id inside a global id, or null when it is not one (never throws). */
export function decodeGlobalIdParts(globalId: string): { typename: string; id: string } | null {
  const text = /^[A-Za-z0-9_-]+={0,2}$/.test(globalId) ? Buffer.from(globalId, 'base64url').toString('utf8') : '';
  const colon = text.indexOf(':');
  return colon > 0 && colon < text.length - 1 ? { typename: text.slice(0, colon), id: text.slice(colon + 1) } : null;
}
