// Platform mode, the upgrade from the build before the merchants' logs (0ad3815): its endpoints' consumer groups were
// on the shared event log. The state it left is reproduced key by key (its groups on the shared log, an endpoint
// that read five events: one delivered and acknowledged, one another merchant's and released, one read and under way
// when the build stopped, one whose success was saved before a crash took its acknowledgement, one failed and waiting
// for its retry; another endpoint that read none), then the current build starts on it: every event owed is
// delivered once, signed with its endpoint's secret, and none delivered before is sent again. A second case cuts
// the move short at its third write (a crash), a router finishes it, then the build starts; a third moves nothing
// older than the retention. In process, a real Redis and real receivers.
import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { afterAll, expect, it } from 'vitest';
import { mintStaffToken } from '../../src/auth/index.js';
import { eventOfStreamEntry, redisEventLog } from '../../src/events/log.js';
import { compareStreamIds } from '../../src/events/stream-id.js';
import { silentLogger } from '../../src/logger.js';
import { ROUTER_LEASE_MS, startMerchantLogRouter } from '../../src/outbound-webhooks/merchant-log-router.js';
import type { LoggedPaymentEvent } from '../../src/events/payment-event.js';
import { webhookIdOf } from '../../src/outbound-webhooks/endpoint-pass.js';
import { merchantOfEndpoint, newDeliveryRecord, type DeliveryRecord } from '../../src/outbound-webhooks/model.js';
import { groupOf, keyspace, merchantLogKey, routerCursorKey } from '../../src/outbound-webhooks/redis-keys.js';
import { redisOutboundStore } from '../../src/outbound-webhooks/redis-store.js';
import { connectRedis, merchantKeyIndex, merchantTag, type GatewayRedis } from '../../src/redis/index.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import type { TestStack } from '../helpers/gateway.js';
import { createMerchant, gqlAs, logOnce, merchantEvent, startPlatformStack } from '../helpers/platform.js';
import { waitFor } from '../helpers/wait.js';
import { CREATE_ENDPOINT, startReceiver, type Receiver } from './helpers.js';

const RETENTION_MS = 72 * 3_600_000;
const cleanups: Array<() => Promise<unknown>> = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

/** One endpoint of the scenario: its raw id, its signing secret and its receiver. */
interface Endpoint {
  id: string;
  merchantId: string;
  secret: string;
  receiver: Receiver;
}

/** The gateway's settings both builds share (the key ring that sealed the endpoints' secrets, the token secret). */
const sharedEnv = () => ({
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  MERCHANT_KEYS_KEK: randomBytes(32).toString('base64'),
  AUTH_JWT_SECRET: randomBytes(32).toString('hex'),
});

/** A merchant's endpoint, made through the API with its own receiver. */
async function endpointOf(stack: TestStack, merchantId: string): Promise<Endpoint> {
  const token = (
    await mintStaffToken({ secret: stack.jwtSecret, scopes: ['webhooks:manage'], subject: 'staff', ttlSeconds: 600, merchantId })
  ).token;
  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  const made = await gqlAs(stack)(token, CREATE_ENDPOINT, { input: { url: receiver.url, idempotencyKey: randomUUID() } });
  if (made.data?.createWebhookEndpoint.__typename !== 'CreateWebhookEndpointPayload') throw new Error(made.raw);
  const id = Buffer.from(made.data.createWebhookEndpoint.endpoint.id as string, 'base64url')
    .toString('utf8')
    .split(':')[1]!;
  return { id, merchantId, secret: made.data.createWebhookEndpoint.secret as string, receiver };
}

/**
 * What 0ad3815 wrote, with its own commands: an endpoint's keys are the current build's but for its group, on the
 * shared log (made at the log's end with the endpoint) instead of in its merchant's log (which that build did not
 * have, nor list in the merchant's key index); its worker read with XREADGROUP there, leased a delivery before its
 * attempt (HOLD), saved the attempt with SETTLE (the same script as today's, with no acknowledgement in it in
 * platform mode) and acknowledged the event on the shared log after that.
 */
