// Remembers, per idempotency key, what a money-moving mutation did, so a
// client that retries (lost answer, double tap, flaky network) gets the first
// result back instead of moving money twice.
//
// A key is in one of three states: pending (a request holds it), done (its
// success, replayed), unknown (the request may have been carried out; a retry
// must reconcile before re-sending). Nothing that may have moved money ever
// returns to "free" before the key's lifetime ends:
// - a pending claim whose holder died does not expire into free: it reads as
//   unknown once its holder is gone (no presence, src/redis/replica-presence.ts)
//   and its call's deadline has passed (Redis store), or at the latest once its
//   pending time (IDEMPOTENCY_PENDING_TTL_MS) is over;
// - a key may also be lost without trace (Redis restarted empty or restored
//   from an older snapshot, a memory store restarted or over its size cap).
//   Each store therefore knows since when its memory has been continuous, and
//   a fresh claim is `clean` only if that covers the whole key lifetime;
//   otherwise the caller reconciles before sending. It also knows when it
//   *did* lose keys (`lost`: the Redis generation changed under a running
//   gateway, evictions, a memory store over its cap): a request that cannot be
//   looked up is then refused rather than sent (see run.ts).
//
// Redis failures of any kind become ServiceUnavailableError (typed, retryable):
// the commands connection fails fast, so that takes milliseconds.
import { orUnavailable } from './unavailable.js';
import { ServiceUnavailableError } from '../errors/payment-errors.js';
import { ReplicasBehindError, type GatewayRedis } from '../redis/connections.js';
import { EPOCH_LUA, redisEpoch, type RedisEpoch } from '../redis/epoch.js';
import { LIST_EXPIRING_LUA } from '../redis/merchant-keys.js';
import type { ReplicaPresence } from '../redis/replica-presence.js';
import type { ChainableCommander } from 'ioredis';

/**
 * What a claim carries beside its key, as strings (the ext_id sent, for one): how reconcile finds the request at the service, and what a
 * resend uses again.
 */
export type Meta = Record<string, string>;

export type ClaimResult =
  /**
   * The key is this request's now. `clean: false`: the store may have lost an earlier request with it (its
   * memory has not been continuous for a whole key lifetime). `lost: true`: it did lose keys within a key
   * lifetime (Redis restarted empty or evicted keys while the gateway ran, a memory store over its cap).
   * `token`: lets the holder set its claim's deadline again (reclaim) when its call starts later than it allowed for.
   */
  | { kind: 'claimed'; clean: boolean; lost: boolean; token?: string }
  | { kind: 'replay'; value: unknown }
  | { kind: 'conflict' }
  /** Another request holds the key (its holder is alive, or its call may still be on its way); `retryAfterMs`: until its claim expires at the latest. */
  | { kind: 'in_progress'; retryAfterMs: number }
  /** The earlier request may have been carried out. `token` lets exactly one retry take the key (reclaim). */
  | { kind: 'unknown'; meta: Meta; unknownForMs: number; token: string };

interface ClaimOptions {
  /**
   * How long after the claim its call may still start (a batch's chunk waits for its pacing slot). The claim's
   * deadline is the claim + this + the store's `callMs`: by then the holder's call has surely ended.
   */
  startWithinMs?: number;
}

/**
 * Where keys live (Redis or memory): claim, reclaim, complete, mark unknown, release. Redis failures are
 * ServiceUnavailableError.
 */
export interface IdempotencyStore {
  /** Atomically takes the key for this request (keeping `meta` should it be left pending), or says what happened to it before. */
  claim(key: string, fingerprint: string, meta: Meta, options?: ClaimOptions): Promise<ClaimResult>;
  /** Takes an unknown key (as returned by claim) to send its request again; false when another retry took it first. */
  reclaim(key: string, token: string, fingerprint: string, meta: Meta, options?: ClaimOptions): Promise<boolean>;
  complete(key: string, fingerprint: string, value: unknown): Promise<void>;
  markUnknown(key: string, fingerprint: string, meta: Meta): Promise<void>;
  /** Frees the key: only for a request that provably moved no money. */
  release(key: string): Promise<void>;
  close(): Promise<void>;
  /**
   * Platform mode, in Redis: the keys of one merchant, under its hash tag and listed in its key index (offboarding's
   * purge removes them). Absent: a merchant's keys are kept with the others (a memory store).
   */
  forMerchant?(merchantId: string): IdempotencyStore;
}

