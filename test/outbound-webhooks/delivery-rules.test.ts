// Rules of outgoing webhooks that hold over hours, checked with the default schedule and disable period on a
// manual clock (the gateway's `outboundWebhooks.now`), a real Redis and real receivers:
// - a success ends an endpoint's failure streak, so the disable period counts only an unbroken run of failures;
// - a redelivery starts the retry schedule over;
// - a new endpoint takes only events logged after its creation, never the log's retained history;
// - each attempt is signed with its own time, so a retry sent hours after the event verifies (standardwebhooks and
//   svix, whose tolerance is 5 minutes).
import { Redis } from 'ioredis';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DeliveryRecord } from '../../src/outbound-webhooks/index.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';
import { createEndpoint, startReceiver, type Receiver } from './helpers.js';
import { postServiceWebhook } from './replica-support.js';

const HOUR = 3_600_000;
const namespace = uniqueNamespace('outbound-rules');
const clock = { t: Date.now() };
let stack: TestStack;
const receivers: Receiver[] = [];
let counter = 0;
const raw = (globalId: string) => Buffer.from(globalId, 'base64url').toString('utf8').split(':')[1]!;

beforeAll(async () => {
  stack = await startStack({
    redisNamespace: namespace,
    // Every webhook setting at its default: the 5 s first retry, the 120 h disable period, the 15 s attempt timeout.
    env: { REDIS_URL, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SUBSCRIPTION_POLL_MS: '0' },
    outboundWebhooks: { now: () => clock.t, pollMs: 30 },
  });
}, 30_000);
afterAll(async () => {
  await stack?.close();
  for (const r of receivers) await r.close();
  const redis = new Redis(REDIS_URL);
  await deleteByPrefix(redis, namespace);
  await redis.quit();
});

const service = () => stack.gateway.outboundWebhooks;

/** A receiver and an endpoint taking only `kind` (each test its own kind, so no test sees another's events). */
async function endpointFor(kind: string): Promise<{ receiver: Receiver; id: string; secret: string }> {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const { id, secret } = await createEndpoint(stack, receiver.url, [kind]);
  return { receiver, id: raw(id), secret };
}

/** Logs one event of `kind` as the service's webhook; returns its reference. */
async function logEvent(kind: string): Promise<string> {
  const i = counter++;
  expect(await postServiceWebhook(stack.gateway.webhookUrl!, stack.webhookSecret, i, 'rules', kind)).toBe(200);
  return `rules-ref-${i}`;
}

async function deliveryOf(endpointId: string, reference: string): Promise<DeliveryRecord> {
  let found: DeliveryRecord | undefined;
  await waitFor(
    async () => {
      found = (await service().deliveries(endpointId)).find(
        (d) => (d.event.payload as { data?: { reference?: string } }).data?.reference === reference,
      );
      return found !== undefined && found.attempts.length > 0;
    },
    `the first attempt for ${reference}`,
    10_000,
    20,
  );
  return found!;
}

/** Waits until the delivery has `count` attempts and none in progress; returns it. */
async function attempted(endpointId: string, deliveryId: string, count: number): Promise<DeliveryRecord> {
  let record: DeliveryRecord | null = null;
  await waitFor(
    async () => ((record = await service().delivery(deliveryId)), (record?.attempts.length ?? 0) >= count),
    `attempt ${count} of ${deliveryId} (endpoint ${endpointId})`,
    10_000,
    20,
  );
  return record!;
}

