import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/schema/index.js';
import { moneyMovingMutations } from '../../src/schema/audit.js';
import { oneMoneyMutationRule } from '../../src/limits/money-mutations.js';
import { OPERATION_NAMES, movesMoney } from '../../src/upstream/operations.js';

const MONEY_MOVING_MUTATIONS = moneyMovingMutations(schema);
const rule = oneMoneyMutationRule(MONEY_MOVING_MUTATIONS);
const refused = (doc: string) => validate(schema, parse(doc), [rule]).map((e) => e.extensions.code);
const T = 'createTransfer(input: { amount: 500, recipientPhone: "70000000", idempotencyKey: "k" }) { __typename }';
const S = 'cancelSettlement(reference: "st_1") { __typename }';

describe('oneMoneyMutationRule', () => {
  it('knows every money-moving mutation of the schema', () => {
    // The upstream operations declared money-moving are mutations of the same name; three payout-batch steps decide what is paid.
    const upstream = OPERATION_NAMES.filter(movesMoney);
    expect(upstream).toContain('cancelSettlement');
    expect([...MONEY_MOVING_MUTATIONS].sort()).toEqual([...upstream, 'startPayoutBatch', 'approvePayoutBatch', 'cancelPayoutBatch'].sort());
  });

  it('allows one money-moving field per operation', () => {
    expect(refused(`mutation { ${T} }`)).toEqual([]);
    // Two operations of one document each hold one.
    expect(refused(`mutation A { ${T} } mutation B { ${S} }`)).toEqual([]);
    // One field reached twice under one response key runs once.
    expect(refused(`mutation { ...X ...X } fragment X on Mutation { ${T} }`)).toEqual([]);
  });

  it('refuses two, however they are spelled', () => {
    expect(refused(`mutation { a: ${T} b: ${T} }`)).toEqual(['TOO_MANY_MONEY_MUTATIONS']);
    expect(refused(`mutation { ${T} ${S} }`)).toEqual(['TOO_MANY_MONEY_MUTATIONS']);
    expect(refused(`mutation { a: ${T} ... on Mutation { b: ${T} } }`)).toEqual(['TOO_MANY_MONEY_MUTATIONS']);
    expect(refused(`mutation { ${S} ...X } fragment X on Mutation { ... on Mutation { ${T} } }`)).toEqual(['TOO_MANY_MONEY_MUTATIONS']);
  });
});
