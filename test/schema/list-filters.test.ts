// Filters of checkouts, transfers and settlements, applied by the gateway (the
// service lists them unfiltered), over the sandbox with a manual clock so the
// items span three UTC days and every status. Each filtered list is checked
// against the service's own list, filtered here independently, walking it
// forward (first/after) and backward (last/before) in small pages; a cursor
// belongs to its filter; and a filtered window costs exactly one list call to
// the service, whatever it matches (nothing included).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_OTP, manualClock, type ManualClock } from '../../src/sandbox/index.js';
import { graphql } from '../gql/index.js';
import type { CheckoutFilter, SettlementFilter, TransferFilter } from '../gql/graphql.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { postForm } from '../helpers/http.js';
import { Api, type Json } from '../helpers/sandbox-api.js';

const CheckoutsPage = graphql(`
  query ListFiltersCheckouts($filter: CheckoutFilter, $first: Int, $after: String, $last: Int, $before: String) {
    checkouts(filter: $filter, first: $first, after: $after, last: $last, before: $before) {
      totalCount
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { node { reference status phone provider amount createdAt } }
    }
  }
`);
const TransfersPage = graphql(`
  query ListFiltersTransfers($filter: TransferFilter, $first: Int, $after: String, $last: Int, $before: String) {
    transfers(filter: $filter, first: $first, after: $after, last: $last, before: $before) {
      totalCount
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { node { reference status recipientPhone recipientWallet extId amount createdAt } }
    }
  }
`);
const SettlementsPage = graphql(`
  query ListFiltersSettlements($filter: SettlementFilter, $first: Int, $after: String, $last: Int, $before: String) {
    settlements(filter: $filter, first: $first, after: $after, last: $last, before: $before) {
      totalCount
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { node { reference status amount createdAt } }
    }
  }
`);
const TwoTransferLists = graphql(`
  query ListFiltersTwoTransferLists($a: TransferFilter, $b: TransferFilter) {
    a: transfers(filter: $a) { totalCount }
    b: transfers(filter: $b) { totalCount }
  }
`);

const DAY = 86_400_000;
const DAYS = ['2025-03-10', '2025-03-11', '2025-03-12'];

let clock: ManualClock;
let stack: TestStack;
let rest: Api;
/** The service's own lists, newest first, once every item exists. */
let checkouts: Json[] = [];
let transfers: Json[] = [];
let settlements: Json[] = [];
/** chk_ reference -> UUID of one paid checkout. */
let paidChk: { chk: string; uuid: string };

beforeAll(async () => {
  clock = manualClock(Date.UTC(2025, 2, 10, 9, 0, 0));
  stack = await startStack({ inProcess: true, sandbox: { clock } });
  rest = new Api(stack.sandbox.url, stack.apiKey);
  stack.sandbox.setBalance(stack.apiKey, { collection: { available: 1_000_000 } });
  for (let day = 0; day < DAYS.length; day++) {
    // Checkouts: one paid (its charge confirmed on the payment page), one attempted and left waiting for the OTP, one untouched.
    for (const [i, phone] of [
      ['0', '58000000'],
      ['1', `5100000${day}`],
      ['2', null],
    ] as const) {
      const init = await rest.post('/v1/payment/checkouts/initialize/', {
        amount: 1000 * (day + 1) + Number(i),
        success_url: 'https://shop.example/ok',
        cancel_url: 'https://shop.example/cancel',
      });
      const { authorization_url: url, reference } = init.body.data as { authorization_url: string; reference: string };
      if (phone === null) continue;
      expect((await postForm(`${url}/pay`, { provider: 'opc_bf', phone })).status).toBeLessThan(400);
      if (i === '0') {
        expect((await postForm(`${url}/otp`, { otp: TEST_OTP })).status).toBe(303);
        if (day === 1) paidChk = { chk: reference, uuid: (await rest.get(`/v1/payment/checkouts/${reference}`)).body.data.reference };
      }
    }
    // Transfers: two that succeed (two wallets), one that fails (a number ending in 9).
    for (const [phone, amount] of [
      ['76123456', 100 + day],
      ['70123456', 200 + day],
      ['70123459', 300 + day],
    ] as const) {
      const res = await rest.post('/v1/payment/transfers/', { amount, recipient_phone: phone, ext_id: `lf-${day}-${phone}` });
      expect(res.status, res.text).toBe(201);
    }
    // Settlements: one cancelled at once, one left to run its course.
    const cancelled = await rest.post('/v1/payment/settlements/', { amount: 5000 + day });
    await rest.get(`/v1/payment/settlements/${cancelled.body.data.reference}/cancel/`);
    expect((await rest.post('/v1/payment/settlements/', { amount: 6000 + day })).status).toBe(201);
    // The last day's transfers stay pending and its settlement processing: every status exists.
    if (day < DAYS.length - 1) await clock.advance(DAY);
  }
  checkouts = (await rest.get('/v1/payment/checkouts')).body.data;
  transfers = (await rest.get('/v1/payment/transfers')).body.data;
  settlements = (await rest.get('/v1/payment/settlements')).body.data;
  expect([checkouts.length, transfers.length, settlements.length]).toEqual([9, 9, 6]);
}, 30_000);
afterAll(async () => {
  await rest?.close();
  await stack?.close();
});

