// Fixed-window counters per principal: one shared by every replica (Redis,
// through rate-limiter-flexible's atomic script) or one per process. The
// in-process one holds a bounded number of keys, least recently used first
// out, so a flood of distinct callers cannot grow memory without bound.
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { LIST_EXPIRING_LUA, merchantExpiringIndex, merchantOfKey, type GatewayRedis } from '../redis/index.js';
import type { Logger } from '../logger.js';

/** Whether an operation was admitted, or how long to wait (ms) before one will be. */
export type Admission = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Counts operations per key in fixed windows, in memory or in Redis. */
export interface RateLimiter {
  /** Counts one operation of `key`; refused once the window's points are spent. */
  consume(key: string): Promise<Admission>;
  /** Gives back one point a consume of `key` admitted (a money point spent up front that nothing used). */
  refund(key: string): Promise<void>;
  /**
   * How long (ms) this replica already knows, from its memory alone, that `key` stays refused; 0 when it does not
   * know (never a round trip: what a flood's early refusal asks before the request costs anything more).
   */
  blockedFor(key: string): number;
}

interface WindowOptions {
  /** Operations allowed per window. */
  points: number;
  windowMs: number;
}

/** Keys an in-process limiter remembers; an evicted key starts a fresh window (it had been idle the longest). */
export const MEMORY_LIMITER_MAX_KEYS = 10_000;

export function memoryRateLimiter(options: WindowOptions & { maxKeys?: number; now?: () => number }): RateLimiter {
  const maxKeys = options.maxKeys ?? MEMORY_LIMITER_MAX_KEYS;
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order: re-inserting on each use keeps the least recently used first.
  const windows = new Map<string, { startedAt: number; used: number }>();
  return {
    consume: async (key) => {
      const t = now();
      let window = windows.get(key);
      if (window) windows.delete(key);
      if (!window || t - window.startedAt >= options.windowMs) window = { startedAt: t, used: 0 };
      windows.set(key, window);
      if (windows.size > maxKeys) windows.delete(windows.keys().next().value!);
      if (window.used >= options.points) return { allowed: false, retryAfterMs: Math.max(1, window.startedAt + options.windowMs - t) };
      window.used += 1;
      return { allowed: true };
    },
    refund: async (key) => {
      const window = windows.get(key);
      if (window && window.used > 0 && now() - window.startedAt < options.windowMs) window.used -= 1;
    },
    blockedFor: (key) => {
      const window = windows.get(key);
      if (!window || window.used < options.points) return 0;
      return Math.max(0, window.startedAt + options.windowMs - now());
    },
  };
}

/**
 * Shared by all replicas on one Redis. While Redis cannot answer, each process falls back to its own counters
 * (a limit that holds per replica beats no limit, and refusing every caller would turn an outage into a wider one).
 */
export function redisRateLimiter(redis: GatewayRedis, name: string, options: WindowOptions, log: Logger): RateLimiter {
  const shared = new RateLimiterRedis({
    storeClient: redis.commands,
    // One key per caller and window, touched by one script at a time: untagged, so a Cluster spreads callers over its shards.
    keyPrefix: redis.soloKey('ratelimit', name),
    points: options.points,
    duration: Math.max(1, Math.round(options.windowMs / 1000)),
    rejectIfRedisNotReady: true,
    // A key over its budget is refused from this process's memory until its window ends, without asking Redis: a
    // flood of refused operations then costs Redis nothing, and its caller (or merchant) slows no one else's calls.
    // One over the points, not at them: a point given back (refund) to a key at its limit stays usable.
    inMemoryBlockOnConsumed: options.points + 1,
  });
  const fallback = memoryRateLimiter(options);
  const listed = listingMerchantCounters(redis, redis.soloKey('ratelimit', name), options.windowMs);
  let warned = false;
  return {
    consume: async (key) => {
      try {
        await shared.consume(key);
        warned = false;
        await listed(key);
        return { allowed: true };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          await listed(key);
          return { allowed: false, retryAfterMs: Math.max(1, rejection.msBeforeNext) };
        }
        if (!warned) log.warn('rate limits: Redis unavailable, counting in this process only', { limiter: name, error: rejection });
        warned = true;
        return fallback.consume(key);
      }
    },
    refund: async (key) => {
      // A point not given back (Redis gone meanwhile) leaves the limit stricter for the window, never looser.
      await shared.reward(key, 1).catch(() => fallback.refund(key));
    },
    // The block inMemoryBlockOnConsumed set when Redis last refused this key (or, Redis gone, the fallback's own count).
    blockedFor: (key) =>
      (shared as unknown as InMemoryBlocks).getInMemoryBlockMsBeforeExpire(shared.getKey(key)) || fallback.blockedFor(key),
  };
}

/** rate-limiter-flexible's read of its in-memory blocks (public in its JavaScript, missing from its type declarations). */
interface InMemoryBlocks {
  getInMemoryBlockMsBeforeExpire(prefixedKey: string): number;
}

// KEYS[1] the merchant's index of expiring keys, ARGV[1] the counter's key, ARGV[2] how long it may live.
const LIST_COUNTER = `${LIST_EXPIRING_LUA}
listExpiring(KEYS[1], ARGV[1], ARGV[2])
return 1`;

/**
 * Platform mode: a merchant's counters (their key carries its hash tag, rateLimitKey) are listed in its index of
 * expiring keys, so that offboarding's purge removes them; once per counter and window on this process, not per
 * request. A listing that fails is not a refusal: the counter expires within its window anyway.
 */
function listingMerchantCounters(redis: GatewayRedis, prefix: string, windowMs: number): (key: string) => Promise<void> {
  const listedUntil = new Map<string, number>();
  return async (key) => {
    const merchantId = merchantOfKey(key);
    if (merchantId === null || (listedUntil.get(key) ?? 0) > Date.now()) return;
    listedUntil.delete(key);
    listedUntil.set(key, Date.now() + windowMs / 2);
    if (listedUntil.size > 10_000) listedUntil.delete(listedUntil.keys().next().value!);
    // Listed for two windows: it is renewed every half window while used, and a window's counter outlives none.
    const counter = `${prefix}:${key}`;
    await redis.commands.eval(LIST_COUNTER, 1, merchantExpiringIndex(redis, merchantId), counter, String(windowMs * 2)).catch(() => {});
  };
}
