// Platform mode: which merchants have batches a runner must look after, so that each replica's runner finds them
// without reading every merchant (src/redis/merchant-sets.ts: 16 sets in Redis, or memory). A merchant is added
// after a batch of its enters its own active list, and removed by a runner only once that list is empty (then read
// again: a batch added meanwhile puts it back).
import { orUnavailable } from '../idempotency/unavailable.js';
import { MERCHANT_SET_SHARDS, memoryMerchantSet, redisMerchantSet, type GatewayRedis, type MerchantSet } from '../redis/index.js';

/** How many sets hold the merchants with active batches. */
export const ACTIVE_SHARDS = MERCHANT_SET_SHARDS;

/** The merchants with batches to run. */
export type ActiveMerchants = MerchantSet;

/** In this process's memory (one replica without Redis). */
export const memoryActiveMerchants = memoryMerchantSet;

/** In Redis, shared by every replica; a Redis that does not answer is SERVICE_UNAVAILABLE. */
export function redisActiveMerchants(redis: Pick<GatewayRedis, 'commands' | 'soloKey'>): ActiveMerchants {
  const set = redisMerchantSet(redis, 'payout-batches');
  return {
    add: (id) => orUnavailable(() => set.add(id)),
    remove: (id) => orUnavailable(() => set.remove(id)),
    list: () => orUnavailable(() => set.list()),
  };
}
