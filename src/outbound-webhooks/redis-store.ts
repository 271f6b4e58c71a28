// The Redis store of outbound webhooks (see store.ts for the model). Keys, all
// under the gateway's namespace (one hash slot on a Cluster):
//   webhooks:endpoints          ZSET  endpoint id -> creation time
//   webhooks:ep:<id>            HASH  the endpoint's fields (secrets, health)
//   webhooks:retry:<id>         ZSET  delivery id -> due time (the retry set)
//   webhooks:recent:<id>        ZSET  delivery id -> creation time (settled, newest RECENT_DELIVERIES_KEPT)
//   webhooks:deliveries:<id>    HASH  delivery id -> record (those of the two sets)
//   webhooks:leases:<id>        ZSET  delivery id -> lease end, while a claimed retry's attempt is under way
//   webhooks:again:<id>         SET   deliveries redelivered during an attempt (due at once should it fail)
// and on the event log's stream the consumer group `webhooks:<id>`: the
// endpoint's place in the log and its events in flight. Writes that decide a
// delivery's fate go through `durable` (REDIS_MIN_REPLICAS), like idempotency keys.
//
// Platform mode (`merchantKeys`): an endpoint's keys are under its merchant's hash tag instead,
// `{m:<merchant>}:webhooks:…` (the listing `webhooks:endpoints` becomes the merchant's own), each recorded in the
// merchant's key index before it is written, so an offboarding's purge removes them without a SCAN. The worker
// finds every merchant's endpoints in WORKER_SHARDS sets (`webhooks:endpoints:<n>`, by merchant), and drops from
// there what a purge left behind. No script then spans the log and a merchant's keys (they are in different slots
// on a Cluster): a settled delivery's event is acknowledged on the log just after its delivery is saved (an attempt
// is never lost between the two; a crash there only sends it again), a group is made before its endpoint, and an
// attempt of an event read from the log holds a lease in `leases` as a retry's does (HOLD), which a redelivery
// reads inside its script: one attempt at a time is decided in the merchant's slot, whichever script runs first.

import type { GatewayRedis } from '../redis/index.js';
import { eventOfStreamEntry } from '../events/log.js';
import type { LoggedPaymentEvent } from '../events/payment-event.js';
import { compareStreamIds, decodeEventId, parseStreamId } from '../events/stream-id.js';
import { createHash } from 'node:crypto';
import { logSeqOf, merchantOfEndpoint, redeliveryOf, type DeliveryRecord, type StoredEndpoint } from './model.js';
import { InternalError } from '../errors/internal-error.js';
import { RECENT_DELIVERIES_KEPT, type AttemptOutcome, type LogHold, type OutboundStore } from './store.js';

type StreamEntry = [string, string[]];

/** A redelivery that found its record changed at every read (attempts settling faster than it could act). */
class RedeliveryContendedError extends InternalError {
  override readonly name = 'RedeliveryContendedError';
  readonly code = 'WEBHOOK_REDELIVERY_CONTENDED';
}

// KEYS: the listing, the endpoint, and (single mode) the log, whose group is made in the same step.
const CREATE = `
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('HSET', KEYS[2], unpack(ARGV, 5))
if KEYS[3] then redis.pcall('XGROUP', 'CREATE', KEYS[3], ARGV[4], '$', 'MKSTREAM') end
return 1`;

