// Money never moves twice, end to end: GraphQL mutations through a gateway whose
// payment service sits behind a fault-injecting proxy (the service processes the
// request, then its answer is lost, replaced by a 500 or by an HTML 502), and a
// gateway on a Redis of the test's own that is killed or restarted empty. Payments
// are counted in the sandbox's own lists, never in what the gateway says.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, type Sandbox } from '../../src/sandbox/index.js';
import { graphql } from '../gql/index.js';
import { startFaultProxy, type FaultAction, type FaultProxy } from '../helpers/fault-proxy.js';
import { startStack, testKey, type TestStack } from '../helpers/gateway.js';
import { startRedisServer, type TestRedisServer } from '../helpers/redis-server.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { Api, type Json } from '../helpers/sandbox-api.js';
import { waitFor } from '../helpers/wait.js';

const Charge = graphql(`
  mutation FaultCharge($input: CreateChargeInput!) {
    createCharge(input: $input) {
      __typename
      ... on CreateChargePayload { reference status }
      ... on UpstreamError { outcomeUnknown retryable }
      ... on PaymentError { code message }
    }
  }
`);

const Transfer = graphql(`
  mutation FaultTransfer($input: CreateTransferInput!) {
    createTransfer(input: $input) {
      __typename
      ... on CreateTransferPayload { transfer { reference amount } }
      ... on UpstreamError { outcomeUnknown retryable }
      ... on PaymentError { code message }
    }
  }
`);

const Bulk = graphql(`
  mutation FaultBulk($input: CreateBulkTransferInput!) {
    createBulkTransfer(input: $input) {
      __typename
      ... on CreateBulkTransferPayload { queuedCount }
      ... on UpstreamError { outcomeUnknown retryable }
      ... on PaymentError { code message }
    }
  }
`);

const Balance = graphql(`
  query FaultBalance {
    balance { currency }
  }
`);

const CHARGE_POST = { method: 'POST', path: '/v1/payment/charges/' } as const;
const TRANSFER_POST = { method: 'POST', path: '/v1/payment/transfers/' } as const;
const BULK_POST = { method: 'POST', path: '/v1/payment/transfers/bulk/' } as const;

/** A new amount for each payment (small: the sandbox's wallets hold 100,000 XOF), so a count at the service sees one test's payments. */
let nextAmount = 100;
const amount = () => ++nextAmount;

let sandbox: Sandbox;
let rest: Api;
/** Both gateways below use one account at the service, read directly through `rest`. */
const apiKey = testKey('faults');

const chargesOf = async (amountXof: number): Promise<Json[]> =>
  (await rest.get('/v1/payment/charges?page=1&page_size=100')).body.data.filter((c: Json) => c.amount === amountXof);
const transfersOf = async (amountXof: number): Promise<Json[]> =>
  (await rest.get('/v1/payment/transfers')).body.data.filter((t: Json) => t.amount === amountXof);

interface Kind {
  name: string;
  post: { method: string; path: string };
  /** Sends the mutation with these amounts (one per payment it makes) and key; the __typename and the reference(s) it returned. */
  send(stack: TestStack, amounts: number[], key: string): Promise<{ typename: string; body: Json }>;
  /** Payments at the service for each amount. */
  count(amounts: number[]): Promise<number[]>;
  size: number;
}

