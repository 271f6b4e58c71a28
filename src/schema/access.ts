// Who may run each root field. Every field of Query, Mutation and Subscription
// states its rule with `access(...)`; a root field that states none is refused
// (the root types carry a rule that never passes, which `access` skips), so a
// new field is closed until someone decides who may use it.
import { GraphQLError, getArgumentValues, type GraphQLResolveInfo } from 'graphql';
import { hasScope, tokenProblemOf, type AuthFailureReason, type ClientResource, type Scope } from '../auth/index.js';
import { topLevelError } from '../errors/top-level.js';
import { auditAttempt } from './audit.js';
import type { GatewayContext } from './context.js';
import { isInitializationReference } from '../upstream/checkout-reference.js';
import { platformGate, platformRefusal } from './platform.js';

/** A staff token with `scope`, or (when `client` names one) a client token bound to that very resource. */
export interface AccessRule<Args> {
  scope: Scope;
  client?: (args: Args) => ClientResource | null;
}

export type GatewayAuthScopes = {
  /** A staff token carrying this scope. */
  scope: Scope;
  /** A client token bound to this resource (null: none). */
  clientResource: ClientResource | null;
  /** Never granted: the rule of a root field that declared none. */
  undeclared: boolean;
};

/** The field options that put a rule on a root field (spread into `t.field({...})`). */
export function access<Args>(rule: AccessRule<Args>) {
  return {
    skipTypeScopes: true,
    extensions: { requiredScope: rule.scope, clientTokens: rule.client !== undefined },
    // The platform rule first (src/schema/platform.ts: which fields platform mode serves, and to whom), then the scope.
    authScopes: (_parent: unknown, args: Args, ctx: GatewayContext, info: GraphQLResolveInfo) =>
      platformGate(ctx, info.fieldName) !== 'open'
        ? false
        : rule.client
          ? { $any: { scope: rule.scope, clientResource: rule.client(args) } }
          : { scope: rule.scope },
  } as const;
}

/** The scope loaders of one request, from its principal. */
export function scopeLoaders(ctx: GatewayContext) {
  return {
    scope: (scope: Scope) => ctx.principal?.kind === 'staff' && ctx.principal.scopes.has(scope),
    clientResource: (resource: ClientResource | null) => isOwnResource(ctx, resource),
    undeclared: false,
  };
}

/** A client token's own resource. Checkouts have two reference forms (`chk_…` and a UUID): both designate it. */
async function isOwnResource(ctx: GatewayContext, asked: ClientResource | null): Promise<boolean> {
  const principal = ctx.principal;
  if (!asked || principal?.kind !== 'client' || principal.resource.kind !== asked.kind) return false;
  if (principal.resource.reference === asked.reference) return true;
  // Another `chk_…` is another checkout. A UUID is compared with the UUID of the token's own checkout:
  // only the caller's own checkout is ever fetched, never the one asked about.
  if (asked.kind !== 'checkout' || isInitializationReference(asked.reference)) return false;
  const own = await ctx.loaders.checkout.load(principal.resource.reference).catch(() => null);
  return own !== null && own.reference === asked.reference;
}

/** The error of a refused field: who is missing (UNAUTHENTICATED) or what is missing (FORBIDDEN, with the scope). */
export function refusal(ctx: GatewayContext, info: GraphQLResolveInfo): GraphQLError {
  const field = info.parentType.getFields()[info.fieldName];
  auditAttempt(ctx, field, { arg: argumentOf(info), outcome: ctx.principal ? 'FORBIDDEN' : 'UNAUTHENTICATED' });
  if (!ctx.principal) return unauthenticated();
  const { requiredScope = null, clientTokens = false } = (field?.extensions ?? {}) as { requiredScope?: Scope; clientTokens?: boolean };
  const gate = platformGate(ctx, info.fieldName);
  // Single mode: the operator's fields are FORBIDDEN without their scope, as any field; with it, they say why not.
  const scopeFirst = gate === 'platform_only' && !(requiredScope && hasScope(ctx.principal, requiredScope));
  if (gate !== 'open' && gate !== 'operator_only' && !scopeFirst) return platformRefusal(gate, info.fieldName);
  if (ctx.principal.kind === 'client') {
    return topLevelError('FORBIDDEN', { field: info.fieldName, scope: null, customer: clientTokens ? 'other_payment' : 'not_allowed' });
  }
  return topLevelError('FORBIDDEN', { field: info.fieldName, scope: requiredScope }, { extensions: { requiredScope } });
}

/** The single argument of a mutation field (`input` or `reference`), for the audit line of a refused attempt. */
function argumentOf(info: GraphQLResolveInfo): unknown {
  const field = info.parentType.getFields()[info.fieldName];
  const node = info.fieldNodes[0];
  if (!field || !node) return undefined;
  try {
    return Object.values(getArgumentValues(field, node, info.variableValues))[0];
  } catch {
    return undefined;
  }
}

/** The UNAUTHENTICATED error (HTTP 401, WWW-Authenticate) for a refused token, told as the catalogue says. */
export function unauthenticated(reason: AuthFailureReason = 'missing'): GraphQLError {
  return topLevelError('UNAUTHENTICATED', tokenProblemOf(reason), {
    extensions: { http: { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } } },
  });
}

/** Fields only the merchant may see resolve to null for a client token (a customer's browser). */
export function merchantOnly<Parent, Value>(read: (parent: Parent) => Value) {
  return (parent: Parent, _args: unknown, ctx: GatewayContext): Value | null => (ctx.principal?.kind === 'client' ? null : read(parent));
}
