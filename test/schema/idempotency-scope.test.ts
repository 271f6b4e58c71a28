// Idempotency keys belong to the caller: two staff members who happen to pick the same key
// neither collide nor see each other's results (checked in the sandbox's own transfer list).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../gql/index.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { as, uniqueKey } from './support.js';

const Pay = graphql(`
  mutation ScopedKeyTransfer($input: CreateTransferInput!) {
    createTransfer(input: $input) {
      __typename
      ... on CreateTransferPayload { transfer { reference amount } }
      ... on PaymentError { code }
    }
  }
`);

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ inProcess: true });
});
afterAll(() => stack.close());

describe('idempotency keys per principal', () => {
  it('the same key from two subjects makes two payouts, and each replays only its own', async () => {
    const key = uniqueKey('shared');
    const alice = { authorization: `Bearer ${await stack.mintToken(['payouts:write'], 'alice')}` };
    const bob = { authorization: `Bearer ${await stack.mintToken(['payouts:write'], 'bob')}` };
    const pay = async (who: Record<string, string>, amount: number) =>
      as(
        (await stack.gql(Pay, { input: { amount, recipientPhone: '76123456', idempotencyKey: key } }, who)).data!.createTransfer,
        'CreateTransferPayload',
      );

    stack.sandbox.requests.clear();
    const first = await pay(alice, 1300);
    // Other input under the same key from someone else is not a conflict: it is another request.
    const other = await pay(bob, 1400);
    expect(other.transfer.reference).not.toBe(first.transfer.reference);
    expect(other.transfer.amount).toBe(1400);
    expect(stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers' })).toBe(2);

    // Each one's retry gets its own first result back, without a call.
    expect((await pay(alice, 1300)).transfer).toEqual(first.transfer);
    expect((await pay(bob, 1400)).transfer).toEqual(other.transfer);
    expect(stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers' })).toBe(2);
  });
});
