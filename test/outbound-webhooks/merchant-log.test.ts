// Platform mode's per-merchant event log (src/outbound-webhooks/merchant-log-router.ts): each merchant's endpoints
// read the merchant's own log under its hash tag, holding only its events, so B's endpoint reads none of the events
// A logged before B's; the shared log holds no group of any endpoint; a merchant's log exists from its first
// endpoint on, an endpoint gets only events logged after its creation, a replay counts and sends what its
// merchant's log holds, and a quiet merchant's log is trimmed to the retention by the router holding the lease.
// Asserted on Redis's own counts (XINFO GROUPS, stream lengths), never on timing. In process, a real Redis and real
// receivers.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mintStaffToken } from '../../src/auth/index.js';
import type { LoggedPaymentEvent } from '../../src/events/payment-event.js';
import { decodeEventId } from '../../src/events/stream-id.js';
import { silentLogger } from '../../src/logger.js';
import { ROUTER_LEASE_MS, startMerchantLogRouter } from '../../src/outbound-webhooks/merchant-log-router.js';
import { newEndpointId } from '../../src/outbound-webhooks/model.js';
import { merchantLogKey } from '../../src/outbound-webhooks/redis-keys.js';
import { redisOutboundStore } from '../../src/outbound-webhooks/redis-store.js';
import { connectRedis, merchantTag, type GatewayRedis } from '../../src/redis/index.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import type { TestStack } from '../helpers/gateway.js';
import { closePlatformStack, createMerchant, gqlAs, logOnce, startPlatformStack, merchantEvent } from '../helpers/platform.js';
import { waitFor } from '../helpers/wait.js';
import { CREATE_ENDPOINT, startReceiver, storedEndpoint, type Receiver } from './helpers.js';

const A_EVENTS = 2_000;
const namespace = uniqueNamespace('outbound-merchant-log');
let stack: TestStack;
let redis: Redis;
const receivers: Receiver[] = [];

beforeAll(async () => {
  stack = await startPlatformStack(namespace, { inProcess: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  redis = new Redis(REDIS_URL);
}, 30_000);

afterAll(async () => {
  await closePlatformStack(stack, namespace);
  await redis?.quit();
  for (const r of receivers) await r.close();
});

const logKey = () => `${namespace}:events:log`;
const merchantLog = (merchantId: string) => `${namespace}:{m:${merchantId}}:webhooks:log`;
const raw = (globalId: string) => Buffer.from(globalId, 'base64url').toString('utf8').split(':')[1]!;

/** XINFO GROUPS of a stream, each group as a map. */
async function groupsOf(key: string): Promise<Array<Map<string, unknown>>> {
  const groups = (await redis.xinfo('GROUPS', key)) as unknown[][];
  return groups.map((flat) => new Map(Array.from({ length: flat.length / 2 }, (_, i) => [String(flat[2 * i]), flat[2 * i + 1]])));
}

/** A new endpoint of the merchant, with its receiver: its raw id. */
async function endpointOf(
  merchantId: string,
  kinds?: string[],
): Promise<{ endpointId: string; globalId: string; token: string; receiver: Receiver }> {
  const token = (
    await mintStaffToken({ secret: stack.jwtSecret, scopes: ['webhooks:manage'], subject: 'staff', ttlSeconds: 600, merchantId })
  ).token;
  const receiver = await startReceiver();
  receivers.push(receiver);
  const made = await gqlAs(stack)(token, CREATE_ENDPOINT, { input: { url: receiver.url, kinds, idempotencyKey: randomUUID() } });
  if (made.data?.createWebhookEndpoint.__typename !== 'CreateWebhookEndpointPayload') throw new Error(made.raw);
  const globalId = made.data.createWebhookEndpoint.endpoint.id as string;
  return { endpointId: raw(globalId), globalId, token, receiver };
}

const event = merchantEvent;

async function logMany(merchantId: string, from: number, count: number): Promise<void> {
  for (let n = from; n < from + count; n += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, from + count - n) }, (_, i) => logOnce(stack.gateway.bus, event(merchantId, n + i))),
    );
  }
}

