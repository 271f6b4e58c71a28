// Platform mode: which merchants have work a shared worker must look after (payout batches to run, resources to
// reconcile), so that the worker finds them without reading every merchant. Kept over MERCHANT_SET_SHARDS sets, no
// key growing with the number of merchants unsharded; each set a key of its own (no hash tag), so a Cluster spreads
// them over its shards.
import { createHash } from 'node:crypto';
import type { GatewayRedis } from './connections.js';

/** How many sets hold one area's merchants. */
export const MERCHANT_SET_SHARDS = 16;

/** The merchants with work of one kind waiting. */
export interface MerchantSet {
  add(merchantId: string): Promise<void>;
  remove(merchantId: string): Promise<void>;
  list(): Promise<string[]>;
}

/** In this process's memory (one replica without Redis). */
export function memoryMerchantSet(): MerchantSet {
  const ids = new Set<string>();
  return {
    add: async (id) => void ids.add(id),
    remove: async (id) => void ids.delete(id),
    list: async () => [...ids],
  };
}

/** In Redis, shared by every replica: `<prefix>:<area>:active-merchants:<0..15>`. */
export function redisMerchantSet(redis: Pick<GatewayRedis, 'commands' | 'soloKey'>, area: string): MerchantSet {
  const shard = (id: string) =>
    redis.soloKey(area, 'active-merchants', String(createHash('sha256').update(id).digest()[0]! % MERCHANT_SET_SHARDS));
  const shards = Array.from({ length: MERCHANT_SET_SHARDS }, (_, i) => redis.soloKey(area, 'active-merchants', String(i)));
  return {
    add: async (id) => void (await redis.commands.sadd(shard(id), id)),
    remove: async (id) => void (await redis.commands.srem(shard(id), id)),
    list: async () => (await Promise.all(shards.map((key) => redis.commands.smembers(key)))).flat(),
  };
}
