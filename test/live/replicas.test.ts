// Two gateway instances (replicas of one deployment) on one real Redis: same
// namespace, same payment service (one sandbox, one API key), same webhook
// secret. A webhook reaches the subscribers of both replicas exactly once,
// whichever replica received it, and however many replicas received it.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace, waitForSubscribers } from '../events/redis-helpers.js';
import { testKey, type TestStack } from '../helpers/gateway.js';
import { startReplica } from '../helpers/replica.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { ChargeUpdated, PaymentEventIds, PaymentEvents, createOtpCharge, submitOtp } from './documents.js';
import {
  disposeAllClients,
  getsOf,
  postWebhook,
  probeBus,
  probeUpstream,
  subscribe,
  waitFor,
  withTimeout,
  staffClient,
  type BusProbe,
  type UpstreamProbe,
} from './helpers.js';

const namespace = uniqueNamespace('live-replicas');
const secret = `whsec_${randomBytes(12).toString('hex')}`;

interface Replica {
  stack: TestStack;
  bus: BusProbe;
  upstream: UpstreamProbe;
}

let sandbox: Sandbox;
let a: Replica;
let b: Replica;
let redis: Redis;

async function replicaOf(apiKey: string): Promise<Replica> {
  const stack = await startReplica({ sandbox, apiKey, webhookSecret: secret, redisNamespace: namespace }, { SUBSCRIPTION_POLL_MS: '0' });
  return { stack, bus: probeBus(stack.gateway.bus), upstream: probeUpstream(stack.gateway.upstream) };
}

beforeAll(async () => {
  sandbox = await startTestSandbox();
  const apiKey = testKey('replicas');
  a = await replicaOf(apiKey);
  b = await replicaOf(apiKey);
  redis = new Redis(REDIS_URL);
  expect(a.stack.gateway.bus.mode).toBe('redis');
  expect(a.stack.webhookSecret).toBe(b.stack.webhookSecret);
});
afterEach(async () => {
  await disposeAllClients();
});
afterAll(async () => {
  await disposeAllClients();
  await b?.stack.close();
  await a?.stack.close();
  await sandbox?.close();
  if (redis) {
    await deleteByPrefix(redis, namespace);
    await redis.quit();
  }
});

/** The webhook body the payment service would send: the charge exactly as its API shows it. */
async function chargeWebhookBody(reference: string): Promise<string> {
  const res = await request(`${sandbox.url}/v1/payment/charges/${reference}`, { headers: { 'x-api-key': a.stack.apiKey } });
  const envelope = (await res.body.json()) as { data: Record<string, unknown> };
  return JSON.stringify({ event: `charge.${String(envelope.data['status'])}`, data: envelope.data });
}

/**
 * Another charge confirmed and its webhook posted to `replica`: a barrier event. Every replica reads
 * the event log in order, so a subscriber whose next event is this
 * one has received no stray copy of anything published before it.
 */
async function markerEvent(replica: Replica): Promise<string> {
  const reference = await createOtpCharge(a.stack);
  await submitOtp(a.stack, reference);
  const reply = await postWebhook(replica.stack.gateway.webhookUrl!, secret, await chargeWebhookBody(reference));
  expect(reply.status).toBe(200);
  return reference;
}

const chargeChannel = (reference: string) => `${namespace}:events:resourceChanged:charge:${reference}`;

