// REDIS_KEY_PREFIX: two gateways (say staging and production) with different prefixes on one Redis share
// nothing: not their events, idempotency keys, webhook delivery ids, rate limits, reconciliation lease, nor
// pub/sub channels. Both are configured through the environment only, as an operator would.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../gql/index.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { postWebhook } from '../live/helpers.js';
import { waitFor } from '../helpers/wait.js';
import { deleteByPrefix, REDIS_URL } from '../events/redis-helpers.js';
import { historyReferences } from './failover-traffic.js';

const Charge = graphql(`
  mutation PrefixCharge($input: CreateChargeInput!) {
    createCharge(input: $input) {
      __typename
      ... on CreateChargePayload { reference }
      ... on PaymentError { code }
    }
  }
`);

const prefixA = `test:prefix-a:${randomUUID()}`;
const prefixB = `test:prefix-b:${randomUUID()}`;
let a: TestStack;
let b: TestStack;
let observer: Redis;

const env = (prefix: string) => ({
  REDIS_URL,
  REDIS_KEY_PREFIX: prefix,
  RATE_LIMIT_STAFF_MONEY_PER_MINUTE: '2',
  SUBSCRIPTION_POLL_MS: '0',
});
const charge = (stack: TestStack, amount: number, idempotencyKey: string) =>
  stack.gql(Charge, { input: { amount, phone: '58000000', provider: 'OPC_BF', idempotencyKey } }).then((r) => r.data?.createCharge);

beforeAll(async () => {
  a = await startStack({ env: env(prefixA) });
  // One payment service account, one staff subject (`test-staff`): only the prefix differs.
  b = await startStack({ env: env(prefixB), sharedSandbox: a.sandbox, apiKey: a.apiKey });
  observer = new Redis(REDIS_URL);
});

afterAll(async () => {
  await b?.close();
  await a?.close();
  await deleteByPrefix(observer, prefixA);
  await deleteByPrefix(observer, prefixB);
  observer.disconnect();
});

describe('REDIS_KEY_PREFIX', () => {
  it('idempotency keys and rate limits are per prefix', async () => {
    const key = randomUUID();
    const first = await charge(a, 611, key);
    expect(first?.__typename).toBe('CreateChargePayload');
    // The same key with another input would be IDEMPOTENCY_CONFLICT on one store; here it is a new payment.
    const other = await charge(b, 612, key);
    expect(other?.__typename).toBe('CreateChargePayload');
    expect(other && 'reference' in other && first && 'reference' in first && other.reference !== first.reference).toBe(true);

    // RATE_LIMIT_STAFF_MONEY_PER_MINUTE=2 for the one subject: A spends its two, B still has one of its own.
    expect((await charge(a, 613, randomUUID()))?.__typename).toBe('CreateChargePayload');
    expect((await charge(a, 614, randomUUID()))?.__typename).toBe('RateLimitedError');
    expect((await charge(b, 615, randomUUID()))?.__typename).toBe('CreateChargePayload');
    expect((await charge(b, 616, randomUUID()))?.__typename).toBe('RateLimitedError');
  });

  it('events and webhook delivery ids are per prefix', async () => {
    const reference = `ch_prefix_${randomUUID()}`;
    const body = JSON.stringify({ id: `evt_${reference}`, event: 'charge.success', data: { reference, status: 'success' } });
    expect((await postWebhook(a.gateway.webhookUrl!, a.webhookSecret, body)).json).toMatchObject({ duplicate: false });
    expect(await historyReferences(a)).toContain(reference);
    expect(await historyReferences(b)).not.toContain(reference);
    // The same delivery at B is news to B, not a duplicate of A's.
    expect((await postWebhook(b.gateway.webhookUrl!, b.webhookSecret, body)).json).toMatchObject({ duplicate: false });
    expect(await historyReferences(b)).toContain(reference);
  });

  it('each holds its own reconciliation lease', async () => {
    await Promise.all([a.gateway.reconciler.tick(), b.gateway.reconciler.tick()]);
    const [leaseA, leaseB] = await Promise.all([observer.get(`${prefixA}:reconcile:lease`), observer.get(`${prefixB}:reconcile:lease`)]);
    expect(leaseA).toBeTruthy();
    expect(leaseB).toBeTruthy();
    expect(leaseA).not.toBe(leaseB);
  });

  it('pub/sub channels are per prefix', async () => {
    const reference = `ch_pubsub_${randomUUID()}`;
    const atB = b.gateway.bus.subscribeResourceChanged('charge', reference)[Symbol.asyncIterator]();
    const atA = a.gateway.bus.subscribeResourceChanged('charge', reference)[Symbol.asyncIterator]();
    const nextAtB = atB.next();
    const nextAtA = atA.next();
    // Both subscribed: each channel has its subscriber under its own prefix, none under the other's.
    const channels = async (prefix: string) => (await observer.pubsub('CHANNELS', `${prefix}:*`)) as string[];
    await waitFor(async () => (await channels(prefixA)).length > 0 && (await channels(prefixB)).length > 0, 'both subscriptions');
    expect((await channels(prefixA)).every((c) => !c.startsWith(prefixB))).toBe(true);

    await a.gateway.bus.publishResourceChanged({ type: 'charge', reference, status: 'from-a', resource: {} });
    await b.gateway.bus.publishResourceChanged({ type: 'charge', reference, status: 'from-b', resource: {} });
    // B's first message is its own: A's, published before, never reached it.
    expect((await nextAtB).value).toMatchObject({ status: 'from-b' });
    expect((await nextAtA).value).toMatchObject({ status: 'from-a' });
    await Promise.all([atA.return?.(), atB.return?.()]);
  });

  it('every key each gateway wrote is under its own prefix', async () => {
    const keys = async (prefix: string) => {
      const found: string[] = [];
      let cursor = '0';
      do {
        const [next, batch] = await observer.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        found.push(...batch);
        cursor = next;
      } while (cursor !== '0');
      return found;
    };
    const [ofA, ofB] = await Promise.all([keys(prefixA), keys(prefixB)]);
    for (const part of [':idem:', ':events:log', ':webhook-delivery:', ':ratelimit:', ':reconcile:lease']) {
      expect(ofA.some((k) => k.includes(part))).toBe(true);
      expect(ofB.some((k) => k.includes(part))).toBe(true);
    }
  });
});
