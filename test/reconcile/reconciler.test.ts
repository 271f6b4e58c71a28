// Live reconciliation over the real stack: the sandbox drops a webhook, and
// the gateway, on the same manual clock as the sandbox, finds the change by
// itself once RECONCILE_AFTER_MS has passed without news: a POLL event in the
// log, delivered to subscribers like a webhook. Time only moves when the test
// moves the clock.
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, type ManualClock, type Sandbox } from '../../src/sandbox/index.js';
import { connectRedis } from '../../src/redis/index.js';
import { memoryReconcileStore, redisReconcileStore } from '../../src/reconcile/store.js';
import { startReconciler } from '../../src/reconcile/reconciler.js';
import type { EventBus } from '../../src/events/bus.js';
import type { LoggedPaymentEvent, PaymentEventRecord } from '../../src/events/payment-event.js';
import { silentLogger } from '../../src/logger.js';
import type { UpstreamClient } from '../../src/upstream/types.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { startStack, testKey, type TestStack } from '../helpers/gateway.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { ChargeUpdated, createOtpCharge, createPayOfflineCharge } from '../live/documents.js';
import { EventHistory, ResumableEvents } from '../live/event-documents.js';
import { disposeAllClients, getsOf, probeBus, staffClient, subscribe, waitFor, withTimeout } from '../live/helpers.js';

const AFTER_MS = 120_000;
/** How often the reconciler looks (min(RECONCILE_AFTER_MS / 4, 30 s)): a change is found at most this long after the window. */
const TICK_MS = 30_000;
const PAY_OFFLINE_MS = 1_000;

afterEach(async () => {
  await disposeAllClients();
});

async function eventsAbout(stack: TestStack, reference: string) {
  const res = await stack.gql(EventHistory, { first: 10, filter: { reference } });
  return res.data!.events.edges.map((e) => e.node);
}

describe('one gateway (no Redis)', () => {
  let clock: ManualClock;
  let stack: TestStack;

  beforeAll(async () => {
    clock = manualClock();
    stack = await startStack({
      sandbox: { clock, delays: { payOfflineMs: PAY_OFFLINE_MS } },
      clock,
      sandboxWebhooks: true,
      env: { SUBSCRIPTION_POLL_MS: '0', RECONCILE_AFTER_MS: String(AFTER_MS), RECONCILE_STUCK_HOURS: '1' },
    });
  });
  afterAll(async () => {
    await disposeAllClients();
    await stack?.close();
  });

  it('a dropped webhook: a POLL event within the window, to paymentEvents and chargeUpdated, and in the history', async () => {
    const probe = probeBus(stack.gateway.bus);
    stack.sandbox.webhookFaults.add({ kind: 'drop', event: 'charge.success' });
    const reference = await createPayOfflineCharge(stack);
    const ws = staffClient(stack);
    const events = subscribe(ws, ResumableEvents, { kinds: ['charge.success'] });
    const updates = subscribe(ws, ChargeUpdated, { reference });
    expect((await updates.next(3_000, 'the current state')).chargeUpdated.status).toBe('PAY_OFFLINE');
    await waitFor(() => probe.paymentEventsAttached() >= 1, 'paymentEvents to be live');

    await clock.advance(PAY_OFFLINE_MS); // the customer confirms; the service's webhook is lost
    expect(stack.sandbox.webhookFaults.list()).toEqual([]); // the drop was used
    const getsAfterChange = getsOf(stack.sandbox, 'charge', reference);
    await clock.advance(AFTER_MS - PAY_OFFLINE_MS - 1);
    // Still inside the window: not looked at yet, nothing announced.
    expect(getsOf(stack.sandbox, 'charge', reference)).toBe(getsAfterChange);
    expect(events.pending + updates.pending).toBe(0);

    await clock.advance(TICK_MS + 1);
    const found = (await events.next(3_000, 'the reconciliation event')).paymentEvents;
    expect(found).toMatchObject({ kind: 'charge.success', reference, source: 'POLL' });
    expect((await updates.next(3_000, 'SUCCESS')).chargeUpdated).toMatchObject({ reference, status: 'SUCCESS' });
    expect(await withTimeout(updates.ended, 2_000, 'chargeUpdated to complete')).toEqual({ kind: 'complete' });
    expect(await eventsAbout(stack, reference)).toMatchObject([{ id: found.id, kind: 'charge.success', source: 'POLL' }]);

    // Final: no longer watched, so no second look and no second event.
    const gets = getsOf(stack.sandbox, 'charge', reference);
    await clock.advance(AFTER_MS * 4);
    expect(getsOf(stack.sandbox, 'charge', reference)).toBe(gets);
    expect(await eventsAbout(stack, reference)).toHaveLength(1);
  });

  it('a webhook that arrives: no POLL event and no look afterwards', async () => {
    const reference = await createPayOfflineCharge(stack);
    await clock.advance(PAY_OFFLINE_MS);
    await waitFor(async () => (await eventsAbout(stack, reference)).length === 1, 'the webhook in the log');
    const gets = getsOf(stack.sandbox, 'charge', reference);
    await clock.advance(AFTER_MS + TICK_MS);
    expect(await eventsAbout(stack, reference)).toMatchObject([{ kind: 'charge.success', source: 'WEBHOOK' }]);
    expect(getsOf(stack.sandbox, 'charge', reference)).toBe(gets);
  });

  it('a resource that never becomes final: looks back off, then one reconciliation.stuck event after the limit (1 h here)', async () => {
    const reference = await createOtpCharge(stack); // SEND_OTP until an OTP comes, which never does
    const since = getsOf(stack.sandbox, 'charge', reference);
    await clock.advance(59 * 60_000);
    const looks = getsOf(stack.sandbox, 'charge', reference) - since;
    // Backoff: at 2, 6, 14, 30 minutes (not every 2 minutes: 29 looks).
    expect(looks).toBe(4);
    expect(await eventsAbout(stack, reference)).toEqual([]);

    await clock.advance(5 * 60_000);
    const [stuck] = await eventsAbout(stack, reference);
    expect(stuck).toMatchObject({ kind: 'reconciliation.stuck', source: 'POLL', reference });
    const gets = getsOf(stack.sandbox, 'charge', reference);
    await clock.advance(3 * 60 * 60_000);
    expect(getsOf(stack.sandbox, 'charge', reference)).toBe(gets);
    expect(await eventsAbout(stack, reference)).toHaveLength(1);
  });
});

