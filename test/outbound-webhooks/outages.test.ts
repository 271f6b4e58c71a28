// A merchant's receiver down for hours, with a manual clock: the connection is
// refused, then it answers 500, then it hangs (time-outs), for 6 simulated
// hours. Retries follow the schedule (5 s, 5 min, 30 min, 2 h, 5 h, ... ±20%),
// every attempt of an event carries the same webhook-id, and each event is
// delivered once the receiver is back. A second endpoint down past the whole
// schedule has FAILED deliveries; failing for the disable period (120 h, the
// default) it is disabled and a webhook_endpoint.disabled event says so; back
// up, redelivery and replay bring its events.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS } from '../../src/config.js';
import type { DeliveryRecord } from '../../src/outbound-webhooks/index.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';
import { createTransfer } from '../live/documents.js';
import { createEndpoint, gql, startReceiver, type Receiver } from './helpers.js';

const HOUR = 3_600_000;
const namespace = uniqueNamespace('outbound-outages');
const clock = { t: Date.now() };
const start = clock.t;
let stack: TestStack;
let a: Receiver;
let b: Receiver;
let endpointA: string;
let endpointB: string;
let aDown = true;
const raw = (globalId: string) => Buffer.from(globalId, 'base64url').toString('utf8').split(':')[1]!;

beforeAll(async () => {
  stack = await startStack({
    redisNamespace: namespace,
    sandboxWebhooks: true,
    sandbox: { delays: { transferMs: 20 } },
    // A hanging receiver is given up on after 500 ms rather than 15 s (the default is shown in test/outbound-webhooks/settings.test.ts).
    env: { REDIS_URL, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_DELIVERY_TIMEOUT_MS: '500', SUBSCRIPTION_POLL_MS: '0' },
    outboundWebhooks: { now: () => clock.t, pollMs: 30 },
  });
  a = await startReceiver();
  b = await startReceiver();
  b.behaviour = 503;
  endpointA = (await createEndpoint(stack, a.url)).id;
  endpointB = (await createEndpoint(stack, b.url, ['transfer.success'])).id;
  await a.close(); // down: connection refused
}, 30_000);
afterAll(async () => {
  await stack?.close();
  await a?.close().catch(() => {});
  await b?.close();
  const redis = new Redis(REDIS_URL);
  await deleteByPrefix(redis, namespace);
  await redis.quit();
});

const service = () => stack.gateway.outboundWebhooks;
const deliveriesOf = async (endpointId: string) =>
  (await service().deliveries(raw(endpointId))).filter((d) => d.kind === 'transfer.success');

/** A's receiver as the simulated hours go: down (refused), then 500s, then hanging, then back after 6 hours. */
async function setReceiverA(): Promise<void> {
  const elapsed = clock.t - start;
  if (elapsed < 60_000) return;
  if (aDown) {
    aDown = false;
    a = await startReceiver(a.port);
  }
  a.behaviour = elapsed < HOUR ? 500 : elapsed < 6 * HOUR ? 'hang' : 200;
}

/** Moves the clock to the earliest due retry and waits until that delivery's attempt is recorded. */
async function stepToNextRetry(pending: DeliveryRecord[]): Promise<void> {
  const next = pending.reduce((min, d) => (d.nextAttemptAt! < min.nextAttemptAt! ? d : min));
  clock.t = next.nextAttemptAt!;
  await setReceiverA();
  const before = next.attempts.length;
  await waitFor(
    async () => ((await service().delivery(next.id))?.attempts.length ?? 0) > before,
    `attempt ${before + 1} of ${next.id}`,
    10_000,
    20,
  );
}

function expectScheduleFollowed(d: DeliveryRecord): void {
  const times = d.attempts.map((x) => Date.parse(x.at));
  for (let i = 1; i < times.length; i++) {
    const gap = times[i]! - times[i - 1]!;
    const planned = DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS[i - 1]!;
    expect(gap, `gap ${i} of ${d.id}`).toBeGreaterThanOrEqual(Math.floor(planned * 0.8));
    expect(gap, `gap ${i} of ${d.id}`).toBeLessThanOrEqual(Math.ceil(planned * 1.2));
  }
}