it('B’s endpoint reads B’s own log: none of the events A logged before B’s, and the shared log holds no endpoint’s group', async () => {
  const a = await createMerchant(stack, 'loga');
  const b = await createMerchant(stack, 'logb');
  // A's endpoint takes another kind: it reads A's events and sends none (the suite stays cheap).
  const atA = await endpointOf(a, ['transfer.failed']);
  const atB = await endpointOf(b);
  await logMany(a, 0, A_EVENTS);
  await logOnce(stack.gateway.bus, event(b, 1));
  await waitFor(() => atB.receiver.delivered().some((d) => d.data['n'] === 1), 'B’s delivery', 20_000, 20);
  const readBy = async (key: string) => Number((await groupsOf(key))[0]?.get('entries-read') ?? 0);
  await waitFor(async () => (await readBy(merchantLog(a))) >= A_EVENTS, 'A’s events read by A’s endpoint', 60_000, 50);

  // Each merchant's log holds its own events only.
  expect(await redis.xlen(merchantLog(a))).toBe(A_EVENTS);
  expect(await redis.xlen(merchantLog(b))).toBe(1);
  // B's endpoint's group is there, and has read one entry in all: B's event, none of A's.
  const [groupOfB] = await groupsOf(merchantLog(b));
  expect(groupOfB!.get('name')).toBe(`webhooks:${atB.endpointId}`);
  expect(Number(groupOfB!.get('entries-read'))).toBe(1);
  expect(Number(groupOfB!.get('pending'))).toBe(0);
  const [groupOfA] = await groupsOf(merchantLog(a));
  expect(groupOfA!.get('name')).toBe(`webhooks:${atA.endpointId}`);
  expect(Number(groupOfA!.get('entries-read'))).toBe(A_EVENTS);
  // The shared log (every event) has no endpoint's group: none grows with the merchants' endpoints.
  expect(await redis.xlen(logKey())).toBeGreaterThanOrEqual(A_EVENTS + 1);
  expect((await groupsOf(logKey())).map((g) => g.get('name'))).toEqual([]);
  // The logs are in each merchant's key index (what its purge deletes).
  expect(await redis.sismember(`${namespace}:{m:${a}}:keys`, merchantLog(a))).toBe(1);
  expect(await redis.sismember(`${namespace}:{m:${b}}:keys`, merchantLog(b))).toBe(1);
  // The copies keep their ids: B's delivery's webhook-id is its event's id in the shared log.
  const [copyId] = ((await redis.xrange(merchantLog(b), '-', '+')) as Array<[string, string[]]>)[0]!;
  const shared = (await redis.xrevrange(logKey(), '+', '-', 'COUNT', 50)) as Array<[string, string[]]>;
  expect(shared.some(([id, fields]) => id === copyId && fields[1]!.includes(`${b}:evt_1`))).toBe(true);
  const delivered = atB.receiver.delivered().find((d) => d.data['n'] === 1)!;
  expect(decodeEventId(delivered.id)).toBe(copyId);
}, 90_000);

it('keeps no log for a merchant without endpoints, and gives a new endpoint only the events logged after its creation', async () => {
  const c = await createMerchant(stack, 'logc');
  await logMany(c, 0, 20);
  // The events are in the shared log; C has no endpoint, so no log of its own.
  await waitFor(async () => (await redis.xlen(logKey())) > 0, 'logged', 5_000, 20);
  expect(await redis.exists(merchantLog(c))).toBe(0);
  const atC = await endpointOf(c);
  expect(await redis.xlen(merchantLog(c))).toBe(0);
  await logMany(c, 20, 5);
  await waitFor(() => atC.receiver.delivered().length >= 5, 'C’s deliveries', 20_000, 20);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(
    atC.receiver
      .delivered()
      .map((d) => d.data['n'])
      .sort(),
  ).toEqual([20, 21, 22, 23, 24]);
  expect(await redis.xlen(merchantLog(c))).toBe(5);
  // A replay from before all of them counts and sends what C's log holds: the five, not the twenty before its log.
  const replay = await gqlAs(stack)(
    atC.token,
    'mutation ($i: ReplayWebhookEventsInput!) { replayWebhookEvents(input: $i) { ... on ReplayWebhookEventsPayload { eventsQueued } } }',
    { i: { endpointId: atC.globalId, since: new Date(Date.now() - 3_600_000).toISOString() } },
  );
  expect(replay.data!.replayWebhookEvents.eventsQueued).toBe(5);
  await waitFor(() => atC.receiver.delivered().length >= 10, 'C’s events replayed', 20_000, 20);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(atC.receiver.delivered().length).toBe(10);
}, 30_000);