function earlierBuild(gateway: GatewayRedis) {
  const c = gateway.commands;
  const shared = gateway.key('events', 'log');
  const merchantKeys = { tag: merchantTag, own: async () => {} };
  const store = redisOutboundStore({ redis: gateway, logKey: shared, merchantKeys });
  const k = keyspace(gateway, shared, merchantKeys);
  const log = redisEventLog({ commands: c, blocking: gateway.blocking('upgrade-test'), key: shared, retentionMs: RETENTION_MS });
  const at = Date.now();
  const attempt = (ok: boolean) => ({
    at: new Date(at).toISOString(),
    httpStatus: ok ? 200 : 500,
    durationMs: 3,
    error: ok ? null : 'HTTP 500',
    responseBodyExcerpt: null,
  });
  return {
    /** The endpoint as 0ad3815 left it (the current build made it: its merchant's log goes, its group is on the shared log). */
    async endpoint(endpoint: Endpoint) {
      const merchantLog = merchantLogKey(gateway, merchantTag(endpoint.merchantId));
      await c.del(merchantLog);
      await c.srem(merchantKeyIndex(gateway, endpoint.merchantId), merchantLog);
      await c.xgroup('CREATE', shared, groupOf(endpoint.id), '$', 'MKSTREAM');
    },
    append: (merchantId: string, n: number) => log.append(merchantEvent(merchantId, n)),
    async read(endpoint: Endpoint, count: number): Promise<LoggedPaymentEvent[]> {
      const reply = (await c.xreadgroup('GROUP', groupOf(endpoint.id), 'replica-old', 'COUNT', count, 'STREAMS', shared, '>')) as Array<
        [string, Array<[string, string[]]>]
      >;
      return reply[0]![1].map(([seq, fields]) => eventOfStreamEntry(seq, fields)!);
    },
    /** An attempt under way: its delivery leased (HOLD), the event in flight. */
    hold: (endpoint: Endpoint, event: LoggedPaymentEvent) =>
      c.zadd(k.leases(endpoint.id), at + 15_000, newDeliveryRecord(endpoint.id, event, webhookIdOf(event), at).id),
    /** An attempt saved (SETTLE), then its event acknowledged unless the crash came first. */
    async settle(endpoint: Endpoint, event: LoggedPaymentEvent, ok: boolean, acknowledged: boolean): Promise<DeliveryRecord> {
      const record = newDeliveryRecord(endpoint.id, event, webhookIdOf(event), at);
      const next: DeliveryRecord = {
        ...record,
        attempts: [attempt(ok)],
        status: ok ? 'SUCCEEDED' : 'PENDING',
        failures: ok ? 0 : 1,
        nextAttemptAt: ok ? null : at,
      };
      await store.recordAttempt(next, null, ok ? 'ok' : 'failed', at);
      if (acknowledged) await c.xack(shared, groupOf(endpoint.id), event.seq);
      return next;
    },
    /** Another merchant's event, released without a delivery. */
    release: (endpoint: Endpoint, event: LoggedPaymentEvent) => c.xack(shared, groupOf(endpoint.id), event.seq),
    k,
  };
}

/**
 * The state 0ad3815 left: two merchants' endpoints, `behind` (whose group sorts first on the shared log) having read
 * nothing, `ahead` having read five events. What each endpoint is owed, by `n`: `ahead` 2 (under way), 4 (its retry),
 * 5 to 8 (unread); `behind` 1 to 3 (unread). Never again: `ahead`'s 1 (delivered) and 3 (succeeded, not acknowledged).
 */
async function earlierState(label: string) {
  const namespace = uniqueNamespace(`outbound-upgrade-${label}`);
  const env = sharedEnv();
  const first = await startPlatformStack(namespace, { inProcess: true, env });
  cleanups.push(async () => {
    await first.sandbox.close();
    const redis = new Redis(REDIS_URL);
    await deleteByPrefix(redis, namespace);
    await redis.quit();
  });
  const merchants = [await createMerchant(first, `${label}1`), await createMerchant(first, `${label}2`)].sort();
  const behind = await endpointOf(first, merchants[0]!);
  const ahead = await endpointOf(first, merchants[1]!);
  await first.gateway.close();

  const gateway = await connectRedis({ url: REDIS_URL, namespace });
  cleanups.push(() => gateway.close());
  const earlier = earlierBuild(gateway);
  // No router ran before (no cursor, no lease), and each endpoint's group is on the shared log.
  await gateway.commands.del(routerCursorKey(gateway), `${routerCursorKey(gateway)}:lease`);
  await earlier.endpoint(behind);
  await earlier.endpoint(ahead);
  const behindPlace = (await gateway.commands
    .xinfo('STREAM', gateway.key('events', 'log'))
    .then((f) => (f as unknown[])[(f as unknown[]).indexOf('last-generated-id') + 1])) as string;
  // The shared log, in order: A1 B1 A2 A3 A4 B2 A5 A6 A7 B3 A8 (A: `ahead`'s merchant, B: `behind`'s).
  for (const name of 'A1 B1 A2 A3 A4 B2 A5 A6 A7 B3 A8'.split(' ')) {
    await earlier.append(name[0] === 'A' ? ahead.merchantId : behind.merchantId, Number(name.slice(1)));
  }
  const [a1, b1, a2, a3, a4] = await earlier.read(ahead, 5);
  await earlier.settle(ahead, a1!, true, true);
  await earlier.release(ahead, b1!);
  await earlier.hold(ahead, a2!);
  const succeeded = await earlier.settle(ahead, a3!, true, false);
  await earlier.settle(ahead, a4!, false, true);
  expect(await groupsOf(gateway, gateway.key('events', 'log'))).toEqual([
    { name: groupOf(behind.id), pending: 0 },
    { name: groupOf(ahead.id), pending: 2 },
  ]);
  return { namespace, env, first, gateway, k: earlier.k, ahead, behind, succeeded, behindPlace };
}