/** Where one merchant's keys live in Redis: under its hash tag, with its key index and (on a Cluster) its own generation. */
export interface MerchantKeyPlace {
  /** The Redis key of one of its idempotency keys. */
  key(name: string): string;
  /** Its index of expiring keys (`<prefix>:{m:<id>}:expiring-keys`, src/redis/merchant-keys.ts). */
  index: string;
  /** Its generation's hash (src/redis/epoch.ts), used on a Cluster where the gateway's own is in another slot. */
  epoch: string;
  /** Its index of the keys it keeps until they are deleted (`<prefix>:{m:<id>}:keys`): its generation is listed there. */
  owned: string;
}

/** The lifetimes of keys and claims, and the clock; every field has a default. */
export interface StoreOptions {
  /** Lifetime of a key. Default 24 h. */
  ttlMs?: number;
  /** How long a claim may stay pending before it reads as unknown; longer than any payment call. Default 5 min. */
  pendingTtlMs?: number;
  now?: () => number;
}

interface RedisStoreOptions extends StoreOptions {
  /** The process's view of the Redis generation (shared with the event log). Default: a new one. */
  epoch?: RedisEpoch;
  /** Why Redis cannot be trusted with keys right now (it evicts them), or null: claims are refused meanwhile. */
  unsafe?: () => string | null;
  /**
   * This replica's presence: its claims name it as their holder, so that a retry on another replica may look up a
   * claim whose holder is gone once its deadline has passed. Without it, claims wait out `pendingTtlMs`.
   */
  presence?: Pick<ReplicaPresence, 'id' | 'key'>;
  /** Longest a call made under a claim may take (PAYMENT_TIMEOUT_MS). Default 15 s. */
  callMs?: number;
  /** Platform mode: where each merchant's keys live (`forMerchant`). */
  merchantKeys?: (merchantId: string) => MerchantKeyPlace;
}

interface MemoryStoreOptions extends StoreOptions {
  /** Most keys kept; beyond it the least recently used goes (and the store stops calling itself continuous). Default 100,000. */
  maxEntries?: number;
}

/** How long an idempotency key and its result are kept (24 hours): a retry within it never moves money twice. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a claim stays pending, by default, before it reads as unknown: longer than any payment call. */
export const DEFAULT_PENDING_TTL_MS = 5 * 60 * 1000;
const DEFAULT_MAX_IDEMPOTENCY_ENTRIES = 100_000;
const DEFAULT_CALL_MS = 15_000;
/**
 * How late a call may start after the moment its claim allowed for (the claim's round trip, a read, the event loop);
 * the claim's deadline adds DEADLINE_MARGIN_MS, more than this, for it.
 */
export const CALL_START_SLACK_MS = 500;
const DEADLINE_MARGIN_MS = 1_000;
/** Refused claims a process remembers having sent nothing for (see redisIdempotencyStore). */
const MAX_ABANDONED_CLAIMS = 10_000;

type Entry =
  /**
   * `holder`: the replica that holds it; `deadlinePttl`: the key's remaining lifetime (PTTL, Redis's own clock) at
   * which the holder's call has surely ended (both absent without a presence).
   */
  | { state: 'pending'; fp: string; meta: Meta; until: number; holder?: string; deadlinePttl?: number }
  | { state: 'done'; fp: string; value: unknown }
  | { state: 'unknown'; fp: string; meta: Meta; at: number };

function interpret(entry: Entry, fingerprint: string, now: number, token: string): ClaimResult {
  if (entry.fp !== fingerprint) return { kind: 'conflict' };
  switch (entry.state) {
    case 'done':
      return { kind: 'replay', value: entry.value };
    case 'unknown':
      return { kind: 'unknown', meta: entry.meta, unknownForMs: now - entry.at, token };
    case 'pending':
      // A holder that died never frees the key: past its time the claim is an unknown outcome.
      return entry.until > now
        ? { kind: 'in_progress', retryAfterMs: entry.until - now }
        : { kind: 'unknown', meta: entry.meta, unknownForMs: now - entry.until, token };
  }
}

function settings(options: StoreOptions) {
  return {
    ttlMs: options.ttlMs ?? IDEMPOTENCY_TTL_MS,
    pendingTtlMs: options.pendingTtlMs ?? DEFAULT_PENDING_TTL_MS,
    now: options.now ?? Date.now,
  };
}

