// What a private redis-server did between two looks: round trips (`total_reads_processed`: one socket read per
// request arriving; a pipeline sent in one write is one) and commands by name (INFO commandstats, a script's own
// `redis.call`s included). Each look is one `INFO stats commandstats` on a connection of the test's own.
import { Redis } from 'ioredis';
import { connectRedis, type GatewayRedis } from '../../src/redis/index.js';
import { startRedisServer } from './redis-server.js';

export interface RedisCounts {
  reads: number;
  calls: Map<string, number>;
}

/**
 * The looking connection, once ready: ioredis writes an INFO (a command allowed while the server loads) before
 * its own ready check has run, which would then land between two looks.
 */
export async function countingConnection(url: string): Promise<Redis> {
  const admin = new Redis(url, { lazyConnect: true });
  await admin.connect();
  return admin;
}

export async function redisCounts(admin: Redis): Promise<RedisCounts> {
  const info = (await admin.call('INFO', 'stats', 'commandstats')) as string;
  const calls = new Map<string, number>();
  for (const [, name, n] of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(name!, Number(n));
  return { reads: Number(/^total_reads_processed:(\d+)/m.exec(info)![1]), calls };
}

/** Round trips and commands by name from `before` to `after`, the looks' own taken off. */
export function countsBetween(before: RedisCounts, after: RedisCounts): { roundTrips: number; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  for (const [name, n] of after.calls) {
    // A look's read counts in its own figures, its call in the next look's: `after` holds one of each.
    const grew = n - (before.calls.get(name) ?? 0) - (name === 'info' ? 1 : 0);
    if (grew > 0) calls[name] = grew;
  }
  return { roundTrips: after.reads - before.reads - 1, calls };
}

/** A private redis-server, the gateway's connection to it under `namespace`, and a counting connection beside it. */
export interface CountedRedis {
  redis: GatewayRedis;
  admin: Redis;
  close(): Promise<void>;
}

export async function startCountedRedis(namespace: string): Promise<CountedRedis> {
  const server = await startRedisServer();
  const redis = await connectRedis({ url: server.url, namespace });
  const admin = await countingConnection(server.url);
  return {
    redis,
    admin,
    async close() {
      admin.disconnect();
      await redis.close();
      await server.stop();
    },
  };
}
