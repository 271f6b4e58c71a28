// Abuses of one document's shape, each with its bound, counting the calls that
// reached the payment service (the sandbox's request log): aliases, long id
// lists, fan-out through relations, two payouts in one operation, deep
// fragments; over HTTP and over a real graphql-ws connection alike.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestStack } from '../helpers/gateway.js';
import { encodeGlobalId } from '../../src/schema/nodes.js';
import { disposeAllClients, staffClient, waitFor, withTimeout } from '../live/helpers.js';
import { TRANSFER_INPUT, TRANSFER_SELECTION, codes, postDocument, quietStack, transfersPosted, upstreamCalls } from './support.js';

const aliases = (n: number, field: string) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;

describe('with the default limits', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await quietStack();
  });
  afterEach(() => stack.sandbox.requests.clear());
  afterAll(async () => {
    await disposeAllClients();
    await stack?.close();
  });

  it('refuses 1,000 aliases of balance before any call to the service', async () => {
    const res = await postDocument(stack, { query: aliases(1000, 'balance { currency }') });
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors?.[0]?.message).toMatch(/token/i);
    expect(upstreamCalls(stack)).toBe(0);
  });

  it('refuses more aliases than MAX_ALIASES (15) even in a short document', async () => {
    const res = await postDocument(stack, { query: aliases(16, 'balance { currency }') });
    expect(res.body.errors?.[0]?.message).toMatch(/aliases/i);
    expect(upstreamCalls(stack)).toBe(0);
    // At the limit it runs: the refusal is the limit, not the shape.
    const ok = await postDocument(stack, { query: aliases(15, '__typename') });
    expect(ok.body.errors).toBeUndefined();
  });

  it('refuses nodes(ids:) with 101 ids, and answers 100', async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => encodeGlobalId('Charge', `ch_missing_${i}`));
    const query = 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }';
    const refused = await postDocument(stack, { query, variables: { ids: ids(101) } });
    expect(codes(refused)).toEqual(['BAD_USER_INPUT']);
    expect(refused.body.errors?.[0]?.message).toMatch(/at most 100/);
    expect(upstreamCalls(stack)).toBe(0);
    // 100 ids are accepted; each may cost a call, so the upstream budget (50) still bounds them.
    const answered = await postDocument(stack, { query, variables: { ids: ids(100) } });
    expect(answered.body.data?.nodes).toHaveLength(100);
    expect(codes(answered).every((c) => c === 'UPSTREAM_BUDGET_EXCEEDED')).toBe(true);
    expect(codes(answered)).toHaveLength(50);
    expect(upstreamCalls(stack)).toBe(50);
  });

  it('refuses two createTransfer in one operation: nothing runs, no payout', async () => {
    const twoAliases = `mutation { a: createTransfer(input: ${TRANSFER_INPUT(randomUUID())}) ${TRANSFER_SELECTION}
      b: createTransfer(input: ${TRANSFER_INPUT(randomUUID())}) ${TRANSFER_SELECTION} }`;
    const res = await postDocument(stack, { query: twoAliases });
    expect(codes(res)).toContain('TOO_MANY_MONEY_MUTATIONS');
    expect(res.body.data ?? null).toBeNull();
    // The same through a fragment and an inline fragment.
    const hidden = `mutation { ...Pay ... on Mutation { b: createCharge(input: { amount: 100, phone: "76000000", provider: OPA_BF, idempotencyKey: "${randomUUID()}" }) { __typename } } }
      fragment Pay on Mutation { a: createTransfer(input: ${TRANSFER_INPUT(randomUUID())}) ${TRANSFER_SELECTION} }`;
    expect(codes(await postDocument(stack, { query: hidden }))).toContain('TOO_MANY_MONEY_MUTATIONS');
    expect(transfersPosted(stack)).toBe(0);
    expect(upstreamCalls(stack)).toBe(0);
    // One per operation runs.
    const one = await postDocument(stack, {
      query: `mutation { createTransfer(input: ${TRANSFER_INPUT(randomUUID())}) ${TRANSFER_SELECTION} }`,
    });
    expect((one.body.data?.createTransfer as { __typename: string }).__typename, one.raw).toBe('CreateTransferPayload');
    expect(transfersPosted(stack)).toBe(1);
  });

  it('answers deeply nested fragments with a validation error, never a 500', async () => {
    const depth = 60;
    const fragments = Array.from({ length: depth }, (_, i) =>
      i === depth - 1 ? `fragment F${i} on Checkout { reference }` : `fragment F${i} on Checkout { charge { checkout { ...F${i + 1} } } }`,
    ).join('\n');
    // Charge has no `checkout`: whichever rule trips first, the answer is a 4xx GraphQL error.
    const res = await postDocument(stack, { query: `{ checkouts(first: 1) { edges { node { ...F0 } } } }\n${fragments}` });
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors?.length).toBeGreaterThan(0);
    expect(upstreamCalls(stack)).toBe(0);
    const valid = Array.from({ length: depth }, (_, i) =>
      i === depth - 1 ? `fragment G${i} on Query { __typename }` : `fragment G${i} on Query { ...G${i + 1} balance { currency } }`,
    ).join('\n');
    const deep = await postDocument(stack, { query: `{ ...G0 }\n${valid}` });
    expect(deep.status).toBeLessThan(500);
    expect(deep.body.errors?.length).toBeGreaterThan(0);
  });

  it('applies the same limits over WebSocket (graphql-ws through yoga)', async () => {
    const ws = staffClient(stack);
    await ws.connected;
    const run = (query: string) =>
      withTimeout(
        new Promise<{ errors?: ReadonlyArray<{ message: string; extensions?: Record<string, unknown> }> }>((resolve) => {
          ws.client.subscribe({ query }, { next: resolve as never, error: (e) => resolve({ errors: e as never }), complete: () => {} });
        }),
        5_000,
        'an answer over WebSocket',
      );
    const tooMany = await run(aliases(16, 'balance { currency }'));
    expect(tooMany.errors?.[0]?.message).toMatch(/aliases/i);
    const twoPayouts = await run(
      `mutation { a: createTransfer(input: ${TRANSFER_INPUT(randomUUID())}) ${TRANSFER_SELECTION} b: createTransfer(input: ${TRANSFER_INPUT(randomUUID())}) ${TRANSFER_SELECTION} }`,
    );
    expect(twoPayouts.errors?.map((e) => e.extensions?.code)).toContain('TOO_MANY_MONEY_MUTATIONS');
    expect(upstreamCalls(stack)).toBe(0);
  });
});