describe('two replicas on Redis', () => {
  const namespace = uniqueNamespace('reconcile');
  let clock: ManualClock;
  const stacks: TestStack[] = [];
  let redis: Redis;

  let sandbox: Sandbox;

  beforeAll(async () => {
    clock = manualClock();
    sandbox = await startTestSandbox({ clock, delays: { payOfflineMs: PAY_OFFLINE_MS } });
    const apiKey = testKey('reconcile');
    for (let i = 0; i < 2; i++) {
      const env = { REDIS_URL, SUBSCRIPTION_POLL_MS: '0', RECONCILE_AFTER_MS: String(AFTER_MS) };
      stacks.push(await startStack({ sharedSandbox: sandbox, apiKey, clock, redisNamespace: namespace, env }));
    }
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    await disposeAllClients();
    for (const stack of stacks.reverse()) await stack.close();
    await sandbox?.close();
    await deleteByPrefix(redis, namespace);
    await redis.quit();
  });

  it('one replica at a time reconciles (a lease in Redis): one look, one POLL event, seen on both', async () => {
    const [a, b] = stacks as [TestStack, TestStack];
    // No webhook target at all: only reconciliation can tell.
    const reference = await createPayOfflineCharge(a);
    const busOfB = probeBus(b.gateway.bus);
    const onB = subscribe(staffClient(b), ResumableEvents, { kinds: ['charge.success'] });
    // A subscription without `after` starts from the log's end when it attaches: attached before the clock moves.
    await waitFor(() => busOfB.paymentEventsAttached() === 1, 'the subscription on B to attach');
    await waitFor(async () => (await redis.zcard(`${namespace}:reconcile:due`)) === 1, 'the charge to be watched');
    await clock.advance(PAY_OFFLINE_MS);
    const gets = getsOf(a.sandbox, 'charge', reference);
    await clock.advance(AFTER_MS + TICK_MS);

    expect((await onB.next(3_000, 'the POLL event on B')).paymentEvents).toMatchObject({ reference, source: 'POLL' });
    expect(getsOf(a.sandbox, 'charge', reference) - gets).toBe(1);
    expect(await eventsAbout(a, reference)).toHaveLength(1);
    expect(await redis.zcard(`${namespace}:reconcile:due`)).toBe(0);
  });
});

