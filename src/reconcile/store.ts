// The resources the gateway is watching until they are final, and the lease
// that lets one replica at a time reconcile them. In Redis (shared by every
// replica, kept across restarts) or in memory (one process).
//
// Redis layout, under the gateway's namespace:
//   reconcile:due            sorted set, member "<type>:<reference>", score = when to look next
//   reconcile:item:<member>  JSON of the watched resource (expires a day after the stuck limit)
//   reconcile:lease          the replica holding the lease (PX)
// Platform mode keeps each merchant's watches under its hash tag, `<prefix>:{m:<id>}:reconcile:due` and
// `…:reconcile:item:<member>`, each listed in the merchant's key indexes by the script that writes it (the purge
// removes them); the lease stays one for all.
import { LIST_EXPIRING_LUA, merchantExpiringIndex, merchantKeyIndex, merchantTag, type GatewayRedis } from '../redis/index.js';
import type { ResourceKind } from '../upstream/types.js';

export interface WatchedResource {
  type: ResourceKind;
  reference: string;
  /** Clock time the gateway started watching it (its creation). */
  createdAt: number;
  /** The last status the log is known to hold for it; null: none since creation. */
  lastStatus: string | null;
  /** Current wait between two looks (grows while nothing changes). */
  intervalMs: number;
  /** Clock time of the next look. */
  dueAt: number;
}

/** Where one watch list lives in Redis: the gateway's own keys, or (platform mode) a merchant's. */
interface ReconcileLayout {
  due: string;
  item(member: string): string;
  /** A merchant's key indexes: the schedule goes into the first, each item into the expiring one. */
  indexes?: [keys: string, expiring: string];
}

export interface ReconcileStore {
  /** Starts watching, unless it already is. */
  add(item: WatchedResource): Promise<void>;
  get(type: ResourceKind, reference: string): Promise<WatchedResource | null>;
  put(item: WatchedResource): Promise<void>;
  remove(type: ResourceKind, reference: string): Promise<void>;
  /** Up to `limit` resources whose next look is due at `now`, most overdue first. */
  due(now: number, limit: number): Promise<WatchedResource[]>;
  /** Takes or renews the lease for `holder`; false when another replica holds it. */
  acquireLease(holder: string, ttlMs: number): Promise<boolean>;
  releaseLease(holder: string): Promise<void>;
  /** How many resources it watches. */
  size(): Promise<number>;
}

const member = (type: ResourceKind, reference: string) => `${type}:${reference}`;

/** The watch list and lease in this process's memory. */
export function memoryReconcileStore(): ReconcileStore {
  const items = new Map<string, WatchedResource>();
  return {
    async add(item) {
      const key = member(item.type, item.reference);
      if (!items.has(key)) items.set(key, { ...item });
    },
    async get(type, reference) {
      const item = items.get(member(type, reference));
      return item ? { ...item } : null;
    },
    async put(item) {
      items.set(member(item.type, item.reference), { ...item });
    },
    async remove(type, reference) {
      items.delete(member(type, reference));
    },
    async due(now, limit) {
      return [...items.values()]
        .filter((i) => i.dueAt <= now)
        .sort((a, b) => a.dueAt - b.dueAt)
        .slice(0, limit)
        .map((i) => ({ ...i }));
    },
    async acquireLease() {
      return true;
    },
    async releaseLease() {},
    async size() {
      return items.size;
    },
  };
}

// Renew when ours, take when free: atomic, so two replicas never both hold it.
const ACQUIRE_LEASE = `
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if current then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

// The item and its place in the schedule in one step (one round trip); KEYS share one hash tag (the namespace's, or
// the merchant's, whose key indexes then list them). With ARGV[5] = '1' (a new watch), an item already watched keeps
// its state and its place.
const WRITE_ITEM = `${LIST_EXPIRING_LUA}
if ARGV[5] == '1' then
  if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return 0 end
  redis.call('ZADD', KEYS[2], 'NX', ARGV[3], ARGV[4])
else
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
end
if #KEYS > 2 then
  redis.call('SADD', KEYS[3], KEYS[2])
  listExpiring(KEYS[4], KEYS[1], ARGV[2])
end
return 1`;

const RELEASE_LEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

type StoreRedis = Pick<GatewayRedis, 'commands' | 'key' | 'tagged'>;

/** The watch list and lease in Redis, shared by every replica and kept across restarts. */
export function redisReconcileStore(redis: StoreRedis, options: { itemTtlMs: number }): ReconcileStore {
  return reconcileStoreAt(redis, options, {
    due: redis.key('reconcile', 'due'),
    item: (m) => redis.key('reconcile', 'item', m),
  });
}

/** Platform mode: one merchant's watch list, under its hash tag and in its key indexes (the lease is the gateway's). */
export function redisMerchantReconcileStore(redis: StoreRedis, options: { itemTtlMs: number }, merchantId: string): ReconcileStore {
  const tag = merchantTag(merchantId);
  return reconcileStoreAt(redis, options, {
    due: redis.tagged(tag, 'reconcile', 'due'),
    item: (m) => redis.tagged(tag, 'reconcile', 'item', m),
    indexes: [merchantKeyIndex(redis, merchantId), merchantExpiringIndex(redis, merchantId)],
  });
}

function reconcileStoreAt(redis: StoreRedis, options: { itemTtlMs: number }, layout: ReconcileLayout): ReconcileStore {
  const client = redis.commands;
  const dueKey = layout.due;
  const itemKey = (type: ResourceKind, reference: string) => layout.item(member(type, reference));
  const leaseKey = redis.key('reconcile', 'lease');
  const parse = (json: string | null): WatchedResource | null => (json ? (JSON.parse(json) as WatchedResource) : null);
  const write = async (item: WatchedResource, asNew: boolean) => {
    const keys = [itemKey(item.type, item.reference), dueKey, ...(layout.indexes ?? [])];
    const args = [JSON.stringify(item), options.itemTtlMs, item.dueAt, member(item.type, item.reference), asNew ? '1' : '0'];
    await client.eval(WRITE_ITEM, keys.length, ...keys, ...args);
  };
  return {
    add: (item) => write(item, true),
    async get(type, reference) {
      return parse(await client.get(itemKey(type, reference)));
    },
    put: (item) => write(item, false),
    async remove(type, reference) {
      await client.multi().del(itemKey(type, reference)).zrem(dueKey, member(type, reference)).exec();
    },
    async due(now, limit) {
      const members = await client.zrangebyscore(dueKey, '-inf', now, 'LIMIT', 0, limit);
      if (members.length === 0) return [];
      const values = await client.mget(...members.map((m) => layout.item(m)));
      const found: WatchedResource[] = [];
      const expired: string[] = [];
      values.forEach((json, i) => {
        const item = parse(json);
        if (item) found.push(item);
        else expired.push(members[i]!);
      });
      // An item whose key expired (watched for longer than it could matter) leaves the schedule too.
      if (expired.length > 0) await client.zrem(dueKey, ...expired);
      return found;
    },
    async acquireLease(holder, ttlMs) {
      return (await client.eval(ACQUIRE_LEASE, 1, leaseKey, holder, String(ttlMs))) === 1;
    },
    async releaseLease(holder) {
      await client.eval(RELEASE_LEASE, 1, leaseKey, holder);
    },
    size: () => client.zcard(dueKey),
  };
}
