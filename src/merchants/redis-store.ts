// The merchants in Redis. Each merchant's keys share the hash tag `{m:<id>}` (its record and the index of the
// keys it owns), so a Cluster spreads merchants over its shards and a purge of one touches one slot; a webhook
// route has its own tag, and the listing is split over LISTING_SHARDS sorted sets, so no key grows with the
// number of merchants unsharded. Writes wait for REDIS_MIN_REPLICAS replicas, as idempotency claims do.
import { createHash, randomUUID } from 'node:crypto';
import {
  merchantEpochKey,
  merchantExpiringIndex,
  merchantKeyIndex,
  merchantTag,
  NEW_EPOCH_LUA,
  type GatewayRedis,
} from '../redis/index.js';

export { merchantKeyIndex, merchantTag };
import { InternalError } from '../errors/internal-error.js';
import type { MerchantRecord } from './model.js';
import { listCursor, type MerchantStore } from './store.js';

/** How many sorted sets hold the listing (each about 1/16 of the merchants). */
export const LISTING_SHARDS = 16;

/** A key handed to `ownKey` outside the merchant's hash tag: a purge on a Cluster could not delete it with the rest. */
class ForeignKeyError extends InternalError {
  override readonly name = 'ForeignKeyError';
  readonly code = 'MERCHANT_KEY_OUTSIDE_TAG';
}

// Compare-and-set of a record: written only if it is still at the revision the writer read.
const REPLACE_LUA = `
if redis.call('HGET', KEYS[1], 'rev') == ARGV[1] then
  redis.call('HSET', KEYS[1], 'doc', ARGV[2], 'rev', ARGV[3])
  return 1
end
return 0`;

// A new merchant's record, with the generation of its keys (it can have none from before now: its first money moves
// need no lookup at the service), listed among the keys it owns. KEYS[1] record, KEYS[2] generation, KEYS[3] its
// index; ARGV[1] doc, ARGV[2] revision, ARGV[3] a fresh generation id.
const INSERT_LUA = `${NEW_EPOCH_LUA}
redis.call('HSET', KEYS[1], 'doc', ARGV[1], 'rev', ARGV[2])
newEpoch(KEYS[2], ARGV[3])
redis.call('SADD', KEYS[3], KEYS[2])`;

/** A MerchantStore in Redis (one node, Sentinel or Cluster). */
export function redisMerchantStore(redis: GatewayRedis): MerchantStore {
  const recordKey = (id: string) => redis.tagged(merchantTag(id), 'merchant');
  const ownedKey = (id: string) => merchantKeyIndex(redis, id);
  const routeKey = (routeId: string) => redis.tagged(`r:${routeId}`, 'route');
  const shardKey = (id: string) => redis.soloKey('merchants', String(createHash('sha256').update(id).digest()[0]! % LISTING_SHARDS));
  const shards = Array.from({ length: LISTING_SHARDS }, (_, i) => redis.soloKey('merchants', String(i)));
  const parse = (doc: string | null): MerchantRecord | null => (doc ? (JSON.parse(doc) as MerchantRecord) : null);

  return {
    kind: 'redis',
    get: async (id) => parse(await redis.commands.hget(recordKey(id), 'doc')),
    idOfRoute: (routeId) => redis.commands.get(routeKey(routeId)),
    async insert(record) {
      // Record first, then its route and its place in the listing: a half-made merchant is never reachable by a route.
      const [id, doc, rev] = [record.id, JSON.stringify(record), String(record.revision)];
      const fresh = randomUUID().replaceAll('-', '').slice(0, 16);
      await redis.durable((p) => p.eval(INSERT_LUA, 3, recordKey(id), merchantEpochKey(redis, id), ownedKey(id), doc, rev, fresh));
      await redis.durable((p) => p.set(routeKey(record.routeId), record.id));
      await redis.durable((p) => p.zadd(shardKey(record.id), 0, listCursor(record)));
    },
    async replace(record) {
      const reply = await redis.durable((p) =>
        p.eval(REPLACE_LUA, 1, recordKey(record.id), String(record.revision - 1), JSON.stringify(record), String(record.revision)),
      );
      return Number(reply) === 1;
    },
    async list(first, after) {
      const from = after === null ? '-' : `(${after}`;
      const pages = await Promise.all(shards.map((key) => redis.commands.zrangebylex(key, from, '+', 'LIMIT', 0, first + 1)));
      const cursors = pages.flat().sort();
      const ids = cursors.slice(0, first).map((cursor) => cursor.slice(cursor.indexOf(':') + 1));
      const docs = await Promise.all(ids.map((id) => redis.commands.hget(recordKey(id), 'doc')));
      return { records: docs.map(parse).filter((r): r is MerchantRecord => r !== null), hasMore: cursors.length > first };
    },
    async count() {
      const sizes = await Promise.all(shards.map((key) => redis.commands.zcard(key)));
      return sizes.reduce((sum, n) => sum + n, 0);
    },
    async ownKey(merchantId, key) {
      if (!key.includes(`{${merchantTag(merchantId)}}`)) throw new ForeignKeyError('a merchant owns only keys under its own hash tag');
      await redis.durable((p) => p.sadd(ownedKey(merchantId), key));
    },
    ownedKeys: (merchantId) => redis.commands.smembers(ownedKey(merchantId)),
    async purge(record) {
      // What other layers listed: keys kept until deleted, and keys that expire on their own (src/redis/merchant-keys.ts).
      const expiring = merchantExpiringIndex(redis, record.id);
      const owned = [...(await redis.commands.smembers(ownedKey(record.id))), ...(await redis.commands.zrange(expiring, 0, -1)), expiring];
      // Every owned key is under the merchant's tag: one slot, so one DEL per batch even on a Cluster.
      for (let i = 0; i < owned.length; i += 500) await redis.durable((p) => p.del(...owned.slice(i, i + 500)));
      await redis.durable((p) => p.del(routeKey(record.routeId)));
      await redis.durable((p) => p.zrem(shardKey(record.id), listCursor(record)));
      await redis.durable((p) => p.del(ownedKey(record.id), recordKey(record.id)));
    },
    async close() {},
  };
}