const kinds: Kind[] = [
  {
    name: 'createCharge',
    post: CHARGE_POST,
    size: 1,
    async send(stack, [a], key) {
      const res = await stack.gql(Charge, { input: { amount: a!, phone: '76000000', provider: 'OPA_BF', idempotencyKey: key } });
      return { typename: res.data!.createCharge.__typename, body: res.data!.createCharge };
    },
    count: async (amounts) => Promise.all(amounts.map(async (a) => (await chargesOf(a)).length)),
  },
  {
    name: 'createTransfer',
    post: TRANSFER_POST,
    size: 1,
    async send(stack, [a], key) {
      const res = await stack.gql(Transfer, { input: { amount: a!, recipientPhone: '70000000', idempotencyKey: key } });
      return { typename: res.data!.createTransfer.__typename, body: res.data!.createTransfer };
    },
    count: async (amounts) => Promise.all(amounts.map(async (a) => (await transfersOf(a)).length)),
  },
  {
    name: 'createBulkTransfer (per item)',
    post: BULK_POST,
    size: 3,
    async send(stack, amounts, key) {
      const transfers = amounts.map((a, i) => ({ amount: a, recipientPhone: `7000000${i}` }));
      const res = await stack.gql(Bulk, { input: { transfers, idempotencyKey: key } });
      return { typename: res.data!.createBulkTransfer.__typename, body: res.data!.createBulkTransfer };
    },
    count: async (amounts) => Promise.all(amounts.map(async (a) => (await transfersOf(a)).length)),
  },
];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  rest = new Api(sandbox.url, apiKey);
});
afterAll(async () => {
  await rest?.close();
  await sandbox?.close();
});

describe('an answer lost after the service processed the request', () => {
  let proxy: FaultProxy;
  let stack: TestStack;

  beforeAll(async () => {
    proxy = await startFaultProxy(sandbox.url);
    stack = await startStack({ inProcess: true, sharedSandbox: sandbox, apiKey, env: { PAYMENT_BASE_URL: proxy.url } });
  });
  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
  });

  const cases = kinds.flatMap((kind) =>
    (
      [
        ['a 500 INTERNAL_ERROR', { kind: 'status500' }],
        ['an HTML 502', { kind: 'html502' }],
        ['a connection dropped without an answer', { kind: 'drop' }],
      ] as Array<[string, FaultAction]>
    ).map(([label, action]) => [kind.name, label, kind, action] as const),
  );

  it.each(cases)('%s, %s: outcome unknown, the retry with the same key returns it, 1 payment', async (_n, _l, kind, action) => {
    const amounts = Array.from({ length: kind.size }, amount);
    const key = randomUUID();
    const fault = proxy.inject({ ...kind.post, action });

    const first = await kind.send(stack, amounts, key);
    expect(fault.hits).toBe(1);
    expect(first).toMatchObject({ typename: 'UpstreamError', body: { outcomeUnknown: true, retryable: true } });
    expect(await kind.count(amounts)).toEqual(amounts.map(() => 1));

    const retried = await kind.send(stack, amounts, key);
    const again = await kind.send(stack, amounts, key);
    expect(retried.typename).not.toBe('UpstreamError');
    expect(again.body).toEqual(retried.body);
    expect(await kind.count(amounts)).toEqual(amounts.map(() => 1));
    if (kind.name === 'createCharge') expect(retried.body.reference).toBe((await chargesOf(amounts[0]!))[0].reference);
    if (kind.name === 'createTransfer') expect(retried.body.transfer.reference).toBe((await transfersOf(amounts[0]!))[0].reference);
  });

  it('finds the lost transfer among newer ones to the same phone for the same amount (by its ext_id)', async () => {
    const a = amount();
    const key = randomUUID();
    proxy.inject({ ...TRANSFER_POST, action: { kind: 'status500' } });
    expect((await kinds[1]!.send(stack, [a], key)).typename).toBe('UpstreamError');
    const lost = (await transfersOf(a))[0].reference as string;
    // Newer payouts that look the same, except for their ext_id: the newest is not the lost one.
    for (let i = 0; i < 3; i++) expect((await kinds[1]!.send(stack, [a], randomUUID())).typename).toBe('CreateTransferPayload');
    expect(await transfersOf(a)).toHaveLength(4);

    const retried = await kinds[1]!.send(stack, [a], key);
    expect(retried.body.transfer.reference).toBe(lost);
    expect(await transfersOf(a)).toHaveLength(4);
  });

  it('finds the lost charge among other charges of the same phone and amount (by its ext_id)', async () => {
    const a = amount();
    const key = randomUUID();
    proxy.inject({ ...CHARGE_POST, action: { kind: 'drop' } });
    expect((await kinds[0]!.send(stack, [a], key)).typename).toBe('UpstreamError');
    const lost = (await chargesOf(a))[0].reference as string;
    for (let i = 0; i < 3; i++) expect((await kinds[0]!.send(stack, [a], randomUUID())).typename).toBe('CreateChargePayload');
    expect(await chargesOf(a)).toHaveLength(4);

    const retried = await kinds[0]!.send(stack, [a], key);
    expect(retried.body.reference).toBe(lost);
    expect(await chargesOf(a)).toHaveLength(4);
  });

  it('"ext_id already exists" is an answer: the same payout under that ext_id is returned, another one is refused', async () => {
    const a = amount();
    const extId = `order-${randomUUID()}`;
    const send = (amountXof: number) =>
      stack.gql(Transfer, { input: { amount: amountXof, recipientPhone: '70000000', extId, idempotencyKey: randomUUID() } });
    const first = (await send(a)).data!.createTransfer;
    expect(first.__typename).toBe('CreateTransferPayload');
    // A new key (say the first one was lost with the client's state): the service refuses the ext_id, and
    // since the transfer under it is this very payout, that transfer is the answer.
    const again = (await send(a)).data!.createTransfer;
    expect(again).toEqual(first);
    // Another payout under the same ext_id is the caller's mistake, not a success.
    const other = (await send(a + 1)).data!.createTransfer;
    expect(other).toMatchObject({ __typename: 'ValidationError' });
    expect(await transfersOf(a)).toHaveLength(1);
    expect(await transfersOf(a + 1)).toHaveLength(0);
    nextAmount++;
  });

  it('a bulk transfer retried with the same key and as many items, but different ones, is a conflict: nothing is paid', async () => {
    const amounts = [amount(), amount()];
    const key = randomUUID();
    expect((await kinds[2]!.send(stack, amounts, key)).typename).toBe('CreateBulkTransferPayload');
    const other = [amounts[0]!, amount()];
    const conflict = await kinds[2]!.send(stack, other, key);
    expect(conflict).toMatchObject({ typename: 'IdempotencyConflictError', body: { code: 'IDEMPOTENCY_CONFLICT' } });
    expect(await kinds[2]!.count([...amounts, other[1]!])).toEqual([1, 1, 0]);
  });
});

