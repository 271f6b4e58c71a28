// Evictions as a loss (issue 26, point 5): when Redis's `evicted_keys` grows, the write-health watch
// (src/redis/write-health.ts) records the loss in the epoch, so every replica treats keys claimed before as
// possibly forgotten. Shown under `volatile-lru`, where Redis evicts only keys with a TTL (the idempotency
// keys) and never the epoch's own record: nothing but the watch can tell the keys went. A payment whose key was
// evicted is then refused as outcome_unknown on its retry, on this replica and on another, never sent again.
// Each test runs a redis-server of its own on a spare port, stopped by PID.
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { runIdempotent } from '../../src/idempotency/run.js';
import { IDEMPOTENCY_TTL_MS, redisIdempotencyStore, type IdempotencyStore } from '../../src/idempotency/store.js';
import { silentLogger } from '../../src/logger.js';
import { connectRedis, redisEpoch, redisWriteHealth, type GatewayRedis } from '../../src/redis/index.js';
import { startRedisServer } from '../helpers/redis-server.js';
import { waitFor } from './wait.js';

let t = 1_700_000_000_000;
const now = () => t;

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A settlement-like call: no look-up at the service, so a key it cannot trust is refused; counts the sends. */
function settlements() {
  let sent = 0;
  return {
    sent: () => sent,
    run: (store: IdempotencyStore, key: string) =>
      runIdempotent({
        store,
        principal: 'staff-1',
        operation: 'createSettlement',
        key,
        input: { amount: 5000 },
        execute: async () => `st_${++sent}`,
      }),
  };
}

/**
 * A gateway's Redis parts on a Redis of the test's own (noeviction at first), wired as src/gateway.ts wires
 * them: one epoch shared by the store and the write-health watch, claims refused while the watch sees a problem.
 * The store's memory has been continuous for a whole key lifetime, and two settlements were made.
 */
async function setup() {
  const server = await startRedisServer({ persistence: 'none', maxmemory: '64mb', maxmemoryPolicy: 'noeviction' });
  cleanup.push(() => server.stop());
  const admin = new Redis(server.url);
  cleanup.push(() => admin.disconnect());
  const redis: GatewayRedis = await connectRedis({ url: server.url, namespace: 'evictions', commandTimeoutMs: 10_000 });
  cleanup.push(() => redis.close());
  const epoch = redisEpoch(redis);
  const writes = redisWriteHealth({ redis, epoch, log: silentLogger, now });
  const store = redisIdempotencyStore(redis, { now, epoch, unsafe: () => writes.problem });
  // Another replica of the gateway: its own view of the epoch, its own watch (which saw nothing).
  const other = redisIdempotencyStore(redis, { now });
  const s = settlements();
  expect(await writes.check()).toBe('ok'); // the watch's first look: the counter's starting point
  await s.run(store, 'warmup');
  t += IDEMPOTENCY_TTL_MS;
  expect(await s.run(store, 'one')).toBe('st_2');
  expect(await s.run(other, 'two')).toBe('st_3');
  const idemKeys = async () => (await admin.keys('evictions:idem:*')).length;
  expect(await idemKeys()).toBe(3);
  return { admin, redis, epoch, writes, store, other, s, idemKeys };
}

/** Fills Redis with keys that carry a TTL, at a small maxmemory, until no idempotency key is left (and `more` keys after). */
async function evictIdempotencyKeys(admin: Redis, idemKeys: () => Promise<number>, more = 0) {
  await admin.config('SET', 'maxmemory-policy', 'volatile-lru');
  const used = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))![1]);
  await admin.config('SET', 'maxmemory', String(used + 256 * 1024));
  const chunk = 'x'.repeat(16 * 1024);
  let n = 0;
  await waitFor(
    async () => {
      await admin.set(`filler:${n++}`, chunk, 'EX', 3600);
      return (await idemKeys()) === 0;
    },
    'the idempotency keys to be evicted',
    20_000,
  );
  for (let i = 0; i < more; i++) await admin.set(`filler:${n++}`, chunk, 'EX', 3600);
}

const evictedKeys = async (admin: Redis) => Number(/evicted_keys:(\d+)/.exec(await admin.info('stats'))![1]);

