// Batching of per-reference lookups within one operation: a checkout list
// whose checkouts were paid on the sandbox's payment page costs two calls (the
// checkout list, then one charge list filtered to the days those charges were
// made); the same reference asked twice costs one GET; and when single GETs are
// needed they run concurrently, at most LOADER_CONCURRENCY at a time (measured
// by a transparent proxy between the gateway and the service, while the service
// holds every lookup until the test moves its clock).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_OTP, manualClock } from '../../src/sandbox/index.js';
import { LOADER_CONCURRENCY } from '../../src/schema/loaders.js';
import { graphql } from '../gql/index.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { postForm } from '../helpers/http.js';
import { waitFor } from '../helpers/wait.js';
import { as, countingProxy, uniqueKey } from './support.js';

const Init = graphql(`
  mutation DataloaderTestInit($input: InitializeCheckoutInput!) {
    initializeCheckout(input: $input) { __typename ... on InitializeCheckoutPayload { reference authorizationUrl } ... on PaymentError { message } }
  }
`);

const CheckoutsWithCharges = graphql(`
  query DataloaderTestCheckouts {
    checkouts(first: 50) {
      totalCount
      edges { node { reference amount chargeReference provider charge { reference status amount } } }
    }
  }
`);

const SameChargeTwice = graphql(`
  query DataloaderTestSameCharge($reference: String!) {
    a: charge(reference: $reference) { reference status }
    b: charge(reference: $reference) { amount provider }
  }
`);

const ListAndLookup = graphql(`
  query DataloaderTestListAndLookup($reference: String!) {
    checkouts(first: 50) { edges { node { charge { reference status } } } }
    charge(reference: $reference) { reference amount }
  }
`);

const CHARGE_GET = /^\/v1\/payment\/charges\/ch_[0-9a-f]+$/;

interface Paid {
  amount: number;
  paid: 'none' | 'waiting' | 'success';
}

/** Initializes `n` checkouts through the gateway; pays some on the sandbox's payment page, as a customer would. */
async function makeCheckouts(stack: TestStack, plan: Array<Paid['paid']>): Promise<Paid[]> {
  const out: Paid[] = [];
  for (const [i, paid] of plan.entries()) {
    const amount = 1000 + i;
    const res = await stack.gql(Init, {
      input: { amount, successUrl: 'https://shop.example/ok', cancelUrl: 'https://shop.example/ko', idempotencyKey: uniqueKey('init') },
    });
    const init = as(res.data!.initializeCheckout, 'InitializeCheckoutPayload');
    if (paid !== 'none') {
      const pay = await postForm(`${init.authorizationUrl}/pay`, { provider: 'opc_bf', phone: '58000000' });
      expect(pay.status).toBe(303);
      if (paid === 'success') {
        const otp = await postForm(`${init.authorizationUrl}/otp`, { otp: TEST_OTP });
        expect(otp.status).toBe(303);
        expect(otp.location).toMatch(/^https:\/\/shop\.example\/ok\?reference=/);
      }
    }
    out.push({ amount, paid });
  }
  return out;
}

let stack: TestStack;
let plan: Paid[];
beforeAll(async () => {
  stack = await startStack({ inProcess: true });
  plan = await makeCheckouts(stack, [
    'success',
    'waiting',
    'none',
    'success',
    'success',
    'waiting',
    'none',
    'success',
    'waiting',
    'success',
    'success',
    'waiting',
  ]);
});
afterAll(() => stack.close());