const UPDATE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1`;

const REPLACE_SECRETS = `
if redis.call('HGET', KEYS[1], 'secrets') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'secrets', ARGV[2])
return 1`;

const DISABLE = `
if redis.call('HGET', KEYS[1], 'enabled') ~= '1' then return 0 end
redis.call('HSET', KEYS[1], 'enabled', '0', 'disabledReason', ARGV[1])
return 1`;

// SETTLE's keys and arguments for one delivery, by name: the one place their order is written. The script reads them
// by these names (`k.retry`, `a.ackSeq`), from tables built from the same lists.
const SETTLE_KEYS = ['deliveries', 'retry', 'recent', 'endpoint', 'log', 'leases', 'again'] as const;
const SETTLE_ARGS = [
  'id',
  'json',
  'status',
  'due',
  'createdMs',
  'group',
  'ackSeq',
  'recentMax',
  'outcome',
  'at',
  'redelivered',
  'atMs',
] as const;
type SettleKeys = Record<(typeof SETTLE_KEYS)[number], string>;
type SettleArgs = Record<(typeof SETTLE_ARGS)[number], string>;

/** Lua for a table of `names`, each read from `array` at `base` + its place in the list (1-based). */
const luaTable = (names: readonly string[], array: string, base: string) =>
  `{ ${names.map((name, i) => `${name} = ${array}[${base} + ${i + 1}]`).join(', ')} }`;

// Saves the deliveries whose attempts ended in one tick (or that were queued): one script, one write and one WAIT
// instead of one each. Per delivery: where it now stands (retry set or recent list), its event acknowledged
// (`ackSeq`), and the endpoint's health by the attempt's `outcome` ('ok', 'failed'; 'none' for a delivery queued
// without an attempt). The attempt's lease ends; when it failed and a redelivery was asked for meanwhile, the
// delivery is saved as `redelivered` (due at `atMs`, a fresh schedule) instead. Returns per delivery false when the
// endpoint is gone, else its failingSince ('' if none).
const SETTLE = `
local function settle(k, a)
  if a.ackSeq ~= '' then redis.pcall('XACK', k.log, a.group, a.ackSeq) end
  if redis.call('EXISTS', k.endpoint) == 0 then return false end
  if a.outcome ~= 'none' then
    redis.call('ZREM', k.leases, a.id)
    if redis.call('SREM', k.again, a.id) == 1 and a.outcome == 'failed' then
      a.json = a.redelivered
      a.status = 'PENDING'
      a.due = a.atMs
    end
  end
  redis.call('HSET', k.deliveries, a.id, a.json)
  if a.status == 'PENDING' then
    redis.call('ZADD', k.retry, a.due, a.id)
    redis.call('ZREM', k.recent, a.id)
  else
    redis.call('ZREM', k.retry, a.id)
    redis.call('ZADD', k.recent, a.createdMs, a.id)
    local excess = redis.call('ZCARD', k.recent) - tonumber(a.recentMax)
    if excess > 0 then
      local old = redis.call('ZRANGE', k.recent, 0, excess - 1)
      redis.call('ZREMRANGEBYRANK', k.recent, 0, excess - 1)
      redis.call('HDEL', k.deliveries, unpack(old))
    end
  end
  if a.outcome == 'ok' then
    redis.call('HSET', k.endpoint, 'lastSuccessAt', a.at, 'failingSince', '', 'consecutiveFailures', 0)
  elseif a.outcome == 'failed' then
    if (redis.call('HGET', k.endpoint, 'failingSince') or '') == '' then redis.call('HSET', k.endpoint, 'failingSince', a.at) end
    redis.call('HINCRBY', k.endpoint, 'consecutiveFailures', 1)
  end
  return redis.call('HGET', k.endpoint, 'failingSince') or ''
end
local out = {}
for i = 0, #KEYS / ${SETTLE_KEYS.length} - 1 do
  out[i + 1] = settle(${luaTable(SETTLE_KEYS, 'KEYS', `i * ${SETTLE_KEYS.length}`)}, ${luaTable(SETTLE_ARGS, 'ARGV', `i * ${SETTLE_ARGS.length}`)})
end
return out`;

// KEYS: retry, deliveries, leases. ARGV: now, count, lease until. Returns the records claimed (each leased).
const CLAIM_DUE = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
local out = {}
for _, id in ipairs(ids) do
  local record = redis.call('HGET', KEYS[2], id)
  if record then
    redis.call('ZADD', KEYS[1], ARGV[3], id)
    redis.call('ZADD', KEYS[3], ARGV[3], id)
    table.insert(out, record)
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return out`;

// A redelivery, one attempt at a time (store.ts). KEYS: deliveries, retry, recent, leases, again, endpoint, log.
// ARGV: id, the record as read, the record redelivered, now, group, and the event's log entry ('' for a test event,
// or in platform mode, where an attempt from the log holds a lease instead: see HOLD).
// Returns 'changed' when the record moved since it was read (the caller reads it again), 'gone', 'in_flight' (an
// attempt is under way: noted in `again`), or 'queued'.
const REDELIVER = `
if redis.call('EXISTS', KEYS[6]) == 0 then return 'gone' end
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return 'gone' end
if current ~= ARGV[2] then return 'changed' end
local lease = tonumber(redis.call('ZSCORE', KEYS[4], ARGV[1]) or '0')
local fromLog = false
if ARGV[6] ~= '' then
  local pending = redis.pcall('XPENDING', KEYS[7], ARGV[5], ARGV[6], ARGV[6], 1)
  fromLog = type(pending) == 'table' and pending.err == nil and #pending > 0
end
if lease > tonumber(ARGV[4]) or fromLog then
  redis.call('SADD', KEYS[5], ARGV[1])
  return 'in_flight'
end
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 'queued'`;

