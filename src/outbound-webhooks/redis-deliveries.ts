// The deliveries of the Redis store of outbound webhooks (redis-store.ts describes the keys): where each one
// stands (retry set, recent list, leases), the attempts of its events read from the log (acknowledged on that log in
// the script that saves their outcome), redeliveries, and due retries claimed.
import { redeliveryOf, type DeliveryRecord } from './model.js';
import { InternalError } from '../errors/internal-error.js';
import type { RedisContext } from './redis-context.js';
import { groupOf } from './redis-keys.js';
import type { AttemptOutcome, LogHold, OutboundStore } from './store.js';

/** A redelivery that found its record changed at every read (attempts settling faster than it could act). */
class RedeliveryContendedError extends InternalError {
  override readonly name = 'RedeliveryContendedError';
  readonly code = 'WEBHOOK_REDELIVERY_CONTENDED';
}

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

// A redelivery, one attempt at a time (store.ts): an attempt under way holds the delivery's lease, whether a claimed
// retry's (CLAIM_DUE) or one of an event read from the log (HOLD). KEYS: deliveries, retry, recent, leases, again,
// endpoint. ARGV: id, the record as read, the record redelivered, now. Returns 'changed' when the record moved since it was read (the caller reads it again), 'gone', 'in_flight' (an
// attempt is under way: noted in `again`), or 'queued'.
const REDELIVER = `
if redis.call('EXISTS', KEYS[6]) == 0 then return 'gone' end
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return 'gone' end
if current ~= ARGV[2] then return 'changed' end
if tonumber(redis.call('ZSCORE', KEYS[4], ARGV[1]) or '0') > tonumber(ARGV[4]) then
  redis.call('SADD', KEYS[5], ARGV[1])
  return 'in_flight'
end
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 'queued'`;

// Before the attempts of events read from the log (new, taken over, or replayed), in either mode, per delivery:
// 'retrying' when a retry of it is under way (claimed from the retry set: that one is its attempt), 'busy' when
// another attempt from the log holds its lease, else 'go' with a lease until the attempt settles (SETTLE ends it),
// which REDELIVER then answers with 'in_flight'. A delivery waiting in the retry set is taken out of it by 'go': the
// attempt from the log is its next one, brought forward (as a redelivery brings a waiting retry forward).
// KEYS: retry, leases. ARGV: lease until, now, the delivery ids.
const HOLD = `
local out = {}
for i = 3, #ARGV do
  local id = ARGV[i]
  if tonumber(redis.call('ZSCORE', KEYS[2], id) or '0') > tonumber(ARGV[2]) then
    out[#out + 1] = redis.call('ZSCORE', KEYS[1], id) and 'retrying' or 'busy'
  else
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZADD', KEYS[2], ARGV[1], id)
    out[#out + 1] = 'go'
  end
end
return out`;

/** Reads of a record a redelivery makes before it finds it unchanged (each change is an attempt settling). */
const REDELIVER_READS = 5;

type Settling = [keys: string[], args: string[], done: (reply: unknown) => void, failed: (err: unknown) => void];

/**
 * Settles in one SETTLE script the deliveries handed in within one tick (with 100 endpoints, the attempts of one
 * event end together); resolves each with its own reply. A failed write fails them all: each stays in flight or in
 * its retry set, as after any failed settle. Platform mode: one script per merchant (its keys, its log included,
 * share a slot).
 */
function settleBatcher({ redis, recentKept, k }: RedisContext) {
  const batches = new Map<string, Settling[]>();
  const run = (settling: Settling[]) => {
    const keys = settling.flatMap(([ks]) => ks);
    const args = settling.flatMap(([, as]) => as);
    redis
      .durable((p) => p.eval(SETTLE, keys.length, ...keys, ...args))
      .then((replies) => settling.forEach(([, , done], i) => done((replies as unknown[])[i] ?? null)))
      .catch((err: unknown) => settling.forEach(([, , , failed]) => failed(err)));
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
        log: k.log(id),
        leases: k.leases(id),
        again: k.again(id),
      };
      const args: SettleArgs = {
        id: record.id,
        json: JSON.stringify(record),
        status: record.status,
        due: String(record.nextAttemptAt ?? 0),
        createdMs: String(Date.parse(record.createdAt)),
        group: groupOf(id),
        ackSeq: ackSeq ?? '',
        recentMax: String(recentKept),
        outcome,
        at: new Date(atMs).toISOString(),
        // Only a failed attempt may need it (a redelivery asked for meanwhile).
        redelivered: outcome === 'failed' ? JSON.stringify(redeliveryOf(record, atMs)) : '',
        atMs: String(atMs),
      };
      if (batches.size === 0) setImmediate(flush);
      const slot = k.platform ? k.endpoints(id) : '';
      batches.set(slot, [
        ...(batches.get(slot) ?? []),
        [SETTLE_KEYS.map((name) => keys[name]), SETTLE_ARGS.map((name) => args[name]), done, failed],
      ]);
    });
}

type DeliveryMethods = 'recordAttempt' | 'enqueue' | 'redeliver' | 'holdFromLog' | 'claimDue' | 'getDelivery' | 'listDeliveries';

/** The deliveries' half of the Redis store: settling attempts, redeliveries, due retries, the delivery log. */
export function redisDeliveries(ctx: RedisContext): Pick<OutboundStore, DeliveryMethods> {
  const { redis, c, k, parse } = ctx;
  const settleSoon = settleBatcher(ctx);
  const holdFromLog: OutboundStore['holdFromLog'] = async (id, deliveryIds, now, leaseUntil) => {
    if (deliveryIds.length === 0) return [];
    const args = [String(leaseUntil), String(now), ...deliveryIds];
    return (await redis.durable((p) => p.eval(HOLD, 2, k.retry(id), k.leases(id), ...args))) as LogHold[];
  };
  return {
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
      for (let read = 0; read < REDELIVER_READS; read++) {
        const json = await c.hget(k.deliveries(endpointId), deliveryId);
        if (!json) return { outcome: 'gone', record: null };
        const record = parse(json);
        const again = redeliveryOf(record, now);
        // An attempt from the log holds a lease (HOLD), which the script reads; the pending list is not asked (an
        // event read again whose delivery waits to be retried is in it only until it is released).
        const args = [deliveryId, json, JSON.stringify(again), String(now)];
        const outcome = String(await redis.durable((p) => p.eval(REDELIVER, keys.length, ...keys, ...args)));
        if (outcome === 'gone') return { outcome, record: null };
        if (outcome === 'in_flight') return { outcome, record };
        if (outcome === 'queued') return { outcome, record: again };
      }
      throw new RedeliveryContendedError(`delivery ${deliveryId} kept changing while being redelivered`);
    },
    holdFromLog,
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