type Scenario = Awaited<ReturnType<typeof earlierState>>;

/** The groups of a stream: name and events in flight. */
async function groupsOf(gateway: GatewayRedis, key: string): Promise<Array<{ name: string; pending: number }>> {
  const groups = (await gateway.commands.xinfo('GROUPS', key).catch(() => [])) as unknown[][];
  return groups.map((flat) => ({ name: String(flat[flat.indexOf('name') + 1]), pending: Number(flat[flat.indexOf('pending') + 1]) }));
}

/** The current build on the earlier build's state: asserts each endpoint gets what it is owed, once. */
async function upgrade({ namespace, env, first, gateway, k, ahead, behind, succeeded }: Scenario): Promise<void> {
  const stack = await startPlatformStack(namespace, { inProcess: true, env, sharedSandbox: first.sandbox });
  cleanups.push(() => stack.close());
  const numbers = (endpoint: Endpoint) =>
    endpoint.receiver
      .delivered()
      .map((d) => d.data['n'] as number)
      .sort((x, y) => x - y);
  await waitFor(() => numbers(ahead).length >= 6 && numbers(behind).length >= 3, 'the events owed delivered', 30_000, 20);
  // Events logged after the upgrade flow as usual: once each arrived, anything sent twice before them has too.
  await logOnce(stack.gateway.bus, merchantEvent(ahead.merchantId, 9));
  await logOnce(stack.gateway.bus, merchantEvent(behind.merchantId, 4));
  await waitFor(() => numbers(ahead).includes(9) && numbers(behind).includes(4), 'the events logged after the upgrade', 30_000, 20);
  await new Promise((resolve) => setTimeout(resolve, 1_500));

  // What each endpoint was owed, once: the event under way, the retry, the unread; not the two that succeeded.
  expect(numbers(ahead)).toEqual([2, 4, 5, 6, 7, 8, 9]);
  expect(numbers(behind)).toEqual([1, 2, 3, 4]);
  // Each signed with its own endpoint's secret.
  for (const endpoint of [ahead, behind]) {
    for (const r of endpoint.receiver.received) expect(() => new Webhook(endpoint.secret).verify(r.body, r.headers)).not.toThrow();
  }
  // The delivery whose success the earlier build saved is as it was: one attempt.
  const kept = await gateway.commands.hget(k.deliveries(ahead.id), succeeded.id);
  expect(JSON.parse(kept!)).toMatchObject({ status: 'SUCCEEDED', attempts: [{ httpStatus: 200 }] });
  // The shared log holds no group any more; each endpoint's is in its merchant's log, listed in its key index.
  expect(await groupsOf(gateway, gateway.key('events', 'log'))).toEqual([]);
  for (const endpoint of [ahead, behind]) {
    const log = merchantLogKey(gateway, merchantTag(merchantOfEndpoint(endpoint.id)!));
    expect(await groupsOf(gateway, log)).toEqual([{ name: groupOf(endpoint.id), pending: 0 }]);
    expect(await gateway.commands.sismember(merchantKeyIndex(gateway, endpoint.merchantId), log)).toBe(1);
  }
}

it('moves the groups of the build before the merchants’ logs: every event owed delivered once, none delivered before sent again', async () => {
  const scenario = await earlierState('plain');
  // Another replica's router holds the lease (as the ROUTER_LEASE_MS it ships with): this replica's endpoints find
  // no group of theirs before any router moves them, and move them themselves.
  await scenario.gateway.commands.set(`${routerCursorKey(scenario.gateway)}:lease`, 'another-replica', 'PX', ROUTER_LEASE_MS);
  await upgrade(scenario);
}, 90_000);

