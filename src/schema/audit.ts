// The audit trail: one structured line for every money-moving mutation, run or
// refused. It says who (subject, token kind, client IP), what (operation,
// references, amount) and how it ended; never a token, key or secret, and no
// customer phone number.
//
// Whether a mutation moves money and whether it is audited are facts of its field, on the field's `extensions`
// (put there by the mutation recipe, src/schema/mutation.ts): access, the audit, the one-money-mutation rule and
// the operation plugin read them from the schema, never from a list kept beside it.
import type { GraphQLField, GraphQLSchema } from 'graphql';
import type { GatewayContext } from './context.js';

/** What the schema says of a mutation field, beside its scope (src/schema/access.ts). */
export interface MutationFacts {
  /** It creates or moves money: at most one per operation (src/limits/money-mutations.ts), refused while Redis is down. */
  movesMoney: boolean;
  /** Every attempt at it, run or refused, leaves an audit line. */
  audited: boolean;
}

/** The facts of a field (none: it neither moves money nor is audited). */
export function factsOf(field: Pick<GraphQLField<unknown, unknown>, 'extensions'> | undefined): MutationFacts {
  const extensions = (field?.extensions ?? {}) as Partial<MutationFacts>;
  return { movesMoney: extensions.movesMoney === true, audited: extensions.audited === true };
}

/** The mutations that create or move money, read from the schema. */
export function moneyMovingMutations(schema: GraphQLSchema): ReadonlySet<string> {
  const fields = Object.values(schema.getMutationType()?.getFields() ?? {});
  return new Set(fields.filter((field) => factsOf(field).movesMoney).map((field) => field.name));
}

/** The audit line of an attempt at `field`, when its field says it is audited: the one place that decides and writes it. */
export function auditAttempt(
  ctx: Pick<GatewayContext, 'log' | 'principal' | 'clientIp' | 'requestId'>,
  field: Pick<GraphQLField<unknown, unknown>, 'name' | 'extensions'> | undefined,
  facts: AuditFacts,
): void {
  if (field && factsOf(field).audited) audit(ctx, field.name, facts);
}

export interface AuditFacts {
  arg?: unknown;
  payload?: unknown;
  target?: { reference: string } | undefined;
  /** 'success', a typed error code, or why the caller was turned away (UNAUTHENTICATED, FORBIDDEN). */
  outcome: string;
}

export function audit(
  ctx: Pick<GatewayContext, 'log' | 'principal' | 'clientIp' | 'requestId'>,
  operation: string,
  facts: AuditFacts,
): void {
  ctx.log.info('audit', {
    audit: true,
    requestId: ctx.requestId,
    subject: ctx.principal?.subject ?? null,
    principalKind: ctx.principal?.kind ?? null,
    clientIp: ctx.clientIp,
    operation,
    references: referencesOf(facts),
    ...amountOf(facts.arg),
    outcome: facts.outcome,
  });
}

/** The amount asked for, in XOF (a bulk transfer: its total and item count). */
function amountOf(arg: unknown): { amount?: number; items?: number } {
  if (!isRecord(arg)) return {};
  if (typeof arg.amount === 'number') return { amount: arg.amount };
  if (Array.isArray(arg.transfers)) {
    const amounts = arg.transfers.map((item: unknown) => (isRecord(item) && typeof item.amount === 'number' ? item.amount : 0));
    return { amount: amounts.reduce((sum, a) => sum + a, 0), items: amounts.length };
  }
  return {};
}

/** The references the operation touched: its target, and what the payload names. */
function referencesOf(facts: AuditFacts): string[] {
  const found = new Set<string>();
  if (facts.target) found.add(facts.target.reference);
  if (typeof facts.arg === 'string') found.add(facts.arg);
  const payload = facts.payload;
  if (isRecord(payload)) {
    if (typeof payload.reference === 'string') found.add(payload.reference);
    for (const key of ['charge', 'transfer', 'settlement']) {
      const inner = payload[key];
      if (isRecord(inner) && typeof inner.reference === 'string') found.add(inner.reference);
    }
  }
  return [...found];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
