// A redelivery makes one attempt at a time per delivery (as Stripe and Svix do), over a real Redis and, in sandbox
// mode without it, the memory store, with a real receiver over HTTP and a manual clock for the retry schedule:
// - asked for while a retry's attempt is under way, it starts no second attempt beside it: the receiver gets one copy;
// - should that attempt fail, the delivery is tried again at once, on a fresh schedule (not the old schedule's next step);
// - asked for while a retry waits, it brings that retry forward instead of adding another.
// In single mode (the endpoints' groups on the shared event log, or the memory store's cursors) and in platform mode
// (on each merchant's own log), the same rule holds when an attempt comes from the log (a replay reads the event
// again): a redelivery queued first keeps it from starting beside the redelivery's attempt, and one under way first
// makes the redelivery wait for its outcome. Both modes and both stores decide it the same way (store.holdFromLog).
import { randomUUID } from 'node:crypto';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintStaffToken, SCOPES } from '../../src/auth/index.js';
import { loadConfig } from '../../src/config.js';
import { startGateway, type RunningGateway } from '../../src/gateway.js';
import { silentLogger } from '../../src/logger.js';
import type { DeliveryRecord } from '../../src/outbound-webhooks/index.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { startStack, testKey, type TestStack } from '../helpers/gateway.js';
import { closePlatformStack, logOnce, startPlatformStack } from '../helpers/platform.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait.js';
import { createEndpoint, startReceiver, type Receiver } from './helpers.js';
import { postServiceWebhook } from './replica-support.js';

const namespace = uniqueNamespace('outbound-redelivery');
const webhookSecret = 'redelivery-webhook-secret';
const clock = { t: Date.now() };
/** How long the receiver holds the attempt under way (long beside the 30 ms passes: a second attempt would start within it). */
const HELD_MS = 800;
const raw = (globalId: string) => Buffer.from(globalId, 'base64url').toString('utf8').split(':')[1]!;

interface Gateway {
  gateway: RunningGateway;
  /** A staff token it takes. */
  token: string;
  close(): Promise<void>;
}

/** A gateway over Redis (shared by replicas). */
async function overRedis(): Promise<Gateway> {
  const stack: TestStack = await startStack({
    redisNamespace: namespace,
    webhookSecret,
    env: { REDIS_URL, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SUBSCRIPTION_POLL_MS: '0' },
    outboundWebhooks: { now: () => clock.t, pollMs: 30 },
  });
  return { gateway: stack.gateway, token: stack.staffToken, close: () => stack.close() };
}

/** A gateway in sandbox mode without Redis: the memory store, as `npm start` and the back office's suites run it. */
async function inMemory(): Promise<Gateway> {
  const sandbox = await startTestSandbox();
  const gateway = await startGateway(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', WEBHOOK_SIGNATURE_SCHEME: 'hmac-sha256-hex' }),
    silentLogger,
    {
      upstream: { baseUrl: sandbox.url, apiKey: testKey('redelivery') },
      webhookSecret,
      outboundWebhooks: { now: () => clock.t, pollMs: 30 },
    },
  );
  return {
    gateway,
    token: gateway.developmentToken!.token,
    close: async () => {
      await gateway.close();
      await sandbox.close();
    },
  };
}

const receivers: Receiver[] = [];
afterAll(async () => {
  for (const r of receivers) await r.close();
  const redis = new Redis(REDIS_URL);
  await deleteByPrefix(redis, namespace);
  await redis.quit();
});