const day = (timestamp: string) => new Date(timestamp).toISOString().slice(0, 10);
const inDays = (f: { dateFrom?: string | null; dateTo?: string | null }, created: string) =>
  (f.dateFrom == null || day(created) >= f.dateFrom) && (f.dateTo == null || day(created) <= f.dateTo);
const inAmounts = (f: { amountMin?: number | null; amountMax?: number | null }, amount: number) =>
  (f.amountMin == null || amount >= f.amountMin) && (f.amountMax == null || amount <= f.amountMax);

// The service's items that a filter keeps, in the service's order: what each walk must see.
const expectedCheckouts = (f: CheckoutFilter) =>
  checkouts
    .filter(
      (c) =>
        (f.reference == null || c.reference === f.reference || (f.reference === paidChk.chk && c.reference === paidChk.uuid)) &&
        (f.status == null || c.status === f.status.toLowerCase()) &&
        (f.provider == null || c.provider === f.provider.toLowerCase()) &&
        (f.phone == null || c.phone === f.phone) &&
        inDays(f, c.created_at) &&
        inAmounts(f, c.amount),
    )
    .map((c) => c.reference as string);
const expectedTransfers = (f: TransferFilter) =>
  transfers
    .filter(
      (t) =>
        (f.reference == null || t.reference === f.reference) &&
        (f.status == null || t.status === f.status.toLowerCase()) &&
        (f.wallet == null || t.recipient_wallet === f.wallet.toLowerCase()) &&
        (f.phone == null || t.recipient_phone === f.phone) &&
        (f.extId == null || t.ext_id === f.extId) &&
        inDays(f, t.created_at) &&
        inAmounts(f, t.amount),
    )
    .map((t) => t.reference as string);
const expectedSettlements = (f: SettlementFilter) =>
  settlements
    .filter(
      (s) =>
        (f.reference == null || s.reference === f.reference) &&
        (f.status == null || s.status === f.status.toLowerCase()) &&
        inDays(f, s.created_at) &&
        inAmounts(f, s.amount),
    )
    .map((s) => s.reference as string);

interface Page {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor?: string | null; endCursor?: string | null };
  edges: Array<{ node: { reference: string } }>;
}
type Args = { first?: number; after?: string | null; last?: number; before?: string | null };
type Fetch = (args: Args) => Promise<Page>;

const lists = {
  checkouts:
    (filter: CheckoutFilter | null): Fetch =>
    async (args) => {
      const res = await stack.gql(CheckoutsPage, { filter, ...args });
      expect(res.errors, res.raw).toBeUndefined();
      return res.data!.checkouts;
    },
  transfers:
    (filter: TransferFilter | null): Fetch =>
    async (args) => {
      const res = await stack.gql(TransfersPage, { filter, ...args });
      expect(res.errors, res.raw).toBeUndefined();
      return res.data!.transfers;
    },
  settlements:
    (filter: SettlementFilter | null): Fetch =>
    async (args) => {
      const res = await stack.gql(SettlementsPage, { filter, ...args });
      expect(res.errors, res.raw).toBeUndefined();
      return res.data!.settlements;
    },
};

/** Walks the whole filtered list forward and backward in pages of `size`, checking every page's pageInfo. */
async function expectWalks(fetch: Fetch, expected: string[], size = 2): Promise<void> {
  const forward: string[] = [];
  let after: string | null = null;
  for (;;) {
    const page: Page = await fetch({ first: size, after });
    expect(page.totalCount).toBe(expected.length);
    expect(page.pageInfo.hasPreviousPage).toBe(forward.length > 0 && expected.length > 0);
    forward.push(...page.edges.map((e) => e.node.reference));
    expect(page.pageInfo.hasNextPage).toBe(forward.length < expected.length);
    if (!page.pageInfo.hasNextPage) break;
    after = page.pageInfo.endCursor!;
  }
  expect(forward).toEqual(expected);

  const backward: string[] = [];
  let before: string | null = null;
  for (;;) {
    const page: Page = await fetch({ last: size, before });
    backward.unshift(...page.edges.map((e) => e.node.reference));
    expect(page.pageInfo.hasNextPage).toBe(before !== null && expected.length > 0);
    expect(page.pageInfo.hasPreviousPage).toBe(backward.length < expected.length);
    if (!page.pageInfo.hasPreviousPage) break;
    before = page.pageInfo.startCursor!;
  }
  expect(backward).toEqual(expected);
}

