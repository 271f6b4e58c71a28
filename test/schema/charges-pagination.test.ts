// The `charges` connection over the service's page-based list: a property test
// walks random filters with random page sizes forward (first/after) and
// backward (last/before) over a few hundred charges and checks every page
// against the service's own list, filtered independently. Also: cursors bound
// to their filter, page-size limits, and windows that straddle the service's
// pages whatever page size the gateway is configured with (or the service uses).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_OTP, manualClock, type ManualClock } from '../../src/sandbox/index.js';
import { graphql } from '../gql/index.js';
import type { ChargeFilter, ChargeStatus, Provider } from '../gql/graphql.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { sandboxRest } from './support.js';

const ChargesPage = graphql(`
  query ChargesPaginationPage($filter: ChargeFilter, $first: Int, $after: String, $last: Int, $before: String) {
    charges(filter: $filter, first: $first, after: $after, last: $last, before: $before) {
      totalCount
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { cursor node { reference } }
    }
  }
`);

const DAY = 86_400_000;
const DAYS = ['2025-01-15', '2025-01-16', '2025-01-17', '2025-01-18'];
const PHONES: Record<string, string[]> = {
  opa_bf: ['76000000', '76000002', '77123456'],
  opb_bf: ['70000000', '70000002', '71234567'],
  opc_bf: ['58000000', '58000002', '51234567'],
  opd_bf: ['68000000', '68000002', '61234567'],
  ope_bj: ['0196000000', '0196000002', '0151234567'],
  opf_bj: ['0195000000', '0195000002', '0155234567'],
};
const AMOUNTS = [100, 250, 500, 1000, 1500, 2000, 3000, 5000];
const PER_DAY = 75;

/** A charge as the service lists it (the fields the filters look at). */
interface Listed {
  reference: string;
  status: string;
  provider: string;
  phone: string;
  amount: number;
  created_at: string;
}

let clock: ManualClock;
let stack: TestStack;
let all: Listed[] = [];

