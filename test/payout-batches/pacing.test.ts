// The pacer every replica asks before a bulk call: at most N grants in any
// window of one second plus the margin, counted together for every pacer that
// shares the Redis key (replicas), and an honest wait when the window is full.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { memoryPacer, redisPacer } from '../../src/payout-batches/pacing.js';
import { connectRedis, type GatewayRedis } from '../../src/redis/index.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';

const namespace = uniqueNamespace('payout-pacing');
let a: GatewayRedis;
let b: GatewayRedis;

beforeAll(async () => {
  a = await connectRedis({ url: REDIS_URL, namespace });
  b = await connectRedis({ url: REDIS_URL, namespace });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  const redis = new Redis(REDIS_URL);
  await deleteByPrefix(redis, namespace);
  await redis.quit();
});

it('memory: a sliding window, not a fixed one: a slot frees exactly one window after its grant', async () => {
  let now = 10_500;
  const pacer = memoryPacer({ callsPerSecond: 5, marginMs: 100 }, () => now);
  for (let i = 0; i < 5; i++) {
    expect(await pacer.tryTake()).toBeNull();
    now += 100;
  }
  // t = 11,000: a fixed one-second window would open here; the service's sliding one does not.
  expect(await pacer.tryTake()).toBe(600);
  now += 599;
  expect(await pacer.tryTake()).toBe(1);
  now += 1;
  expect(await pacer.tryTake()).toBeNull();
  expect(await pacer.tryTake()).toBe(100);
});

it('redis: two replicas share one window; the sixth call waits, at most a window', async () => {
  // A window far longer than this test can take, so the count cannot move under it.
  const options = { callsPerSecond: 5, marginMs: 60_000 };
  const pacers = [redisPacer(a, options), redisPacer(b, options)];
  const grants = [];
  for (let i = 0; i < 5; i++) grants.push(await pacers[i % 2]!.tryTake());
  expect(grants).toEqual([null, null, null, null, null]);
  for (const pacer of pacers) {
    const wait = await pacer.tryTake();
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(61_000);
  }
});