// Platform mode, before the attempts of events read from the log (the log is in another slot, so REDELIVER cannot
// read it): per delivery, 'retrying' when it waits in the retry set (a redelivery queued it, or a retry of it is
// under way: that one is its attempt), 'busy' when another attempt from the log holds its lease, else 'go' with a
// lease until the attempt settles (SETTLE ends it), which REDELIVER then answers with 'in_flight'.
// KEYS: retry, leases. ARGV: lease until, now, the delivery ids.
const HOLD = `
local out = {}
for i = 3, #ARGV do
  local id = ARGV[i]
  if redis.call('ZSCORE', KEYS[1], id) then
    out[#out + 1] = 'retrying'
  elseif tonumber(redis.call('ZSCORE', KEYS[2], id) or '0') > tonumber(ARGV[2]) then
    out[#out + 1] = 'busy'
  else
    redis.call('ZADD', KEYS[2], ARGV[1], id)
    out[#out + 1] = 'go'
  end
end
return out`;

/** Reads of a record a redelivery makes before it finds it unchanged (each change is an attempt settling). */
const REDELIVER_READS = 5;

/** The hash fields of an endpoint (null as ''). */
function endpointFields(e: Partial<StoredEndpoint>): string[] {
  const fields: string[] = [];
  const put = (name: string, value: string | null | undefined) => value !== undefined && fields.push(name, value ?? '');
  put('id', e.id);
  put('url', e.url);
  put('description', e.description);
  if (e.kinds) put('kinds', JSON.stringify(e.kinds));
  if (e.enabled !== undefined) put('enabled', e.enabled ? '1' : '0');
  put('disabledReason', e.disabledReason);
  put('createdAt', e.createdAt);
  if (e.secrets) put('secrets', JSON.stringify(e.secrets));
  put('lastSuccessAt', e.lastSuccessAt);
  put('failingSince', e.failingSince);
  if (e.consecutiveFailures !== undefined) put('consecutiveFailures', String(e.consecutiveFailures));
  return fields;
}

function endpointOf(hash: Record<string, string>): StoredEndpoint | null {
  if (!hash['id']) return null;
  const orNull = (v: string | undefined) => (v ? v : null);
  return {
    id: hash['id'],
    url: hash['url'] ?? '',
    description: orNull(hash['description']),
    kinds: JSON.parse(hash['kinds'] || '[]') as string[],
    enabled: hash['enabled'] === '1',
    disabledReason: orNull(hash['disabledReason']),
    createdAt: hash['createdAt'] ?? '',
    secrets: JSON.parse(hash['secrets'] || '{}') as StoredEndpoint['secrets'],
    lastSuccessAt: orNull(hash['lastSuccessAt']),
    failingSince: orNull(hash['failingSince']),
    consecutiveFailures: Number(hash['consecutiveFailures'] ?? 0),
  };
}

interface RedisOutboundStoreOptions {
  redis: GatewayRedis;
  /** The event log's stream key (the bus's). */
  logKey: string;
  recentKept?: number;
  /** Platform mode: each endpoint's keys under its merchant's tag, each recorded in the merchant's key index first. */
  merchantKeys?: MerchantKeys | null;
}

/** Platform mode's keys: recorded in the merchant's index (what its purge deletes) before they are written. */
export interface MerchantKeys {
  /** The hash tag of the merchant's keys (`m:<id>`, src/merchants/redis-store.ts). */
  tag(merchantId: string): string;
  own(merchantId: string, keys: string[]): Promise<void>;
}

/** Sets the worker reads every merchant's endpoints from (platform mode), by merchant. */
const WORKER_SHARDS = 16;

