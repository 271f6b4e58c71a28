// Deduplicators: in memory, and against the real Redis at 127.0.0.1:6379.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, type GatewayRedis } from '../../src/redis/index.js';
import { memoryDeduplicator, redisDeduplicator } from '../../src/webhooks/dedupe.js';
import { waitFor } from '../redis/wait.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from './redis-helpers.js';

describe('memoryDeduplicator', () => {
  it('answers true exactly once per id', async () => {
    const d = memoryDeduplicator();
    const answers = await Promise.all(Array.from({ length: 10 }, () => d.firstSeen('a')));
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect(await d.firstSeen('b')).toBe(true);
    expect(await d.firstSeen('b')).toBe(false);
  });

  it('forgets an id after its TTL, and expires old entries so memory stays bounded', async () => {
    let t = 1_000;
    const d = memoryDeduplicator({ ttlMs: 100, now: () => t });
    expect(await d.firstSeen('a')).toBe(true);
    t += 99;
    expect(await d.firstSeen('a')).toBe(false);
    t += 1;
    expect(await d.firstSeen('a')).toBe(true);
    for (let i = 0; i < 50; i++) await d.firstSeen(`x${i}`);
    expect(d.size).toBe(51);
    t += 100;
    await d.firstSeen('later');
    expect(d.size).toBe(1);
  });

  it('drops the oldest ids beyond maxEntries', async () => {
    const d = memoryDeduplicator({ maxEntries: 3 });
    for (const id of ['a', 'b', 'c', 'd']) expect(await d.firstSeen(id)).toBe(true);
    expect(d.size).toBe(3);
    expect(await d.firstSeen('d')).toBe(false);
    expect(await d.firstSeen('a')).toBe(true);
  });

  it('release() lets an id be seen again', async () => {
    const d = memoryDeduplicator();
    expect(await d.firstSeen('a')).toBe(true);
    await d.release('a');
    expect(await d.firstSeen('a')).toBe(true);
  });
});

describe('redisDeduplicator', () => {
  const namespace = uniqueNamespace('dedupe');
  const prefix = `${namespace}:webhook-delivery:`;
  // Two owners of their own connections, as two replicas would have.
  let a: GatewayRedis;
  let b: GatewayRedis;

  beforeAll(async () => {
    [a, b] = await Promise.all([connectRedis({ url: REDIS_URL, namespace }), connectRedis({ url: REDIS_URL, namespace })]);
  });

  afterAll(async () => {
    await deleteByPrefix(a.commands, namespace);
    expect(await a.commands.exists(`${prefix}evt_0`, `${prefix}rel`)).toBe(0);
    await Promise.all([a.close(), b.close()]);
  });

  it('lets exactly one of two replicas win each id, racing on separate connections', async () => {
    const replicaA = redisDeduplicator(a);
    const replicaB = redisDeduplicator(b);
    for (let round = 0; round < 20; round++) {
      const id = `evt_${round}`;
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? replicaA : replicaB).firstSeen(id)));
      expect(answers.filter(Boolean)).toHaveLength(1);
    }
    expect(await a.commands.pttl(`${prefix}evt_0`)).toBeGreaterThan(23 * 60 * 60 * 1000);
  });

  it('forgets an id after a short TTL', async () => {
    const d = redisDeduplicator(a, { ttlMs: 80 });
    expect(await d.firstSeen('short')).toBe(true);
    expect(await d.firstSeen('short')).toBe(false);
    await waitFor(async () => (await a.commands.exists(`${prefix}short`)) === 0, 'the id to expire');
    expect(await d.firstSeen('short')).toBe(true);
  });

  it('release() deletes the key; close() leaves the borrowed connection open', async () => {
    const d = redisDeduplicator(a);
    expect(await d.firstSeen('rel')).toBe(true);
    await d.release('rel');
    expect(await a.commands.exists(`${prefix}rel`)).toBe(0);
    expect(await d.firstSeen('rel')).toBe(true);
    await d.close();
    await expect(d.firstSeen('rel2')).rejects.toThrow(/closed/);
    expect(await a.commands.ping()).toBe('PONG');
  });
});
