// The gateway's index of the charges it has seen by their ext_id: the payment
// service's charge list has no ext_id filter and pages its answers, so finding a
// charge by its ext_id would otherwise mean reading every charge. Written when
// the gateway creates a charge with an ext_id and whenever a charge carrying one
// passes through (webhook events, fetches, list pages, OTP submissions: see
// recording-client.ts), read by the `charges(filter: { extId })` query, which
// confirms every reference by fetching the charge (an entry is a hint, never an
// answer).
//
// - With Redis: one sorted set per ext_id, `<namespace>:extids:<account>:<ext_id>`,
//   member the reference, score when it was last seen; written like the other
//   durable records (waits for REDIS_MIN_REPLICAS). Each write drops what is
//   older than the retention, keeps the newest MAX_REFERENCES_PER_EXT_ID and sets
//   the key to expire a retention after it.
// - Without Redis: the same in this process's memory, bounded (least recently
//   written ext_id first out), kept in SANDBOX_DATA_DIR across restarts in sandbox mode.
//
// An index belongs to one API key: `<account>` is a digest of the key, so two
// gateways of two merchants sharing a Redis namespace never see each other's
// entries (and every reference is confirmed at the service with our own key).
// In platform mode each merchant has its own (`forMerchant`): in Redis under its
// hash tag, `<namespace>:{m:<id>}:extids:<ext_id>`, listed in its index of
// expiring keys; in memory under its own prefix.
import { createHash } from 'node:crypto';
import { LIST_EXPIRING_LUA, type GatewayRedis } from '../redis/index.js';

/** One charge seen with its ext_id. */
export interface ExtIdEntry {
  extId: string;
  reference: string;
}

/** Where the gateway keeps `ext_id → references` for the charges it has created or seen. */
export interface ExtIdIndex {
  /** Remembers each entry as seen now (refreshing its retention). */
  record(entries: readonly ExtIdEntry[]): Promise<void>;
  /** The references seen with `extId` within the retention, most recently seen first (at most MAX_REFERENCES_PER_EXT_ID). */
  references(extId: string): Promise<string[]>;
  /** Drops an entry the service contradicts (the charge does not exist, or carries another ext_id). */
  forget(extId: string, reference: string): Promise<void>;
  /**
   * Platform mode: one merchant's own index (its calls and its webhook route feed it; its search reads it). In Redis
   * under the merchant's hash tag, each key listed in its index of expiring keys (offboarding's purge removes them).
   */
  forMerchant?(merchantId: string): ExtIdIndex;
}

/** Where one merchant's entries live in Redis: under its hash tag, listed in its index of expiring keys. */
export interface MerchantExtIdPlace {
  /** The storage prefix of its entries (`<prefix>:{m:<id>}:extids`). */
  prefix: string;
  /** Its index of expiring keys (src/redis/merchant-keys.ts). */
  index: string;
}

/** The most references kept per ext_id (the most recently seen): a search answers with at most this many charges. */
export const MAX_REFERENCES_PER_EXT_ID = 20;
/** The longest ext_id indexed: the gateway's own inputs allow 100 characters; a longer one is not an ext_id of ours. */
export const MAX_INDEXED_EXT_ID_LENGTH = 255;
const DEFAULT_MAX_MEMORY_EXT_IDS = 100_000;
/**
 * An entry written lately is not written again before this (the console reads the first page each second): what it
 * costs is that "most recently seen" and the retention count from a sighting up to ten minutes older.
 */
const REWRITE_AFTER_MS = 10 * 60 * 1000;

/**
 * The storage prefix of one API key's index: a digest of the key (never the key itself), so two merchants' entries
 * never mix in one store.
 */
export function accountPrefix(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
}

/**
 * The one key builder of the index: `<prefix>:<ext_id>`, where `prefix` is the storage prefix of one account (in Redis
 * the gateway's namespace, `extids` and the account's digest; in memory the account's digest).
 */
export function extIdIndexKey(prefix: string, extId: string): string {
  return `${prefix}:${extId}`;
}