/** Single-process store. Its memory begins when it is created (a restart forgets every key). */
export function memoryIdempotencyStore(options: MemoryStoreOptions = {}): IdempotencyStore {
  const { ttlMs, pendingTtlMs, now } = settings(options);
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_IDEMPOTENCY_ENTRIES;
  if (!(maxEntries >= 1)) throw new RangeError('maxEntries must be at least 1');
  // Map order is the recency order: every read or write moves the key to the back.
  const entries = new Map<string, { entry: Entry; expiresAt: number; token: string }>();
  let since = now();
  let lostAt = -Infinity;
  let version = 0;

  const get = (key: string) => {
    const found = entries.get(key);
    if (!found) return undefined;
    entries.delete(key);
    if (found.expiresAt <= now()) return undefined;
    entries.set(key, found);
    return found;
  };
  const put = (key: string, entry: Entry) => {
    entries.delete(key);
    entries.set(key, { entry, expiresAt: now() + ttlMs, token: String(++version) });
    for (const [oldest, { expiresAt }] of entries) {
      if (entries.size <= maxEntries) break;
      entries.delete(oldest);
      // A live key was forgotten: until a whole lifetime has passed, fresh claims must reconcile.
      if (expiresAt > now()) since = lostAt = now();
    }
  };

  return {
    async claim(key, fingerprint, meta) {
      const t = now();
      const existing = get(key);
      if (existing) return interpret(existing.entry, fingerprint, t, existing.token);
      put(key, { state: 'pending', fp: fingerprint, meta, until: t + pendingTtlMs });
      return { kind: 'claimed', clean: t - since >= ttlMs, lost: t - lostAt < ttlMs, token: entries.get(key)!.token };
    },
    async reclaim(key, token, fingerprint, meta) {
      if (get(key)?.token !== token) return false;
      put(key, { state: 'pending', fp: fingerprint, meta, until: now() + pendingTtlMs });
      return true;
    },
    async complete(key, fp, value) {
      put(key, { state: 'done', fp, value });
    },
    async markUnknown(key, fp, meta) {
      put(key, { state: 'unknown', fp, meta, at: now() });
    },
    async release(key) {
      entries.delete(key);
    },
    async close() {
      entries.clear();
    },
  };
}

// How long ago (ms) the call of a pending claim whose holder is gone surely ended, or -1 (not pending, no holder
// recorded, holder alive, or deadline not passed). Both on Redis's clock: the key's own remaining lifetime against the
// one recorded for the deadline, and TIME against the holder's presence (src/redis/replica-presence.ts).
const ORPHANED_LUA = `
local function orphaned(entryKey, presenceKey, existing)
  local ok, entry = pcall(cjson.decode, existing)
  if not ok or type(entry) ~= 'table' or entry.state ~= 'pending' then return -1 end
  if type(entry.holder) ~= 'string' or type(entry.deadlinePttl) ~= 'number' then return -1 end
  local past = entry.deadlinePttl - redis.call('PTTL', entryKey)
  if past < 0 then return -1 end
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  if tonumber(redis.call('HGET', presenceKey, entry.holder) or '0') > now then return -1 end
  return past
end
`;

// KEYS[1] entry, KEYS[2] the epoch (src/redis/epoch.ts), KEYS[3] the replicas' presence. ARGV[1] now, ARGV[2]
// pending entry, ARGV[3] ttl, ARGV[4..6] the epoch's arguments. The generation is checked in the same step as the
// key, and whether an existing claim's holder is gone.
// KEYS[4], in platform mode: the merchant's index of expiring keys, told of the key until ARGV[7] ms from now.
const CLAIM_SCRIPT = `${EPOCH_LUA}${ORPHANED_LUA}${LIST_EXPIRING_LUA}
local e = epoch(KEYS[2], ARGV[1], ARGV[4], ARGV[5], ARGV[6])
local existing = redis.call('GET', KEYS[1])
if existing then return {existing, e[1], e[2], e[3], orphaned(KEYS[1], KEYS[3], existing)} end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
if KEYS[4] then listExpiring(KEYS[4], KEYS[1], ARGV[7]) end
return {'', e[1], e[2], e[3], -1}
`;