/** The keys of endpoints: single mode's, under the gateway's namespace, or platform mode's, under each merchant's tag. */
function keyspace(redis: GatewayRedis, merchantKeys: MerchantKeys | null) {
  const platform = merchantKeys !== null;
  const of = (endpointId: string, ...parts: string[]) => {
    const merchant = platform ? merchantOfEndpoint(endpointId) : null;
    return merchant ? redis.tagged(merchantKeys!.tag(merchant), 'webhooks', ...parts) : redis.key('webhooks', ...parts);
  };
  const shardOf = (merchantId: string) =>
    redis.soloKey('webhooks', 'endpoints', String(createHash('sha256').update(merchantId).digest()[0]! % WORKER_SHARDS));
  return {
    platform,
    merchantKeys,
    /** The listing of the endpoint's merchant (single mode: the only one). */
    endpoints: (endpointId: string) => of(endpointId, 'endpoints'),
    /** A merchant's listing (single mode, or null: the only one). */
    listing: (merchantId: string | null) =>
      platform && merchantId ? redis.tagged(merchantKeys!.tag(merchantId), 'webhooks', 'endpoints') : redis.key('webhooks', 'endpoints'),
    /** Platform mode: the worker's set the endpoint is in. */
    shard: (endpointId: string) => shardOf(merchantOfEndpoint(endpointId) ?? ''),
    shards: Array.from({ length: WORKER_SHARDS }, (_, i) => redis.soloKey('webhooks', 'endpoints', String(i))),
    endpoint: (id: string) => of(id, 'ep', id),
    retry: (id: string) => of(id, 'retry', id),
    recent: (id: string) => of(id, 'recent', id),
    deliveries: (id: string) => of(id, 'deliveries', id),
    leases: (id: string) => of(id, 'leases', id),
    again: (id: string) => of(id, 'again', id),
  };
}

type Keyspace = ReturnType<typeof keyspace>;

/** Every key an endpoint may have (its listing's too): what its merchant's index records. */
const keysOfEndpoint = (k: Keyspace, id: string) => [
  k.endpoints(id),
  k.endpoint(id),
  k.retry(id),
  k.recent(id),
  k.deliveries(id),
  k.leases(id),
  k.again(id),
];

/**
 * An OutboundStore in Redis, shared by every replica: each endpoint reads the shared log through its own consumer group, so an event goes
 * to one replica at a time.
 */
export function redisOutboundStore(options: RedisOutboundStoreOptions): OutboundStore {
  const ctx = redisContext(options);
  return { mode: 'redis', ...redisEndpoints(ctx), ...redisDeliveries(ctx), ...redisPlaces(ctx), async close() {} };
}

type RedisContext = ReturnType<typeof redisContext>;

/** The keys, the group name and the readers both halves of the store share. */
function redisContext(options: RedisOutboundStoreOptions) {
  const { redis, logKey } = options;
  const c = redis.commands;
  const recentKept = options.recentKept ?? RECENT_DELIVERIES_KEPT;
  const k = keyspace(redis, options.merchantKeys ?? null);
  const group = (id: string) => `webhooks:${id}`;
  const events = (entries: StreamEntry[]) =>
    entries.map(([id, fields]) => (fields ? eventOfStreamEntry(id, fields) : null)).filter((e): e is LoggedPaymentEvent => e !== null);
  const parse = (json: string) => JSON.parse(json) as DeliveryRecord;

  /** Runs a group command; a group lost with the log (Redis restarted empty) is made again from the new log's start. */
  const withGroup = async <T>(id: string, command: () => Promise<T>): Promise<T> => {
    try {
      return await command();
    } catch (err) {
      if (!/NOGROUP/.test((err as Error).message) || !(await c.exists(k.endpoint(id)))) throw err;
      await c.xgroup('CREATE', logKey, group(id), '0', 'MKSTREAM').catch(() => {});
      return command();
    }
  };
  const settleSoon = settleBatcher({ redis, logKey, recentKept, k, group });
  return { redis, logKey, c, recentKept, k, group, events, parse, withGroup, settleSoon };
}

type Settling = [keys: string[], args: string[], done: (reply: unknown) => void, failed: (err: unknown) => void];

/**
 * Settles in one SETTLE script the deliveries handed in within one tick (with 100 endpoints, the attempts of one
 * event end together); resolves each with its own reply. A failed write fails them all: each stays in flight or in
 * its retry set, as after any failed settle. Platform mode: one script per merchant (its keys share a slot), and
 * the events acknowledged on the log once their deliveries are saved.
 */
