// Helpers for tests that use the real Redis at 127.0.0.1:6379.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { PaymentEventRecord } from '../../src/events/payment-event.js';
import type { RedisClient } from '../../src/redis/index.js';
import { waitFor } from '../helpers/wait.js';

export const REDIS_URL = 'redis://127.0.0.1:6379';

/** A namespace no other test run (or engineer) shares. */
export function uniqueNamespace(label: string): string {
  return `test:${label}:${process.pid}:${randomUUID()}`;
}

/** Deletes every key under a prefix, with SCAN (KEYS would block a shared Redis). */
export async function deleteByPrefix(client: RedisClient, prefix: string): Promise<void> {
  // A Cluster's keys are spread over its primaries: SCAN each one.
  const nodes: Redis[] = 'nodes' in client ? client.nodes('master') : [client];
  for (const redis of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      for (const key of keys) await redis.del(key);
      cursor = next;
    } while (cursor !== '0');
  }
}

/** Waits until `channel` has at least `count` subscribers (SUBSCRIBE is asynchronous). */
export async function waitForSubscribers(redis: Redis, channel: string, count: number, timeoutMs = 5_000): Promise<void> {
  await waitFor(
    async () => Number(((await redis.pubsub('NUMSUB', channel)) as [string, number])[1]) >= count,
    `${count} subscriber(s) of ${channel}`,
    timeoutMs,
    10,
  );
}

/** A plain event of the log's own tests: its id is its reference. */
export const logRecord = (id: string): PaymentEventRecord => ({
  id,
  kind: 'log.test',
  receivedAt: new Date().toISOString(),
  reference: id,
  resourceType: null,
  payload: { id },
});