describe('checkouts(filter)', () => {
  const cases: Array<[string, CheckoutFilter]> = [
    ['status SUCCESS', { status: 'SUCCESS' }],
    ['status PENDING', { status: 'PENDING' }],
    ['one day', { dateFrom: DAYS[1], dateTo: DAYS[1] }],
    ['from a day on', { dateFrom: DAYS[1] }],
    ['up to a day, pending', { dateTo: DAYS[1], status: 'PENDING' }],
    ['phone', { phone: '58000000' }],
    ['provider', { provider: 'OPC_BF' }],
    ['amounts', { amountMin: 2000, amountMax: 3001 }],
    ['reference (UUID form)', { reference: '' }],
    ['reference (chk_ form)', { reference: 'chk' }],
    ['nothing matches', { status: 'FAILED' }],
  ];
  it.each(cases)('%s', async (_name, filter) => {
    const f = { ...filter };
    if (f.reference === '') f.reference = paidChk.uuid;
    if (f.reference === 'chk') f.reference = paidChk.chk;
    const expected = expectedCheckouts(f);
    if (f.status !== 'FAILED') expect(expected.length).toBeGreaterThan(0);
    await expectWalks(lists.checkouts(f), expected);
  });
});

describe('transfers(filter)', () => {
  const cases: Array<[string, TransferFilter]> = [
    ['status SUCCESS', { status: 'SUCCESS' }],
    ['status FAILED', { status: 'FAILED' }],
    ['status PENDING', { status: 'PENDING' }],
    ['one day', { dateFrom: DAYS[0], dateTo: DAYS[0] }],
    ['a date range', { dateFrom: DAYS[1], dateTo: DAYS[2] }],
    ['recipient phone', { phone: '70123456' }],
    ['wallet and status', { wallet: 'OPB_BF', status: 'FAILED' }],
    ['extId', { extId: 'lf-1-76123456' }],
    ['amounts', { amountMin: 101, amountMax: 201 }],
    ['nothing matches', { phone: '70999999' }],
  ];
  it.each(cases)('%s', async (_name, f) => {
    const expected = expectedTransfers(f);
    if (f.phone !== '70999999') expect(expected.length).toBeGreaterThan(0);
    await expectWalks(lists.transfers(f), expected);
  });

  it('by reference', async () => {
    const reference = transfers[4].reference as string;
    await expectWalks(lists.transfers({ reference }), [reference]);
  });
});

describe('settlements(filter)', () => {
  const cases: Array<[string, SettlementFilter]> = [
    ['status CANCELLED', { status: 'CANCELLED' }],
    ['status SUCCESS', { status: 'SUCCESS' }],
    ['status PROCESSING', { status: 'PROCESSING' }],
    ['one day', { dateFrom: DAYS[2], dateTo: DAYS[2] }],
    ['a date range and a status', { dateFrom: DAYS[0], dateTo: DAYS[1], status: 'CANCELLED' }],
    ['amounts', { amountMin: 6000 }],
    ['nothing matches', { status: 'IN_TRANSIT' }],
  ];
  it.each(cases)('%s', async (_name, f) => {
    const expected = expectedSettlements(f);
    if (f.status !== 'IN_TRANSIT') expect(expected.length).toBeGreaterThan(0);
    await expectWalks(lists.settlements(f), expected, 1);
  });

  it('by reference', async () => {
    const reference = settlements[2].reference as string;
    await expectWalks(lists.settlements({ reference }), [reference]);
  });
});

