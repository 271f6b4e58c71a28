// Offboarding on a Redis Cluster of three primaries (each with a replica), started by this test on spare ports and
// stopped by PID (test/helpers/redis-topology.ts): merchants spread over every shard by their hash tag, writes wait
// for a replica (REDIS_MIN_REPLICAS=1), and after the purge no key of the offboarded merchant remains on any node,
// primary or replica (its idempotency keys, payout batches, rate-limit counters, ext_id index and webhook endpoints with
// their deliveries included, written by the stores themselves as platform mode writes them), while every other
// merchant's keys stay.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createKeyRing, createMerchantRegistry, redisMerchantStore, type MerchantRegistry } from '../../src/merchants/index.js';
import {
  connectRedis,
  merchantEpochKey,
  merchantExpiringIndex,
  merchantKeyIndex,
  merchantTag,
  redisEpoch,
  type GatewayRedis,
} from '../../src/redis/index.js';
import { redisIdempotencyStore, type IdempotencyStore } from '../../src/idempotency/store.js';
import { redisDocStore } from '../../src/payout-batches/doc-store.js';
import { redisRateLimiter } from '../../src/limits/rate-limiter.js';
import { merchantLimitKey, rateLimitKey } from '../../src/limits/operation-limits.js';
import { silentLogger } from '../../src/logger.js';
import { redisExtIdIndex } from '../../src/ext-id-index/index.js';
import { newDeliveryRecord, newEndpointId } from '../../src/outbound-webhooks/model.js';
import { redisOutboundStore } from '../../src/outbound-webhooks/redis-store.js';
import { startMerchantLogRouter } from '../../src/outbound-webhooks/merchant-log-router.js';
import { merchantLogKey } from '../../src/outbound-webhooks/redis-keys.js';
import { startCluster, type TestCluster } from '../helpers/redis-topology.js';
import { storedEndpoint } from '../outbound-webhooks/helpers.js';
import { waitFor } from '../helpers/wait.js';

let cluster: TestCluster;
let redis: GatewayRedis;
let registry: MerchantRegistry;
const clock = { ms: Date.parse('2026-11-28T10:00:00Z') };

beforeAll(async () => {
  cluster = await startCluster();
  redis = await connectRedis({ clusterNodes: cluster.addresses, namespace: 'purge', minReplicas: 1, replicaTimeoutMs: 2_000 });
  registry = createMerchantRegistry({
    store: redisMerchantStore(redis),
    keys: createKeyRing(randomBytes(32)),
    offboardGraceMs: 3_600_000,
    now: () => clock.ms,
  });
}, 60_000);

afterAll(async () => {
  await redis?.close();
  await cluster?.stop();
});

/** Every key of a node matching a pattern (SCAN, on that node alone: a replica answers READONLY reads). */
async function keysOn(port: number, pattern: string): Promise<string[]> {
  const node = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
  await node.connect();
  try {
    await node.call('READONLY').catch(() => undefined);
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      found.push(...keys);
      cursor = next;
    } while (cursor !== '0');
    return found;
  } finally {
    node.disconnect();
  }
}