function settleBatcher({ redis, logKey, recentKept, k, group }: Pick<RedisContext, 'redis' | 'logKey' | 'recentKept' | 'k' | 'group'>) {
  const batches = new Map<string, Settling[]>();
  const acks = new Map<Settling, [group: string, seq: string]>();
  const run = (settling: Settling[]) => {
    const keys = settling.flatMap(([ks]) => ks);
    const args = settling.flatMap(([, as]) => as);
    redis
      .durable((p) => p.eval(SETTLE, keys.length, ...keys, ...args))
      .then(async (replies) => {
        const acked = settling.flatMap((s) => (acks.has(s) ? [acks.get(s)!] : []));
        settling.forEach((s) => acks.delete(s));
        // Acknowledged after the save: an event is never in neither place (a failed ack only sends it again).
        // One XACK per endpoint's group, with all of its events settled in this tick.
        const byGroup = new Map<string, string[]>();
        for (const [g, seq] of acked) byGroup.set(g, [...(byGroup.get(g) ?? []), seq]);
        await Promise.all([...byGroup].map(([g, seqs]) => redis.commands.xack(logKey, g, ...seqs).catch(() => 0)));
        settling.forEach(([, , done], i) => done((replies as unknown[])[i] ?? null));
      })
      .catch((err: unknown) => {
        settling.forEach((s) => acks.delete(s));
        settling.forEach(([, , , failed]) => failed(err));
      });
  };
  const flush = () => {
    const all = [...batches.values()];
    batches.clear();
    all.forEach(run);
  };
  return (record: DeliveryRecord, ackSeq: string | null, outcome: AttemptOutcome | 'none', atMs: number) =>
    new Promise<unknown>((done, failed) => {
      const id = record.endpointId;
      const keys: SettleKeys = {
        deliveries: k.deliveries(id),
        retry: k.retry(id),
        recent: k.recent(id),
        endpoint: k.endpoint(id),
        // Platform mode: a key of the endpoint's own slot, never read (its event is acknowledged after the script).
        log: k.platform ? k.endpoint(id) : logKey,
        leases: k.leases(id),
        again: k.again(id),
      };
      const args: SettleArgs = {
        id: record.id,
        json: JSON.stringify(record),
        status: record.status,
        due: String(record.nextAttemptAt ?? 0),
        createdMs: String(Date.parse(record.createdAt)),
        group: group(id),
        ackSeq: k.platform ? '' : (ackSeq ?? ''),
        recentMax: String(recentKept),
        outcome,
        at: new Date(atMs).toISOString(),
        // Only a failed attempt may need it (a redelivery asked for meanwhile).
        redelivered: outcome === 'failed' ? JSON.stringify(redeliveryOf(record, atMs)) : '',
        atMs: String(atMs),
      };
      if (batches.size === 0) setImmediate(flush);
      const slot = k.platform ? k.endpoints(id) : '';
      const settling: Settling = [SETTLE_KEYS.map((name) => keys[name]), SETTLE_ARGS.map((name) => args[name]), done, failed];
      if (k.platform && ackSeq) acks.set(settling, [group(id), ackSeq]);
      batches.set(slot, [...(batches.get(slot) ?? []), settling]);
    });
}

type EndpointMethods =
  'createEndpoint' | 'listEndpoints' | 'getEndpoint' | 'updateEndpoint' | 'deleteEndpoint' | 'disableOnce' | 'replaceSecrets';

