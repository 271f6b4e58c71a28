// Money never moves twice when Redis forgets: a gateway on a Redis of the test's
// own that is restarted empty, or switched at run time to an evicting policy and
// filled until it evicts. Settlements and checkouts (no lookup at the service)
// are then refused as outcome_unknown, never sent again; transfers and charges
// look the payment up and return it. Payments are counted in the sandbox's own
// lists; readiness follows what Redis can be trusted with.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { graphql } from '../gql/index.js';
import { startStack, testKey, type TestStack } from '../helpers/gateway.js';
import { startRedisServer, type TestRedisServer } from '../helpers/redis-server.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { Api, type Json } from '../helpers/sandbox-api.js';
import { waitFor } from '../helpers/wait.js';

const Settlement = graphql(`
  mutation ForgetSettlement($input: CreateSettlementInput!) {
    createSettlement(input: $input) {
      __typename
      ... on SettlementPayload { settlement { reference } }
      ... on IdempotencyConflictError { reason retryAfterMs }
      ... on PaymentError { code message retryable }
    }
  }
`);

const Checkout = graphql(`
  mutation ForgetCheckout($input: InitializeCheckoutInput!) {
    initializeCheckout(input: $input) {
      __typename
      ... on InitializeCheckoutPayload { reference }
      ... on IdempotencyConflictError { reason retryAfterMs }
      ... on PaymentError { code message retryable }
    }
  }
`);

const Transfer = graphql(`
  mutation ForgetTransfer($input: CreateTransferInput!) {
    createTransfer(input: $input) {
      __typename
      ... on CreateTransferPayload { transfer { reference } }
      ... on IdempotencyConflictError { reason retryAfterMs }
      ... on PaymentError { code message retryable }
    }
  }
`);

const Charge = graphql(`
  mutation ForgetCharge($input: CreateChargeInput!) {
    createCharge(input: $input) {
      __typename
      ... on CreateChargePayload { reference }
      ... on IdempotencyConflictError { reason retryAfterMs }
      ... on PaymentError { code message retryable }
    }
  }
`);

let nextAmount = 300;
const amount = () => ++nextAmount;

let sandbox: Sandbox;
let rest: Api;
const apiKey = testKey('forgets');

const listed = async (path: string, amountXof: number): Promise<Json[]> =>
  (await rest.get(path)).body.data.filter((item: Json) => item.amount === amountXof);

interface Kind {
  name: string;
  /** Sends the mutation; its __typename and result. */
  send(stack: TestStack, amountXof: number, key: string): Promise<{ typename: string; body: Json }>;
  /** Payments of that amount at the service. */
  count(amountXof: number): Promise<number>;
}

const settlement: Kind = {
  name: 'createSettlement',
  async send(stack, a, key) {
    const res = await stack.gql(Settlement, { input: { amount: a, idempotencyKey: key } });
    return { typename: res.data!.createSettlement.__typename, body: res.data!.createSettlement };
  },
  count: async (a) => (await listed('/v1/payment/settlements', a)).length,
};
const checkout: Kind = {
  name: 'initializeCheckout',
  async send(stack, a, key) {
    const res = await stack.gql(Checkout, {
      input: { amount: a, successUrl: 'https://shop.example/ok', cancelUrl: 'https://shop.example/no', idempotencyKey: key },
    });
    return { typename: res.data!.initializeCheckout.__typename, body: res.data!.initializeCheckout };
  },
  count: async (a) => (await listed('/v1/payment/checkouts', a)).length,
};
const transfer: Kind = {
  name: 'createTransfer',
  async send(stack, a, key) {
    const res = await stack.gql(Transfer, { input: { amount: a, recipientPhone: '70000000', idempotencyKey: key } });
    return { typename: res.data!.createTransfer.__typename, body: res.data!.createTransfer };
  },
  count: async (a) => (await listed('/v1/payment/transfers', a)).length,
};
const charge: Kind = {
  name: 'createCharge',
  async send(stack, a, key) {
    const res = await stack.gql(Charge, { input: { amount: a, phone: '76000000', provider: 'OPA_BF', idempotencyKey: key } });
    return { typename: res.data!.createCharge.__typename, body: res.data!.createCharge };
  },
  count: async (a) => (await listed('/v1/payment/charges?page=1&page_size=100', a)).length,
};

/** One payment of each kind, answered and saved: its amount, key and first answer. */
async function payEach(stack: TestStack, kinds: Kind[]) {
  return Promise.all(
    kinds.map(async (kind) => {
      const a = amount();
      const key = randomUUID();
      const first = await kind.send(stack, a, key);
      expect(first.typename).not.toMatch(/Error$/);
      return { kind, a, key, first };
    }),
  );
}

async function ready(stack: TestStack): Promise<{ status: number; body: Json }> {
  const res = await request(`${stack.gateway.url}/health/ready`);
  return { status: res.statusCode, body: await res.body.json() };
}

beforeAll(async () => {
  sandbox = await startTestSandbox();
  rest = new Api(sandbox.url, apiKey);
  sandbox.setBalance(apiKey, { collection: { available: 10_000_000 } });
});
afterAll(async () => {
  await rest?.close();
  await sandbox?.close();
});