it('spreads merchants over the shards, and after the purge no key of the offboarded one remains on any node', async () => {
  const merchants = [];
  for (let i = 0; i < 30; i++) {
    merchants.push(await registry.create({ name: `M${i}`, apiKey: `sk_test_cluster_${i}`, webhookSecret: `whsec-cluster-${i}` }));
  }
  // Each merchant's keys are in its own slot: together they land on all three primaries.
  const primaries = new Set<number>();
  for (const m of merchants) primaries.add((await cluster.shardOf(redis.tagged(`m:${m.id}`, 'merchant'))).primary.port);
  expect(primaries.size).toBe(3);

  const [gone, ...staying] = merchants;
  // Keys another layer recorded as the merchant's: deleted with it, in one slot, without a SCAN.
  // Before the purge the checks below do find its keys (the scan is not blind).
  expect(
    (await keysOn((await cluster.shardOf(redis.tagged(`m:${gone!.id}`, 'merchant'))).primary.port, `*${gone!.id}*`)).length,
  ).toBeGreaterThan(0);
  const owned = [redis.tagged(`m:${gone!.id}`, 'events')];
  for (const key of owned) {
    await redis.commands.set(key, 'x');
    await registry.store.ownKey(gone!.id, key);
  }
  // What the stores write for a merchant (as src/gateway.ts places them), for the offboarded one and another.
  for (const m of [gone!, staying[0]!]) await writeAsPlatformMode(m.id);
  // Each one's events, copied from the shared log into its own log (in its slot), where its endpoint reads them.
  await copyEventsOf([gone!.id, staying[0]!.id]);
  await registry.offboard(gone!.id);
  expect(await registry.purgeDue()).toEqual([]);
  clock.ms += 3_600_001;
  expect(await registry.purgeDue()).toEqual([gone!.id]);

  // The purge is on a replica too (REDIS_MIN_REPLICAS=1 waited for it); replication of the DELs is checked on every node.
  await waitFor(
    async () => {
      for (const node of cluster.nodes) {
        // Its own keys name its id; its webhook route names its route id.
        if ((await keysOn(node.port, `*${gone!.id}*`)).length > 0) return false;
        if ((await keysOn(node.port, `*${gone!.routeId}*`)).length > 0) return false;
      }
      return true;
    },
    'no key of the purged merchant on any node',
    10_000,
    50,
  );
  expect(await registry.byRoute(gone!.routeId)).toBeNull();
  // Its own event log went with it; the other merchant's stays, and the shared log is untouched.
  expect(await redis.commands.exists(merchantLogKey(redis, merchantTag(gone!.id)))).toBe(0);
  expect(await redis.commands.xlen(merchantLogKey(redis, merchantTag(staying[0]!.id)))).toBe(1);
  expect(await redis.commands.xlen(redis.key('events', 'log'))).toBe(2);
  // Made in the same millisecond (this test's clock): listed by id then.
  expect((await registry.list(100, null)).merchants.map((m) => m.id)).toEqual(staying.map((m) => m.id).sort());
  expect(await registry.count()).toBe(29);
  for (const m of staying.slice(0, 3)) expect((await registry.secrets(m.id))?.apiKey).toMatch(/^sk_test_cluster_/);
  // The other merchant's idempotency key, batch and counter stay.
  const kept = await keysOn((await cluster.shardOf(redis.tagged(`m:${staying[0]!.id}`, 'x'))).primary.port, `*${staying[0]!.id}*`);
  expect(kept.filter((key) => /:idem:|payout-batches|ratelimit|extids/.test(key)).length).toBeGreaterThanOrEqual(6);
  // Its webhook endpoint, the endpoint's listing and its deliveries stay too.
  expect(kept.filter((key) => /:webhooks:/.test(key)).length).toBeGreaterThanOrEqual(3);
}, 120_000);

/** Logs one event of each merchant in the shared log, and copies them into the merchants' own logs (the router). */
async function copyEventsOf(merchantIds: string[]): Promise<void> {
  for (const merchantId of merchantIds) {
    const event = { id: `evt_${merchantId}`, kind: 'charge.success', receivedAt: new Date(clock.ms).toISOString(), reference: 'ch_1' };
    await redis.commands.xadd(
      redis.key('events', 'log'),
      '*',
      'e',
      JSON.stringify({ ...event, resourceType: 'charge', payload: {}, merchantId }),
    );
  }
  let routed = 0;
  // Copied from the shared log's start (a router with no cursor starts at its end).
  await redis.commands.set(redis.key('webhooks', 'merchant-log-router'), '0-0');
  const router = startMerchantLogRouter({
    redis,
    logKey: redis.key('events', 'log'),
    merchantLog: (id) => merchantLogKey(redis, merchantTag(id)),
    retentionMs: 3_600_000,
    routed: (events) => (routed += events.length),
    log: silentLogger,
    blockMs: 50,
  });
  try {
    await waitFor(() => routed >= merchantIds.length, 'the events copied', 10_000, 20);
  } finally {
    await router.stop();
  }
  for (const merchantId of merchantIds) expect(await redis.commands.xlen(merchantLogKey(redis, merchantTag(merchantId)))).toBe(1);
}