describe('receivers down for hours', () => {
  it('retries on the schedule through refused connections, 500s and time-outs, then delivers each event once with one webhook-id', async () => {
    const references = [await createTransfer(stack), await createTransfer(stack), await createTransfer(stack)];
    await waitFor(
      async () => (await deliveriesOf(endpointA)).length === 3 && (await deliveriesOf(endpointB)).length === 3,
      'first attempts',
      15_000,
      50,
    );
    for (;;) {
      const pending = [...(await deliveriesOf(endpointA)), ...(await deliveriesOf(endpointB))].filter((d) => d.status === 'PENDING');
      if (!pending.some((d) => d.endpointId === raw(endpointA))) break;
      await stepToNextRetry(pending);
    }
    expect(clock.t - start).toBeGreaterThan(6 * HOUR);
    const ofA = await deliveriesOf(endpointA);
    for (const d of ofA) {
      expect(d.status).toBe('SUCCEEDED');
      expect(d.attempts.map((x) => x.error ?? 'ok')).toEqual([
        'connection refused',
        'connection refused',
        'HTTP 500',
        'HTTP 500',
        'timeout after 500 ms',
        'ok',
      ]);
      expectScheduleFollowed(d);
    }
    // At the receiver: every request of an event carried that event's webhook-id, and one of them was accepted.
    const transfers = a.received.filter((r) => r.body.includes('"transfer.success"'));
    const byReference = new Map<string, Set<string>>();
    for (const r of transfers) {
      const body = JSON.parse(r.body) as { data: { reference: string; eventId: string } };
      expect(r.headers['webhook-id']).toBe(body.data.eventId);
      byReference.set(body.data.reference, (byReference.get(body.data.reference) ?? new Set()).add(r.headers['webhook-id']!));
    }
    expect([...byReference.keys()].sort()).toEqual([...references].sort());
    for (const ids of byReference.values()) expect(ids.size).toBe(1);
    const accepted = a.delivered().filter((d) => d.type === 'transfer.success');
    expect(accepted.map((d) => d.data['reference']).sort()).toEqual([...references].sort());
  }, 120_000);

  it('an endpoint down past the schedule has FAILED deliveries; failing for 120 hours it is disabled, with its event', async () => {
    for (;;) {
      const pending = (await deliveriesOf(endpointB)).filter((d) => d.status === 'PENDING');
      if (pending.length === 0) break;
      await stepToNextRetry(pending);
    }
    const failed = await deliveriesOf(endpointB);
    for (const d of failed) {
      expect(d.status).toBe('FAILED');
      expect(d.attempts).toHaveLength(1 + DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS.length);
      expectScheduleFollowed(d);
    }
    const listed = await gql(stack, 'query ($e: ID!) { webhookDeliveries(endpointId: $e, filter: { status: FAILED }) { totalCount } }', {
      e: endpointB,
    });
    expect(listed.data.webhookDeliveries.totalCount).toBe(3);

    // 121 hours after its first failure, a new event fails too: the endpoint is disabled, and A hears of it.
    clock.t = start + 121 * HOUR;
    await createTransfer(stack);
    await waitFor(async () => (await service().get(raw(endpointB)))?.enabled === false, 'B disabled', 10_000, 50);
    const view = await gql(
      stack,
      'query ($id: ID!) { node(id: $id) { ... on WebhookEndpoint { enabled disabledReason health { failingSince consecutiveFailures } } } }',
      {
        id: endpointB,
      },
    );
    expect(view.data.node).toMatchObject({ enabled: false, disabledReason: 'failing for 120 hours' });
    await waitFor(() => a.delivered().some((d) => d.type === 'webhook_endpoint.disabled'), 'the disabled event at A', 10_000, 50);
    expect(a.delivered().find((d) => d.type === 'webhook_endpoint.disabled')!.data).toMatchObject({
      endpointId: endpointB,
      reason: 'failing for 120 hours',
    });
  }, 120_000);

  it('back up and enabled again, redelivery and replay bring its events, with their webhook-ids', async () => {
    b.behaviour = 200;
    const enabled = await gql(
      stack,
      'mutation ($i: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(input: $i) { ... on UpdateWebhookEndpointPayload { endpoint { enabled health { failingSince } } } } }',
      {
        i: { endpointId: endpointB, enabled: true },
      },
    );
    expect(enabled.data.updateWebhookEndpoint.endpoint).toMatchObject({ enabled: true, health: { failingSince: null } });
    const [first] = (await deliveriesOf(endpointB)).filter((d) => d.status === 'FAILED');
    const redelivered = await gql(
      stack,
      'mutation ($i: RedeliverWebhookInput!) { redeliverWebhook(input: $i) { ... on RedeliverWebhookPayload { delivery { status eventId } } } }',
      {
        i: { deliveryId: first!.id },
      },
    );
    expect(redelivered.data.redeliverWebhook.delivery).toEqual({ status: 'PENDING', eventId: first!.eventId });
    await waitFor(() => b.delivered().some((d) => d.id === first!.eventId), 'the redelivered event', 10_000, 50);

    const replay = await gql(
      stack,
      'mutation ($i: ReplayWebhookEventsInput!) { replayWebhookEvents(input: $i) { ... on ReplayWebhookEventsPayload { eventsQueued } } }',
      {
        i: { endpointId: endpointB, since: new Date(start - 60_000).toISOString() },
      },
    );
    expect(replay.data.replayWebhookEvents.eventsQueued).toBe(4);
    const all = (await deliveriesOf(endpointB)).map((d) => d.eventId);
    await waitFor(() => all.every((eventId) => b.delivered().some((d) => d.id === eventId)), 'every event replayed', 10_000, 50);
  }, 60_000);
});
