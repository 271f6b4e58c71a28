export { connectRedis, DEFAULT_REDIS_NAMESPACE, type ConnectRedisOptions, type GatewayRedis, type RedisRole } from './connections.js';
export { checkRedisForLiveMode, RedisUnfitError, type RedisDurability, type RedisPersistence } from './live-check.js';