it('places a new endpoint at the shared log’s end: events logged before its creation and copied after it never reach it', async () => {
  // The store and the router alone, on a namespace of their own: the router is started only once the endpoint
  // exists, as a router lagging behind the shared log would copy them.
  const own = uniqueNamespace('outbound-merchant-log-place');
  const gateway = await connectRedis({ url: REDIS_URL, namespace: own });
  const merchantId = `mer_${'ab12'.repeat(5)}`;
  const store = redisOutboundStore({
    redis: gateway,
    logKey: gateway.key('events', 'log'),
    merchantKeys: { tag: merchantTag, own: async () => {} },
  });
  const append = (n: number) =>
    gateway.commands.xadd(gateway.key('events', 'log'), '*', 'e', JSON.stringify(event(merchantId, n)), 'g', 'gen1');
  const routed: LoggedPaymentEvent[] = [];
  /** A router; `from`: the fleet's cursor set there first (where a router that stopped stood). */
  const startRouter = async (from?: string) => {
    if (from) await gateway.commands.set(gateway.key('webhooks', 'merchant-log-router'), from);
    return startMerchantLogRouter({
      redis: gateway,
      logKey: gateway.key('events', 'log'),
      merchantLog: (id) => merchantLogKey(gateway, merchantTag(id)),
      retentionMs: 3_600_000,
      routed: (events) => routed.push(...events),
      log: silentLogger,
      blockMs: 50,
    });
  };
  const router = await startRouter();
  try {
    const first = newEndpointId(merchantId);
    expect(await store.createEndpoint(storedEndpoint(first), 10)).toBe(true);
    await router.stop();
    // Logged, not yet copied: the router is behind.
    for (let n = 1; n <= 3; n++) await append(n);
    const second = newEndpointId(merchantId);
    expect(await store.createEndpoint(storedEndpoint(second), 10)).toBe(true);
    for (let n = 4; n <= 5; n++) await append(n);
    // From where the stopped router stood (the log's start: it had copied nothing).
    const caughtUp = await startRouter('0-0');
    await waitFor(() => routed.length >= 5, 'the five events copied', 5_000, 10);
    await caughtUp.stop();
    const read = async (id: string) =>
      (await store.readNew(id, 'replica-1', 100)).map((e) => (e.payload as { data: { n: number } }).data.n);
    // The first endpoint, older than all five, gets all five; the second only those logged after it was made.
    expect(await read(first)).toEqual([1, 2, 3, 4, 5]);
    expect(await read(second)).toEqual([4, 5]);
    // Copied again from an older cursor (a second router, a restart): refused, nothing doubled.
    const again = await startRouter('0-0');
    await waitFor(() => routed.length >= 10, 'the five events read again', 5_000, 10);
    await again.stop();
    expect(await redis.xlen(merchantLogKey(gateway, merchantTag(merchantId)))).toBe(5);
    expect(await read(first)).toEqual([]);
  } finally {
    await router.stop();
    await deleteByPrefix(gateway.commands, own);
    await gateway.close();
  }
});