it('loses and doubles nothing when the move is cut short by a crash, then finished by the router', async () => {
  const scenario = await earlierState('crash');
  const { gateway, k, ahead, behind } = scenario;
  const shared = gateway.key('events', 'log');
  const owned = {
    tag: merchantTag,
    own: (id: string, keys: string[]) => gateway.commands.sadd(merchantKeyIndex(gateway, id), ...keys).then(() => {}),
  };
  const storeOver = (redis: GatewayRedis) => redisOutboundStore({ redis, logKey: shared, merchantKeys: owned, retentionMs: RETENTION_MS });
  // Its third write fails, as a crash there would leave it (each write before it done, none after).
  await expect(storeOver(crashingAt(gateway, 3)).adoptEarlierGroups!()).rejects.toThrow('crashed');
  // The cursor is where `behind` (read nothing) needs it; its group is made in its merchant's log, its old one not
  // yet removed; `ahead`'s is still on the shared log only.
  const behindLog = merchantLogKey(gateway, merchantTag(behind.merchantId));
  const aheadLog = merchantLogKey(gateway, merchantTag(ahead.merchantId));
  expect(await gateway.commands.get(routerCursorKey(gateway))).toBe(scenario.behindPlace);
  expect(await groupsOf(gateway, behindLog)).toEqual([{ name: groupOf(behind.id), pending: 0 }]);
  expect(await groupsOf(gateway, shared)).toEqual([
    { name: groupOf(behind.id), pending: 0 },
    { name: groupOf(ahead.id), pending: 2 },
  ]);
  expect(await gateway.commands.exists(aheadLog)).toBe(0);

  // A router taking the lease finishes the move before it copies: from the cursor, every event of both merchants.
  let copied = 0;
  const router = startMerchantLogRouter({
    redis: gateway,
    logKey: shared,
    merchantLog: (id) => merchantLogKey(gateway, merchantTag(id)),
    retentionMs: RETENTION_MS,
    adoptEarlierGroups: storeOver(gateway).adoptEarlierGroups,
    routed: (events) => (copied += events.length),
    log: silentLogger,
  });
  await waitFor(
    async () => (await gateway.commands.xlen(aheadLog)) === 8 && (await gateway.commands.xlen(behindLog)) === 3,
    'copied',
    20_000,
    20,
  );
  await router.stop();
  expect(copied).toBe(11);
  expect(await groupsOf(gateway, shared)).toEqual([]);
  // `ahead`'s group at its old place (A4): it reads A5 to A8 of its merchant's log; A2, under way when the earlier
  // build stopped, waits in its retry set beside A4's retry.
  expect(await groupsOf(gateway, aheadLog)).toEqual([{ name: groupOf(ahead.id), pending: 0 }]);
  const due = await gateway.commands.zrange(k.retry(ahead.id), 0, -1);
  const dueNumbers = await Promise.all(
    due.map(async (id) => (JSON.parse((await gateway.commands.hget(k.deliveries(ahead.id), id))!) as DeliveryRecord).event.payload),
  );
  expect(dueNumbers.map((payload) => (payload as { data: { n: number } }).data.n).sort()).toEqual([2, 4]);
  await upgrade(scenario);
}, 90_000);

it('moves nothing older than the event log’s retention', async () => {
  const { gateway, k, ahead } = await earlierState('retention');
  const shared = gateway.key('events', 'log');
  const [newest] = (await gateway.commands.xrevrange(shared, '+', '-', 'COUNT', 1)) as Array<[string, string[]]>;
  // A retention of 1 ms: every event of the earlier build is older, once the clock is 2 ms past the newest (on a
  // quiet machine the steps above can take under 2 ms, and the retention's floor would not be past it yet).
  const newestMs = Number(newest![0].split('-')[0]);
  await waitFor(() => Date.now() > newestMs + 1, 'the newest event older than the retention', 1_000, 1);
  const store = redisOutboundStore({
    redis: gateway,
    logKey: shared,
    merchantKeys: { tag: merchantTag, own: async () => {} },
    retentionMs: 1,
  });
  await store.adoptEarlierGroups!();
  const cursor = (await gateway.commands.get(routerCursorKey(gateway)))!;
  expect(compareStreamIds(cursor, newest![0])).toBeGreaterThan(0);
  // A2, in flight, was not queued: only A4's retry, which the earlier build queued itself, waits.
  expect(await gateway.commands.zcard(k.retry(ahead.id))).toBe(1);
  expect(await groupsOf(gateway, shared)).toEqual([]);
});

/** The gateway's Redis whose `nth` write (a durable one, or an XGROUP) and every one after it fail: a crash there. */
function crashingAt(gateway: GatewayRedis, nth: number): GatewayRedis {
  let writes = 0;
  const write = () => {
    if (++writes >= nth) throw new Error('crashed');
  };
  const commands = new Proxy(gateway.commands, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (prop === 'xgroup') write();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const durable: GatewayRedis['durable'] = (w) => {
    write();
    return gateway.durable(w);
  };
  return { ...gateway, commands, durable };
}
