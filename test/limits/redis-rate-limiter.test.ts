// The shared limiter on a real Redis of the test's own: two limiters (two
// replicas) count into one budget; when Redis dies each falls back to counting
// in its own process instead of refusing everyone or letting everyone through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, type GatewayRedis } from '../../src/redis/index.js';
import { redisRateLimiter } from '../../src/limits/rate-limiter.js';
import { silentLogger } from '../../src/logger.js';
import { startRedisServer, type TestRedisServer } from '../helpers/redis-server.js';

describe('redisRateLimiter', () => {
  let server: TestRedisServer;
  let one: GatewayRedis;
  let two: GatewayRedis;
  beforeAll(async () => {
    server = await startRedisServer();
    one = await connectRedis({ url: server.url, namespace: 'limits-test' });
    two = await connectRedis({ url: server.url, namespace: 'limits-test' });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await server?.stop();
  });

  it('refuses a key over its budget from memory until its window ends, without asking Redis; a refunded point at the limit stays usable', async () => {
    const options = { points: 2, windowMs: 60_000 };
    const a = redisRateLimiter(one, 'flood', options, silentLogger);
    expect((await a.consume('mer:a')).allowed).toBe(true);
    expect((await a.consume('mer:a')).allowed).toBe(true);
    const over = await a.consume('mer:a');
    expect(over.allowed === false && over.retryAfterMs).toBeGreaterThan(50_000);
    // The counter is gone from Redis (as if its window had ended there): this process still refuses it from memory,
    // while another replica, which never saw it over its budget, asks Redis and is admitted.
    expect(await one.commands.del(`${one.soloKey('ratelimit', 'flood')}:mer:a`)).toBe(1);
    expect((await a.consume('mer:a')).allowed).toBe(false);
    expect((await redisRateLimiter(two, 'flood', options, silentLogger).consume('mer:a')).allowed).toBe(true);
    // At its limit but not over it, a key is not blocked: a point given back is used again.
    const b = redisRateLimiter(one, 'refunds', options, silentLogger);
    expect((await b.consume('mer:b')).allowed).toBe(true);
    expect((await b.consume('mer:b')).allowed).toBe(true);
    await b.refund('mer:b');
    expect((await b.consume('mer:b')).allowed).toBe(true);
    expect((await b.consume('mer:b')).allowed).toBe(false);
  });

  it('shares one budget between replicas, then counts per process while Redis is gone', async () => {
    const options = { points: 3, windowMs: 60_000 };
    const a = redisRateLimiter(one, 'general', options, silentLogger);
    const b = redisRateLimiter(two, 'general', options, silentLogger);
    expect((await a.consume('sub:x')).allowed).toBe(true);
    expect((await b.consume('sub:x')).allowed).toBe(true);
    expect((await a.consume('sub:x')).allowed).toBe(true);
    const refused = await b.consume('sub:x');
    expect(refused).toMatchObject({ allowed: false });
    expect(refused.allowed === false && refused.retryAfterMs).toBeGreaterThan(50_000);
    // Another limiter name is another budget.
    expect((await redisRateLimiter(one, 'money', options, silentLogger).consume('sub:x')).allowed).toBe(true);

    await server.kill();
    // Each process now has its own 3 points for the minute.
    const local = await Promise.all([1, 2, 3, 4].map(() => a.consume('sub:y')));
    expect(local.map((r) => r.allowed)).toEqual([true, true, true, false]);
  });
});
