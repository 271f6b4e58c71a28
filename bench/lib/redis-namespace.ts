// The benchmarks' Redis keys: each bench writes under a namespace of its own on the shared Redis, and removes it after.
import type { GatewayRedis } from '../../src/redis/index.js';

/** Every key under `prefix`, page by page (SCAN: a bench's namespace on a shared Redis, never the whole keyspace). */
export async function* keysUnder(redis: GatewayRedis, prefix: string): AsyncGenerator<string[]> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.commands.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length) yield keys;
    cursor = next;
  } while (cursor !== '0');
}

/** Deletes every key under `prefix`. */
export async function deleteNamespace(redis: GatewayRedis, prefix: string): Promise<void> {
  for await (const keys of keysUnder(redis, prefix)) await redis.commands.del(...keys);
}
