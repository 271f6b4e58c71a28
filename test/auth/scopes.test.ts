import { describe, expect, it } from 'vitest';
import { parseScopeClaim, SCOPES } from '../../src/auth/index.js';
import { schema } from '../../src/schema/index.js';
import { requiredScopeOf, type RootType } from '../helpers/scope-table.js';

// The scope each field declares (`access({ scope })`), read back from the schema.
const requiredScopeFor = (root: RootType, field: string) => requiredScopeOf(schema, root, field);

describe('the scope table', () => {
  it('opens each root field to exactly the scope of the issue', () => {
    expect(requiredScopeFor('Query', 'charges')).toBe('payments:read');
    expect(requiredScopeFor('Query', 'balance')).toBe('payments:read');
    expect(requiredScopeFor('Query', 'node')).toBe('payments:read');
    // The event history belongs to events:read, like the live events.
    expect(requiredScopeFor('Query', 'events')).toBe('events:read');
    for (const f of ['initializeCheckout', 'createCharge', 'submitChargeOtp'])
      expect(requiredScopeFor('Mutation', f)).toBe('payments:collect');
    for (const f of ['createTransfer', 'createBulkTransfer']) expect(requiredScopeFor('Mutation', f)).toBe('payouts:write');
    for (const f of ['createSettlement', 'cancelSettlement']) expect(requiredScopeFor('Mutation', f)).toBe('settlements:write');
    for (const f of ['paymentEvents', 'chargeUpdated', 'checkoutUpdated', 'transferUpdated', 'settlementUpdated']) {
      expect(requiredScopeFor('Subscription', f)).toBe('events:read');
    }
  });

  it('opens no field the schema does not have', () => {
    expect(requiredScopeFor('Mutation', 'deleteEverything')).toBeNull();
    expect(requiredScopeFor('Subscription', 'balanceChanged')).toBeNull();
    expect(requiredScopeFor('Subscription', 'Updated')).toBeNull();
  });

  it('reads the space-separated scope claim and ignores unknown scopes', () => {
    expect([...parseScopeClaim('payments:read openid  payouts:write admin')]).toEqual(['payments:read', 'payouts:write']);
    expect(parseScopeClaim(['payments:read']).size).toBe(0);
    expect(parseScopeClaim(undefined).size).toBe(0);
    expect(SCOPES).toHaveLength(8);
  });
});