describe.each([
  ['over Redis', overRedis],
  ['in memory (sandbox mode)', inMemory],
] as const)('a redelivery, one attempt at a time (%s)', (_store, start) => {
  let running: Gateway;
  let counter = 0;
  beforeAll(async () => {
    running = await start();
  }, 30_000);
  afterAll(() => running?.close());

  const service = () => running.gateway.outboundWebhooks;

  /** A receiver answering 500, an endpoint for it, and one event whose first attempt failed; returns its delivery. */
  async function failedOnce(kind: string): Promise<{ receiver: Receiver; record: DeliveryRecord }> {
    clock.t = Date.now();
    const receiver = await startReceiver();
    receivers.push(receiver);
    receiver.behaviour = 500;
    const stack = { gateway: running.gateway, staffToken: running.token } as unknown as TestStack;
    const endpointId = raw((await createEndpoint(stack, receiver.url, [kind])).id);
    const i = counter++;
    expect(await postServiceWebhook(running.gateway.webhookUrl!, webhookSecret, i, `redelivery-${kind}`, kind)).toBe(200);
    let record: DeliveryRecord | undefined;
    await waitFor(
      async () => ((record = (await service().deliveries(endpointId))[0]), (record?.attempts.length ?? 0) >= 1),
      `the first attempt to ${kind}`,
      10_000,
      10,
    );
    expect(record!.status).toBe('PENDING');
    return { receiver, record: record! };
  }

  async function attempted(deliveryId: string, count: number): Promise<DeliveryRecord> {
    let record: DeliveryRecord | null = null;
    await waitFor(
      async () => ((record = await service().delivery(deliveryId)), (record?.attempts.length ?? 0) >= count),
      `attempt ${count} of ${deliveryId}`,
      10_000,
      10,
    );
    return record!;
  }

  /** Moves the clock to the delivery's retry and waits until the receiver holds that attempt. */
  async function retryUnderWay(receiver: Receiver, record: DeliveryRecord): Promise<void> {
    receiver.delayMs = HELD_MS;
    clock.t = record.nextAttemptAt!;
    await waitFor(() => receiver.received.length === 2, 'the retry at the receiver', 10_000, 5);
  }

  it('asked for during an attempt, starts no second one: the receiver gets one copy', async () => {
    const { receiver, record } = await failedOnce('settlement.success');
    receiver.behaviour = 204;
    await retryUnderWay(receiver, record);

    const during = await service().redeliver(record.id);
    expect(during.id).toBe(record.id);
    await waitFor(async () => (await service().delivery(record.id))?.status === 'SUCCEEDED', 'the retry’s success', 10_000, 10);
    // Passes run every 30 ms: a second attempt started by the redelivery would have reached the receiver long since.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received.map((r) => r.answered)).toEqual([500, 204]);
    const settled = (await service().delivery(record.id))!;
    expect(settled.attempts.map((a) => a.httpStatus)).toEqual([500, 204]);
    expect(settled.status).toBe('SUCCEEDED');
  });

  it('should the attempt under way fail, the delivery is tried again at once, on a fresh schedule', async () => {
    const { receiver, record } = await failedOnce('settlement.cancelled');
    await retryUnderWay(receiver, record);

    await service().redeliver(record.id);
    // The clock stands still: without the redelivery, the next step of the schedule would be 5 minutes away.
    const third = await attempted(record.id, 3);
    expect(receiver.received).toHaveLength(3);
    // One after the other: the third request left only once the second was answered.
    expect(receiver.received[2]!.at - receiver.received[1]!.at).toBeGreaterThanOrEqual(HELD_MS - 50);
    // Its failure is the first of a fresh schedule: retried about 5 s later.
    expect(third.status).toBe('PENDING');
    expect(third.nextAttemptAt! - clock.t).toBeGreaterThanOrEqual(4_000);
    expect(third.nextAttemptAt! - clock.t).toBeLessThanOrEqual(6_000);
  });

  it('asked for while a retry waits, brings it forward instead of adding another', async () => {
    const { receiver, record } = await failedOnce('transfer.failed');
    receiver.behaviour = 204;
    const queued = await service().redeliver(record.id);
    expect(queued).toMatchObject({ status: 'PENDING', failures: 0 });
    await waitFor(async () => (await service().delivery(record.id))?.status === 'SUCCEEDED', 'the redelivery', 10_000, 10);

    // The retry's old due time comes: nothing more is sent.
    clock.t = record.nextAttemptAt! + 1_000;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received.map((r) => r.answered)).toEqual([500, 204]);
  });
});