/** The idempotency store as platform mode places a merchant's keys (src/gateway.ts). */
const platformIdempotency = (): IdempotencyStore =>
  redisIdempotencyStore(redis, {
    epoch: redisEpoch(redis),
    merchantKeys: (id) => ({
      key: (name) => redis.tagged(merchantTag(id), 'idem', name),
      index: merchantExpiringIndex(redis, id),
      epoch: merchantEpochKey(redis, id),
      owned: merchantKeyIndex(redis, id),
    }),
  });

it('gives a new merchant a generation of its own from the start: its first money moves need no lookup at the service', async () => {
  // On a Cluster a merchant's claims check its own generation (the gateway's is in another slot). Made with the
  // merchant, it is continuous from the start: nothing of the merchant can predate it.
  const fresh = await registry.create({ name: 'New', apiKey: 'sk_test_cluster_new', webhookSecret: 'whsec-cluster-new' });
  expect(await platformIdempotency().forMerchant!(fresh.id).claim('first-payout', 'fp', {})).toMatchObject({
    kind: 'claimed',
    clean: true,
  });
  // Listed among its keys (the purge removes it).
  expect(await redis.commands.sismember(merchantKeyIndex(redis, fresh.id), merchantEpochKey(redis, fresh.id))).toBe(1);
  // A generation lost with the merchant's slot is new, not continuous: the next claim is not clean, and a loss is
  // recorded for a process that knew the old one.
  const other = await registry.create({ name: 'Lost', apiKey: 'sk_test_cluster_lost', webhookSecret: 'whsec-cluster-lost' });
  const knowing = platformIdempotency().forMerchant!(other.id);
  expect(await knowing.claim('k1', 'fp', {})).toMatchObject({ clean: true, lost: false });
  await redis.commands.del(merchantEpochKey(redis, other.id));
  expect(await knowing.claim('k2', 'fp', {})).toMatchObject({ kind: 'claimed', clean: false, lost: true });
  expect(await platformIdempotency().forMerchant!(other.id).claim('k3', 'fp', {})).toMatchObject({ kind: 'claimed', clean: false });
});