function redisEndpoints({ redis, logKey, c, k, group }: RedisContext): Pick<OutboundStore, EndpointMethods> {
  const read = async (ids: string[]) =>
    (await Promise.all(ids.map((id) => c.hgetall(k.endpoint(id))))).map(endpointOf).filter((e): e is StoredEndpoint => e !== null);
  return {
    async createEndpoint(endpoint, max) {
      const id = endpoint.id;
      const merchant = k.platform ? merchantOfEndpoint(id) : null;
      if (merchant) {
        // In the merchant's index before anything is written, its group before its endpoint (no script spans both).
        await k.merchantKeys!.own(merchant, keysOfEndpoint(k, id));
        await redis.durable((p) => p.xgroup('CREATE', logKey, group(id), '$', 'MKSTREAM')).catch(() => {});
      }
      const keys = merchant ? [k.endpoints(id), k.endpoint(id)] : [k.endpoints(id), k.endpoint(id), logKey];
      const args = [String(max), id, String(Date.parse(endpoint.createdAt)), group(id), ...endpointFields(endpoint)];
      const created = Number(await redis.durable((p) => p.eval(CREATE, keys.length, ...keys, ...args))) === 1;
      if (!merchant) return created;
      if (created) await redis.durable((p) => p.zadd(k.shard(id), 0, id));
      else await c.xgroup('DESTROY', logKey, group(id)).catch(() => {});
      return created;
    },
    async listEndpoints(merchantId) {
      if (!k.platform || merchantId) return read(await c.zrange(k.listing(merchantId ?? null), 0, -1));
      // The worker: every merchant's; an id whose endpoint a purge removed is dropped from its set, its group too.
      const ids = (await Promise.all(k.shards.map((shard) => c.zrange(shard, 0, -1)))).flat();
      const found = await read(ids);
      const gone = ids.filter((id) => !found.some((e) => e.id === id));
      for (const id of gone) {
        await c.zrem(k.shard(id), id);
        await c.xgroup('DESTROY', logKey, group(id)).catch(() => {});
      }
      return found.sort((x, y) => x.createdAt.localeCompare(y.createdAt));
    },
    async getEndpoint(id) {
      return endpointOf(await c.hgetall(k.endpoint(id)));
    },
    async updateEndpoint(id, patch) {
      const { resetHealth, ...fields } = patch;
      const all = endpointFields({ ...fields, ...(resetHealth ? { failingSince: null, consecutiveFailures: 0 } : {}) });
      if (all.length > 0 && Number(await redis.durable((p) => p.eval(UPDATE, 1, k.endpoint(id), ...all))) === 0) return null;
      return this.getEndpoint(id);
    },
    async deleteEndpoint(id) {
      const removed = Number(await redis.durable((p) => p.zrem(k.endpoints(id), id)));
      if (k.platform) await c.zrem(k.shard(id), id);
      await c.del(k.endpoint(id), k.retry(id), k.recent(id), k.deliveries(id), k.leases(id), k.again(id));
      await c.xgroup('DESTROY', logKey, group(id)).catch(() => {});
      return removed === 1;
    },
    async disableOnce(id, reason) {
      return Number(await redis.durable((p) => p.eval(DISABLE, 1, k.endpoint(id), reason))) === 1;
    },
    async replaceSecrets(id, expected, next) {
      const args = [JSON.stringify(expected), JSON.stringify(next)];
      return Number(await redis.durable((p) => p.eval(REPLACE_SECRETS, 1, k.endpoint(id), ...args))) === 1;
    },
  };
}

