// The scopes a staff token may carry (its space-separated `scope` claim). Which
// root field each one opens is declared on the field itself (`access({ scope })`,
// src/schema/access.ts); test/helpers/scope-table.ts reads the table back for the tests and docs/access.md.
/** Every scope a staff token may carry, in the order the access guide lists them. */
export const SCOPES = [
  'payments:read',
  'payments:collect',
  'payouts:write',
  'payouts:approve',
  'settlements:write',
  'events:read',
  'webhooks:manage',
  'platform:manage',
] as const;
/**
 * One scope of a staff token (`payments:read`, `payouts:write`…); which root fields it opens is declared on each
 * field.
 */
export type Scope = (typeof SCOPES)[number];

const KNOWN = new Set<string>(SCOPES);

/** Whether a string is one of the scopes the gateway knows; an unknown scope in a token grants nothing. */
export function isScope(value: string): value is Scope {
  return KNOWN.has(value);
}

/** Scopes of a `scope` claim; unknown ones are dropped (an identity provider may issue scopes for other APIs too). */
export function parseScopeClaim(claim: unknown): ReadonlySet<Scope> {
  if (typeof claim !== 'string') return new Set();
  return new Set(claim.split(' ').filter(isScope));
}
