// Remembers, per idempotency key, what a money-moving mutation did, so a
// client that retries (lost answer, double tap, flaky network) gets the first
// result back instead of moving money twice.
//
// Only successes are replayed. A typed failure means the service refused the
// request (nothing moved), so the key is released and a retry runs again. A
// request whose outcome is unknown (sent, then no answer) keeps its key
// blocked until it can be reconciled: sending it again could pay twice.
import type { Redis } from 'ioredis';

export type ClaimResult =
  | { kind: 'claimed' }
  | { kind: 'replay'; value: unknown }
  | { kind: 'conflict' }
  | { kind: 'in_progress' }
  | { kind: 'unknown'; meta: Record<string, string> };

export interface IdempotencyStore {
  /** Atomically takes the key for this request, or says what happened to it before. */
  claim(key: string, fingerprint: string): Promise<ClaimResult>;
  complete(key: string, fingerprint: string, value: unknown): Promise<void>;
  release(key: string): Promise<void>;
  markUnknown(key: string, fingerprint: string, meta: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

type Entry =
  | { state: 'pending'; fp: string }
  | { state: 'done'; fp: string; value: unknown }
  | { state: 'unknown'; fp: string; meta: Record<string, string> };

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A claim left pending this long belongs to a process that died mid-request. */
const PENDING_TTL_MS = 5 * 60 * 1000;

function interpret(entry: Entry, fingerprint: string): ClaimResult {
  if (entry.fp !== fingerprint) return { kind: 'conflict' };
  if (entry.state === 'done') return { kind: 'replay', value: entry.value };
  if (entry.state === 'unknown') return { kind: 'unknown', meta: entry.meta };
  return { kind: 'in_progress' };
}

export function memoryIdempotencyStore(now: () => number = Date.now): IdempotencyStore {
  const entries = new Map<string, { entry: Entry; expiresAt: number }>();
  const get = (key: string) => {
    const found = entries.get(key);
    if (found && found.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return found?.entry;
  };
  const put = (key: string, entry: Entry, ttl: number) => {
    entries.set(key, { entry, expiresAt: now() + ttl });
    if (entries.size % 1024 === 0) for (const k of entries.keys()) get(k); // sweep expired entries now and then
  };
  return {
    async claim(key, fingerprint) {
      const existing = get(key);
      if (existing) return interpret(existing, fingerprint);
      put(key, { state: 'pending', fp: fingerprint }, PENDING_TTL_MS);
      return { kind: 'claimed' };
    },
    async complete(key, fp, value) {
      put(key, { state: 'done', fp, value }, IDEMPOTENCY_TTL_MS);
    },
    async release(key) {
      entries.delete(key);
    },
    async markUnknown(key, fp, meta) {
      put(key, { state: 'unknown', fp, meta }, IDEMPOTENCY_TTL_MS);
    },
    async close() {
      entries.clear();
    },
  };
}

/** Shared by every replica, so a retry that lands on another instance is still recognised. */
export function redisIdempotencyStore(redis: Redis, prefix = 'momo:idem:'): IdempotencyStore {
  const k = (key: string) => prefix + key;
  return {
    async claim(key, fingerprint) {
      const pending: Entry = { state: 'pending', fp: fingerprint };
      const ok = await redis.set(k(key), JSON.stringify(pending), 'PX', PENDING_TTL_MS, 'NX');
      if (ok === 'OK') return { kind: 'claimed' };
      const raw = await redis.get(k(key));
      // Expired between the two calls: claim again.
      if (raw === null) return this.claim(key, fingerprint);
      return interpret(JSON.parse(raw) as Entry, fingerprint);
    },
    async complete(key, fp, value) {
      await redis.set(k(key), JSON.stringify({ state: 'done', fp, value } satisfies Entry), 'PX', IDEMPOTENCY_TTL_MS);
    },
    async release(key) {
      await redis.del(k(key));
    },
    async markUnknown(key, fp, meta) {
      await redis.set(k(key), JSON.stringify({ state: 'unknown', fp, meta } satisfies Entry), 'PX', IDEMPOTENCY_TTL_MS);
    },
    async close() {},
  };
}