/** Whether a value is worth indexing: a non-empty string of sensible length. */
export function indexable(extId: unknown): extId is string {
  return typeof extId === 'string' && extId.length > 0 && extId.length <= MAX_INDEXED_EXT_ID_LENGTH;
}

interface IndexOptions {
  /** The account's storage prefix (accountPrefix of the API key). */
  account: string;
  /** How long an entry is kept after it was last seen (EVENT_RETENTION_HOURS, like the event log). */
  retentionMs: number;
  now?: () => number;
}

/** What a memory index needs to be the same after a restart: per key, reference → when last seen. */
export type MemoryIndexState = Record<string, Record<string, number>>;

/** Where a memory index saves its state (the sandbox's data folder), and what it starts from. */
export interface MemoryIndexPersistence {
  initial: MemoryIndexState | null;
  changed(state: MemoryIndexState): void;
}

interface MemoryIndexOptions extends IndexOptions {
  /** Most ext_ids kept; beyond it the least recently written goes. Default 100,000. */
  maxExtIds?: number;
  persistence?: MemoryIndexPersistence;
}

/** Newest first, within the retention, at most MAX_REFERENCES_PER_EXT_ID. */
function newestKept(seen: Record<string, number>, cutoff: number): Array<[string, number]> {
  return Object.entries(seen)
    .filter(([, at]) => at > cutoff)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_REFERENCES_PER_EXT_ID);
}

/** The index in this process's memory (one replica; sandbox mode without Redis). */
export function memoryExtIdIndex(options: MemoryIndexOptions): ExtIdIndex {
  // Map order is the write order: the first key is the least recently written.
  const keys = new Map<string, Record<string, number>>(Object.entries(options.persistence?.initial ?? {}));
  const over = (account: string): ExtIdIndex => ({
    ...memoryIndexOver(keys, account, options),
    // A merchant's entries beside the others', under a prefix of its own (never an API key's digest).
    forMerchant: (merchantId) => over(`m:${merchantId}`),
  });
  return over(options.account);
}

/** One account's entries in the shared map of a memory index (bounded as a whole, saved as a whole). */
function memoryIndexOver(keys: Map<string, Record<string, number>>, account: string, options: MemoryIndexOptions): ExtIdIndex {
  const now = options.now ?? Date.now;
  const maxExtIds = options.maxExtIds ?? DEFAULT_MAX_MEMORY_EXT_IDS;
  const key = (extId: string) => extIdIndexKey(account, extId);
  const saved = () => options.persistence?.changed(Object.fromEntries(keys));
  return {
    async record(entries) {
      const t = now();
      let changed = false;
      for (const { extId, reference } of entries) {
        if (!indexable(extId)) continue;
        const k = key(extId);
        const at = keys.get(k)?.[reference];
        if (at !== undefined && t - at < REWRITE_AFTER_MS) continue;
        changed = true;
        const seen = { ...keys.get(k), [reference]: t };
        keys.delete(k);
        keys.set(k, Object.fromEntries(newestKept(seen, t - options.retentionMs)));
      }
      for (const [oldest, seen] of keys) {
        if (keys.size <= maxExtIds && Object.values(seen).some((at) => at > t - options.retentionMs)) break;
        keys.delete(oldest);
      }
      if (changed) saved();
    },
    async references(extId) {
      const seen = keys.get(key(extId));
      return seen ? newestKept(seen, now() - options.retentionMs).map(([reference]) => reference) : [];
    },
    async forget(extId, reference) {
      const seen = keys.get(key(extId));
      if (!seen || !(reference in seen)) return;
      delete seen[reference];
      if (Object.keys(seen).length === 0) keys.delete(key(extId));
      saved();
    },
  };
}

// KEYS: one sorted set per entry. ARGV[1] now, ARGV[2] the cutoff (older is dropped), ARGV[3] the retention (ms),
// ARGV[4] how many references a key keeps, ARGV[5..] the references, one per key. One step for a whole list page.
const RECORD_SCRIPT = `
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[1], ARGV[4 + i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[2])
  redis.call('ZREMRANGEBYRANK', key, 0, -(tonumber(ARGV[4]) + 1))
  redis.call('PEXPIRE', key, ARGV[3])
end
return #KEYS`;