describe('cursors belong to their filter', () => {
  it.each([
    ['checkouts', lists.checkouts({ status: 'PENDING' }), { status: 'SUCCESS' }, CheckoutsPage],
    ['transfers', lists.transfers({ status: 'SUCCESS' }), { status: 'FAILED' }, TransfersPage],
    ['settlements', lists.settlements({ status: 'CANCELLED' }), { status: 'SUCCESS' }, SettlementsPage],
  ] as const)('%s: a cursor of one filter is refused with another, and without one', async (_name, fetch, other, doc) => {
    const page = await fetch({ first: 1 });
    const cursor = page.pageInfo.endCursor!;
    for (const filter of [other, null]) {
      for (const args of [
        { first: 1, after: cursor },
        { last: 1, before: cursor },
      ]) {
        const res = await stack.gql(doc as typeof TransfersPage, { filter, ...args } as never);
        expect(res.errors?.[0]?.extensions, res.raw).toMatchObject({
          code: 'INVALID_CURSOR',
          messageFr: expect.stringMatching(/autre filtre/),
        });
      }
    }
    // The same filter written with its conditions in another order is the same list.
    const again = await fetch({ first: 1, after: cursor });
    expect(again.totalCount).toBe(page.totalCount);
  });

  it('an unfiltered cursor is refused with a filter, and an empty filter is no filter', async () => {
    const all = await lists.transfers(null)({ first: 1 });
    const res = await stack.gql(TransfersPage, { filter: { status: 'SUCCESS' }, first: 1, after: all.pageInfo.endCursor });
    expect(res.errors?.[0]?.extensions?.code).toBe('INVALID_CURSOR');
    const empty = await lists.transfers({})({ first: 1, after: all.pageInfo.endCursor });
    expect(empty.edges[0]!.node.reference).toBe(transfers[1].reference);
  });
});

describe('what a filtered window costs the service', () => {
  it.each([
    ['/v1/payment/checkouts', () => stack.gql(CheckoutsPage, { filter: { phone: '00000000' }, last: 5 })],
    ['/v1/payment/transfers', () => stack.gql(TransfersPage, { filter: { extId: 'never-used' }, first: 100 })],
    ['/v1/payment/settlements', () => stack.gql(SettlementsPage, { filter: { dateFrom: '2030-01-01' }, first: 3 })],
  ])('a filter matching nothing: one list call to %s, whatever the page size', async (path, query) => {
    stack.sandbox.requests.clear();
    const res = await query();
    expect(res.errors, res.raw).toBeUndefined();
    expect(res.raw).toMatch(/"totalCount":0/);
    expect(stack.sandbox.requests.count({ method: 'GET', path })).toBe(1);
    expect(stack.sandbox.requests.count()).toBe(1);
  });

  it('several filtered windows of one list in one operation share one call', async () => {
    stack.sandbox.requests.clear();
    const res = await stack.gql(TwoTransferLists, { a: { status: 'SUCCESS' }, b: { wallet: 'OPA_BF' } });
    expect(res.data).toEqual({
      a: { totalCount: expectedTransfers({ status: 'SUCCESS' }).length },
      b: { totalCount: expectedTransfers({ wallet: 'OPA_BF' }).length },
    });
    expect(stack.sandbox.requests.count()).toBe(1);
  });

  it('a chk_ reference costs one fetch (its UUID) and the list', async () => {
    stack.sandbox.requests.clear();
    const page = await lists.checkouts({ reference: paidChk.chk })({ first: 5 });
    expect(page.edges.map((e) => e.node.reference)).toEqual([paidChk.uuid]);
    expect(stack.sandbox.requests.count()).toBe(2);
  });
});

describe('bounds that make no sense are refused before any call', () => {
  it.each([
    ['checkouts', CheckoutsPage, { dateFrom: DAYS[2], dateTo: DAYS[0] }, 'filter.dateFrom ne doit pas être postérieure à filter.dateTo.'],
    ['transfers', TransfersPage, { amountMin: 500, amountMax: 100 }, 'filter.amountMin ne doit pas dépasser filter.amountMax.'],
    ['settlements', SettlementsPage, { amountMin: -1 }, 'filter.amountMin ne doit pas être négatif.'],
  ] as const)('%s', async (_name, doc, filter, messageFr) => {
    stack.sandbox.requests.clear();
    const res = await stack.gql(doc as typeof TransfersPage, { filter, first: 5 } as never);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', messageFr });
    expect(stack.sandbox.requests.count()).toBe(0);
  });
});

// Keeps the data set honest: the cases above must meet every status, wallet and day.
it('the data set spans every status and day', () => {
  expect(new Set(checkouts.map((c) => c.status))).toEqual(new Set(['success', 'pending']));
  expect(new Set(transfers.map((t) => t.status))).toEqual(new Set(['success', 'failed', 'pending']));
  expect(new Set(settlements.map((s) => s.status))).toEqual(new Set(['cancelled', 'success', 'processing']));
  expect(new Set(transfers.map((t) => day(t.created_at)))).toEqual(new Set(DAYS));
});
