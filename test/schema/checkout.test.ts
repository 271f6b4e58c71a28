// Checkouts through the gateway: initialize, fetch by either reference form,
// list with cursors, Checkout.charge, validation before any upstream call.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../gql/index.js';
import { startStack, type TestStack } from '../helpers/gateway.js';

const Initialize = graphql(`
  mutation InitializeCheckout($input: InitializeCheckoutInput!) {
    initializeCheckout(input: $input) {
      __typename
      ... on InitializeCheckoutPayload { reference authorizationUrl liveMode checkout { id reference status amount email phone provider } }
      ... on ValidationError { code message messageFr retryable fieldErrors { path message } }
      ... on PaymentError { code message }
    }
  }
`);

const CheckoutByRef = graphql(`
  query CheckoutByRef($reference: String!) {
    checkout(reference: $reference) { id reference amount status successUrl cancelUrl email phone provider chargeReference liveMode createdAt updatedAt charge { reference status } }
  }
`);

const CheckoutPage = graphql(`
  query CheckoutPage($first: Int, $after: String, $last: Int, $before: String) {
    checkouts(first: $first, after: $after, last: $last, before: $before) {
      totalCount
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { cursor node { reference amount } }
    }
  }
`);

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ inProcess: true });
});
afterAll(() => stack.close());

const validInput = {
  amount: 2500,
  successUrl: 'https://shop.example/ok',
  cancelUrl: 'https://shop.example/cancel',
  email: 'awa@example.com',
};

describe('initializeCheckout', () => {
  it('returns the chk_ reference and a payment page, and the checkout is pending', async () => {
    const res = await stack.gql(Initialize, { input: { ...validInput, idempotencyKey: randomUUID() } });
    const result = res.data!.initializeCheckout;
    if (result.__typename !== 'InitializeCheckoutPayload') throw new Error(`unexpected ${result.__typename}`);
    expect(result.reference).toMatch(/^chk_[0-9a-f]+$/);
    expect(result.authorizationUrl.startsWith(stack.sandbox.url)).toBe(true);
    expect(result.liveMode).toBe(false);
    expect(result.checkout).toMatchObject({ status: 'PENDING', amount: 2500, email: 'awa@example.com', phone: null, provider: null });
    // The UUID form designates the same checkout.
    expect(result.checkout!.reference).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('finds the checkout by both reference forms', async () => {
    const res = await stack.gql(Initialize, { input: { ...validInput, idempotencyKey: randomUUID() } });
    const init = res.data!.initializeCheckout;
    if (init.__typename !== 'InitializeCheckoutPayload') throw new Error(init.__typename);
    const byChk = await stack.gql(CheckoutByRef, { reference: init.reference });
    const uuid = byChk.data!.checkout!.reference;
    const byUuid = await stack.gql(CheckoutByRef, { reference: uuid });
    expect(byUuid.data!.checkout).toEqual(byChk.data!.checkout);
    expect(byUuid.data!.checkout!.createdAt).toMatch(/Z$/);
    expect(byUuid.data!.checkout!.charge).toBeNull();
  });

  it('is null for an unknown reference', async () => {
    const res = await stack.gql(CheckoutByRef, { reference: '00000000-0000-4000-8000-000000000000' });
    expect(res.errors).toBeUndefined();
    expect(res.data!.checkout).toBeNull();
  });

  it('rejects bad input with field paths, before calling the service', async () => {
    stack.sandbox.requests.clear();
    const res = await stack.gql(Initialize, {
      input: { amount: -5, successUrl: 'not a url', cancelUrl: 'ftp://x.example/', email: 'nobody', idempotencyKey: randomUUID() },
    });
    const result = res.data!.initializeCheckout;
    if (result.__typename !== 'ValidationError') throw new Error(result.__typename);
    expect(result.code).toBe('VALIDATION_FAILED');
    expect(result.retryable).toBe(false);
    expect(result.messageFr).toMatch(/[a-zé]/);
    expect(result.fieldErrors.map((e) => e.path.join('.')).sort()).toEqual([
      'input.amount',
      'input.cancelUrl',
      'input.email',
      'input.successUrl',
    ]);
    expect(stack.sandbox.requests.count()).toBe(0);
  });

  it('replays the first result for a repeated idempotency key, and refuses the key with other input', async () => {
    const key = `key-${Date.now()}`;
    const first = await stack.gql(Initialize, { input: { ...validInput, idempotencyKey: key } });
    const again = await stack.gql(Initialize, { input: { ...validInput, idempotencyKey: key } });
    const a = first.data!.initializeCheckout;
    const b = again.data!.initializeCheckout;
    if (a.__typename !== 'InitializeCheckoutPayload' || b.__typename !== 'InitializeCheckoutPayload') throw new Error('unexpected');
    expect(b.reference).toBe(a.reference);
    const other = await stack.gql(Initialize, { input: { ...validInput, amount: 9999, idempotencyKey: key } });
    expect(other.data!.initializeCheckout).toMatchObject({ __typename: 'IdempotencyConflictError', code: 'IDEMPOTENCY_CONFLICT' });
  });
});

describe('checkouts connection', () => {
  it('walks all checkouts forward and backward with exact pageInfo', async () => {
    for (let i = 0; i < 5; i++) await stack.gql(Initialize, { input: { ...validInput, amount: 1000 + i, idempotencyKey: randomUUID() } });
    const all = await stack.gql(CheckoutPage, { first: 100 });
    const total = all.data!.checkouts.totalCount;
    expect(total).toBeGreaterThanOrEqual(5);
    expect(all.data!.checkouts.edges).toHaveLength(total);

    const seen: string[] = [];
    let after: string | null | undefined;
    for (;;) {
      const page = await stack.gql(CheckoutPage, { first: 2, after });
      const c = page.data!.checkouts;
      seen.push(...c.edges.map((e) => e.node.reference));
      expect(c.pageInfo.hasPreviousPage).toBe(after != null);
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    expect(seen).toEqual(all.data!.checkouts.edges.map((e) => e.node.reference));

    const back: string[] = [];
    let before: string | null | undefined;
    for (;;) {
      const page = await stack.gql(CheckoutPage, { last: 3, before });
      const c = page.data!.checkouts;
      back.unshift(...c.edges.map((e) => e.node.reference));
      if (!c.pageInfo.hasPreviousPage) break;
      before = c.pageInfo.startCursor;
    }
    expect(back).toEqual(seen);
  });

  it('refuses a cursor from another list and an out-of-range page size', async () => {
    const page = await stack.gql(CheckoutPage, { first: 1 });
    const cursor = page.data!.checkouts.pageInfo.endCursor!;
    const forged = Buffer.from(JSON.stringify({ s: 'transfers:x', o: 0 })).toString('base64url');
    const wrong = await stack.gql(CheckoutPage, { first: 1, after: forged });
    expect(wrong.errors?.[0]?.extensions?.code).toBe('INVALID_CURSOR');
    const garbage = await stack.gql(CheckoutPage, { first: 1, after: 'not-a-cursor' });
    expect(garbage.errors?.[0]?.extensions?.code).toBe('INVALID_CURSOR');
    const tooMany = await stack.gql(CheckoutPage, { first: 101, after: cursor });
    expect(tooMany.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});
