// "Have we already accepted this delivery?" — answered atomically, so that a
// delivery re-sent by the payment service (or received by two replicas at the
// same moment) is published once.
import type { GatewayRedis } from '../redis/connections.js';

export interface DeliveryDeduplicator {
  /** True exactly once per id within the TTL, atomically (across processes for the Redis variant). */
  firstSeen(id: string): Promise<boolean>;
  /**
   * Forgets an id whose processing failed after firstSeen() returned true, so
   * that the sender's retry is processed instead of answered as a duplicate.
   */
  release(id: string): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_DEDUPE_TTL_MS = 24 * 60 * 60 * 1000;

export interface MemoryDeduplicatorOptions {
  ttlMs?: number;
  now?: () => number;
  /**
   * Hard cap on remembered ids; the oldest go first beyond it. Only verified
   * deliveries reach the deduplicator, so this is a guard, not a policy.
   */
  maxEntries?: number;
}

export interface MemoryDeduplicator extends DeliveryDeduplicator {
  /** Number of ids currently remembered (for tests and metrics). */
  readonly size: number;
}

/** Single-process deduplicator. Entries expire lazily on each call: no timer, so nothing keeps the process alive. */
export function memoryDeduplicator(options: MemoryDeduplicatorOptions = {}): MemoryDeduplicator {
  const ttlMs = positive(options.ttlMs ?? DEFAULT_DEDUPE_TTL_MS, 'ttlMs');
  const maxEntries = positive(options.maxEntries ?? 100_000, 'maxEntries');
  const now = options.now ?? Date.now;
  // id -> expiry time. A Map iterates in insertion order and the TTL is fixed,
  // so the oldest (first to expire) entries are always at the front.
  const expiries = new Map<string, number>();

  const sweep = (t: number): void => {
    for (const [id, expiresAt] of expiries) {
      if (expiresAt > t && expiries.size <= maxEntries) break;
      expiries.delete(id);
    }
  };

  return {
    get size() {
      return expiries.size;
    },
    async firstSeen(id) {
      const t = now();
      sweep(t);
      const expiresAt = expiries.get(id);
      if (expiresAt !== undefined && expiresAt > t) return false;
      // delete first so a re-inserted id moves to the back (keeps the order = expiry order).
      expiries.delete(id);
      expiries.set(id, t + ttlMs);
      if (expiries.size > maxEntries) sweep(t);
      return true;
    },
    async release(id) {
      expiries.delete(id);
    },
    async close() {
      expiries.clear();
    },
  };
}

export interface RedisDeduplicatorOptions {
  ttlMs?: number;
}

/**
 * Cross-process deduplicator: `SET key 1 NX PX ttl` is atomic in Redis, so of
 * N replicas racing on one id exactly one gets "OK". Keys are
 * `<namespace>:webhook-delivery:<id>`. Redis down fails within milliseconds
 * (fail-fast connection); the receiver then answers 503 and the sender retries.
 *
 * The connection is borrowed: close() does not quit it (its owner does).
 */
export function redisDeduplicator(
  redis: Pick<GatewayRedis, 'commands' | 'key'>,
  options: RedisDeduplicatorOptions = {},
): DeliveryDeduplicator {
  const ttlMs = positive(options.ttlMs ?? DEFAULT_DEDUPE_TTL_MS, 'ttlMs');
  const client = redis.commands;
  const key = (id: string) => redis.key('webhook-delivery', id);
  let closed = false;
  const ensureOpen = () => {
    if (closed) throw new Error('deduplicator is closed');
  };
  return {
    async firstSeen(id) {
      ensureOpen();
      return (await client.set(key(id), '1', 'PX', ttlMs, 'NX')) === 'OK';
    },
    async release(id) {
      ensureOpen();
      await client.del(key(id));
    },
    async close() {
      closed = true;
    },
  };
}

function positive(n: number, name: string): number {
  if (!Number.isFinite(n) || n <= 0) throw new RangeError(`${name} must be a positive number`);
  return Math.floor(n) || 1;
}
