// A money-moving mutation's two rate-limit points (general and money) are spent in one Redis round trip, and
// a caller over the general limit does not spend its money budget: its money point goes back, and only the
// general refusal is counted. On a private redis-server, whose INFO counts round trips and scripts.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LimitsConfig } from '../../src/config.js';
import { createRateLimits } from '../../src/limits/index.js';
import type { RateLimits } from '../../src/limits/operation-limits.js';
import { silentLogger } from '../../src/logger.js';
import type { GatewayRedis } from '../../src/redis/index.js';
import { countsBetween, redisCounts, startCountedRedis, type CountedRedis } from '../helpers/redis-counts.js';

// General 2 and money 2 a minute, for staff subjects and client addresses alike.
const LIMITS = {
  rateLimitPerMinute: 2,
  rateLimitMoneyPerMinute: 2,
  rateLimitStaffPerMinute: 2,
  rateLimitStaffMoneyPerMinute: 2,
} as LimitsConfig;

function limitsCountingRefusals(redis: GatewayRedis | null) {
  const refused: string[] = [];
  return { limits: createRateLimits(LIMITS, redis, silentLogger, (kind) => refused.push(kind)), refused };
}

/** Spends the general points of `key` until it is refused. */
async function exhaustGeneral(limits: RateLimits, key: string) {
  while ((await limits.general.consume(key)).allowed);
}

describe('on Redis', () => {
  let counted: CountedRedis;
  let redis: GatewayRedis;
  let admin: Redis;
  beforeAll(async () => {
    counted = await startCountedRedis('money-rtt');
    ({ redis, admin } = counted);
  });
  afterAll(() => counted?.close());

  it('spends both points in one round trip', async () => {
    const { limits } = limitsCountingRefusals(redis);
    await limits.general.consume('sub:warm'); // the script is loaded once per connection: not part of the count
    const before = await redisCounts(admin);
    const both = await limits.generalAndMoney('sub:one-trip');
    const counted = countsBetween(before, await redisCounts(admin));
    expect(both).toEqual({ general: { allowed: true }, money: { allowed: true } });
    expect(counted.roundTrips, JSON.stringify(counted)).toBe(1);
    expect(counted.calls).toMatchObject({ evalsha: 2, incrby: 2 });
  });

  it('over the general limit, leaves the money budget as it was and counts the general refusal only', async () => {
    const { limits, refused } = limitsCountingRefusals(redis);
    await exhaustGeneral(limits, 'sub:busy');
    refused.length = 0;
    const over = await limits.generalAndMoney('sub:busy');
    expect(over.general).toMatchObject({ allowed: false, retryAfterMs: expect.any(Number) });
    expect(over.money).toBeNull();
    expect(refused).toEqual(['general']);
    // Both money points are still there.
    expect(await limits.money.consume('sub:busy')).toEqual({ allowed: true });
    expect(await limits.money.consume('sub:busy')).toEqual({ allowed: true });
    expect((await limits.money.consume('sub:busy')).allowed).toBe(false);
  });

  it('refuses the money point once its budget is spent, with its own wait, counted as a money refusal', async () => {
    const { limits, refused } = limitsCountingRefusals(redis);
    await limits.money.consume('ip:10.0.0.9');
    await limits.money.consume('ip:10.0.0.9');
    const over = await limits.generalAndMoney('ip:10.0.0.9');
    expect(over.general).toEqual({ allowed: true });
    expect(over.money).toMatchObject({ allowed: false, retryAfterMs: expect.any(Number) });
    expect(refused).toEqual(['money']);
  });
});

it('in memory, over the general limit, the money budget is left as it was too', async () => {
  const { limits, refused } = limitsCountingRefusals(null);
  await exhaustGeneral(limits, 'ip:10.0.0.1');
  expect((await limits.generalAndMoney('ip:10.0.0.1')).money).toBeNull();
  expect(refused).toEqual(['general', 'general']);
  expect(await limits.money.consume('ip:10.0.0.1')).toEqual({ allowed: true });
  expect(await limits.money.consume('ip:10.0.0.1')).toEqual({ allowed: true });
  expect((await limits.money.consume('ip:10.0.0.1')).allowed).toBe(false);
});