describe('two replicas on one Redis', () => {
  it("a webhook posted to A reaches paymentEvents subscribers on A and on B exactly once each, and B's chargeUpdated", async () => {
    const reference = await createOtpCharge(a.stack);
    const onA = subscribe(staffClient(a.stack), PaymentEvents, {});
    const onB = subscribe(staffClient(b.stack), PaymentEvents, {});
    const updatesOnB = subscribe(staffClient(b.stack), ChargeUpdated, { reference });
    await waitFor(() => a.bus.paymentEventsAttached() >= 1 && b.bus.paymentEventsAttached() >= 1, 'paymentEvents on both');
    await waitFor(() => b.bus.resourceAttached('charge', reference) >= 1 && b.upstream.inFlight === 0, 'chargeUpdated on B');
    expect((await updatesOnB.next(3_000, 'the current state on B')).chargeUpdated).toMatchObject({ reference, status: 'SEND_OTP' });
    await waitForSubscribers(redis, chargeChannel(reference), 1);

    // The customer confirms; the service's webhook goes to A only.
    await submitOtp(a.stack, reference);
    const body = await chargeWebhookBody(reference);
    const reply = await postWebhook(a.stack.gateway.webhookUrl!, secret, body);
    expect(reply).toMatchObject({ status: 200, json: { ok: true, duplicate: false } });

    const eventA = (await onA.next(3_000, 'the event on A')).paymentEvents;
    const eventB = (await onB.next(3_000, 'the event on B')).paymentEvents;
    for (const event of [eventA, eventB]) {
      expect(event).toMatchObject({ kind: 'charge.success', reference, charge: { reference, status: 'SUCCESS' } });
      expect(event.payload).toEqual(JSON.parse(body));
    }
    expect(eventB.id).toBe(eventA.id);
    expect(eventB.receivedAt).toBe(eventA.receivedAt);

    // B never received the webhook: A's refresh, published on Redis, is what B's subscriber sees.
    expect((await updatesOnB.next(3_000, 'chargeUpdated on B')).chargeUpdated).toMatchObject({ reference, status: 'SUCCESS' });
    expect(await withTimeout(updatesOnB.ended, 2_000, 'completion on B')).toEqual({ kind: 'complete' });

    const marker = await markerEvent(a);
    for (const sub of [onA, onB]) expect((await sub.next(3_000, 'the marker event')).paymentEvents.reference).toBe(marker);
    expect(onA.results).toHaveLength(2);
    expect(onB.results).toHaveLength(2);
  });

  it('the same delivery posted to A and B at once is published once: each subscriber gets exactly one, with one refresh', async () => {
    const reference = await createOtpCharge(a.stack);
    const attachedBefore = [a, b].map((r) => r.bus.paymentEventsAttached());
    const events = [a, b].map((r) => subscribe(staffClient(r.stack), PaymentEventIds, { kinds: ['charge.success'] }));
    const updates = [a, b].map((r) => subscribe(staffClient(r.stack), ChargeUpdated, { reference }));
    await waitFor(
      () =>
        [a, b].every(
          (r, i) =>
            r.bus.paymentEventsAttached() > attachedBefore[i]! &&
            r.bus.resourceAttached('charge', reference) >= 1 &&
            r.upstream.inFlight === 0,
        ),
      'subscriptions on both replicas',
    );
    await waitForSubscribers(redis, chargeChannel(reference), 2);
    for (const sub of updates)
      expect((await sub.next(3_000, 'the current state')).chargeUpdated).toMatchObject({ reference, status: 'SEND_OTP' });

    await submitOtp(b.stack, reference);
    const body = await chargeWebhookBody(reference);
    const getsBefore = getsOf(sandbox, 'charge', reference);
    // The service (or its retry) delivers to both replicas, several times, concurrently.
    const replies = await Promise.all([a, b, a, b, a, b].map((r) => postWebhook(r.stack.gateway.webhookUrl!, secret, body)));
    expect(replies.every((r) => r.status === 200 && r.json['ok'] === true)).toBe(true);
    expect(replies.filter((r) => r.json['duplicate'] === false)).toHaveLength(1);
    expect(new Set(replies.map((r) => r.json['id'])).size).toBe(1);

    for (const sub of events)
      expect((await sub.next(3_000, 'the event')).paymentEvents).toMatchObject({ kind: 'charge.success', reference });
    for (const sub of updates) {
      expect((await sub.next(3_000, 'SUCCESS')).chargeUpdated).toMatchObject({ reference, status: 'SUCCESS' });
      expect(await withTimeout(sub.ended, 2_000, 'completion')).toEqual({ kind: 'complete' });
    }
    const marker = await markerEvent(b);
    for (const sub of events) expect((await sub.next(3_000, 'the marker event')).paymentEvents.reference).toBe(marker);
    expect(events.map((s) => s.results.length)).toEqual([2, 2]);
    expect(updates.map((s) => s.results.length)).toEqual([2, 2]);
    // Only the replica that won the delivery refreshed the charge.
    expect(getsOf(sandbox, 'charge', reference) - getsBefore).toBe(1);
  });
});