describe('Checkout.charge', () => {
  it('costs two calls: the checkout list, and one charge list filtered to the days of their charges', async () => {
    stack.sandbox.requests.clear();
    const res = await stack.gql(CheckoutsWithCharges, {});
    expect(res.errors).toBeUndefined();
    const nodes = res.data!.checkouts.edges.map((e) => e.node);
    expect(nodes).toHaveLength(plan.length);

    // Newest first: the plan reversed.
    const expected = [...plan].reverse();
    nodes.forEach((n, i) => {
      const p = expected[i]!;
      expect(n.amount).toBe(p.amount);
      if (p.paid === 'none') {
        expect(n).toMatchObject({ chargeReference: null, charge: null, provider: null });
      } else {
        expect(n.provider).toBe('OPC_BF');
        expect(n.charge).toMatchObject({
          reference: n.chargeReference,
          amount: p.amount,
          status: p.paid === 'success' ? 'SUCCESS' : 'SEND_OTP',
        });
      }
    });

    const distinct = new Set(nodes.map((n) => n.chargeReference).filter((r): r is string => r !== null));
    expect(distinct.size).toBe(plan.filter((p) => p.paid !== 'none').length);
    expect(stack.sandbox.requests.count({ method: 'GET', path: '/v1/payment/checkouts' })).toBe(1);
    expect(stack.sandbox.requests.count({ method: 'GET', path: CHARGE_GET })).toBe(0);
    const lists = stack.sandbox.requests.all().filter((r) => r.method === 'GET' && r.path === '/v1/payment/charges');
    expect(lists).toHaveLength(1);
    const today = new Date().toISOString().slice(0, 10);
    expect(lists[0]!.query.get('date_from')! < today).toBe(true);
    expect(lists[0]!.query.get('date_to')! > today).toBe(true);
    expect(stack.sandbox.requests.count()).toBe(2);
  });

  it('asks the service once for a reference requested twice in one operation', async () => {
    const reference = (await stack.gql(CheckoutsWithCharges, {})).data!.checkouts.edges.find((e) => e.node.chargeReference)!.node
      .chargeReference!;
    stack.sandbox.requests.clear();
    const res = await stack.gql(SameChargeTwice, { reference });
    expect(res.data!.a).toMatchObject({ reference });
    expect(res.data!.b).toMatchObject({ provider: 'OPC_BF' });
    expect(stack.sandbox.requests.count()).toBe(1);
  });

  it('shares lookups across fields: a charge in the list and asked for directly is fetched once', async () => {
    const first = (await stack.gql(CheckoutsWithCharges, {}))
      .data!.checkouts.edges.map((e) => e.node.chargeReference)
      .filter((r): r is string => r !== null);
    stack.sandbox.requests.clear();
    const res = await stack.gql(ListAndLookup, { reference: first[0]! });
    expect(res.errors).toBeUndefined();
    expect(res.data!.charge!.reference).toBe(first[0]);
    // The direct lookup goes out at once (one GET); the checkouts' charges come later, from one list call,
    // and the one already loaded is not asked for again.
    expect(stack.sandbox.requests.count({ method: 'GET', path: CHARGE_GET })).toBe(1);
    expect(stack.sandbox.requests.count({ method: 'GET', path: `/v1/payment/charges/${first[0]}` })).toBe(1);
    expect(stack.sandbox.requests.count()).toBe(3);
  });

  it('does not share lookups across operations (no stale charge from an earlier request)', async () => {
    const reference = (await stack.gql(CheckoutsWithCharges, {})).data!.checkouts.edges.find((e) => e.node.charge?.status === 'SEND_OTP')!
      .node.chargeReference!;
    stack.sandbox.requests.clear();
    await stack.gql(SameChargeTwice, { reference });
    await stack.gql(SameChargeTwice, { reference });
    expect(stack.sandbox.requests.count({ method: 'GET', path: CHARGE_GET })).toBe(2);
  });
});

describe('concurrency of the charge lookups', () => {
  it(`when the charge list fails, fetches each charge instead: in parallel, never more than ${LOADER_CONCURRENCY} at once`, async () => {
    const HOLD = 1_000;
    const N = 20;
    const clock = manualClock();
    const own = await startStack({ inProcess: true, sandbox: { clock } });
    const proxy = await countingProxy(own.sandbox.url, CHARGE_GET);
    const measured = await startStack({
      inProcess: true,
      sharedSandbox: own.sandbox,
      apiKey: own.apiKey,
      env: { PAYMENT_BASE_URL: proxy.url },
    });
    try {
      await makeCheckouts(
        own,
        Array.from({ length: N }, () => 'waiting' as const),
      );
      // The charge list fails (a 502 page), and the service holds every single lookup until its clock moves HOLD ms.
      own.sandbox.faults.add({ method: 'GET', path: /^\/v1\/payment\/charges$/, kind: 'html', httpStatus: 502, times: 'unlimited' });
      own.sandbox.faults.add({ method: 'GET', path: CHARGE_GET, kind: 'delay', ms: HOLD, times: 'unlimited' });
      proxy.reset();
      own.sandbox.requests.clear();
      const arrived = () => own.sandbox.requests.count({ method: 'GET', path: CHARGE_GET });
      const query = measured.gql(CheckoutsWithCharges, {});
      // Release the lookups round by round: each round is what the gateway sent while the previous ones were held.
      let rounds = 0;
      for (let released = 0; released < N; rounds++) {
        await waitFor(() => arrived() >= Math.min(N, released + LOADER_CONCURRENCY), `lookups after ${released} released`);
        released = arrived();
        await clock.advance(HOLD);
      }
      const res = await query;

      expect(res.errors).toBeUndefined();
      expect(res.data!.checkouts.edges.filter((e) => e.node.charge?.status === 'SEND_OTP')).toHaveLength(N);
      // Parallel but bounded: exactly LOADER_CONCURRENCY at a time, so ceil(N / limit) rounds.
      expect(proxy.maxInFlight()).toBe(LOADER_CONCURRENCY);
      expect(rounds).toBe(Math.ceil(N / LOADER_CONCURRENCY));
      expect(arrived()).toBe(N);
    } finally {
      await measured.close();
      await own.close();
      await proxy.close();
    }
  });
});
