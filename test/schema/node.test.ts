// Relay global IDs: node(id) and nodes(ids) resolve each of the four node
// types from IDs the API itself returned; anything else (malformed, foreign,
// unknown, or a real reference under the wrong type) is null, never an error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../gql/index.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { as, uniqueKey } from './support.js';

// One operation each: the gateway runs at most one money-moving mutation per operation.
const MakeCheckout = graphql(`
  mutation NodeTestMakeCheckout($checkout: InitializeCheckoutInput!) {
    initializeCheckout(input: $checkout) { __typename ... on InitializeCheckoutPayload { checkout { id reference } } ... on PaymentError { message } }
  }
`);
const MakeCharge = graphql(`
  mutation NodeTestMakeCharge($charge: CreateChargeInput!) {
    createCharge(input: $charge) { __typename ... on CreateChargePayload { charge { id reference } } ... on PaymentError { message } }
  }
`);
const MakeTransfer = graphql(`
  mutation NodeTestMakeTransfer($transfer: CreateTransferInput!) {
    createTransfer(input: $transfer) { __typename ... on CreateTransferPayload { transfer { id reference } } ... on PaymentError { message } }
  }
`);
const MakeSettlement = graphql(`
  mutation NodeTestMakeSettlement($settlement: CreateSettlementInput!) {
    createSettlement(input: $settlement) { __typename ... on SettlementPayload { settlement { id reference } } ... on PaymentError { message } }
  }
`);

const Lists = graphql(`
  query NodeTestLists {
    checkouts(first: 1) { edges { node { id reference } } }
    charges(first: 1) { edges { node { id reference } } }
    transfers(first: 1) { edges { node { id reference } } }
    settlements(first: 1) { edges { node { id reference } } }
  }
`);

const NodeById = graphql(`
  query NodeTestNode($id: ID!) {
    node(id: $id) {
      __typename
      id
      ... on Checkout { reference amount }
      ... on Charge { reference amount provider }
      ... on Transfer { reference amount recipientWallet }
      ... on Settlement { reference amount status }
    }
  }
`);

const NodesByIds = graphql(`
  query NodeTestNodes($ids: [ID!]!) {
    nodes(ids: $ids) {
      __typename
      id
      ... on Checkout { reference }
      ... on Charge { reference }
      ... on Transfer { reference }
      ... on Settlement { reference }
    }
  }
`);

type Made = Record<'Checkout' | 'Charge' | 'Transfer' | 'Settlement', { id: string; reference: string }>;

let stack: TestStack;
let made: Made;
beforeAll(async () => {
  stack = await startStack({ inProcess: true });
  stack.sandbox.setBalance(stack.apiKey, { collection: { available: 100_000 } });
  made = await makeAll();
});
afterAll(() => stack.close());

