// The lower bound of a takeover, with the default settings: an event in flight on one replica is never taken over
// by another before the attempt timeout (WEBHOOK_DELIVERY_TIMEOUT_MS, 15 s) + 5 s, so a receiver that answers in
// 10 s gets one copy, not two. Two gateways on one real Redis stand for two replicas (in process: their consumer
// names are their own, and the takeover is Redis's XAUTOCLAIM on its own clock). takeover-defaults.test.ts shows
// the upper bound (a dead replica's events are delivered by the survivor). This file waits 10 s of real time.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';
import { createEndpoint, startReceiver, type Receiver } from './helpers.js';
import { postServiceWebhook } from './replica-support.js';

const ANSWER_MS = 10_000;
const namespace = uniqueNamespace('outbound-takeover-not-before');
let a: TestStack;
let b: TestStack;
let receiver: Receiver;

beforeAll(async () => {
  // Every webhook setting at its default; the two replicas share the service's webhook secret and their Redis.
  const env = { REDIS_URL, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SUBSCRIPTION_POLL_MS: '0' };
  a = await startStack({ redisNamespace: namespace, env });
  b = await startStack({
    redisNamespace: namespace,
    env: { ...env, AUTH_JWT_SECRET: a.jwtSecret },
    sharedSandbox: a.sandbox,
    webhookSecret: a.webhookSecret,
  });
  receiver = await startReceiver();
  await createEndpoint(a, receiver.url, ['charge.success']);
  // Both replicas know the endpoint (each re-reads the endpoints every second).
  await waitFor(async () => (await b.gateway.outboundWebhooks.list()).length === 1, 'the endpoint on the second replica', 5_000, 20);
}, 30_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
  await receiver?.close();
  const redis = new Redis(REDIS_URL);
  await deleteByPrefix(redis, namespace);
  await redis.quit();
});

it('a receiver answering in 10 s gets one copy: no replica takes an event over before the attempt timeout + 5 s', async () => {
  receiver.delayMs = ANSWER_MS;
  expect(await postServiceWebhook(a.gateway.webhookUrl!, a.webhookSecret, 1, 'slow')).toBe(200);
  await waitFor(() => receiver.received.length === 1, 'the first attempt', 5_000, 20);
  const firstAt = receiver.received[0]!.at;
  // The answer comes 10 s after the request, and the delivery is settled; both replicas made full passes all along.
  await waitFor(() => receiver.received[0]!.answered === 200, 'the answer', ANSWER_MS + 5_000, 50);
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(receiver.received.map((r) => r.headers['webhook-id'])).toHaveLength(1);
  const [delivery] = (await a.gateway.outboundWebhooks.deliveries((await a.gateway.outboundWebhooks.list())[0]!.id)).filter(
    (d) => d.kind === 'charge.success',
  );
  expect(delivery).toMatchObject({ status: 'SUCCEEDED' });
  expect(delivery!.attempts).toHaveLength(1);
  expect(Date.now() - firstAt).toBeGreaterThanOrEqual(ANSWER_MS);
}, 30_000);
