// The audit trail of mutations: one line for every attempt at an audited mutation, run or refused, written by
// the one audit writer (src/audit/audit-lines.ts, which decides what a line may say).
//
// Whether a mutation moves money and whether it is audited are facts of its field, on the field's `extensions`
// (put there by the mutation recipe, src/schema/mutation.ts): access, the audit, the one-money-mutation rule and
// the operation plugin read them from the schema, never from a list kept beside it.
import type { GraphQLField, GraphQLSchema } from 'graphql';
import { auditApprovalLine, auditAttemptLine, type ApprovalFacts, type AttemptFacts } from '../audit/audit-lines.js';
import type { GatewayContext } from './context.js';

/** What the schema says of a mutation field, beside its scope (src/schema/access.ts). */
export interface MutationFacts {
  /** It creates or moves money: at most one per operation (src/limits/money-mutations.ts), refused while Redis is down. */
  movesMoney: boolean;
  /** Every attempt at it, run or refused, leaves an audit line. */
  audited: boolean;
}

type Who = Pick<GatewayContext, 'log' | 'principal' | 'clientIp' | 'requestId' | 'merchant'>;

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
  ctx: Who,
  field: Pick<GraphQLField<unknown, unknown>, 'name' | 'extensions'> | undefined,
  facts: AttemptFacts,
): void {
  if (field && factsOf(field).audited) auditAttemptLine(ctx, field.name, facts);
}

/** A payout batch's approval names both people (four eyes), besides the attempt's own line. */
export function auditApproval(ctx: Who, facts: ApprovalFacts): void {
  auditApprovalLine(ctx, facts);
}