/** A gateway over Redis for the attempts from the log: its outbound webhooks (one merchant's in platform mode). */
interface LogGateway {
  service: () => RunningGateway['outboundWebhooks'];
  /** The bus events are logged on, and the merchant they belong to (null in single mode). */
  bus: () => RunningGateway['bus'];
  merchantId: string | null;
  close(): Promise<void>;
}

const logOptions = {
  inProcess: true,
  env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SUBSCRIPTION_POLL_MS: '0' },
  outboundWebhooks: { now: () => clock.t, pollMs: 30 },
};

/** Single mode over Redis: the endpoints' groups are on the shared event log. */
async function singleOverRedis(): Promise<LogGateway> {
  const singleNamespace = uniqueNamespace('outbound-redelivery-single');
  const stack = await startStack({ ...logOptions, redisNamespace: singleNamespace, env: { ...logOptions.env, REDIS_URL } });
  return {
    service: () => stack.gateway.outboundWebhooks,
    bus: () => stack.gateway.bus,
    merchantId: null,
    close: async () => {
      await stack.close();
      const redis = new Redis(REDIS_URL);
      await deleteByPrefix(redis, singleNamespace);
      await redis.quit();
    },
  };
}

/** Platform mode over Redis: the endpoints' groups are on their merchant's own log. */
async function platformOverRedis(): Promise<LogGateway> {
  const platformNamespace = uniqueNamespace('outbound-redelivery-platform');
  const stack = await startPlatformStack(platformNamespace, logOptions);
  const operator = (await mintStaffToken({ secret: stack.jwtSecret, scopes: SCOPES, subject: 'operator', ttlSeconds: 600 })).token;
  const created = await stack.gql(
    parse(CREATE_MERCHANT) as MerchantDoc,
    {
      i: { name: 'redeliver', apiKey: testKey('redeliver'), webhookSecret: 'whsec_redeliver_123456', idempotencyKey: randomUUID() },
    },
    { authorization: `Bearer ${operator}` },
  );
  const merchantId = created.data!.createMerchant.merchant.merchantId as string;
  return {
    service: () => stack.gateway.outboundWebhooks.forMerchant(merchantId),
    bus: () => stack.gateway.bus,
    merchantId,
    close: () => closePlatformStack(stack, platformNamespace),
  };
}

/** Sandbox mode without Redis: the memory store, whose endpoints read the in-memory log. */
async function singleInMemory(): Promise<LogGateway> {
  const memory = await inMemory();
  return {
    service: () => memory.gateway.outboundWebhooks,
    bus: () => memory.gateway.bus,
    merchantId: null,
    close: () => memory.close(),
  };
}

