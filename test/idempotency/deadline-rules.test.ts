// Two rules of a claim whose holder is gone, with the shipped defaults: the call's own time (PAYMENT_TIMEOUT_MS,
// 15 s) against the presence lease (10 s), on a real Redis. A claim's deadline is claim + call time + margin: with a
// call slower than the lease, a holder that died is gone (its lease ran out) long before its call surely ended, and
// no retry may look the payment up until then. And a different input under the key is a conflict whatever became
// of the claim. holder.test.ts shows the same story with a 200 ms call, too short to tell the call's time from the
// margin. Time passes here on Redis's own clock for the claim, which is what the orphan check reads: the claim's
// remaining lifetime (PTTL) is shortened by the seconds that "passed", so the defaults are checked without waiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { IdempotencyConflictError } from '../../src/errors/payment-errors.js';
import { runIdempotent } from '../../src/idempotency/run.js';
import { IDEMPOTENCY_TTL_MS, redisIdempotencyStore, type IdempotencyStore } from '../../src/idempotency/store.js';
import { connectRedis, type GatewayRedis } from '../../src/redis/index.js';
import { PRESENCE_LEASE_MS, startReplicaPresence } from '../../src/redis/replica-presence.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';

const namespace = uniqueNamespace('idem-deadline-rules');
/** PAYMENT_TIMEOUT_MS as it ships. */
const CALL_MS = loadConfig({}).upstream.timeoutMs;
let redis: GatewayRedis;

beforeAll(async () => {
  redis = await connectRedis({ url: REDIS_URL, namespace });
});
afterAll(async () => {
  await deleteByPrefix(redis.commands, namespace);
  await redis.close();
});

/** A replica's store, wired as gateway.ts wires it: its presence, and the call time of the configuration. */
async function replica() {
  const presence = await startReplicaPresence(redis);
  return { presence, store: redisIdempotencyStore(redis, { presence, callMs: CALL_MS }) };
}

/** A payout whose call never ends on `store` (its replica dies during it). */
function holdForever(store: IdempotencyStore, key: string, amount: number): void {
  void runIdempotent({
    store,
    principal: 'ops',
    operation: 'createTransfer',
    key,
    input: { amount },
    meta: { extId: `x-${key}` },
    execute: () => new Promise<never>(() => {}),
  });
}

/** A retry of `key` with `amount`: what it gets, and the look-ups it made at the service. */
async function retry(store: IdempotencyStore, key: string, amount: number) {
  const lookups: boolean[] = [];
  const outcome = await runIdempotent<string>({
    store,
    principal: 'ops',
    operation: 'createTransfer',
    key,
    input: { amount },
    meta: { extId: `x-${key}` },
    execute: async () => 'sent again',
    reconcile: async (_meta, settled) => (lookups.push(settled), 'the payout'),
  }).catch((err: unknown) => err);
  return { outcome, lookups };
}

/** Moves Redis's clock for the claim of `key`: as if `elapsedMs` had passed since it was made. */
async function elapse(key: string, elapsedMs: number): Promise<void> {
  const [full] = await redis.commands.keys(`*${namespace}*idem*${key}*`);
  expect(full, `the claim of ${key}`).toBeDefined();
  await redis.commands.pexpire(full!, IDEMPOTENCY_TTL_MS - elapsedMs);
}

describe('a claim whose holder is gone (PAYMENT_TIMEOUT_MS 15 s, presence lease 10 s)', () => {
  it('the shipped call time is slower than the presence lease (what this file is about)', () => {
    expect(CALL_MS).toBe(15_000);
    expect(CALL_MS).toBeGreaterThan(PRESENCE_LEASE_MS);
  });

  it('is not looked up before claim + the call time + the margin, though its holder is gone much sooner', async () => {
    const a = await replica();
    const b = await replica();
    holdForever(a.store, 'slow-call', 500);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await a.presence.close(); // the holder is gone: its lease is over
    // 12 s after the claim: the lease (10 s) and a margin are over, the call's 15 s are not.
    await elapse('slow-call', PRESENCE_LEASE_MS + 2_000);
    const early = await retry(b.store, 'slow-call', 500);
    expect(early.lookups).toEqual([]);
    expect((early.outcome as IdempotencyConflictError).reason).toBe('in_progress');
    // 15.9 s: still within the margin after the call's deadline.
    await elapse('slow-call', CALL_MS + 900);
    expect((await retry(b.store, 'slow-call', 500)).lookups).toEqual([]);
    // Past claim + 15 s + 1 s: looked up at once, and what is found is the answer.
    await elapse('slow-call', CALL_MS + 1_100);
    expect(await retry(b.store, 'slow-call', 500)).toEqual({ outcome: 'the payout', lookups: [false] });
    await b.presence.close();
  });

  it('with another input under the key is a conflict, even past the deadline with its holder gone', async () => {
    const a = await replica();
    const b = await replica();
    holdForever(a.store, 'other-input', 500);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await a.presence.close();
    await elapse('other-input', CALL_MS + 5_000);
    const other = await retry(b.store, 'other-input', 50_000);
    expect(other.lookups).toEqual([]);
    expect(other.outcome).toBeInstanceOf(IdempotencyConflictError);
    expect((other.outcome as IdempotencyConflictError).reason).toBe('different_input');
    // The same input is the orphan's retry: looked up.
    expect((await retry(b.store, 'other-input', 500)).lookups).toEqual([false]);
    await b.presence.close();
  });
});