describe('the lease (Redis)', () => {
  it('is held by one replica at a time: renewed by its holder, refused to others until released', async () => {
    const namespace = uniqueNamespace('lease');
    const [one, two] = await Promise.all([connectRedis({ url: REDIS_URL, namespace }), connectRedis({ url: REDIS_URL, namespace })]);
    try {
      const a = redisReconcileStore(one, { itemTtlMs: 60_000 });
      const b = redisReconcileStore(two, { itemTtlMs: 60_000 });
      expect(await a.acquireLease('replica-a', 10_000)).toBe(true);
      expect(await b.acquireLease('replica-b', 10_000)).toBe(false);
      expect(await a.acquireLease('replica-a', 10_000)).toBe(true); // renewal
      await b.releaseLease('replica-b'); // not its lease: no effect
      expect(await b.acquireLease('replica-b', 10_000)).toBe(false);
      await a.releaseLease('replica-a');
      expect(await b.acquireLease('replica-b', 10_000)).toBe(true);
      expect(await a.acquireLease('replica-a', 10_000)).toBe(false);
      // It expires with its holder: a replica that died leaves it to the others.
      expect(await b.acquireLease('replica-b', 1)).toBe(true);
      await waitFor(async () => (await one.commands.exists(one.key('reconcile', 'lease'))) === 0, 'the lease to expire');
      expect(await a.acquireLease('replica-a', 10_000)).toBe(true);
    } finally {
      await deleteByPrefix(one.commands, namespace);
      await Promise.all([one.close(), two.close()]);
    }
  });
});

describe('the events the reconciler reads', () => {
  // The reconciler alone, on a clock that moves only when the test says and a bus that hands appended events to
  // listeners only when the test says: whether an event pushes the next look back is then a plain question of
  // which looks happen.
  const A = 120_000;
  function setUp() {
    let now = 1_000_000;
    const held: LoggedPaymentEvent[] = [];
    const listeners = new Set<(e: LoggedPaymentEvent) => void>();
    let seq = 0;
    const bus = {
      publishPaymentEvent: async (event: PaymentEventRecord) => {
        const logged = { ...event, seq: `${++seq}-0` };
        held.push(logged);
        return logged;
      },
      publishResourceChanged: async () => {},
      onAppendedEvent: (listener: (e: LoggedPaymentEvent) => void) => (listeners.add(listener), () => listeners.delete(listener)),
    } as unknown as EventBus;
    let fetches = 0;
    const upstream = {
      fetchCharge: async (reference: string) => (fetches++, { reference, status: 'pending' }),
    } as unknown as UpstreamClient;
    const store = memoryReconcileStore();
    const clock = { now: () => now, setTimeout: () => ({ cancel() {} }) };
    const reconciler = startReconciler({ store, bus, upstream, clock, log: silentLogger, afterMs: A, stuckMs: 100 * A });
    return {
      reconciler,
      store,
      held,
      fetches: () => fetches,
      at: (t: number) => (now = 1_000_000 + t),
      /** Hands the held events to the listeners, then lets their store writes settle. */
      deliver: async (extra: LoggedPaymentEvent[] = []) => {
        for (const event of [...held.splice(0), ...extra]) listeners.forEach((l) => l(event));
        await new Promise((resolve) => setImmediate(resolve));
      },
    };
  }

  it('its own POLL event does not push its next look back; a webhook about the resource does', async () => {
    for (const source of ['POLL', 'WEBHOOK'] as const) {
      const r = setUp();
      r.reconciler.watch('charge', 'ch_own');
      await waitFor(async () => (await r.store.get('charge', 'ch_own')) !== null, 'the charge to be watched');
      r.at(A);
      await r.reconciler.tick(); // send_otp -> pending: news, logged as a POLL event; next look at 2A
      expect(r.fetches()).toBe(1);
      expect(r.held).toMatchObject([{ kind: 'charge.pending', source: 'POLL' }]);
      r.at(2 * A - 1);
      const webhook = { ...r.held[0]!, id: 'wh_1', seq: '99-0', source: 'WEBHOOK' as const };
      await r.deliver(source === 'WEBHOOK' ? [webhook] : []);
      r.at(2 * A);
      await r.reconciler.tick();
      // POLL: what it logged itself is no news, the look stays at 2A. WEBHOOK: news, the look moves to 3A - 1.
      expect(r.fetches(), source).toBe(source === 'POLL' ? 2 : 1);
      await r.reconciler.stop();
    }
  });
});
