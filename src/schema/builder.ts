// The Pothos schema builder and its plugins, in the order the Pothos docs
// prescribe (relay before errors, so that connection fields can still carry
// error unions). No type is defined here: each domain module adds its own.
import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import RelayPlugin, { resolveNodes } from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import type { GraphQLResolveInfo } from 'graphql';
import { topLevelError } from '../errors/top-level.js';
import { access, refusal, scopeLoaders, type GatewayAuthScopes } from './access.js';
import type { GatewayContext } from './context.js';
import { NODES_MAX_IDS, NODE_TYPES, decodeGlobalId, encodeGlobalId } from './nodes.js';

/** The Pothos types of the schema: the request context, the scalars' input and output types, and the auth scopes. */
export interface GatewaySchemaTypes {
  Context: GatewayContext;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    Date: { Input: string; Output: string };
    JSON: { Input: unknown; Output: unknown };
  };
  Connection: { totalCount: number };
  AuthScopes: GatewayAuthScopes;
  DefaultFieldNullability: false;
}

/**
 * The one Pothos builder of the schema. Plugins run Relay first (auth rules see decoded global IDs), then scope auth (a refusal is never a
 * union member), then typed errors.
 */
export const builder = new SchemaBuilder<GatewaySchemaTypes>({
  // Relay first so that auth rules see decoded global IDs; scope-auth before errors so a refusal is never a union member.
  plugins: [RelayPlugin, ScopeAuthPlugin, ErrorsPlugin],
  scopeAuth: {
    // Subscriptions are checked when they start, not at each event.
    authorizeOnSubscribe: true,
    authScopes: scopeLoaders,
    unauthorizedError: (_parent, ctx, info) => refusal(ctx, info),
  },
  defaultFieldNullability: false,
  relay: {
    cursorType: 'String',
    clientMutationId: 'omit',
    // Global IDs are opaque to clients; node(id) answers null for anything we did not issue.
    encodeGlobalID: encodeGlobalId,
    decodeGlobalID: decodeGlobalId,
    nodeQueryOptions: {
      // A client token may fetch its own charge or checkout by global ID.
      ...access<{ id: { typename: string; id: string } }>({ scope: 'payments:read', client: ({ id }) => clientResourceOf(id) }),
      description:
        'Fetches any checkout, charge, transfer or settlement by its global ID; null when the ID is malformed, foreign or unknown.',
      resolve: (_root, { id }, _ctx, _info, resolveNode) => (NODE_TYPES.has(id.typename) ? resolveNode(id) : null),
    },
    nodesQueryOptions: {
      ...access({ scope: 'payments:read' }),
      description: `Fetches several nodes (at most ${NODES_MAX_IDS}) by global ID, in order; null in place of each malformed, foreign or unknown ID.`,
      // The plugin's own callback resolves all the ids it was given, foreign ones included.
      resolve: (_root, { ids }, ctx, info) => {
        // Each id may cost a call to the service: a bounded list, refused whole beyond the bound.
        if (ids.length > NODES_MAX_IDS) {
          throw topLevelError('BAD_USER_INPUT', { kind: 'too_many_ids', max: NODES_MAX_IDS }, { extensions: { maxIds: NODES_MAX_IDS } });
        }
        return resolveKnownNodes(ids, ctx, info);
      },
    },
    nodeTypeOptions: { description: 'An object with a globally unique, opaque ID.' },
    idFieldOptions: { description: 'Opaque global ID; pass it to `node(id:)` to fetch this object again.' },
    cursorFieldOptions: { description: 'Opaque cursor of this edge, for `after` / `before` (valid only with the same list and filter).' },
    pageInfoFieldOptions: { description: 'Where this page sits in the whole list.' },
    hasNextPageFieldOptions: { description: 'True when items exist after the last edge of this page.' },
    hasPreviousPageFieldOptions: { description: 'True when items exist before the first edge of this page.' },
    startCursorFieldOptions: { description: 'Cursor of the first edge, null for an empty page.' },
    endCursorFieldOptions: { description: 'Cursor of the last edge, null for an empty page.' },
    edgesFieldOptions: { description: 'The items of this page, with their cursors.' },
    nodeFieldOptions: { description: 'The item.' },
    pageInfoTypeOptions: { description: 'Where a page sits in a connection.' },
    defaultConnectionTypeOptions: { description: 'A page of results with Relay cursors.' },
    defaultEdgeTypeOptions: { description: 'One result and its cursor.' },
  },
  errors: {
    defaultTypes: [],
    // A mutation answers its payload type itself in the result union (no wrapping Success object).
    directResult: true,
  },
});

function clientResourceOf(id: { typename: string; id: string }) {
  if (id.typename === 'Charge') return { kind: 'charge', reference: id.id } as const;
  if (id.typename === 'Checkout') return { kind: 'checkout', reference: id.id } as const;
  return null;
}

/** Our node types resolved through the plugin; anything else is null in its place. */
async function resolveKnownNodes(
  ids: Array<{ typename: string; id: string }>,
  ctx: GatewayContext,
  info: GraphQLResolveInfo,
): Promise<unknown[]> {
  const known = ids.filter((id) => NODE_TYPES.has(id.typename));
  const loaded = await resolveNodes(builder, ctx, info, known);
  let next = 0;
  return ids.map((id) => (NODE_TYPES.has(id.typename) ? (loaded[next++] ?? null) : null));
}