function redisDeliveries({
  redis,
  logKey,
  c,
  k,
  group,
  events,
  parse,
  withGroup,
  settleSoon,
}: RedisContext): Omit<OutboundStore, EndpointMethods | 'waiting' | 'rewind' | 'mode' | 'close'> {
  const holdFromLog: OutboundStore['holdFromLog'] = async (id, deliveryIds, now, leaseUntil) => {
    if (deliveryIds.length === 0) return [];
    const args = [String(leaseUntil), String(now), ...deliveryIds];
    return (await redis.durable((p) => p.eval(HOLD, 2, k.retry(id), k.leases(id), ...args))) as LogHold[];
  };
  return {
    async readNew(id, consumer, count) {
      const reply = (await withGroup(id, () =>
        c.xreadgroup('GROUP', group(id), consumer, 'COUNT', count, 'STREAMS', logKey, '>'),
      )) as Array<[string, StreamEntry[]]> | null;
      return events(reply?.[0]?.[1] ?? []);
    },
    async claimStale(id, consumer, minIdleMs, count) {
      const reply = (await withGroup(id, () => c.xautoclaim(logKey, group(id), consumer, minIdleMs, '0-0', 'COUNT', count))) as [
        string,
        StreamEntry[],
      ];
      return events(reply[1] ?? []);
    },
    async release(id, seqs) {
      if (seqs.length > 0) await c.xack(logKey, group(id), ...seqs);
    },
    async recordAttempt(record, ackSeq, outcome, atMs) {
      const reply = await settleSoon(record, ackSeq, outcome, atMs);
      if (reply === null) return { kept: false, failingSince: null };
      return { kept: true, failingSince: reply ? Date.parse(String(reply)) : null };
    },
    async enqueue(record) {
      return (await settleSoon(record, null, 'none', 0)) !== null;
    },
    async redeliver(endpointId, deliveryId, now) {
      const keys = [k.deliveries, k.retry, k.recent, k.leases, k.again, k.endpoint].map((key) => key(endpointId));
      // Platform mode: the log is in another slot than the merchant's keys; an attempt from it holds a lease (HOLD).
      const log = k.platform ? k.endpoint(endpointId) : logKey;
      for (let read = 0; read < REDELIVER_READS; read++) {
        const json = await c.hget(k.deliveries(endpointId), deliveryId);
        if (!json) return { outcome: 'gone', record: null };
        const record = parse(json);
        const again = redeliveryOf(record, now);
        const seq = k.platform ? '' : (logSeqOf(record) ?? '');
        const args = [deliveryId, json, JSON.stringify(again), String(now), group(endpointId), seq];
        const outcome = String(await redis.durable((p) => p.eval(REDELIVER, keys.length + 1, ...keys, log, ...args)));
        if (outcome === 'gone') return { outcome, record: null };
        if (outcome === 'in_flight') return { outcome, record };
        if (outcome === 'queued') return { outcome, record: again };
      }
      throw new RedeliveryContendedError(`delivery ${deliveryId} kept changing while being redelivered`);
    },
    ...(k.platform ? { holdFromLog } : {}),
    async claimDue(id, now, count, leaseUntil) {
      // Most passes find nothing due: a plain read, sent with the other commands of its tick, spares them the
      // script and the durable write's own round trip.
      if ((await c.zrangebyscore(k.retry(id), '-inf', now, 'LIMIT', 0, 1)).length === 0) return [];
      const json = (await redis.durable((p) =>
        p.eval(CLAIM_DUE, 3, k.retry(id), k.deliveries(id), k.leases(id), String(now), String(count), String(leaseUntil)),
      )) as string[];
      return json.map(parse);
    },
    async getDelivery(endpointId, deliveryId) {
      const json = await c.hget(k.deliveries(endpointId), deliveryId);
      return json ? parse(json) : null;
    },
    async listDeliveries(endpointId) {
      const all = Object.values(await c.hgetall(k.deliveries(endpointId))).map(parse);
      return all.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
    },
  };
}

/** How far behind an endpoint is, and moving its place in the log back (a replay). */
function redisPlaces({ redis, logKey, c, k, group, withGroup }: RedisContext): Pick<OutboundStore, 'waiting' | 'rewind'> {
  return {
    async waiting(endpointId) {
      const [retryIds, pending] = await Promise.all([
        c.zrange(k.retry(endpointId), 0, -1),
        withGroup(endpointId, () => c.xpending(logKey, group(endpointId))) as Promise<[number, string | null, string | null, unknown]>,
      ]);
      const times = retryIds.map((d) => parseStreamId(decodeEventId(d.slice(d.indexOf('.') + 1)) ?? '')?.[0] ?? Infinity);
      if (pending[1]) times.push(parseStreamId(pending[1])?.[0] ?? Infinity);
      const oldest = Math.min(...times);
      return { retrying: retryIds.length, inFlight: Number(pending[0]), oldestMs: Number.isFinite(oldest) ? oldest : null };
    },
    async rewind(id, seq) {
      const groups = (await c.xinfo('GROUPS', logKey)) as unknown[][];
      const mine = groups.map(toMap).find((g) => g.get('name') === group(id));
      const current = String(mine?.get('last-delivered-id') ?? '0-0');
      const [ms, n] = parseStreamId(seq) ?? [0, 0];
      const before = n > 0 ? `${ms}-${n - 1}` : ms > 0 ? `${ms - 1}-${Number.MAX_SAFE_INTEGER}` : '0-0';
      const target = compareStreamIds(current, before) < 0 ? current : before;
      await redis.durable((p) => p.xgroup('SETID', logKey, group(id), target));
    },
  };
}

function toMap(flat: unknown[]): Map<string, unknown> {
  const map = new Map<string, unknown>();
  for (let i = 0; i + 1 < flat.length; i += 2) map.set(String(flat[i]), flat[i + 1]);
  return map;
}