describe('evictions under volatile-lru (the epoch record has no TTL and stays)', () => {
  it('are recorded as a loss: the retries of evicted keys are refused as outcome_unknown on every replica, never sent again', async () => {
    const { admin, epoch, writes, store, other, s, idemKeys } = await setup();
    const before = await admin.hgetall(epoch.key);

    await evictIdempotencyKeys(admin, idemKeys);
    expect(await evictedKeys(admin)).toBeGreaterThan(0);
    // The epoch's own record was not evicted: nothing in the data says that keys went.
    expect(await admin.hget(epoch.key, 'id')).toBe(before.id);

    expect(await writes.check()).toBe('evicting');
    const recorded = await admin.hgetall(epoch.key);
    expect(recorded.id).not.toBe(before.id);
    expect(Number(recorded.lostAt)).toBe(t);

    // The operator stops the evictions; the watch is content again.
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    await admin.config('SET', 'maxmemory', '64mb');
    // (The check that found the evictions may itself have evicted one more key: the next one is clear.)
    await waitFor(async () => (await writes.check()) === 'ok', 'the watch to see no new evictions');
    expect(writes.problem).toBeNull();

    // Both retries find no key: each is refused, on this replica and on the other, none sent twice.
    await expect(s.run(store, 'one')).rejects.toMatchObject({ reason: 'outcome_unknown' });
    await expect(s.run(other, 'two')).rejects.toMatchObject({ reason: 'outcome_unknown' });
    expect(s.sent()).toBe(3);
  });

  it('seen while Redis cannot take the record (full: nothing with a TTL left to evict), are recorded at the next check', async () => {
    const { admin, epoch, writes, store, s, idemKeys } = await setup();
    const before = await admin.hget(epoch.key, 'id');
    await admin.config('SET', 'maxmemory-policy', 'volatile-lru');
    // Data without a TTL (in small keys: no large query buffer that Redis would free later), then the limit
    // lowered below it: the next write evicts every key with a TTL (the idempotency keys among them) and is
    // still refused, and so is every write after it.
    for (let i = 0; i < 64; i++) await admin.set(`ballast:${i}`, 'x'.repeat(16 * 1024));
    const used = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))![1]);
    await admin.config('SET', 'maxmemory', String(used - 512 * 1024));
    await expect(admin.set('one-more', 'x')).rejects.toThrow(/OOM/);
    expect(await idemKeys()).toBe(0);

    // The watch sees the counter grow but cannot write the loss: that check fails (not ready).
    await expect(writes.check()).rejects.toThrow(/OOM/);
    expect(await admin.hget(epoch.key, 'id')).toBe(before);

    // Room again: the next check records the loss it could not write before.
    await admin.del(...Array.from({ length: 64 }, (_, i) => `ballast:${i}`));
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    await admin.config('SET', 'maxmemory', '64mb');
    await writes.check();
    expect(await admin.hget(epoch.key, 'id')).not.toBe(before);
    expect(Number(await admin.hget(epoch.key, 'lostAt'))).toBe(t);
    expect(await writes.check()).toBe('ok');
    await expect(s.run(store, 'one')).rejects.toMatchObject({ reason: 'outcome_unknown' });
    expect(s.sent()).toBe(3);
  });

  it('after the counter restarted (CONFIG RESETSTAT, a restart), evictions below its old value still count', async () => {
    const { admin, epoch, writes, store, s, idemKeys } = await setup();
    // Evictions seen by the watch and recorded, then cleared by the operator (who checked the service's lists).
    await evictIdempotencyKeys(admin, idemKeys, 200);
    await writes.check();
    const evictedBefore = await evictedKeys(admin);
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    await admin.config('SET', 'maxmemory', '64mb');
    await admin.eval("for _, k in ipairs(redis.call('KEYS', 'filler:*')) do redis.call('DEL', k) end", 0);
    t += IDEMPOTENCY_TTL_MS;
    await writes.check();
    expect(await s.run(store, 'new')).toBe('st_4'); // a whole key lifetime after the loss: sent

    expect(await writes.check()).toBe('ok');
    const id = await admin.hget(epoch.key, 'id');
    // The counter starts again from 0, and, before the watch looks again, fewer evictions than it showed before.
    await admin.config('RESETSTAT');
    await evictIdempotencyKeys(admin, idemKeys);
    const evictedNow = await evictedKeys(admin);
    expect(evictedNow).toBeGreaterThan(0);
    expect(evictedNow).toBeLessThan(evictedBefore);

    expect(await writes.check()).toBe('evicting');
    expect(await admin.hget(epoch.key, 'id')).not.toBe(id);
    expect(Number(await admin.hget(epoch.key, 'lostAt'))).toBe(t);
  });
});