/** A claimed and a completed idempotency key, a payout-batch document and lease, and rate-limit counters of a merchant. */
async function writeAsPlatformMode(merchantId: string): Promise<void> {
  const tag = merchantTag(merchantId);
  const own = platformIdempotency().forMerchant!(merchantId);
  expect((await own.claim('k1', 'fp', {})).kind).toBe('claimed');
  await own.complete('k1', 'fp', { reference: 'ch_1' });
  expect((await own.claim('k2', 'fp', {})).kind).toBe('claimed');
  // The same key again is the first one's (a replay), read in the merchant's slot.
  expect(await own.claim('k1', 'fp', {})).toMatchObject({ kind: 'replay' });
  const docs = redisDocStore(redis, undefined, {
    key: (name) => redis.tagged(tag, 'payout-batches', name),
    index: merchantExpiringIndex(redis, merchantId),
  });
  expect(await docs.put('batch:pb_1', { id: 'pb_1' }, 0)).toBe(true);
  expect(await docs.acquireLease('batch:pb_1', 'runner', 60_000)).toBe(true);
  const merchantBudget = redisRateLimiter(redis, 'merchant', { points: 100, windowMs: 60_000 }, silentLogger);
  expect(await merchantBudget.consume(merchantLimitKey(merchantId))).toEqual({ allowed: true });
  const callers = redisRateLimiter(redis, 'staff-general', { points: 100, windowMs: 60_000 }, silentLogger);
  const staff = { kind: 'staff', subject: 'awa', scopes: [], merchantId } as unknown as Parameters<typeof rateLimitKey>[0];
  expect(await callers.consume(rateLimitKey(staff, null))).toEqual({ allowed: true });
  const extIds = redisExtIdIndex(redis, {
    account: 'cluster',
    retentionMs: 3_600_000,
    merchants: (id) => ({ prefix: redis.tagged(merchantTag(id), 'extids'), index: merchantExpiringIndex(redis, id) }),
  });
  await extIds.forMerchant!(merchantId).record([
    { extId: 'order-1', reference: 'ch_1' },
    { extId: 'order-2', reference: 'ch_2' },
  ]);
  expect(await extIds.forMerchant!(merchantId).references('order-1')).toEqual(['ch_1']);
  // A webhook endpoint of the merchant, a delivery waiting for its retry and one settled: every key under its tag
  // (the Lua scripts run in its slot on a Cluster), recorded in its index before they are written.
  const outbound = redisOutboundStore({
    redis,
    logKey: redis.key('events', 'log'),
    merchantKeys: {
      tag: merchantTag,
      own: async (id, keys) => {
        for (const key of keys) await registry.store.ownKey(id, key);
      },
    },
  });
  const endpointId = newEndpointId(merchantId);
  const endpoint = storedEndpoint(endpointId, new Date(clock.ms).toISOString(), 'sealed-in-platform-mode');
  expect(await outbound.createEndpoint(endpoint, 10)).toBe(true);
  const event = (n: number) => ({
    id: `evt_${n}`,
    kind: 'charge.success',
    receivedAt: new Date(clock.ms).toISOString(),
    reference: `ch_${n}`,
    resourceType: 'charge' as const,
    payload: {},
    merchantId,
    seq: `${n}-0`,
  });
  expect(await outbound.enqueue(newDeliveryRecord(endpointId, event(1), 'evt_1', clock.ms + 60_000))).toBe(true);
  const settled = newDeliveryRecord(endpointId, event(2), 'evt_2', clock.ms);
  const attempt = { at: new Date(clock.ms).toISOString(), httpStatus: 204, durationMs: 5, error: null, responseBodyExcerpt: null };
  expect((await outbound.recordAttempt({ ...settled, status: 'SUCCEEDED', attempts: [attempt] }, null, 'ok', clock.ms)).kept).toBe(true);
  expect((await outbound.listDeliveries(endpointId)).map((d) => d.eventId).sort()).toEqual(['evt_1', 'evt_2']);
  expect((await outbound.listEndpoints(merchantId)).map((e) => e.id)).toEqual([endpointId]);
  // A replay's move back runs on the node of the merchant's log (not refused with MOVED from another node).
  await outbound.rewind(endpointId, `${clock.ms}-0`);
  expect((await outbound.waiting(endpointId)).inFlight).toBe(0);
}

it('tells an orphaned claim of a merchant from a held one on a Cluster, its holder’s presence being in another slot', async () => {
  const merchantId = 'mer_orphan0000000000000';
  const presenceKey = redis.key('replicas');
  const storeOf = (holder: string) =>
    redisIdempotencyStore(redis, {
      epoch: redisEpoch(redis),
      presence: { id: holder, key: presenceKey },
      callMs: 1,
      merchantKeys: (id) => ({
        key: (name) => redis.tagged(merchantTag(id), 'idem', name),
        index: merchantExpiringIndex(redis, id),
        epoch: redis.tagged(merchantTag(id), 'epoch'),
        owned: merchantKeyIndex(redis, id),
      }),
    }).forMerchant!(merchantId);
  // One holder is present (its presence renewed far ahead), the other never was.
  await redis.commands.hset(presenceKey, 'alive', String(Date.now() + 600_000));
  expect((await storeOf('alive').claim('held', 'fp', {})).kind).toBe('claimed');
  expect((await storeOf('gone').claim('orphan', 'fp', {})).kind).toBe('claimed');
  // Past both claims' deadlines (call 1 ms + the 1 s margin).
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  const retry = storeOf('other');
  expect(await retry.claim('held', 'fp', {})).toMatchObject({ kind: 'in_progress' });
  expect(await retry.claim('orphan', 'fp', {})).toMatchObject({ kind: 'unknown' });
}, 30_000);