// A merchant's claim on a Cluster, where the replicas' presence is in another slot: KEYS[1] entry, KEYS[2] the
// merchant's generation, KEYS[3] its index of expiring keys (ARGV[7]: for how long), KEYS[4] its index of the keys it
// keeps (its generation, which does not expire, is listed there for the purge). The presence of an orphan's holder is asked apart (PRESENCE_SCRIPT):
// a holder seen gone stays gone (each process has its own id), so asking after the claim's read is as safe.
const CLAIM_APART_SCRIPT = `${EPOCH_LUA}${LIST_EXPIRING_LUA}
local e = epoch(KEYS[2], ARGV[1], ARGV[4], ARGV[5], ARGV[6])
redis.call('SADD', KEYS[4], KEYS[2])
local existing = redis.call('GET', KEYS[1])
if existing then
  local ok, entry = pcall(cjson.decode, existing)
  if ok and type(entry) == 'table' and entry.state == 'pending' and type(entry.holder) == 'string' and type(entry.deadlinePttl) == 'number' then
    local past = entry.deadlinePttl - redis.call('PTTL', KEYS[1])
    if past >= 0 then return {existing, e[1], e[2], e[3], past, entry.holder} end
  end
  return {existing, e[1], e[2], e[3], -1}
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
listExpiring(KEYS[3], KEYS[1], ARGV[7])
return {'', e[1], e[2], e[3], -1}
`;

