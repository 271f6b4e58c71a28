export {
  connectRedis,
  durableWrite,
  DEFAULT_REDIS_NAMESPACE,
  ReplicasBehindError,
  topologyOf,
  type ConnectRedisOptions,
  type GatewayRedis,
  type RedisAddress,
  type RedisClient,
  type RedisRole,
  type RedisTopology,
} from './connections.js';
export { checkRedisForLiveMode, RedisUnfitError, type RedisDurability, type RedisPersistence } from './live-check.js';
export { EPOCH_LUA, NEW_EPOCH_LUA, redisEpoch, type EpochState, type RedisEpoch } from './epoch.js';
export { redisWriteHealth, type RedisWriteHealth, type RedisWriteState } from './write-health.js';
export {
  LIST_EXPIRING_LUA,
  merchantEpochKey,
  merchantExpiringIndex,
  merchantKeyIndex,
  merchantOfKey,
  merchantTag,
} from './merchant-keys.js';
export { MERCHANT_SET_SHARDS, memoryMerchantSet, redisMerchantSet, type MerchantSet } from './merchant-sets.js';