/** Deterministic data set: the same charges on every run. */
function prng(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

beforeAll(async () => {
  clock = manualClock(Date.UTC(2025, 0, 15, 9, 0, 0));
  stack = await startStack({ sandbox: { clock } });
  const rest = sandboxRest(stack.sandbox.url, stack.apiKey);
  const pick = prng(20250115);
  const providers = Object.keys(PHONES);
  for (let day = 0; day < DAYS.length; day++) {
    const specs = Array.from({ length: PER_DAY }, () => {
      const provider = providers[pick(providers.length)]!;
      return {
        provider,
        phone: PHONES[provider]![pick(3)]!,
        amount: AMOUNTS[pick(AMOUNTS.length)]!,
        ussd: provider === 'opb_bf' && pick(3) === 0,
        action: pick(3), // 0: leave waiting, 1: right OTP, 2: wrong OTP
      };
    });
    for (let i = 0; i < specs.length; i += 25) {
      await Promise.all(
        specs.slice(i, i + 25).map(async (s) => {
          const ref = await rest.createCharge(s.provider, s.phone, s.amount, s.ussd ? { confirmation_method: 'ussd' } : {});
          if (s.provider === 'ope_bj' || s.ussd || s.action === 0) return;
          await rest.submitOtp(ref, s.action === 1 ? TEST_OTP : '000000');
        }),
      );
    }
    // pay_offline charges of the day complete; the next day starts.
    if (day < DAYS.length - 1) await clock.advance(DAY);
  }
  // The service's own list, in its own order: the reference every walk is checked against.
  all = await rest.allCharges();
  expect(all).toHaveLength(PER_DAY * DAYS.length);
}, 20_000);
afterAll(() => stack.close());

const STATUS_FILTER: Record<string, string[]> = {
  PENDING: ['pending', 'send_otp', 'pay_offline'],
  SUCCESS: ['success'],
  FAILED: ['failed', 'canceled'],
};

function matches(c: Listed, f: ChargeFilter): boolean {
  const day = new Date(c.created_at).toISOString().slice(0, 10);
  return (
    (f.status == null || STATUS_FILTER[f.status]!.includes(c.status)) &&
    (f.provider == null || c.provider === f.provider.toLowerCase()) &&
    (f.phone == null || c.phone === f.phone) &&
    (f.reference == null || c.reference === f.reference) &&
    (f.amountMin == null || c.amount >= f.amountMin) &&
    (f.amountMax == null || c.amount <= f.amountMax) &&
    (f.dateFrom == null || day >= f.dateFrom) &&
    (f.dateTo == null || day <= f.dateTo)
  );
}

const sometimes = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
const allPhones = Object.values(PHONES).flat();
const filterArb: fc.Arbitrary<ChargeFilter> = fc
  .record({
    status: sometimes(fc.constantFrom<ChargeStatus>('PENDING', 'SUCCESS', 'FAILED')),
    provider: sometimes(fc.constantFrom<Provider>('OPA_BF', 'OPB_BF', 'OPC_BF', 'OPD_BF', 'OPE_BJ', 'OPF_BJ')),
    phone: fc.option(fc.constantFrom(...allPhones), { nil: undefined, freq: 6 }),
    amounts: sometimes(fc.tuple(fc.option(fc.integer({ min: 0, max: 6000 }), { nil: undefined }), fc.option(fc.integer({ min: 0, max: 6000 }), { nil: undefined }))),
    dates: sometimes(fc.tuple(fc.option(fc.constantFrom('2025-01-14', ...DAYS), { nil: undefined }), fc.option(fc.constantFrom(...DAYS, '2025-01-19'), { nil: undefined }))),
  })
  .map(({ amounts, dates, ...rest }) => {
    const f: ChargeFilter = {};
    for (const [k, v] of Object.entries(rest)) if (v !== undefined) (f as Record<string, unknown>)[k] = v;
    if (amounts) {
      const [a, b] = amounts;
      if (a !== undefined) f.amountMin = b !== undefined ? Math.min(a, b) : a;
      if (b !== undefined) f.amountMax = a !== undefined ? Math.max(a, b) : b;
    }
    if (dates) {
      const [a, b] = dates;
      if (a !== undefined) f.dateFrom = b !== undefined && b < a ? b : a;
      if (b !== undefined) f.dateTo = a !== undefined && a > b ? a : b;
    }
    return f;
  });

async function page(s: TestStack, vars: { filter?: ChargeFilter; first?: number; after?: string | null; last?: number; before?: string | null }) {
  const res = await s.gql(ChargesPage, vars);
  if (res.errors) throw new Error(`charges(${JSON.stringify(vars)}) failed: ${JSON.stringify(res.errors)}`);
  return res.data!.charges;
}

/** Walks the whole filtered list both ways, checking each page against `expected`. */
async function walk(s: TestStack, filter: ChargeFilter, size: number, expected: string[]) {
  const total = expected.length;
  const ctx = `filter ${JSON.stringify(filter)}, page size ${size}, ${total} matching`;

  // Forward: first/after until hasNextPage is false.
  const forward: string[] = [];
  let after: string | null = null;
  for (let n = 0; n <= Math.ceil(total / size) + 1; n++) {
    const c = await page(s, { filter, first: size, after });
    const refs = c.edges.map((e) => e.node.reference);
    const offset = forward.length;
    expect(c.totalCount, ctx).toBe(total);
    expect(refs, `${ctx}, forward page at ${offset}`).toEqual(expected.slice(offset, offset + size));
    expect(c.pageInfo, `${ctx}, forward page at ${offset}`).toEqual({
      hasNextPage: offset + refs.length < total,
      hasPreviousPage: offset > 0,
      startCursor: c.edges[0]?.cursor ?? null,
      endCursor: c.edges.at(-1)?.cursor ?? null,
    });
    forward.push(...refs);
    if (!c.pageInfo.hasNextPage) break;
    after = c.pageInfo.endCursor;
  }
  expect(forward, ctx).toEqual(expected);

  // Backward: last/before until hasPreviousPage is false.
  const backward: string[] = [];
  let before: string | null = null;
  for (let n = 0; n <= Math.ceil(total / size) + 1; n++) {
    const c = await page(s, { filter, last: size, before });
    const refs = c.edges.map((e) => e.node.reference);
    const end = total - backward.length;
    expect(c.totalCount, ctx).toBe(total);
    expect(refs, `${ctx}, backward page ending at ${end}`).toEqual(expected.slice(Math.max(0, end - size), end));
    expect(c.pageInfo, `${ctx}, backward page ending at ${end}`).toEqual({
      hasNextPage: end < total,
      hasPreviousPage: end - refs.length > 0,
      startCursor: c.edges[0]?.cursor ?? null,
      endCursor: c.edges.at(-1)?.cursor ?? null,
    });
    backward.unshift(...refs);
    if (!c.pageInfo.hasPreviousPage) break;
    before = c.pageInfo.startCursor;
  }
  expect(backward, ctx).toEqual(expected);
}

const expectedFor = (filter: ChargeFilter) => all.filter((c) => matches(c, filter)).map((c) => c.reference);

describe('charges connection: property', () => {
  it('the data set covers every filter dimension', () => {
    for (const status of ['PENDING', 'SUCCESS', 'FAILED'] as const) expect(expectedFor({ status }).length).toBeGreaterThan(10);
    for (const d of DAYS) expect(expectedFor({ dateFrom: d, dateTo: d })).toHaveLength(PER_DAY);
  });

  it('walks random filters with random page sizes, forward and backward, seeing each matching charge once, in order', async () => {
    await fc.assert(
      fc.asyncProperty(filterArb, fc.integer({ min: 1, max: 100 }), async (filter, size) => {
        await walk(stack, filter, size, expectedFor(filter));
      }),
      { numRuns: 25 },
    );
  });

  it('keeps exact windows when the service ignores the page size the gateway asks for', async () => {
    // The service's paging parameters are not documented: a gateway configured with a name the
    // service does not know gets the service's default page size (20 in the sandbox) back.
    const ignoring = await startStack({ sharedSandbox: stack.sandbox, apiKey: stack.apiKey, env: { PAYMENT_PAGE_SIZE_PARAM: 'per_page' } });
    // The hard case: page counts that coincide (31 to 40 charges make 2 pages of 30 and 2 pages of 20).
    const candidates: ChargeFilter[] = [];
    for (const d of DAYS) {
      for (const provider of ['OPA_BF', 'OPB_BF', 'OPC_BF', 'OPD_BF', 'OPE_BJ', 'OPF_BJ'] as const) candidates.push({ provider, dateTo: d }, { provider, dateFrom: d });
      for (const status of ['PENDING', 'SUCCESS', 'FAILED'] as const) candidates.push({ status, dateTo: d }, { status, dateFrom: d }, { status, dateFrom: d, dateTo: d });
      for (const amountMin of AMOUNTS) candidates.push({ amountMin, dateFrom: d, dateTo: d });
    }
    const hard = candidates.find((f) => expectedFor(f).length > 30 && expectedFor(f).length <= 40);
    expect(hard, 'the data set has a filter matching 31 to 40 charges').toBeDefined();
    try {
      await fc.assert(
        fc.asyncProperty(filterArb, fc.integer({ min: 1, max: 100 }), async (filter, size) => {
          await walk(ignoring, filter, size, expectedFor(filter));
        }),
        { numRuns: 25, examples: [[hard!, 30]] },
      );
    } finally {
      await ignoring.close();
    }
  });
});

describe('charges connection: pages larger than the configured page size', () => {
  it('returns exactly `first` items when PAYMENT_PAGE_SIZE is small', async () => {
    const small = await startStack({ sharedSandbox: stack.sandbox, apiKey: stack.apiKey, env: { PAYMENT_PAGE_SIZE: '7' } });
    try {
      const expected = expectedFor({});
      const one = await page(small, { first: 30 });
      expect(one.edges.map((e) => e.node.reference)).toEqual(expected.slice(0, 30));
      const two = await page(small, { first: 30, after: one.pageInfo.endCursor });
      expect(two.edges.map((e) => e.node.reference)).toEqual(expected.slice(30, 60));
      const back = await page(small, { last: 30, before: two.pageInfo.endCursor });
      expect(back.edges.map((e) => e.node.reference)).toEqual(expected.slice(29, 59));
      const tail = await page(small, { last: 30 });
      expect(tail.edges.map((e) => e.node.reference)).toEqual(expected.slice(-30));
      expect(tail.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    } finally {
      await small.close();
    }
  });

  it('reads a window of 100 with at most two calls to the service', async () => {
    const cursor = (await page(stack, { first: 50 })).pageInfo.endCursor;
    stack.sandbox.requests.clear();
    const c = await page(stack, { first: 100, after: cursor });
    expect(c.edges.map((e) => e.node.reference)).toEqual(expectedFor({}).slice(50, 150));
    expect(stack.sandbox.requests.count({ method: 'GET', path: '/v1/payment/charges' })).toBeLessThanOrEqual(2);
  });
});

describe('charges connection: arguments', () => {
  it('binds a cursor to its filter: another filter refuses it with INVALID_CURSOR', async () => {
    const opa = await page(stack, { filter: { provider: 'OPA_BF' }, first: 2 });
    const cursor = opa.pageInfo.endCursor!;
    // Same filter: fine.
    expect((await page(stack, { filter: { provider: 'OPA_BF' }, first: 2, after: cursor })).edges).toHaveLength(2);

    for (const vars of [
      { filter: { provider: 'OPB_BF' as const }, first: 2, after: cursor },
      { first: 2, after: cursor },
      { filter: { provider: 'OPA_BF' as const, status: 'SUCCESS' as const }, first: 2, after: cursor },
      { filter: { provider: 'OPB_BF' as const }, last: 2, before: cursor },
    ]) {
      stack.sandbox.requests.clear();
      const res = await stack.gql(ChargesPage, vars);
      expect(res.errors?.[0]?.extensions?.code, JSON.stringify(vars)).toBe('INVALID_CURSOR');
      expect(stack.sandbox.requests.count()).toBe(0);
    }
  });

  it('refuses a cursor that is not one of ours', async () => {
    const res = await stack.gql(ChargesPage, { first: 2, after: 'bm90LWEtY3Vyc29y' });
    expect(res.errors?.[0]?.extensions?.code).toBe('INVALID_CURSOR');
  });

  it.each([
    { first: 0 },
    { first: 101 },
    { first: -1 },
    { last: 0 },
    { last: 101 },
    { first: 5, last: 5 },
  ])('refuses %o with BAD_USER_INPUT, before any call', async (vars) => {
    stack.sandbox.requests.clear();
    const res = await stack.gql(ChargesPage, vars);
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(res.data?.charges ?? null).toBeNull();
    expect(stack.sandbox.requests.count()).toBe(0);
  });

  it.each([
    { amountMin: 500, amountMax: 100 },
    { amountMin: -1 },
    { dateFrom: '2025-01-17', dateTo: '2025-01-15' },
    { status: 'SEND_OTP' as const },
  ])('refuses the filter %o with BAD_USER_INPUT', async (filter) => {
    const res = await stack.gql(ChargesPage, { filter, first: 5 });
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('defaults to 20 items without first or last', async () => {
    const c = await page(stack, {});
    expect(c.edges.map((e) => e.node.reference)).toEqual(expectedFor({}).slice(0, 20));
  });
});
