// A redelivery makes one attempt at a time per delivery (as Stripe and Svix do), over a real Redis and, in sandbox
// mode without it, the memory store, with a real receiver over HTTP and a manual clock for the retry schedule:
// - asked for while a retry's attempt is under way, it starts no second attempt beside it: the receiver gets one copy;
// - should that attempt fail, the delivery is tried again at once, on a fresh schedule (not the old schedule's next step);
// - asked for while a retry waits, it brings that retry forward instead of adding another.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startGateway, type RunningGateway } from '../../src/gateway.js';
import { silentLogger } from '../../src/logger.js';
import type { DeliveryRecord } from '../../src/outbound-webhooks/index.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { startStack, testKey, type TestStack } from '../helpers/gateway.js';
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