describe('the upstream budget (document limits relaxed so that only it stands)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await quietStack({
      env: { MAX_ALIASES: '1000', MAX_TOKENS: '100000', MAX_COST: '10000000', MAX_DEPTH: '50', MAX_BODY_BYTES: '1000000' },
    });
    for (let i = 0; i < 3; i++) {
      const made = await postDocument(stack, {
        query: `mutation { initializeCheckout(input: { amount: ${1000 + i}, successUrl: "https://shop.example/ok", cancelUrl: "https://shop.example/ko", idempotencyKey: "${randomUUID()}" }) { __typename } }`,
      });
      expect(made.body.data?.initializeCheckout, made.raw).toEqual({ __typename: 'InitializeCheckoutPayload' });
    }
    stack.sandbox.requests.clear();
  });
  afterEach(() => stack.sandbox.requests.clear());
  afterAll(async () => {
    await stack?.close();
  });

  it('keeps 100 aliases of checkouts → charge within MAX_UPSTREAM_CALLS_PER_OPERATION (50)', async () => {
    const res = await postDocument(stack, { query: aliases(100, 'checkouts(first: 100) { edges { node { charge { status } } } }') });
    expect(res.status).toBe(200);
    // A refused alias nulls the whole (non-null) answer at once, while the admitted calls may still be on their
    // way: then wait for them before counting. Without a refusal, the answer came after every call.
    if (codes(res).includes('UPSTREAM_BUDGET_EXCEEDED')) await waitFor(() => upstreamCalls(stack) >= 50, 'the admitted calls');
    expect(upstreamCalls(stack)).toBeGreaterThan(0);
    expect(upstreamCalls(stack)).toBeLessThanOrEqual(50);
  });

  it('fails the fields beyond the budget: 100 distinct lookups make 50 calls and 50 UPSTREAM_BUDGET_EXCEEDED', async () => {
    const lookups = `{ ${Array.from({ length: 100 }, (_, i) => `c${i}: charge(reference: "ch_absent_${i}") { status }`).join(' ')} }`;
    const res = await postDocument(stack, { query: lookups });
    expect(codes(res)).toEqual(Array.from({ length: 50 }, () => 'UPSTREAM_BUDGET_EXCEEDED'));
    expect(upstreamCalls(stack)).toBe(50);
    // The lookups within the budget were answered (null: no such charge).
    expect(Object.keys(res.body.data ?? {})).toHaveLength(100);
  });

  it('stops 1,000 aliases of balance at the budget too', async () => {
    const res = await postDocument(stack, { query: aliases(1000, 'balance { currency }') });
    expect(codes(res)).toContain('UPSTREAM_BUDGET_EXCEEDED');
    await waitFor(() => upstreamCalls(stack) >= 50, 'the calls within the budget');
    expect(upstreamCalls(stack)).toBe(50);
    expect(upstreamCalls(stack, '/v1/payment/balances')).toBe(50);
  });
});
