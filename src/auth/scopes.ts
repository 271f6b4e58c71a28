// The scopes a staff token may carry (its space-separated `scope` claim) and
// the root fields each one opens. The schema's auth rules and the tests that
// walk the schema read this table, so it is the one place that decides.
export const SCOPES = [
  'payments:read',
  'payments:collect',
  'payouts:write',
  'payouts:approve',
  'settlements:write',
  'events:read',
] as const;
export type Scope = (typeof SCOPES)[number];

export type RootType = 'Query' | 'Mutation' | 'Subscription';

export interface ScopeGrant {
  scope: Scope;
  /** Every field of these root types. */
  everyFieldOf?: readonly RootType[];
  /** These fields, by root type. */
  fields?: Partial<Record<RootType, readonly string[]>>;
  /** Fields of a root type whose name ends so (`chargeUpdated`, `checkoutUpdated`, …), for any reference. */
  fieldsEndingWith?: Partial<Record<RootType, string>>;
}

export const SCOPE_TABLE: readonly ScopeGrant[] = [
  // Every query but those another scope names (the event history belongs to events:read).
  { scope: 'payments:read', everyFieldOf: ['Query'] },
  { scope: 'payments:collect', fields: { Mutation: ['initializeCheckout', 'createCharge', 'submitChargeOtp'] } },
  {
    scope: 'payouts:write',
    fields: {
      Mutation: [
        'createTransfer',
        'createBulkTransfer',
        'createPayoutBatch',
        'addPayoutBatchItems',
        'startPayoutBatch',
        'cancelPayoutBatch',
      ],
    },
  },
  { scope: 'payouts:approve', fields: { Mutation: ['approvePayoutBatch'] } },
  { scope: 'settlements:write', fields: { Mutation: ['createSettlement', 'cancelSettlement'] } },
  {
    scope: 'events:read',
    fields: { Query: ['events'], Subscription: ['paymentEvents'] },
    fieldsEndingWith: { Subscription: 'Updated' },
  },
];

/**
 * The scope that opens a root field to staff tokens, or null when none does:
 * a field the table does not mention is closed (deny by default). A grant that
 * names the field wins over one that opens every field of its root type.
 */
export function requiredScopeFor(rootType: RootType, field: string): Scope | null {
  const grant = SCOPE_TABLE.find((g) => namesField(g, rootType, field)) ?? SCOPE_TABLE.find((g) => g.everyFieldOf?.includes(rootType));
  return grant?.scope ?? null;
}

function namesField(g: ScopeGrant, rootType: RootType, field: string): boolean {
  return Boolean(
    g.fields?.[rootType]?.includes(field) ||
    (g.fieldsEndingWith?.[rootType] !== undefined &&
      field.endsWith(g.fieldsEndingWith[rootType]!) &&
      field !== g.fieldsEndingWith[rootType]),
  );
}

const KNOWN = new Set<string>(SCOPES);

export function isScope(value: string): value is Scope {
  return KNOWN.has(value);
}

/** Scopes of a `scope` claim; unknown ones are dropped (an identity provider may issue scopes for other APIs too). */
export function parseScopeClaim(claim: unknown): ReadonlySet<Scope> {
  if (typeof claim !== 'string') return new Set();
  return new Set(claim.split(' ').filter(isScope));
}