it('copies with one router at a time: two routers copy each event once, and the second takes over when the first stops without releasing its lease', async () => {
  // The routers alone, on a namespace of their own; each router on a connection of its own, as on two replicas.
  const own = uniqueNamespace('outbound-merchant-log-lease');
  const replicas = await Promise.all([0, 1].map(() => connectRedis({ url: REDIS_URL, namespace: own })));
  const [first, second] = replicas as [GatewayRedis, GatewayRedis];
  const merchantId = `mer_${'cd34'.repeat(5)}`;
  const sharedLog = second.key('events', 'log');
  const log = merchantLogKey(second, merchantTag(merchantId));
  await second.commands.xgroup('CREATE', log, 'g', '$', 'MKSTREAM');
  const append = async (from: number, to: number) => {
    for (let n = from; n <= to; n++) await second.commands.xadd(sharedLog, '*', 'e', JSON.stringify(event(merchantId, n)), 'g', 'gen1');
  };
  /** Per router, the events it copied (a refused copy is told of too: each one a router tried). */
  const routed: [number[], number[]] = [[], []];
  // The lease as it ships: the takeover below waits for it to run out.
  const leaseMs = ROUTER_LEASE_MS;
  const startRouter = (gateway: GatewayRedis, i: 0 | 1) =>
    startMerchantLogRouter({
      redis: gateway,
      logKey: sharedLog,
      merchantLog: (id) => merchantLogKey(gateway, merchantTag(id)),
      retentionMs: 3_600_000,
      routed: (events) => routed[i].push(...events.map((e) => (e.payload as { data: { n: number } }).data.n)),
      log: silentLogger,
      blockMs: 50,
    });
  // A fleet already routing: the cursor is there (a first router would start at the log's end when it takes the
  // lease, which a loaded machine may let come after the appends below).
  await second.commands.set(second.key('webhooks', 'merchant-log-router'), '0-0');
  const routers = [startRouter(first, 0), startRouter(second, 1)];
  try {
    await waitFor(() => routers.some((r) => r.holding()), 'a router holding the lease', 5_000, 10);
    const holder = routers[0]!.holding() ? 0 : 1;
    await append(1, 50);
    await waitFor(async () => (await redis.xlen(log)) === 50, 'the fifty events copied', 15_000, 10);
    // Past a renewal: the other router tried nothing meanwhile.
    await new Promise((resolve) => setTimeout(resolve, leaseMs / 2));
    expect(routed[holder]).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(routed[1 - holder]).toEqual([]);
    expect(routers[1 - holder]!.holding()).toBe(false);

    // The holder's replica dies: its connections close, its lease is not let go.
    await replicas[holder]!.close();
    const diedAt = Date.now();
    await append(51, 60);
    await waitFor(async () => (await redis.xlen(log)) === 60, 'the ten later events copied by the other router', 20_000, 10);
    // Taken over once the lease ran out (about leaseMs), from the fleet's cursor: each later event copied once.
    expect(Date.now() - diedAt).toBeGreaterThanOrEqual(leaseMs / 2);
    expect(routers[1 - holder]!.holding()).toBe(true);
    expect(routed[1 - holder]).toEqual(Array.from({ length: 10 }, (_, i) => i + 51));
    const copied = ((await redis.xrange(log, '-', '+')) as Array<[string, string[]]>).map(
      ([, fields]) => (JSON.parse(fields[1]!) as { payload: { data: { n: number } } }).payload.data.n,
    );
    expect(copied).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  } finally {
    await Promise.all(routers.map((r) => r.stop()));
    await deleteByPrefix(redis, own);
    await Promise.all(replicas.map((r) => r.close().catch(() => {})));
  }
}, 60_000);

it('trims a quiet merchant’s log to the retention when a router takes the lease, with no event of that merchant copied', async () => {
  const own = uniqueNamespace('outbound-merchant-log-trim');
  const gateway = await connectRedis({ url: REDIS_URL, namespace: own });
  const quiet = `mer_${'ef56'.repeat(5)}`;
  const store = redisOutboundStore({
    redis: gateway,
    logKey: gateway.key('events', 'log'),
    merchantKeys: { tag: merchantTag, own: async () => {} },
  });
  const endpoint = newEndpointId(quiet);
  expect(await store.createEndpoint(storedEndpoint(endpoint), 10)).toBe(true);
  // Copies made two hours ago and one a minute ago; the merchant has logged nothing since.
  const now = Date.now();
  const quietLog = merchantLogKey(gateway, merchantTag(quiet));
  for (const id of [`${now - 7_200_000}-0`, `${now - 7_200_000}-1`, `${now - 60_000}-0`]) {
    await gateway.commands.xadd(quietLog, id, 'e', JSON.stringify(event(quiet, 1)), 'g', 'gen1');
  }
  const router = startMerchantLogRouter({
    redis: gateway,
    logKey: gateway.key('events', 'log'),
    merchantLog: (id) => merchantLogKey(gateway, merchantTag(id)),
    // The shortest retention EVENT_RETENTION_HOURS allows.
    retentionMs: 3_600_000,
    merchantsWithLogs: () => store.endpointMerchants!(),
    routed: () => {},
    log: silentLogger,
    blockMs: 50,
  });
  try {
    expect(await store.endpointMerchants!()).toEqual([quiet]);
    await waitFor(async () => (await redis.xlen(quietLog)) === 1, 'the quiet merchant’s log trimmed', 10_000, 10);
    expect(((await redis.xrange(quietLog, '-', '+')) as Array<[string, string[]]>).map(([id]) => id)).toEqual([`${now - 60_000}-0`]);
  } finally {
    await router.stop();
    await deleteByPrefix(gateway.commands, own);
    await gateway.close();
  }
});