// KEYS[1] the replicas' presence, ARGV[1] a holder: 1 while it is present (on Redis's clock).
const PRESENCE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0') > now then return 1 end
return 0
`;

// KEYS[1] entry, KEYS[2] (platform mode) the merchant's index of expiring keys. ARGV[1] the entry as read by claim,
// ARGV[2] the new pending entry, ARGV[3] ttl, ARGV[4] how long the index lists it.
const RECLAIM_SCRIPT = `${LIST_EXPIRING_LUA}
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
if KEYS[2] then listExpiring(KEYS[2], KEYS[1], ARGV[4]) end
return 1
`;

/** The claim script's reply: the existing entry ('' none), the generation (3 fields), ms since an orphaned claim's deadline (-1: not orphaned). */
type ClaimReply = [string, string, string, string, number];

/**
 * What this process remembers of its own claims (bounded). `abandoned`: entries it knows it sent nothing for (a
 * refused claim that may still have reached a replica a failover then promotes, where it would read as in progress
 * for minutes; a claim it could not release, Redis down just then): a retry reaching this process takes them back at
 * once. (A retry reaching another replica takes the slower, equally safe path.) `held`: its pending claims.
 * `ended`: entries whose call this process made and saw end but could not save the outcome of (Redis down just
 * then): a retry reaching this process looks the payment up at once rather than waiting on its own live claim.
 */
function claimBook() {
  const abandoned = new Set<string>();
  const held = new Map<string, string>();
  const ended = new Map<string, number>();
  return {
    abandoned,
    ended,
    /** A rejection handler for saving the outcome of `entry`'s call: the call ended, its outcome is not saved. */
    unsaved(entry: string | undefined, now: () => number) {
      return (err: unknown): never => {
        if (entry) {
          ended.set(entry, now());
          if (ended.size > MAX_ABANDONED_CLAIMS) ended.delete(ended.keys().next().value!);
        }
        throw err;
      };
    },
    abandon(entry: string) {
      abandoned.add(entry);
      if (abandoned.size > MAX_ABANDONED_CLAIMS) abandoned.delete(abandoned.values().next().value!);
    },
    hold(key: string, entry: string) {
      held.delete(key);
      held.set(key, entry);
      if (held.size > MAX_ABANDONED_CLAIMS) held.delete(held.keys().next().value!);
    },
    /** Forgets a held claim; returns its entry. */
    letGo(key: string): string | undefined {
      const entry = held.get(key);
      held.delete(key);
      return entry;
    },
  };
}

/** This process made that entry's call and saw it end, but could not save what came of it: look it up now. */
function endedUnsavedHere(ended: Map<string, number>, existing: string, entry: Entry, fingerprint: string, t: number): ClaimResult | null {
  const endedAt = ended.get(existing);
  if (endedAt === undefined || entry.state !== 'pending' || entry.fp !== fingerprint) return null;
  return { kind: 'unknown', meta: entry.meta, unknownForMs: Math.max(0, t - endedAt), token: existing };
}

// Claims wait for REDIS_MIN_REPLICAS replicas (a failover must not lose one whose payment was sent). One they
// did not acknowledge in time is refused (503) and, when it took the key, frees it: nothing was sent.
function freeIfTaken(client: GatewayRedis['commands'], fullKey: string) {
  return async (err: unknown): Promise<never> => {
    if (err instanceof ReplicasBehindError && (err.reply as unknown[])[0] === '') await client.del(fullKey).catch(() => {});
    throw err;
  };
}

/** A pending entry naming its holder and its deadline, when the store knows this replica's presence. */
function pendingWithHolder(entry: Entry, ttlMs: number, options: RedisStoreOptions, claim: ClaimOptions = {}): Entry {
  if (!options.presence) return entry;
  // The key is written with PX ttl now: its PTTL falls to deadlinePttl once the call has surely ended.
  const callMs = (options.callMs ?? DEFAULT_CALL_MS) + (claim.startWithinMs ?? 0) + DEADLINE_MARGIN_MS;
  return { ...entry, holder: options.presence.id, deadlinePttl: ttlMs - callMs } as Entry;
}

/**
 * Shared by every replica, so a retry that lands on another instance is still
 * recognised. Keys: `<namespace>:idem:<scoped key>`; the generation: `<namespace>:epoch`; the replicas' presence:
 * `<namespace>:replicas`. In platform mode a merchant's keys are under its hash tag (`forMerchant`). The connection
 * is borrowed from its owner (src/redis).
 */
export function redisIdempotencyStore(
  redis: Pick<GatewayRedis, 'commands' | 'key' | 'durable'> & { topology?: GatewayRedis['topology'] },
  options: RedisStoreOptions = {},
): IdempotencyStore {
  const epoch = options.epoch ?? redisEpoch(redis);
  const presenceKey = options.presence?.key ?? redis.key('replicas');
  const merchants = new Map<string, IdempotencyStore>();
  const store = redisStoreAt(redis, options, { k: (key) => redis.key('idem', key), epoch, presenceKey, index: null, apart: false });
  const { merchantKeys } = options;
  if (!merchantKeys) return store;
  return {
    ...store,
    forMerchant(merchantId) {
      let view = merchants.get(merchantId);
      if (!view) {
        const place = merchantKeys(merchantId);
        // On one node (or Sentinel) the gateway's generation and presence sit beside the merchant's keys; on a
        // Cluster they are in another slot: the merchant's keys then have a generation of their own, in their slot.
        const apart = redis.topology === 'cluster';
        view = redisStoreAt(redis, options, {
          k: place.key,
          epoch: apart ? redisEpoch(redis, place.epoch) : epoch,
          presenceKey,
          index: place.index,
          owned: place.owned,
          apart,
        });
        merchants.set(merchantId, view);
        // Bounded: a view holds nothing a new one would not find again in Redis but its claims under way.
        if (merchants.size > 10_000) merchants.delete(merchants.keys().next().value!);
      }
      return view;
    },
  };
}

/** Where a store's keys are: their Redis keys, the generation and presence its claims check, and the merchant's index. */
interface Place {
  k: (key: string) => string;
  epoch: RedisEpoch;
  presenceKey: string;
  index: string | null;
  /** The merchant's index of the keys it keeps (with `apart`). */
  owned?: string;
  /** The presence is in another slot than the keys (a merchant's keys on a Cluster). */
  apart: boolean;
}

/** The claim and reclaim scripts of a store's place: the gateway's own keys, or a merchant's (with its index). */
function placeScripts(place: Place, ttlMs: number, pendingTtlMs: number) {
  const { k, epoch, presenceKey } = place;
  // The index lists a key a little past its own expiry: the result written after its call (complete) moves it on.
  const listedMs = String(ttlMs + pendingTtlMs);
  const takeOver = (redis: Pick<GatewayRedis, 'durable'>, key: string, token: string, entry: string) =>
    orUnavailable(() =>
      redis.durable((p) =>
        place.index
          ? p.eval(RECLAIM_SCRIPT, 2, k(key), place.index, token, entry, String(ttlMs), listedMs)
          : p.eval(RECLAIM_SCRIPT, 1, k(key), token, entry, String(ttlMs)),
      ),
    );
  const args = (t: number, pending: string) => [String(t), pending, String(ttlMs), ...epoch.args(), listedMs];
  const claimScript = (p: ChainableCommander, key: string, t: number, pending: string) =>
    place.apart
      ? p.eval(CLAIM_APART_SCRIPT, 4, k(key), epoch.key, place.index!, place.owned!, ...args(t, pending))
      : place.index
        ? p.eval(CLAIM_SCRIPT, 4, k(key), epoch.key, presenceKey, place.index, ...args(t, pending))
        : p.eval(CLAIM_SCRIPT, 3, k(key), epoch.key, presenceKey, ...args(t, pending));
  return { takeOver, claimScript };
}

/** Apart (a merchant's key on a Cluster), the reply names an orphan's holder: an orphan only once it is seen gone. */
async function orphanOnceGone(
  client: GatewayRedis['commands'],
  presenceKey: string,
  reply: ClaimReply & [unknown, unknown, unknown, unknown, unknown, string?],
): Promise<ClaimReply> {
  const holder = reply[5];
  if (holder === undefined) return reply;
  const present = await orUnavailable(() => client.eval(PRESENCE_SCRIPT, 1, presenceKey, holder));
  return [reply[0], reply[1], reply[2], reply[3], Number(present) === 1 ? -1 : reply[4]] as ClaimReply;
}

function redisStoreAt(
  redis: Pick<GatewayRedis, 'commands' | 'key' | 'durable'>,
  options: RedisStoreOptions,
  place: Place,
): IdempotencyStore {
  const { k, epoch, presenceKey } = place;
  const { ttlMs, pendingTtlMs, now } = settings(options);
  const client = redis.commands;
  const book = claimBook();
  const write = (key: string, entry: Entry) => orUnavailable(() => client.set(k(key), JSON.stringify(entry), 'PX', ttlMs));
  const pendingEntry = (fp: string, meta: Meta, t: number, claim?: ClaimOptions) =>
    JSON.stringify(pendingWithHolder({ state: 'pending', fp, meta, until: t + pendingTtlMs }, ttlMs, options, claim));
  const { takeOver, claimScript } = placeScripts(place, ttlMs, pendingTtlMs);
  const runClaim = async (key: string, t: number, pending: string): Promise<ClaimReply> => {
    let reply: ClaimReply & [unknown, unknown, unknown, unknown, unknown, string?];
    try {
      reply = (await orUnavailable(() =>
        redis.durable((p) => claimScript(p, key, t, pending)).catch(freeIfTaken(client, k(key))),
      )) as typeof reply;
    } catch (err) {
      book.abandon(pending);
      throw err;
    }
    return orphanOnceGone(client, presenceKey, reply);
  };

  return {
    async claim(key, fingerprint, meta, claimOptions) {
      // Keys may be evicted at any moment: nothing is claimed until an operator stops that.
      const unsafe = options.unsafe?.();
      if (unsafe) throw new ServiceUnavailableError({ cause: new Error(unsafe) });
      const t = now();
      const pending = pendingEntry(fingerprint, meta, t, claimOptions);
      const [existing, id, since0, lostAt0, orphanedForMs] = await runClaim(key, t, pending);
      const { since, lostAt } = epoch.observe([id, since0, lostAt0]);
      const clean = t - since >= ttlMs;
      const lost = lostAt !== null && t - lostAt < ttlMs;
      if (existing === '') {
        book.hold(key, pending);
        return { kind: 'claimed', clean, lost, token: pending };
      }
      const entry = JSON.parse(existing) as Entry;
      if (book.abandoned.has(existing) && entry.fp === fingerprint && (await takeOver(redis, key, existing, pending)) === 1) {
        book.abandoned.delete(existing);
        book.hold(key, pending);
        return { kind: 'claimed', clean, lost, token: pending };
      }
      const endedHere = endedUnsavedHere(book.ended, existing, entry, fingerprint, t);
      if (endedHere) return endedHere;
      // Its holder is gone and its call surely over: what it did is looked up now (the settle window counts from then).
      if (entry.state === 'pending' && entry.fp === fingerprint && Number(orphanedForMs) >= 0) {
        return { kind: 'unknown', meta: entry.meta, unknownForMs: Number(orphanedForMs), token: existing };
      }
      return interpret(entry, fingerprint, t, existing);
    },
    async reclaim(key, token, fingerprint, meta, claimOptions) {
      const pending = pendingEntry(fingerprint, meta, now(), claimOptions);
      const taken = (await takeOver(redis, key, token, pending)) === 1;
      if (taken) book.hold(key, pending);
      return taken;
    },
    async complete(key, fp, value) {
      const entry = book.letGo(key);
      await write(key, { state: 'done', fp, value }).catch(book.unsaved(entry, now));
    },
    async markUnknown(key, fp, meta) {
      const entry = book.letGo(key);
      await write(key, { state: 'unknown', fp, meta, at: now() }).catch(book.unsaved(entry, now));
    },
    async release(key) {
      const entry = book.letGo(key);
      try {
        await orUnavailable(() => client.del(k(key)));
      } catch (err) {
        if (entry) book.abandon(entry);
        throw err;
      }
    },
    async close() {},
  };
}
