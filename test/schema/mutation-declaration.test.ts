// A mutation names the upstream operation it is; what the operation's declaration
// says about a lost answer and what the mutation's idempotency rule does must
// agree, or the schema does not build.
import { describe, expect, it } from 'vitest';
import { paymentMutation } from '../../src/schema/mutation.js';
import { schema } from '../../src/schema/index.js';
import { factsOf, moneyMovingMutations } from '../../src/schema/audit.js';

/** Only what the check reads: the rest of a recipe is never reached. */
const recipe = (upstream: string, idempotency: object) => ({ upstream, idempotency }) as never;

describe('a mutation and its operation declaration', () => {
  it('refuses a recipe without the reconcile its operation declares (find_by_ext_id)', () => {
    expect(() => paymentMutation('createTransferAgain', recipe('createTransfer', { key: () => 'k' }))).toThrow(
      /createTransfer is declared find_by_ext_id, which needs a key and reconcile/,
    );
  });

  it('refuses a key on an operation whose repeat the service refuses, and a reconcile nobody declared', () => {
    expect(() => paymentMutation('cancelAgain', recipe('cancelSettlement', { key: () => 'k' }))).toThrow(/notNeeded/);
    expect(() => paymentMutation('settleAgain', recipe('createSettlement', { key: () => 'k', reconcile: async () => null }))).toThrow(
      /a key without reconcile/,
    );
  });

  it('takes whether a mutation moves money from its operation', () => {
    expect(schema.getMutationType()?.getFields().createSettlement).toBeDefined();
    // Read from the schema: the fields carry the facts (no list kept beside it).
    const moneyMoving = moneyMovingMutations(schema);
    expect(moneyMoving.has('createSettlement')).toBe(true);
    expect(moneyMoving.has('createPayoutBatch')).toBe(false);
    const fields = schema.getMutationType()!.getFields();
    expect(factsOf(fields.createSettlement)).toEqual({ movesMoney: true, audited: true });
    expect(fields.createSettlement!.extensions).toMatchObject({ requiredScope: 'settlements:write', movesMoney: true, audited: true });
    expect(factsOf(fields.createPayoutBatch)).toEqual({ movesMoney: false, audited: false });
  });
});