describe('an answer that comes too late (the deadline of the gateway passes after the service processed it)', () => {
  let proxy: FaultProxy;
  let stack: TestStack;

  beforeAll(async () => {
    proxy = await startFaultProxy(sandbox.url);
    stack = await startStack({
      inProcess: true,
      sharedSandbox: sandbox,
      apiKey,
      // Long enough for the retry's own lookup to answer on a loaded machine; the held call waits it out whatever it is.
      env: { PAYMENT_BASE_URL: proxy.url, PAYMENT_TIMEOUT_MS: '1500' },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
  });

  it.each(kinds)('$name: outcome unknown at the deadline, the retry with the same key returns it, 1 payment', async (kind) => {
    const amounts = Array.from({ length: kind.size }, amount);
    const key = randomUUID();
    const held = proxy.inject({ ...kind.post, action: { kind: 'hold' } });
    const first = await kind.send(stack, amounts, key);
    expect(first).toMatchObject({ typename: 'UpstreamError', body: { outcomeUnknown: true, retryable: true } });
    held.release();
    expect(await kind.count(amounts)).toEqual(amounts.map(() => 1));
    const retried = await kind.send(stack, amounts, key);
    expect(retried.typename).not.toMatch(/Error$/);
    expect(await kind.count(amounts)).toEqual(amounts.map(() => 1));
  });
});

describe('a Redis that dies under the gateway', () => {
  let redis: TestRedisServer;
  let proxy: FaultProxy;
  let stack: TestStack;

  beforeAll(async () => {
    redis = await startRedisServer({ persistence: 'none' });
    proxy = await startFaultProxy(sandbox.url);
    stack = await startStack({
      inProcess: true,
      sharedSandbox: sandbox,
      apiKey,
      env: { PAYMENT_BASE_URL: proxy.url, REDIS_URL: redis.url },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
    await redis?.stop();
  });

  it.each(kinds)(
    '$name: Redis killed while the payment is at the service, restarted empty; the retry reconciles, 1 payment',
    async (kind) => {
      const amounts = Array.from({ length: kind.size }, amount);
      const key = randomUUID();
      const held = proxy.inject({ ...kind.post, action: { kind: 'hold' } });
      const first = kind.send(stack, amounts, key);
      await held.handled(1);
      await redis.kill();
      held.release();
      // The call was made: the client gets the success it earned although nothing could be saved.
      expect((await first).typename).not.toMatch(/Error$/);

      await redis.restart();
      await waitFor(async () => (await kind.send(stack, amounts, key)).typename !== 'ServiceUnavailableError', 'the guard back');
      const retried = await kind.send(stack, amounts, key);
      expect(retried.body).toEqual((await first).body);
      expect(await kind.count(amounts)).toEqual(amounts.map(() => 1));
    },
  );

  it('while Redis is down a payment is refused before anything is sent (SERVICE_UNAVAILABLE) and queries are answered; after, it goes through once', async () => {
    const a = amount();
    const key = randomUUID();
    await redis.kill();
    const refused = await kinds[1]!.send(stack, [a], key);
    expect(refused).toMatchObject({ typename: 'ServiceUnavailableError', body: { code: 'SERVICE_UNAVAILABLE' } });
    expect(await transfersOf(a)).toHaveLength(0);
    // Queries need no guard: they keep working.
    expect((await stack.gql(Balance, {})).data?.balance).toEqual({ currency: 'XOF' });
    await redis.restart();
    await waitFor(
      async () => (await kinds[1]!.send(stack, [a], key)).typename === 'CreateTransferPayload',
      'the payout once Redis is back',
    );
    expect(await transfersOf(a)).toHaveLength(1);
  });
});

describe('a Redis that refuses to save the result (maxmemory, noeviction)', () => {
  /** A claim left pending reads as outcome unknown after this long (the default is 5 minutes). */
  const PENDING_TTL_MS = 600;
  // Claims age on this clock (started at the real time), which the test moves instead of waiting for it.
  const idempotencyTime = manualClock(Date.now());
  let redis: TestRedisServer;
  let filler: Redis;
  let proxy: FaultProxy;
  let stack: TestStack;

  beforeAll(async () => {
    redis = await startRedisServer({ maxmemory: '16mb', maxmemoryPolicy: 'noeviction' });
    filler = new Redis(redis.url);
    proxy = await startFaultProxy(sandbox.url);
    stack = await startStack({
      inProcess: true,
      sharedSandbox: sandbox,
      apiKey,
      idempotencyClock: idempotencyTime,
      env: {
        PAYMENT_BASE_URL: proxy.url,
        REDIS_URL: redis.url,
        PAYMENT_TIMEOUT_MS: '500',
        IDEMPOTENCY_PENDING_TTL_MS: String(PENDING_TTL_MS),
      },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
    filler?.disconnect();
    await redis?.stop();
  });

  it.each(kinds)('$name: the client gets its success, and a retry here reconciles at once, 1 payment', async (kind) => {
    const amounts = Array.from({ length: kind.size }, amount);
    const key = randomUUID();
    const held = proxy.inject({ ...kind.post, action: { kind: 'hold' } });
    const first = kind.send(stack, amounts, key);
    // The call is at the service; before its answer comes back, Redis reaches its maxmemory: every write is refused.
    await held.handled(1);
    // (Data up to just under the limit, then the limit lowered below it: small writes then fail for sure.)
    await filler.set('filler', 'x'.repeat(1024 * 1024));
    await filler.config('SET', 'maxmemory', '1mb');
    held.release();
    const answer = await first;
    expect(answer.typename).not.toMatch(/Error$/);

    await filler.del('filler');
    await filler.config('SET', 'maxmemory', '16mb');
    // This gateway saw its call end without saving the outcome: a retry here finds the payment at the service at once.
    expect((await kind.send(stack, amounts, key)).body).toEqual(answer.body);
    // Saved this time: the next retry replays it.
    expect((await kind.send(stack, amounts, key)).body).toEqual(answer.body);
    expect(await kind.count(amounts)).toEqual(amounts.map(() => 1));
  });
});