describe('Redis restarted empty under a running gateway', () => {
  let redis: TestRedisServer;
  let stack: TestStack;

  beforeAll(async () => {
    redis = await startRedisServer({ persistence: 'none' });
    stack = await startStack({ sharedSandbox: sandbox, apiKey, env: { REDIS_URL: redis.url, HEALTH_PROBE_MS: '50' } });
  });
  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
  });

  it('settlement and checkout retried with the same key: outcome_unknown, 0 second payments; transfer and charge reconcile to 1', async () => {
    const paid = await payEach(stack, [settlement, checkout, transfer, charge]);
    await redis.restart();
    await waitFor(
      async () => (await transfer.send(stack, amount(), randomUUID())).typename !== 'ServiceUnavailableError',
      'the guard back',
    );

    for (const { kind, a, key, first } of paid) {
      const retried = await kind.send(stack, a, key);
      const again = await kind.send(stack, a, key);
      if (kind === settlement || kind === checkout) {
        for (const answer of [retried, again]) {
          expect(answer, kind.name).toMatchObject({
            typename: 'IdempotencyConflictError',
            body: { code: 'IDEMPOTENCY_CONFLICT', reason: 'OUTCOME_UNKNOWN', retryable: false, retryAfterMs: null },
          });
        }
      } else {
        expect(retried.body, kind.name).toEqual(first.body);
        expect(again.body, kind.name).toEqual(first.body);
      }
      expect(await kind.count(a), kind.name).toBe(1);
    }
  });
});

describe('Redis switched to an evicting policy at run time', () => {
  let redis: TestRedisServer;
  let admin: Redis;
  let stack: TestStack;

  beforeAll(async () => {
    redis = await startRedisServer({ persistence: 'none', maxmemory: '64mb', maxmemoryPolicy: 'noeviction' });
    admin = new Redis(redis.url);
    stack = await startStack({ sharedSandbox: sandbox, apiKey, env: { REDIS_URL: redis.url, HEALTH_PROBE_MS: '50' } });
  });
  afterAll(async () => {
    await stack?.close();
    admin?.disconnect();
    await redis?.stop();
  });

  it('not ready and refusing payments while it evicts; after the operator fixes it, forgotten settlements and checkouts are refused, transfers and charges reconcile', async () => {
    await waitFor(async () => (await ready(stack)).status === 200, 'ready');
    const paid = await payEach(stack, [settlement, checkout, transfer, charge]);

    await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
    // Waits on the Redis verdict itself: a loaded machine can make the upstream probe time out too (another 503).
    await waitFor(async () => (await ready(stack)).body.redis === 'evicting', 'not ready once the policy evicts');
    expect((await ready(stack)).body).toMatchObject({ ready: false, redis: 'evicting' });
    const refusedAmount = amount();
    expect(await transfer.send(stack, refusedAmount, randomUUID())).toMatchObject({ typename: 'ServiceUnavailableError' });
    expect(await transfer.count(refusedAmount)).toBe(0);

    // Filled until the idempotency keys of the payments above are gone.
    const used = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))![1]);
    await admin.config('SET', 'maxmemory', String(used + 512 * 1024));
    const chunk = 'x'.repeat(64 * 1024);
    let filled = 0;
    await waitFor(
      async () => {
        await admin.set(`filler:${filled++}`, chunk);
        const left = await Promise.all(paid.map(async ({ key }) => (await admin.keys(`*${key}`)).length));
        return left.every((n) => n === 0);
      },
      'the keys to be evicted',
      20_000,
    );

    // The operator stops the evictions.
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    await admin.config('SET', 'maxmemory', '64mb');
    await waitFor(async () => (await ready(stack)).status === 200, 'ready again once nothing is evicted');

    for (const { kind, a, key, first } of paid) {
      const retried = await kind.send(stack, a, key);
      if (kind === settlement || kind === checkout) {
        expect(retried, kind.name).toMatchObject({ typename: 'IdempotencyConflictError', body: { reason: 'OUTCOME_UNKNOWN' } });
      } else {
        expect(retried.body, kind.name).toEqual(first.body);
      }
      expect(await kind.count(a), kind.name).toBe(1);
    }
  });
});

describe('Redis that refuses writes', () => {
  let redis: TestRedisServer;
  let admin: Redis;
  let stack: TestStack;

  beforeAll(async () => {
    redis = await startRedisServer({ persistence: 'none', maxmemory: '64mb', maxmemoryPolicy: 'noeviction' });
    admin = new Redis(redis.url);
    stack = await startStack({ sharedSandbox: sandbox, apiKey, env: { REDIS_URL: redis.url, HEALTH_PROBE_MS: '50' } });
  });
  afterAll(async () => {
    await stack?.close();
    admin?.disconnect();
    await redis?.stop();
  });

  it('full (OOM under noeviction): /health/ready 503 refuses_writes, and 200 once it has room again', async () => {
    await waitFor(async () => (await ready(stack)).status === 200, 'ready');
    await admin.set('filler', 'x'.repeat(1024 * 1024));
    await admin.config('SET', 'maxmemory', '1mb');
    await waitFor(async () => (await ready(stack)).body.redis === 'refuses_writes', 'not ready while Redis is full');
    expect((await ready(stack)).body).toMatchObject({ ready: false, redis: 'refuses_writes' });
    await admin.del('filler');
    await admin.config('SET', 'maxmemory', '64mb');
    await waitFor(async () => (await ready(stack)).status === 200, 'ready once Redis has room');
  });

  it('a read-only replica: /health/ready 503 refuses_writes', async () => {
    const primary = await startRedisServer({ persistence: 'none' });
    try {
      await admin.replicaof('127.0.0.1', String(primary.port));
      await waitFor(async () => (await ready(stack)).body.redis === 'refuses_writes', 'not ready on a read-only replica');
      expect((await ready(stack)).body).toMatchObject({ ready: false, redis: 'refuses_writes' });
      await admin.replicaof('NO', 'ONE');
      await waitFor(async () => (await ready(stack)).status === 200, 'ready once it is a primary again');
    } finally {
      await primary.stop();
    }
  });
});