// A merchant's entries: KEYS[1] its index of expiring keys, then one sorted set per entry (all under its hash tag);
// ARGV as RECORD_SCRIPT's. Each key is listed in the index for as long as it lives.
const MERCHANT_RECORD_SCRIPT = `${LIST_EXPIRING_LUA}
for i = 2, #KEYS do
  local key = KEYS[i]
  redis.call('ZADD', key, ARGV[1], ARGV[3 + i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[2])
  redis.call('ZREMRANGEBYRANK', key, 0, -(tonumber(ARGV[4]) + 1))
  redis.call('PEXPIRE', key, ARGV[3])
  listExpiring(KEYS[1], key, ARGV[3])
end
return #KEYS - 1`;

const MAX_RECENT_WRITES = 10_000;

/**
 * The index in Redis, shared by every replica and kept across restarts; keys expire a retention after their last write.
 * `merchants`: platform mode's place of each merchant's entries (without it, `forMerchant` has none to give).
 */
export function redisExtIdIndex(
  redis: Pick<GatewayRedis, 'commands' | 'key' | 'durable'>,
  options: IndexOptions & { merchants?: (merchantId: string) => MerchantExtIdPlace },
): ExtIdIndex {
  const views = new Map<string, ExtIdIndex>();
  const own = redisIndexAt(redis, options, { prefix: redis.key('extids', options.account), index: null });
  const { merchants } = options;
  if (!merchants) return own;
  const forMerchant = (merchantId: string): ExtIdIndex => {
    let view = views.get(merchantId);
    if (!view) {
      view = { ...redisIndexAt(redis, options, merchants(merchantId)), forMerchant };
      views.set(merchantId, view);
      if (views.size > 10_000) views.delete(views.keys().next().value!);
    }
    return view;
  };
  return { ...own, forMerchant };
}

/** One account's (or merchant's) entries in Redis. */
function redisIndexAt(
  redis: Pick<GatewayRedis, 'commands' | 'key' | 'durable'>,
  options: IndexOptions,
  { prefix, index }: { prefix: string; index: string | null },
): ExtIdIndex {
  const now = options.now ?? Date.now;
  const key = (extId: string) => extIdIndexKey(prefix, extId);
  const recent = new Map<string, number>();
  const fresh = (entry: ExtIdEntry, t: number) => {
    const at = recent.get(`${entry.extId}\n${entry.reference}`);
    return at !== undefined && t - at < REWRITE_AFTER_MS;
  };
  return {
    async record(entries) {
      const t = now();
      const due = entries.filter((e) => indexable(e.extId) && !fresh(e, t));
      if (due.length === 0) return;
      const args = [String(t), String(t - options.retentionMs), String(options.retentionMs), String(MAX_REFERENCES_PER_EXT_ID)];
      const keys = due.map((e) => key(e.extId));
      const references = due.map((e) => e.reference);
      await redis.durable((p) =>
        index
          ? p.eval(MERCHANT_RECORD_SCRIPT, keys.length + 1, index, ...keys, ...args, ...references)
          : p.eval(RECORD_SCRIPT, keys.length, ...keys, ...args, ...references),
      );
      for (const e of due) {
        const id = `${e.extId}\n${e.reference}`;
        recent.delete(id);
        recent.set(id, t);
        if (recent.size > MAX_RECENT_WRITES) recent.delete(recent.keys().next().value!);
      }
    },
    async references(extId) {
      return redis.commands.zrevrangebyscore(key(extId), '+inf', `(${now() - options.retentionMs}`, 'LIMIT', 0, MAX_REFERENCES_PER_EXT_ID);
    },
    async forget(extId, reference) {
      recent.delete(`${extId}\n${reference}`);
      await redis.durable((p) => p.zrem(key(extId), reference));
    },
  };
}
