// Starting to watch a created resource is one Redis round trip (its item and its place in the schedule in one
// script), and watching it again changes nothing. On a private redis-server, whose INFO counts round trips.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { redisReconcileStore, type WatchedResource } from '../../src/reconcile/store.js';
import type { GatewayRedis } from '../../src/redis/index.js';
import { countsBetween, redisCounts, startCountedRedis, type CountedRedis } from '../helpers/redis-counts.js';

let counted: CountedRedis;
let redis: GatewayRedis;
let admin: Redis;
beforeAll(async () => {
  counted = await startCountedRedis('watch-rtt');
  ({ redis, admin } = counted);
});
afterAll(() => counted?.close());

const item = (dueAt: number, lastStatus: string | null = null): WatchedResource => ({
  type: 'charge',
  reference: 'ch_rtt',
  createdAt: 1_000,
  lastStatus,
  intervalMs: 60_000,
  dueAt,
});

it('adds the item and its schedule entry in one round trip, with its lifetime; a second add changes nothing', async () => {
  const store = redisReconcileStore(redis, { itemTtlMs: 3_600_000 });
  const before = await redisCounts(admin);
  await store.add(item(5_000));
  const counted = countsBetween(before, await redisCounts(admin));
  expect(counted.roundTrips).toBe(1);
  expect(counted.calls).toMatchObject({ eval: 1, set: 1, zadd: 1 });
  expect(await admin.zscore('watch-rtt:reconcile:due', 'charge:ch_rtt')).toBe('5000');
  expect(await admin.pttl('watch-rtt:reconcile:item:charge:ch_rtt')).toBeGreaterThan(3_500_000);

  const again = await redisCounts(admin);
  await store.add(item(9_000, 'succeeded'));
  const second = countsBetween(again, await redisCounts(admin));
  expect(second.roundTrips).toBe(1);
  expect(second.calls.zadd).toBeUndefined();
  expect(await store.get('charge', 'ch_rtt')).toEqual(item(5_000));
  expect(await admin.zscore('watch-rtt:reconcile:due', 'charge:ch_rtt')).toBe('5000');
  expect(await store.due(5_000, 10)).toEqual([item(5_000)]);
});
