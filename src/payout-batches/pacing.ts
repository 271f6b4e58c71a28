// Paces the calls to the service's bulk endpoint so that all replicas together
// never exceed its rate (at most N calls in any one-second window).
//
// Hand-written rather than rate-limiter-flexible: the service counts a
// *sliding* one-second window, and that library's limiters count fixed windows,
// which let 2N calls through across a window boundary (N at the end of one
// second, N at the start of the next), exactly what the service refuses.
// The Redis version keeps the grant times of the last window in a sorted set,
// on Redis's own clock (replicas' clocks may disagree), in one atomic script.
import { randomUUID } from 'node:crypto';
import { orUnavailable } from '../idempotency/unavailable.js';
import type { GatewayRedis } from '../redis/index.js';

export interface Pacer {
  /** Takes a slot now (null) or says how long to wait before asking again (ms). */
  tryTake(): Promise<number | null>;
}

export interface PacingOptions {
  callsPerSecond: number;
  /**
   * Added to the one-second window: a call granted at t reaches the service a little later, and a later
   * call may get there faster, so grants are spaced slightly wider than the service's window.
   */
  marginMs: number;
}

export function memoryPacer({ callsPerSecond, marginMs }: PacingOptions, now: () => number = Date.now): Pacer {
  const windowMs = 1_000 + marginMs;
  const granted: number[] = [];
  return {
    async tryTake() {
      const t = now();
      while (granted.length > 0 && granted[0]! <= t - windowMs) granted.shift();
      if (granted.length < callsPerSecond) {
        granted.push(t);
        return null;
      }
      return Math.max(1, granted[0]! + windowMs - t);
    },
  };
}

const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window * 2)
  return -1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + window - now)`;

export function redisPacer(redis: Pick<GatewayRedis, 'commands' | 'key'>, { callsPerSecond, marginMs }: PacingOptions): Pacer {
  const key = redis.key('payout-batches', 'pacing');
  const windowMs = 1_000 + marginMs;
  return {
    async tryTake() {
      const wait = Number(
        await orUnavailable(() => redis.commands.eval(TAKE, 1, key, String(windowMs), String(callsPerSecond), randomUUID())),
      );
      return wait < 0 ? null : wait;
    },
  };
}
