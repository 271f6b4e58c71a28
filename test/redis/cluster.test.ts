// A gateway on a Redis Cluster (REDIS_CLUSTER_NODES, REDIS_MIN_REPLICAS=1; three primaries with a replica each)
// keeps every acknowledged webhook and makes every payment once while the primary of its hash slot changes: a
// CLUSTER FAILOVER during traffic, and the primary SIGKILLed right after acknowledging. Every key of the gateway
// carries its namespace as hash tag, so all its scripts and transactions run on that one slot; rate-limit counters
// (one key per caller, never in a script with another) do not, so callers spread over the shards.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestStack } from '../helpers/gateway.js';
import { startCluster, type TestCluster } from '../helpers/redis-topology.js';
import type { Api } from '../helpers/sandbox-api.js';
import {
  failoverDuringTraffic,
  killRightAfterAcknowledging,
  pubSubRoundTrip,
  retryReasons,
  startFailoverStack,
} from './failover-traffic.js';

let cluster: TestCluster;
let stack: TestStack;
let rest: Api;
/** A key in the gateway's hash slot. */
let slotKey: string;

beforeAll(async () => {
  cluster = await startCluster();
  let namespace: string;
  ({ stack, rest, namespace } = await startFailoverStack({
    REDIS_CLUSTER_NODES: cluster.addresses.map((a) => `${a.host}:${a.port}`).join(','),
    PAYMENT_TIMEOUT_MS: '1000',
    IDEMPOTENCY_PENDING_TTL_MS: '1500',
  }));
  slotKey = `{${namespace}}:probe`;
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await cluster?.stop();
});

describe('Redis Cluster', () => {
  it('CLUSTER FAILOVER during 200 payments and 500 webhooks: nothing paid twice, nothing acknowledged lost, serving again', async () => {
    const result = await failoverDuringTraffic(stack, rest, {
      mutations: 200,
      webhooks: 500,
      firstAmount: 100,
      failover: () => cluster.failover(slotKey),
    });
    process.stderr.write(
      `cluster failover: ${JSON.stringify({ servingAgainAfterMs: result.servingAgainAfterMs, retries: result.retries, why: Object.fromEntries(retryReasons) })}\n`,
    );
    expect(result.paidOtherThanOnce).toEqual([]);
    expect(result.missingFromHistory).toEqual([]);
    expect(result.missingFromLiveSubscriber).toEqual([]);
    expect(result.missingFromReplay).toEqual([]);
  }, 120_000);

  it('the primary SIGKILLed right after acknowledging loses nothing (REDIS_MIN_REPLICAS=1)', async () => {
    await cluster.replicated(slotKey);
    const result = await killRightAfterAcknowledging(stack, rest, {
      mutations: 40,
      webhooks: 100,
      firstAmount: 400,
      kill: () => cluster.killPrimary(slotKey),
    });
    process.stderr.write(`cluster kill: ${JSON.stringify({ servingAgainAfterMs: result.servingAgainAfterMs })}\n`);
    expect(result.paidOtherThanOnce).toEqual([]);
    expect(result.changedReferences).toBe(0);
    expect(result.missingFromHistory).toEqual([]);
    expect(result.missingFromReplay).toEqual([]);
  }, 120_000);
  it('after all that traffic, every key of the gateway is in the hash slot of its namespace, on one primary, but rate-limit counters, which spread by caller', async () => {
    const { primary } = await cluster.shardOf(slotKey);
    const tag = slotKey.slice(0, slotKey.indexOf('}') + 1);
    const tagged: string[] = [];
    const counters: Array<{ key: string; port: number }> = [];
    for (const node of cluster.nodes) {
      const client = new Redis({ host: '127.0.0.1', port: node.port, lazyConnect: true });
      await client.connect();
      const [, found] = await client.scan('0', 'MATCH', '*', 'COUNT', 10_000);
      const isPrimary = (await client.call('ROLE').then((r) => (r as string[])[0])) === 'master';
      if (isPrimary) counters.push(...found.filter((k) => k.includes(':ratelimit:')).map((key) => ({ key, port: node.port })));
      const others = found.filter((k) => !k.includes(':ratelimit:'));
      if (node.port !== primary.port && isPrimary) expect(others).toEqual([]);
      if (node.port === primary.port) tagged.push(...others);
      client.disconnect();
    }
    // Idempotency keys, the event log, delivery ids, the reconciliation lease...: all tagged with the namespace.
    expect(tagged.length).toBeGreaterThan(0);
    expect(tagged.every((k) => k.startsWith(tag))).toBe(true);
    // Rate-limit counters (one key per caller, one script each): untagged, each on the primary of its own slot.
    expect(counters.length).toBeGreaterThan(0);
    for (const { key, port } of counters) {
      expect(key).not.toContain('{');
      expect((await cluster.shardOf(key)).primary.port).toBe(port);
    }
    // So many callers' counters land on every primary (the slots of 30 caller keys, as the gateway names them).
    const prefix = counters[0]!.key.slice(0, counters[0]!.key.indexOf(':ratelimit:') + ':ratelimit:'.length);
    const ports = new Set<number>();
    for (let i = 0; i < 30; i++) ports.add((await cluster.shardOf(`${prefix}staff-general:sub:caller-${i}`)).primary.port);
    expect(ports.size).toBe(3);
  });

  it("pub/sub (the bus's resource changes) travels through the Cluster after the failovers", async () => {
    expect(await pubSubRoundTrip(stack)).toMatchObject({ type: 'charge', status: 'pubsub' });
  });
});