describe.each([
  ['single mode, over Redis', singleOverRedis],
  ['platform mode, over Redis', platformOverRedis],
  ['single mode, in memory', singleInMemory],
] as const)('a redelivery, one attempt at a time, beside attempts from the log (%s)', (_mode, start) => {
  let running: LogGateway;
  let counter = 0;
  /** Requests that reached a receiver while an earlier one of it was still unanswered: two copies at once. */
  let overlaps = 0;

  beforeAll(async () => {
    running = await start();
  }, 30_000);
  afterAll(() => running?.close());

  const service = () => running.service();

  /** A receiver answering `status` after HELD_MS, counting overlaps, and an endpoint of the merchant for it. */
  async function heldReceiver(kind: string): Promise<{ receiver: Receiver; endpointId: string }> {
    const receiver = await startReceiver();
    receivers.push(receiver);
    receiver.delayMs = HELD_MS;
    const endpoint = await service().create({ url: receiver.url, kinds: [kind] });
    return { receiver, endpointId: endpoint.endpoint.id };
  }

  /** Answers `status`, counting a request that arrives while another is unanswered. */
  const answering = (receiver: Receiver, status: number) =>
    (receiver.behaviour = (req) => {
      if (receiver.received.some((r) => r !== req && r.answered === null)) overlaps += 1;
      return status;
    });

  /** Logs one event of the merchant of `kind`; returns when it was logged (what a replay starts from). */
  async function logged(kind: string): Promise<number> {
    const since = Date.now() - 1;
    const n = counter++;
    const merchantId = running.merchantId;
    await logOnce(running.bus(), {
      id: `${merchantId ?? 'single'}:evt_redeliver_${n}_${randomUUID()}`,
      kind,
      receivedAt: new Date().toISOString(),
      reference: `ch_redeliver_${n}`,
      resourceType: null,
      payload: { event: kind, data: { n } },
      ...(merchantId ? { merchantId } : {}),
    });
    return since;
  }

  async function settledWith(endpointId: string, attempts: number): Promise<DeliveryRecord> {
    let record: DeliveryRecord | undefined;
    await waitFor(
      async () => ((record = (await service().deliveries(endpointId))[0]), (record?.attempts.length ?? 0) >= attempts),
      `attempt ${attempts} at ${endpointId}`,
      10_000,
      10,
    );
    return record!;
  }

  it('queued first, keeps the event read again from the log from starting beside its attempt', async () => {
    clock.t = Date.now();
    overlaps = 0;
    const kind = 'settlement.success';
    const { receiver, endpointId } = await heldReceiver(kind);
    answering(receiver, 500);
    const since = await logged(kind);
    const failed = await settledWith(endpointId, 1);
    expect(failed.status).toBe('PENDING');

    answering(receiver, 204);
    // Held long enough for the replay below to be read while it is (a read after its success would be a new send,
    // as a replay is meant to make; a loaded machine took more than HELD_MS to get there).
    receiver.delayMs = 3_000;
    expect(await service().redeliver(failed.id)).toMatchObject({ status: 'PENDING', failures: 0 });
    await waitFor(() => receiver.received.length === 2, 'the redelivery at the receiver', 10_000, 5);
    // While the receiver holds the redelivery's attempt, a replay reads the event from the log again.
    await service().replay(endpointId, since);
    await waitFor(async () => (await service().delivery(failed.id))?.status === 'SUCCEEDED', 'the redelivery’s success', 10_000, 10);
    // Passes run every 30 ms: an attempt of the replayed event would have reached the receiver long since.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(overlaps).toBe(0);
    expect(receiver.received.map((r) => r.answered)).toEqual([500, 204]);
    // Its event was acknowledged on the log, left to the redelivery: nothing waits, in flight or to retry.
    expect((await service().get(endpointId))?.deliveriesWaiting).toBe(0);
  });

  it('asked for while an attempt from the log is under way, starts no second one; should it fail, it follows at once', async () => {
    clock.t = Date.now();
    overlaps = 0;
    const kind = 'transfer.failed';
    const { receiver, endpointId } = await heldReceiver(kind);
    answering(receiver, 204);
    const since = await logged(kind);
    const delivered = await settledWith(endpointId, 1);
    expect(delivered.status).toBe('SUCCEEDED');

    // A replay reads the event again: its attempt, from the log, fails after HELD_MS.
    answering(receiver, 500);
    await service().replay(endpointId, since);
    await waitFor(() => receiver.received.length === 2, 'the replayed event at the receiver', 10_000, 5);
    answering(receiver, 204);
    await service().redeliver(delivered.id);
    // The clock stands still: only the redelivery, noted for the failed attempt's outcome, sends the third copy.
    await waitFor(() => receiver.received[2]?.answered === 204, 'the redelivery at the receiver', 10_000, 10);
    await waitFor(async () => (await service().delivery(delivered.id))?.attempts.at(-1)?.httpStatus === 204, 'its record', 10_000, 10);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(overlaps).toBe(0);
    expect(receiver.received.map((r) => r.answered)).toEqual([204, 500, 204]);
    expect(receiver.received[2]!.at - receiver.received[1]!.at).toBeGreaterThanOrEqual(HELD_MS - 50);
  });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an ad-hoc document of this suite
type MerchantDoc = TypedDocumentNode<any, Record<string, unknown>>;
const CREATE_MERCHANT = `mutation($i: CreateMerchantInput!) {
  createMerchant(input: $i) { ... on CreateMerchantPayload { merchant { merchantId } } }
}`;
