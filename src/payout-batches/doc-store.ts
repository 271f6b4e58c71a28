// Where payout batches live: small JSON documents, each with a version, written
// by compare-and-set (two replicas, or a mutation and the runner, never
// overwrite each other's change unseen), plus the leases that let one replica
// at a time run a batch. In Redis (shared by every replica, kept across
// restarts, on the fail-fast commands connection like idempotency keys: a
// failure is a ServiceUnavailableError, never a guess) or in memory (one
// process; lost on restart).
//
// Redis layout, under the gateway's namespace: `payout-batches:<key>` hashes
// {v: version, d: JSON}, each expiring `ttlMs` after its last write;
// `payout-batches:lease:<name>` strings (PX). A merchant's batches (platform
// mode) live under its hash tag instead, `{m:<id>}:payout-batches:<key>`, and
// each document is listed in the merchant's index of expiring keys by the very
// script that writes it (same slot), so that offboarding's purge removes it
// without a SCAN (src/redis/merchant-keys.ts).
import { orUnavailable } from '../idempotency/unavailable.js';
import { LIST_EXPIRING_LUA, type GatewayRedis } from '../redis/index.js';
import { InternalError } from '../errors/internal-error.js';

/** A document that kept changing under a compare-and-set (every attempt lost to another writer). */
export class DocumentContendedError extends InternalError {
  readonly code = 'DOCUMENT_CONTENDED';
}

/** A stored document and its version, which a write must name to succeed (optimistic concurrency). */
export interface Versioned<T> {
  value: T;
  version: number;
}

/**
 * Where payout batches are kept: versioned documents written only over the version read, and leases that give one replica a batch's run at
 * a time.
 */
export interface DocStore {
  get<T>(key: string): Promise<Versioned<T> | null>;
  getMany<T>(keys: string[]): Promise<Array<Versioned<T> | null>>;
  /** Writes when the stored version is `expected` (0: the document must not exist); false otherwise. */
  put<T>(key: string, value: T, expected: number): Promise<boolean>;
  /** Takes or renews a lease for `holder`; false when another holds it. */
  acquireLease(name: string, holder: string, ttlMs: number): Promise<boolean>;
  releaseLease(name: string, holder: string): Promise<void>;
}

/** Batches and their items are kept this long after their last change. */
export const PAYOUT_BATCH_RETENTION_MS = 30 * 24 * 3_600_000;

/**
 * A DocStore in this process's memory, for a single replica without Redis. Reads return copies, so a caller's change is never stored until
 * it is put.
 */
export function memoryDocStore(): DocStore {
  const docs = new Map<string, { json: string; version: number }>();
  const leases = new Map<string, { holder: string; until: number }>();
  const read = <T>(key: string): Versioned<T> | null => {
    const doc = docs.get(key);
    // A copy: callers change what they read before writing it back.
    return doc ? { value: JSON.parse(doc.json) as T, version: doc.version } : null;
  };
  return {
    async get(key) {
      return read(key);
    },
    async getMany(keys) {
      return keys.map((key) => read(key));
    },
    async put(key, value, expected) {
      if ((docs.get(key)?.version ?? 0) !== expected) return false;
      docs.set(key, { json: JSON.stringify(value), version: expected + 1 });
      return true;
    },
    async acquireLease(name, holder, ttlMs) {
      const lease = leases.get(name);
      if (lease && lease.holder !== holder && lease.until > Date.now()) return false;
      leases.set(name, { holder, until: Date.now() + ttlMs });
      return true;
    },
    async releaseLease(name, holder) {
      if (leases.get(name)?.holder === holder) leases.delete(name);
    },
  };
}

// KEYS[2], when given: the merchant's index of expiring keys, told of each write (each moves the expiry).
const PUT = `${LIST_EXPIRING_LUA}
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if v ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'v', v + 1, 'd', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if KEYS[2] then listExpiring(KEYS[2], KEYS[1], ARGV[3]) end
return 1`;

// Renew when ours, take when free: atomic, so two replicas never both hold it.
const ACQUIRE = `${LIST_EXPIRING_LUA}
local current = redis.call('GET', KEYS[1])
if current and current ~= ARGV[1] then return 0 end
if current then redis.call('PEXPIRE', KEYS[1], ARGV[2]) else redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
if KEYS[2] then listExpiring(KEYS[2], KEYS[1], ARGV[2]) end
return 1`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Where a DocStore's keys are: the gateway's own (single mode), or under one merchant's hash tag with its key index. */
export interface DocLayout {
  /** The Redis key of a document or lease name. */
  key(name: string): string;
  /** The merchant's index of expiring keys (same hash tag), told of every document and lease written; absent: none. */
  index?: string;
}

/**
 * A DocStore in Redis, shared by every replica: each write checks the version in one script, and documents expire after `ttlMs`
 * (PAYOUT_BATCH_RETENTION_MS).
 */
export function redisDocStore(
  redis: Pick<GatewayRedis, 'commands' | 'key' | 'durable'>,
  ttlMs = PAYOUT_BATCH_RETENTION_MS,
  layout: DocLayout = { key: (name) => redis.key('payout-batches', name) },
): DocStore {
  const client = redis.commands;
  const k = layout.key;
  // The keys of a script: the document, then the merchant's index when there is one.
  const keys = (key: string): [number, ...string[]] => (layout.index ? [2, key, layout.index] : [1, key]);
  const parse = <T>(fields: [string | null, string | null]): Versioned<T> | null =>
    fields[0] !== null && fields[1] !== null ? { value: JSON.parse(fields[1]) as T, version: Number(fields[0]) } : null;
  return {
    async get(key) {
      return parse((await orUnavailable(() => client.hmget(k(key), 'v', 'd'))) as [string | null, string | null]);
    },
    async getMany(keys) {
      if (keys.length === 0) return [];
      const pipeline = client.pipeline();
      for (const key of keys) pipeline.hmget(k(key), 'v', 'd');
      const results = (await orUnavailable(() => pipeline.exec())) ?? [];
      return results.map(([err, fields]) => {
        if (err) throw err;
        return parse(fields as [string | null, string | null]);
      });
    },
    async put(key, value, expected) {
      // Durable like an idempotency claim (REDIS_MIN_REPLICAS): a chunk marked as sending must survive a failover, or
      // a replica promoted without the mark would send it again as if it were new.
      const done = await orUnavailable(() =>
        redis.durable((p) => p.eval(PUT, ...keys(k(key)), String(expected), JSON.stringify(value), String(ttlMs))),
      );
      return done === 1;
    },
    async acquireLease(name, holder, leaseMs) {
      return (await orUnavailable(() => client.eval(ACQUIRE, ...keys(k(`lease:${name}`)), holder, String(leaseMs)))) === 1;
    },
    async releaseLease(name, holder) {
      await orUnavailable(() => client.eval(RELEASE, 1, k(`lease:${name}`), holder));
    },
  };
}
