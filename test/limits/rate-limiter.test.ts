import { describe, expect, it } from 'vitest';
import { memoryRateLimiter } from '../../src/limits/rate-limiter.js';

describe('memoryRateLimiter', () => {
  it('allows `points` per window, says how long to wait, and opens a fresh window after it', async () => {
    let now = 1_000;
    const limiter = memoryRateLimiter({ points: 2, windowMs: 60_000, now: () => now });
    expect(await limiter.consume('a')).toEqual({ allowed: true });
    expect(await limiter.consume('a')).toEqual({ allowed: true });
    now += 15_000;
    expect(await limiter.consume('a')).toEqual({ allowed: false, retryAfterMs: 45_000 });
    // Another key has its own window.
    expect(await limiter.consume('b')).toEqual({ allowed: true });
    now += 45_000;
    expect(await limiter.consume('a')).toEqual({ allowed: true });
  });

  it('tells from memory how long a key stays refused (0 while it has points left), for early refusals', async () => {
    let now = 1_000;
    const limiter = memoryRateLimiter({ points: 2, windowMs: 60_000, now: () => now });
    expect(limiter.blockedFor('a')).toBe(0);
    await limiter.consume('a');
    expect(limiter.blockedFor('a')).toBe(0);
    await limiter.consume('a');
    now += 15_000;
    expect(limiter.blockedFor('a')).toBe(45_000);
    expect(limiter.blockedFor('b')).toBe(0);
    // A point given back makes it usable again.
    await limiter.refund('a');
    expect(limiter.blockedFor('a')).toBe(0);
    await limiter.consume('a');
    now += 45_000;
    expect(limiter.blockedFor('a')).toBe(0);
  });

  it('remembers at most maxKeys callers, the least recently used going first', async () => {
    const now = 0;
    const limiter = memoryRateLimiter({ points: 1, windowMs: 60_000, maxKeys: 3, now: () => now });
    for (const key of ['a', 'b', 'c']) await limiter.consume(key);
    // 'a' is used again (refused, but touched): 'b' is now the least recently used.
    expect((await limiter.consume('a')).allowed).toBe(false);
    await limiter.consume('d'); // evicts 'b'
    expect((await limiter.consume('b')).allowed).toBe(true); // forgotten: a fresh window (and evicts 'c')
    expect((await limiter.consume('a')).allowed).toBe(false); // still remembered
    // A flood of distinct keys never holds more than maxKeys: the oldest ones keep being forgotten.
    for (let i = 0; i < 10_000; i++) await limiter.consume(`flood-${i}`);
    expect((await limiter.consume('a')).allowed).toBe(true);
  });
});