/** One of each node type, created through the API. */
async function makeAll(): Promise<Made> {
  const checkout = await stack.gql(MakeCheckout, {
    checkout: {
      amount: 1500,
      successUrl: 'https://shop.example/ok',
      cancelUrl: 'https://shop.example/ko',
      idempotencyKey: uniqueKey('checkout'),
    },
  });
  const charge = await stack.gql(MakeCharge, {
    charge: { amount: 2500, phone: '76000000', provider: 'OPA_BF', idempotencyKey: uniqueKey('charge') },
  });
  const transfer = await stack.gql(MakeTransfer, {
    transfer: { amount: 3500, recipientPhone: '70123456', idempotencyKey: uniqueKey('transfer') },
  });
  const settlement = await stack.gql(MakeSettlement, { settlement: { amount: 4500, idempotencyKey: uniqueKey('settlement') } });
  for (const res of [checkout, charge, transfer, settlement]) expect(res.errors).toBeUndefined();
  return {
    Checkout: as(checkout.data!.initializeCheckout, 'InitializeCheckoutPayload').checkout!,
    Charge: as(charge.data!.createCharge, 'CreateChargePayload').charge!,
    Transfer: as(transfer.data!.createTransfer, 'CreateTransferPayload').transfer,
    Settlement: as(settlement.data!.createSettlement, 'SettlementPayload').settlement,
  };
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

async function node(id: string) {
  const res = await stack.gql(NodeById, { id });
  expect(res.errors, `node(${id})`).toBeUndefined();
  return res.data!.node;
}

describe('node(id)', () => {
  it.each(['Checkout', 'Charge', 'Transfer', 'Settlement'] as const)('resolves a %s from the id a mutation returned', async (type) => {
    const n = await node(made[type].id);
    expect(n).toMatchObject({ __typename: type, id: made[type].id, reference: made[type].reference });
  });

  it('resolves the ids the list queries return, to the same objects', async () => {
    const res = await stack.gql(Lists, {});
    const d = res.data!;
    const listed = {
      Checkout: d.checkouts.edges[0]!.node,
      Charge: d.charges.edges[0]!.node,
      Transfer: d.transfers.edges[0]!.node,
      Settlement: d.settlements.edges[0]!.node,
    };
    for (const type of ['Checkout', 'Charge', 'Transfer', 'Settlement'] as const) {
      expect(listed[type]).toEqual(made[type]);
      expect(await node(listed[type].id)).toMatchObject({ __typename: type, reference: made[type].reference });
    }
  });

  it('gives distinct, opaque ids', () => {
    const ids = Object.values(made).map((m) => m.id);
    expect(new Set(ids).size).toBe(4);
    for (const m of Object.values(made)) expect(m.id).not.toContain(m.reference);
  });

  it.each([
    ['a malformed id', '%%% not an id %%%'],
    ['an empty id', ''],
    ['base64 without a type', b64('ch_0123456789abcdef01234567')],
    ['a foreign id (User:1)', b64('User:1')],
    ['a foreign id in standard base64', Buffer.from('User:1').toString('base64')],
    ['a known type without reference', b64('Charge:')],
    ['an unknown charge reference', b64('Charge:ch_000000000000000000000000')],
    ['an unknown checkout reference', b64('Checkout:00000000-0000-4000-8000-000000000000')],
    ['an unknown transfer reference', b64('Transfer:tr_000000000000000000000000')],
    ['an unknown settlement reference', b64('Settlement:00000000-0000-4000-8000-000000000000')],
  ])('is null for %s, without error', async (_name, id) => {
    expect(await node(id)).toBeNull();
  });

  it('is null for a real reference under another type', async () => {
    expect(await node(b64(`Charge:${made.Transfer.reference}`))).toBeNull();
    expect(await node(b64(`Settlement:${made.Checkout.reference}`))).toBeNull();
  });
});

describe('nodes(ids)', () => {
  it('keeps the order of the ids, with null in place of each id that resolves to nothing', async () => {
    const ids = [
      made.Settlement.id,
      'garbage!',
      made.Charge.id,
      b64('User:1'),
      made.Checkout.id,
      b64('Charge:ch_000000000000000000000000'),
      made.Transfer.id,
      made.Charge.id,
    ];
    const res = await stack.gql(NodesByIds, { ids });
    expect(res.errors).toBeUndefined();
    expect(res.data!.nodes.map((n) => (n ? [n.__typename, 'reference' in n ? n.reference : undefined] : null))).toEqual([
      ['Settlement', made.Settlement.reference],
      null,
      ['Charge', made.Charge.reference],
      null,
      ['Checkout', made.Checkout.reference],
      null,
      ['Transfer', made.Transfer.reference],
      ['Charge', made.Charge.reference],
    ]);
  });

  it('never shows the client an internal error: ids that resolve to nothing are null, not errors', async () => {
    const res = await stack.gql(NodesByIds, { ids: ['garbage!', b64('User:1'), made.Charge.id] });
    expect(res.errors).toBeUndefined();
    expect(res.data!.nodes.map((n) => n?.__typename ?? null)).toEqual([null, null, 'Charge']);
    expect(res.raw).not.toMatch(/implemented|Abstract type|resolveType|isTypeOf/);
  });

  it('fetches each distinct reference once', async () => {
    const fresh = await makeAll();
    stack.sandbox.requests.clear();
    const res = await stack.gql(NodesByIds, { ids: [fresh.Charge.id, fresh.Charge.id, fresh.Transfer.id, fresh.Charge.id] });
    expect(res.errors).toBeUndefined();
    expect(res.data!.nodes.map((n) => n?.__typename)).toEqual(['Charge', 'Charge', 'Transfer', 'Charge']);
    expect(stack.sandbox.requests.count({ method: 'GET', path: `/v1/payment/charges/${fresh.Charge.reference}` })).toBe(1);
    expect(stack.sandbox.requests.count({ method: 'GET', path: `/v1/payment/transfers/${fresh.Transfer.reference}` })).toBe(1);
  });

  it('answers an empty list with an empty list', async () => {
    const res = await stack.gql(NodesByIds, { ids: [] });
    expect(res.data!.nodes).toEqual([]);
  });
});
