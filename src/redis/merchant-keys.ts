// Platform mode's convention for a merchant's keys, shared by every layer that keeps some: they carry the hash tag
// `{m:<id>}` (one slot per merchant on a Cluster), and each is listed in one of the merchant's indexes (same slot),
// so that offboarding's purge deletes them without a SCAN: `<prefix>:{m:<id>}:keys` (a set) for keys that live until
// they are deleted, `<prefix>:{m:<id>}:expiring-keys` (a sorted set, scored by when the key expires at the latest)
// for keys that expire on their own, so that the index forgets them too instead of growing with every payment.
import type { GatewayRedis } from './connections.js';

/** The hash tag of one merchant's keys. */
export const merchantTag = (merchantId: string): string => `m:${merchantId}`;

/** The index of the keys a merchant owns: other layers add to it, the purge deletes what it names. */
export const merchantKeyIndex = (redis: Pick<GatewayRedis, 'tagged'>, merchantId: string): string =>
  redis.tagged(merchantTag(merchantId), 'keys');

/**
 * A merchant's own generation of its keys (src/redis/epoch.ts), in its slot: on a Cluster its idempotency claims
 * check it instead of the gateway's, which is in another slot. Made with the merchant (NEW_EPOCH_LUA).
 */
export const merchantEpochKey = (redis: Pick<GatewayRedis, 'tagged'>, merchantId: string): string =>
  redis.tagged(merchantTag(merchantId), 'epoch');

/** The merchant whose hash tag a key carries (its first `{…}`, as a Cluster reads it), or null. */
export function merchantOfKey(key: string): string | null {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  const tag = close < 0 ? '' : key.slice(open + 1, close);
  return tag.startsWith('m:') ? tag.slice(2) : null;
}

/** The index of a merchant's keys that expire on their own (a sorted set: key -> latest expiry, ms on Redis's clock). */
export const merchantExpiringIndex = (redis: Pick<GatewayRedis, 'tagged'>, merchantId: string): string =>
  redis.tagged(merchantTag(merchantId), 'expiring-keys');

/**
 * Lua defining `listExpiring(index, key, ttl)`: lists `key` in a merchant's expiring index until `ttl` ms from now
 * (Redis's clock), and forgets the entries already past; the index itself expires with its last entry (an index
 * left behind expires too). For scripts that write a merchant's key with an expiry.
 */
export const LIST_EXPIRING_LUA = `
local function listExpiring(index, key, ttl)
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  redis.call('ZADD', index, now + tonumber(ttl), key)
  redis.call('ZREMRANGEBYSCORE', index, '-inf', '(' .. now)
  local last = redis.call('ZRANGE', index, -1, -1, 'WITHSCORES')
  redis.call('PEXPIREAT', index, last[2])
end
`;
