// A claim names its holder (a replica alive through its presence in Redis) and its call's deadline: a retry on
// another replica looks up a claim whose holder is gone once that deadline has passed, and leaves a live holder's
// claim alone. Two stores on one real Redis stand for two replicas; a short call time and presence lease stand for
// PAYMENT_TIMEOUT_MS and the 10 s lease (test/idempotency/orphaned-claim.test.ts shows the defaults, with processes).
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { IdempotencyConflictError } from '../../src/errors/payment-errors.js';
import { runIdempotent } from '../../src/idempotency/run.js';
import { redisIdempotencyStore, type IdempotencyStore } from '../../src/idempotency/store.js';
import { connectRedis, type GatewayRedis } from '../../src/redis/index.js';
import { startReplicaPresence, type ReplicaPresence } from '../../src/redis/replica-presence.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';

const namespace = uniqueNamespace('idem-holder');
const CALL_MS = 200;
/** What the store adds to a claim's deadline for the call's start (DEADLINE_MARGIN_MS). */
const MARGIN_MS = 1_000;
let redis: GatewayRedis;
const presences: ReplicaPresence[] = [];

beforeAll(async () => {
  redis = await connectRedis({ url: REDIS_URL, namespace });
});
afterAll(async () => {
  for (const p of presences) await p.close();
  await deleteByPrefix(redis.commands, namespace);
  await redis.close();
});

async function replica(withPresence = true): Promise<{ store: IdempotencyStore; presence: ReplicaPresence | null }> {
  const presence = withPresence ? await startReplicaPresence(redis, () => {}, { leaseMs: 300, renewMs: 100 }) : null;
  if (presence) presences.push(presence);
  const store = redisIdempotencyStore(redis, { callMs: CALL_MS, ...(presence ? { presence } : {}) });
  return { store, presence };
}

/** A retry of `key` on a store: what it gets, the look-up it made. */
async function retry(store: IdempotencyStore, key: string, found: string | null) {
  const lookups: boolean[] = [];
  const outcome = await runIdempotent<string>({
    store,
    principal: 'ops',
    operation: 'createTransfer',
    key,
    input: { amount: 500 },
    meta: { extId: `x-${key}` },
    execute: async () => 'sent again',
    reconcile: async (_meta, settled) => {
      lookups.push(settled);
      return found;
    },
    settleWindowMs: 60_000,
  }).catch((err: unknown) => err);
  return { outcome, lookups };
}

/** Holds `key` on `store` with a call that never ends (the holder dies or is slow). */
function holdForever(store: IdempotencyStore, key: string) {
  void runIdempotent({
    store,
    principal: 'ops',
    operation: 'createTransfer',
    key,
    input: { amount: 500 },
    meta: { extId: `x-${key}` },
    execute: () => new Promise<never>(() => {}),
  });
}

it('a claim whose holder is gone is looked up once its deadline has passed, not before', async () => {
  const a = await replica();
  const b = await replica();
  holdForever(a.store, 'k1');
  await sleep(50);
  await a.presence!.close();
  // Holder gone, call possibly still on its way: in progress.
  const early = await retry(b.store, 'k1', 'the payout');
  expect(early.outcome).toBeInstanceOf(IdempotencyConflictError);
  expect((early.outcome as IdempotencyConflictError).reason).toBe('in_progress');
  expect(early.lookups).toEqual([]);
  await sleep(CALL_MS + MARGIN_MS + 100);
  // Past the deadline: looked up at once, the payout found is the answer (and saved: replayed after).
  const late = await retry(b.store, 'k1', 'the payout');
  expect(late).toEqual({ outcome: 'the payout', lookups: [false] });
  expect((await retry(b.store, 'k1', null)).outcome).toBe('the payout');
});

it('an orphaned claim not found yet waits for the settle window, counted from its deadline', async () => {
  const a = await replica();
  const b = await replica();
  holdForever(a.store, 'k2');
  await sleep(50);
  await a.presence!.close();
  await sleep(CALL_MS + MARGIN_MS + 100);
  const notYet = await retry(b.store, 'k2', null);
  expect(notYet.lookups).toEqual([false]);
  expect(notYet.outcome).toBeInstanceOf(IdempotencyConflictError);
  const retryAfter = (notYet.outcome as IdempotencyConflictError).retryAfterMs!;
  expect(retryAfter).toBeGreaterThan(55_000);
  expect(retryAfter).toBeLessThanOrEqual(60_000);
});

it('a live holder keeps its claim past its deadline; a holder whose lease ran out loses it', async () => {
  const a = await replica();
  const b = await replica();
  holdForever(a.store, 'k3');
  await sleep(CALL_MS + MARGIN_MS + 300);
  const alive = await retry(b.store, 'k3', 'the payout');
  expect((alive.outcome as IdempotencyConflictError).reason).toBe('in_progress');
  expect(alive.lookups).toEqual([]);
  // Its presence runs out (the killed-process case with the default lease: test/idempotency/orphaned-claim.test.ts).
  await a.presence!.close();
  expect((await retry(b.store, 'k3', 'the payout')).outcome).toBe('the payout');
});

it('a store that knows no presence names no holder: its claims wait out IDEMPOTENCY_PENDING_TTL_MS', async () => {
  const a = await replica(false);
  const b = await replica();
  holdForever(a.store, 'k4');
  await sleep(CALL_MS + MARGIN_MS + 300);
  const outcome = (await retry(b.store, 'k4', 'the payout')).outcome as IdempotencyConflictError;
  expect(outcome.reason).toBe('in_progress');
  expect(outcome.retryAfterMs).toBeGreaterThan(200_000);
});