describe('outgoing webhooks over hours (default schedule and disable period, manual clock)', () => {
  it('a success ends the failure streak: the disable period counts only an unbroken run of failures', async () => {
    const start = (clock.t = Date.now());
    const { receiver, id } = await endpointFor('settlement.success');
    receiver.behaviour = 500;
    const first = await deliveryOf(id, await logEvent('settlement.success'));
    expect((await service().get(id))!.failingSince).toBe(new Date(start).toISOString());

    // 119 hours later the receiver is back: a new event, and the first one's retry, succeed.
    receiver.behaviour = 204;
    clock.t = start + 119 * HOUR;
    const second = await deliveryOf(id, await logEvent('settlement.success'));
    await waitFor(async () => (await service().delivery(first.id))?.status === 'SUCCEEDED', 'the retry of the first event', 10_000, 20);
    expect(second.status).toBe('SUCCEEDED');
    expect(await service().get(id)).toMatchObject({ failingSince: null, consecutiveFailures: 0 });

    // It fails again: a new streak from 119 h. Two hours on (121 h after the first failure, 2 h into this streak),
    // a failed retry must not disable it.
    receiver.behaviour = 500;
    const third = await deliveryOf(id, await logEvent('settlement.success'));
    clock.t = start + 121 * HOUR;
    await attempted(id, third.id, 2);
    const endpoint = (await service().get(id))!;
    expect(endpoint.enabled).toBe(true);
    expect(endpoint).toMatchObject({ failingSince: new Date(start + 119 * HOUR).toISOString(), consecutiveFailures: 2 });
    await service().delete(id);
  });

  it('a redelivery starts the schedule over: its failed first attempt is retried about 5 s later, not failed at once', async () => {
    clock.t = Date.now();
    const { receiver, id } = await endpointFor('settlement.cancelled');
    receiver.behaviour = 500;
    let record = await deliveryOf(id, await logEvent('settlement.cancelled'));
    // Every attempt of the default schedule (8 over about 28 hours) fails.
    while (record.status === 'PENDING') {
      clock.t = record.nextAttemptAt!;
      record = await attempted(id, record.id, record.attempts.length + 1);
    }
    expect(record.status).toBe('FAILED');
    expect(record.attempts).toHaveLength(8);

    await service().redeliver(record.id);
    const again = await attempted(id, record.id, 9);
    expect(again.status).toBe('PENDING');
    const retryIn = again.nextAttemptAt! - Date.parse(again.attempts.at(-1)!.at);
    expect(retryIn).toBeGreaterThanOrEqual(4_000); // 5 s ±20%
    expect(retryIn).toBeLessThanOrEqual(6_000);
    await service().delete(id);
  });

  it('a new endpoint takes only the events logged after its creation, never the retained history', async () => {
    clock.t = Date.now();
    const before = [await logEvent('transfer.failed'), await logEvent('transfer.failed'), await logEvent('transfer.failed')];
    const { receiver, id } = await endpointFor('transfer.failed');
    const after = await logEvent('transfer.failed');
    const delivered = await deliveryOf(id, after);
    expect(delivered.status).toBe('SUCCEEDED');
    // Full passes come every 30 ms here: a few more would have read the history, were it the endpoint's.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const references = receiver.delivered().map((d) => d.data['reference']);
    expect(references).toEqual([after]);
    expect(references).not.toContain(before[0]);
    await service().delete(id);
  });

  it('each attempt is signed with its own time: a retry 3 hours after the event verifies with standardwebhooks and svix', async () => {
    const start = (clock.t = Date.now());
    const { receiver, id, secret } = await endpointFor('transfer.success');
    receiver.behaviour = 500;
    const record = await deliveryOf(id, await logEvent('transfer.success'));
    receiver.behaviour = 204;
    clock.t = start + 3 * HOUR;
    await attempted(id, record.id, 2);
    const [first, retry] = receiver.received;
    expect(first!.headers['webhook-id']).toBe(retry!.headers['webhook-id']);
    expect(Number(first!.headers['webhook-timestamp'])).toBe(Math.floor(start / 1000));
    expect(Number(retry!.headers['webhook-timestamp'])).toBe(Math.floor((start + 3 * HOUR) / 1000));
    const headers = {
      'webhook-id': retry!.headers['webhook-id']!,
      'webhook-timestamp': retry!.headers['webhook-timestamp']!,
      'webhook-signature': retry!.headers['webhook-signature']!,
    };
    // The receiver's clock when the retry arrives (both libraries refuse a timestamp 5 minutes away from it).
    vi.useFakeTimers({ toFake: ['Date'], now: start + 3 * HOUR + 2_000 });
    try {
      expect(new StandardWebhook(secret).verify(retry!.body, headers)).toMatchObject({ type: 'transfer.success' });
      expect(new SvixWebhook(secret).verify(retry!.body, headers)).toMatchObject({ type: 'transfer.success' });
    } finally {
      vi.useRealTimers();
    }
    await service().delete(id);
  });
});