it('moves an endpoint’s group of the build before the merchants’ logs into its merchant’s log, on that log’s node', async () => {
  // The groups of that build were on the shared log (in the namespace's slot); the move's writes run as scripts on
  // the node of each key's slot (an XGROUP sent in a pipeline could reach another node and be refused with MOVED).
  const merchant = await registry.create({ name: 'Earlier', apiKey: 'sk_test_cluster_earlier', webhookSecret: 'whsec-cluster-earlier' });
  const shared = redis.key('events', 'log');
  const merchantKeys = {
    tag: merchantTag,
    own: async (id: string, keys: string[]) => {
      for (const key of keys) await registry.store.ownKey(id, key);
    },
  };
  const outbound = redisOutboundStore({ redis, logKey: shared, merchantKeys, retentionMs: 3_600_000 });
  const endpointId = newEndpointId(merchant.id);
  expect(await outbound.createEndpoint(storedEndpoint(endpointId), 10)).toBe(true);
  // As that build left it: no log of the merchant's, no router's cursor, the group on the shared log at its end.
  const merchantLog = merchantLogKey(redis, merchantTag(merchant.id));
  await redis.commands.del(merchantLog);
  await redis.commands.del(redis.key('webhooks', 'merchant-log-router'));
  await redis.commands.xgroup('CREATE', shared, `webhooks:${endpointId}`, '$', 'MKSTREAM');
  const ids: string[] = [];
  for (let n = 1; n <= 3; n++) {
    const event = { id: `evt_e${n}`, kind: 'charge.success', receivedAt: new Date().toISOString(), reference: `ch_${n}` };
    const record = { ...event, resourceType: 'charge', payload: { data: { n } }, merchantId: merchant.id };
    ids.push(String(await redis.commands.xadd(shared, '*', 'e', JSON.stringify(record), 'g', 'gen1')));
  }
  // Its worker read the first event and stopped before attempting it.
  await redis.commands.xreadgroup('GROUP', `webhooks:${endpointId}`, 'replica-old', 'COUNT', 1, 'STREAMS', shared, '>');

  await outbound.adoptEarlierGroups!();
  const groupsOn = async (key: string) =>
    ((await redis.commands.xinfo('GROUPS', key)) as unknown[][]).map((g) => [
      g[g.indexOf('name') + 1],
      g[g.indexOf('last-delivered-id') + 1],
    ]);
  expect(await groupsOn(shared)).toEqual([]);
  expect(await groupsOn(merchantLog)).toEqual([[`webhooks:${endpointId}`, ids[0]]]);
  // The event in flight waits in the retry set; the two unread are copied from the cursor and read from the new group.
  expect((await outbound.listDeliveries(endpointId)).map((d) => (d.event.payload as { data: { n: number } }).data.n)).toEqual([1]);
  let routed = 0;
  const router = startMerchantLogRouter({
    redis,
    logKey: shared,
    merchantLog: (id) => merchantLogKey(redis, merchantTag(id)),
    retentionMs: 3_600_000,
    adoptEarlierGroups: outbound.adoptEarlierGroups,
    routed: (events) => (routed += events.length),
    log: silentLogger,
    blockMs: 50,
  });
  try {
    await waitFor(() => routed >= 3, 'the events copied', 10_000, 20);
  } finally {
    await router.stop();
  }
  expect((await outbound.readNew(endpointId, 'replica-new', 10)).map((e) => (e.payload as { data: { n: number } }).data.n)).toEqual([2, 3]);
}, 30_000);
