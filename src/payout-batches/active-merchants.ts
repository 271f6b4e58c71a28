// Platform mode: which merchants have batches a runner must look after, so that each replica's runner finds them
// without reading every merchant. Kept in Redis over ACTIVE_SHARDS sets (no key grows with the number of merchants
// unsharded), or in memory. A merchant is added after a batch of its enters its own active list, and removed by a
// runner only once that list is empty (then read again: a batch added meanwhile puts it back).
import { createHash } from 'node:crypto';
import { orUnavailable } from '../idempotency/unavailable.js';
import type { GatewayRedis } from '../redis/index.js';

/** How many sets hold the merchants with active batches. */
export const ACTIVE_SHARDS = 16;

/** The merchants with batches to run. */
export interface ActiveMerchants {
  add(merchantId: string): Promise<void>;
  remove(merchantId: string): Promise<void>;
  list(): Promise<string[]>;
}

/** In this process's memory (one replica without Redis). */
export function memoryActiveMerchants(): ActiveMerchants {
  const ids = new Set<string>();
  return {
    add: async (id) => void ids.add(id),
    remove: async (id) => void ids.delete(id),
    list: async () => [...ids],
  };
}

/** In Redis, shared by every replica. */
export function redisActiveMerchants(redis: Pick<GatewayRedis, 'commands' | 'soloKey'>): ActiveMerchants {
  const shard = (id: string) =>
    redis.soloKey('payout-batches', 'active-merchants', String(createHash('sha256').update(id).digest()[0]! % ACTIVE_SHARDS));
  const shards = Array.from({ length: ACTIVE_SHARDS }, (_, i) => redis.soloKey('payout-batches', 'active-merchants', String(i)));
  return {
    add: async (id) => void (await orUnavailable(() => redis.commands.sadd(shard(id), id))),
    remove: async (id) => void (await orUnavailable(() => redis.commands.srem(shard(id), id))),
    list: async () => (await orUnavailable(() => Promise.all(shards.map((key) => redis.commands.smembers(key))))).flat(),
  };
}
