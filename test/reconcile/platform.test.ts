// Live reconciliation in platform mode, over real Redis, the sandbox and a real WebSocket: merchant A's charge
// whose webhook never comes (the sandbox sends none here) is looked at with A's own key (the gateway's key knows
// nothing of A's account at the sandbox), its state kept under A's hash tag and in A's key index, and the event
// the gateway synthesizes carries A's id: it reaches A's subscriber and A's history, never B's.
import { randomUUID } from 'node:crypto';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mintStaffToken, SCOPES } from '../../src/auth/index.js';
import { connectRedis, merchantExpiringIndex, merchantKeyIndex } from '../../src/redis/index.js';
import { manualClock, type ManualClock } from '../../src/sandbox/index.js';
import { uniqueNamespace } from '../events/redis-helpers.js';
import type { TestStack } from '../helpers/gateway.js';
import { closePlatformStack, createMerchant, REDIS_URL, startPlatformStack } from '../helpers/platform.js';
import { waitFor } from '../helpers/wait.js';
import { disposeAllClients, subscribe, wsClient } from '../live/helpers.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- ad-hoc documents of this suite
type Doc = TypedDocumentNode<any, Record<string, unknown>>;

const AFTER_MS = 60_000;
const PAY_OFFLINE_MS = 1_000;
const namespace = uniqueNamespace('platform-reconcile');
let stack: TestStack;
let clock: ManualClock;

beforeAll(async () => {
  clock = manualClock();
  stack = await startPlatformStack(namespace, {
    sandbox: { clock, delays: { payOfflineMs: PAY_OFFLINE_MS } },
    clock,
    env: { SUBSCRIPTION_POLL_MS: '0', RECONCILE_AFTER_MS: String(AFTER_MS), RECONCILE_STUCK_HOURS: '1' },
  });
}, 30_000);

afterAll(async () => {
  await disposeAllClients();
  await closePlatformStack(stack, namespace);
});

const EVENTS = 'subscription { paymentEvents(kinds: ["charge.success"]) { kind reference source } }';
const HISTORY = 'query { events(first: 10) { edges { node { kind reference source } } } }';

it('reconciles a merchant’s charge with its own key, and its synthesized event reaches that merchant only', async () => {
  const operator = (await mintStaffToken({ secret: stack.jwtSecret, scopes: SCOPES, subject: 'operator', ttlSeconds: 600 })).token;
  const as = (token: string, query: string, variables: Record<string, unknown> = {}) =>
    stack.gql(parse(query) as Doc, variables, { authorization: `Bearer ${token}` });
  const merchant = (name: string) => createMerchant(stack, name, operator);
  const [a, b] = [await merchant('reconcilea'), await merchant('reconcileb')];
  const staff = async (merchantId: string) =>
    (
      await mintStaffToken({
        secret: stack.jwtSecret,
        scopes: ['payments:read', 'payments:collect', 'events:read'],
        subject: `staff-${merchantId}`,
        ttlSeconds: 600,
        merchantId,
      })
    ).token;
  const [staffA, staffB] = [await staff(a), await staff(b)];
  const subscriberOf = (token: string) =>
    subscribe(wsClient(stack.gateway.graphqlUrl, { connectionParams: { authorization: `Bearer ${token}` } }), parse(EVENTS) as Doc);
  const [eventsA, eventsB] = [subscriberOf(staffA), subscriberOf(staffB)];

  const created = await as(
    staffA,
    `mutation($i: CreateChargeInput!) { createCharge(input: $i) { ... on CreateChargePayload { reference status } } }`,
    { i: { amount: 2000, phone: '70000000', provider: 'OPB_BF', confirmationMethod: 'USSD', idempotencyKey: randomUUID() } },
  );
  const { reference, status } = created.data!.createCharge as { reference: string; status: string };
  expect(status).toBe('PAY_OFFLINE');

  // The watch is A's: under A's hash tag, in A's key indexes (offboarding's purge removes it).
  const redis = await connectRedis({ url: REDIS_URL, namespace });
  try {
    const due = redis.tagged(`m:${a}`, 'reconcile', 'due');
    await waitFor(async () => (await redis.commands.zcard(due)) === 1, 'A’s watch');
    expect(await redis.commands.sismember(merchantKeyIndex(redis, a), due)).toBe(1);
    expect(
      await redis.commands.zscore(merchantExpiringIndex(redis, a), redis.tagged(`m:${a}`, 'reconcile', 'item', `charge:${reference}`)),
    ).not.toBeNull();
    expect(await redis.commands.exists(redis.key('reconcile', 'due'), redis.tagged(`m:${b}`, 'reconcile', 'due'))).toBe(0);
  } finally {
    await redis.close();
  }

  // The customer pays; no webhook comes. Past the window and one tick, the reconciler looks with A's key.
  await clock.advance(PAY_OFFLINE_MS);
  await clock.advance(AFTER_MS + AFTER_MS / 4);
  expect((await eventsA.next(10_000, 'A’s synthesized event')).paymentEvents).toEqual({
    kind: 'charge.success',
    reference,
    source: 'POLL',
  });

  const history = async (token: string) =>
    ((await as(token, HISTORY)).data!.events.edges as Array<{ node: { reference: string; source: string } }>).map((e) => e.node);
  expect(await history(staffA)).toContainEqual({ kind: 'charge.success', reference, source: 'POLL' });
  expect(await history(staffB)).toEqual([]);
  // B's subscriber, live the whole time, got nothing (the event reached A's first, then B's history had none).
  expect(eventsB.results).toEqual([]);
  await waitFor(async () => {
    const r = await connectRedis({ url: REDIS_URL, namespace });
    const left = await r.commands.zcard(r.tagged(`m:${a}`, 'reconcile', 'due'));
    await r.close();
    return left === 0;
  }, 'A’s watch to end with the final status');
}, 30_000);
