// Which scope opens each root field, read from the schema: each field's
// `access({ scope })` (src/schema/access.ts) stores its scope on the field, the one place
// that decides. The scope table of docs/access.md is this table printed (a test compares
// them), so it cannot drift from the code.
import type { GraphQLObjectType, GraphQLSchema } from 'graphql';
import { SCOPES, type Scope } from '../../src/auth/index.js';

export type RootType = 'Query' | 'Mutation' | 'Subscription';

const ROOT_TYPES: readonly RootType[] = ['Query', 'Mutation', 'Subscription'];

export interface ScopeRow {
  scope: Scope;
  /** The root fields it opens, by root type, names sorted. */
  fields: Record<RootType, string[]>;
}

function rootType(schema: GraphQLSchema, name: RootType): GraphQLObjectType | null | undefined {
  return name === 'Query' ? schema.getQueryType() : name === 'Mutation' ? schema.getMutationType() : schema.getSubscriptionType();
}

/** The scope a root field declared, or null (no such field, or no rule: closed to everyone). */
export function requiredScopeOf(schema: GraphQLSchema, root: RootType, field: string): Scope | null {
  const declared = (rootType(schema, root)?.getFields()[field]?.extensions as { requiredScope?: Scope } | undefined)?.requiredScope;
  return declared ?? null;
}

/** One row per scope, in the order of SCOPES. */
export function scopeTable(schema: GraphQLSchema): ScopeRow[] {
  return SCOPES.map((scope) => ({
    scope,
    fields: Object.fromEntries(
      ROOT_TYPES.map((root) => [
        root,
        Object.keys(rootType(schema, root)?.getFields() ?? {})
          .filter((field) => requiredScopeOf(schema, root, field) === scope)
          .sort(),
      ]),
    ) as Record<RootType, string[]>,
  }));
}

const KIND: Record<RootType, [one: string, many: string]> = {
  Query: ['query', 'queries'],
  Mutation: ['mutation', 'mutations'],
  Subscription: ['subscription', 'subscriptions'],
};

/** The table as docs/access.md shows it (Markdown). */
export function printScopeTable(schema: GraphQLSchema): string {
  const rows = scopeTable(schema).map(({ scope, fields }) => {
    const opens = ROOT_TYPES.filter((root) => fields[root].length > 0).map((root) => {
      const names = fields[root];
      return `${KIND[root][names.length === 1 ? 0 : 1]} ${names.map((n) => `\`${n}\``).join(', ')}`;
    });
    return `| \`${scope}\` | ${opens.join('; ')} |`;
  });
  return ['| scope | root fields it opens |', '|---|---|', ...rows].join('\n');
}
