// The edges of a live subscription: a resource already final when the client
// subscribes, a change published while the subscription is still reading its
// baseline, and a webhook arriving while an older fetch of the same resource
// is still in flight (it must not be answered with that older fetch).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEventBus, type EventBus } from '../../src/events/bus.js';
import { createLiveUpdates } from '../../src/live/index.js';
import { manualClock, type ManualClock } from '../../src/sandbox/index.js';
import { silentLogger } from '../../src/logger.js';
import type { Charge, UpstreamClient } from '../../src/upstream/types.js';
import type { PaymentEventRecord } from '../../src/events/payment-event.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { ChargeUpdated, createOtpCharge, submitOtp } from './documents.js';
import { disposeAllClients, getsOf, probeBus, subscribe, waitFor, withTimeout, staffClient, type BusProbe } from './helpers.js';

describe('subscriptions at the edges (gateway over HTTP, polling off)', () => {
  let stack: TestStack;
  let clock: ManualClock;
  let probe: BusProbe;

  beforeAll(async () => {
    clock = manualClock();
    stack = await startStack({ sandbox: { clock }, env: { SUBSCRIPTION_POLL_MS: '0' }, sandboxWebhooks: true });
    probe = probeBus(stack.gateway.bus);
  });
  afterEach(async () => {
    stack.sandbox.faults.clear();
    await disposeAllClients();
  });
  afterAll(async () => {
    await disposeAllClients();
    await stack?.close();
  });

  it('a resource already final when the client subscribes: its final state, then completion (not a stream that never ends)', async () => {
    const reference = await createOtpCharge(stack);
    await submitOtp(stack, reference);
    await stack.sandbox.webhooks.idle();

    const ws = staffClient(stack);
    const sub = subscribe(ws, ChargeUpdated, { reference });
    expect((await sub.next(2_000, 'the final state')).chargeUpdated).toMatchObject({ reference, status: 'SUCCESS' });
    expect(await withTimeout(sub.ended, 2_000, 'completion')).toEqual({ kind: 'complete' });
    await waitFor(() => probe.resourceOpen('charge', reference) === 0, 'the bus subscription to end');
  });

  it('a change published while the subscription is still reading its baseline is not lost', async () => {
    const reference = await createOtpCharge(stack);
    const path = `/v1/payment/charges/${reference}`;
    // The baseline GET is held until the service's clock moves (the charge is still SEND_OTP when it is answered).
    stack.sandbox.faults.add({ method: 'GET', path, kind: 'delay', ms: 1_000, times: 1 });
    const since = getsOf(stack.sandbox, 'charge', reference);
    const ws = staffClient(stack);
    const sub = subscribe(ws, ChargeUpdated, { reference });
    await waitFor(() => getsOf(stack.sandbox, 'charge', reference) > since, 'the baseline GET to be on its way');

    // Meanwhile another replica refreshed the charge after its webhook and published it.
    const charge = await stack.gateway.upstream.fetchCharge(reference);
    expect(charge.status).toBe('send_otp');
    await stack.gateway.bus.publishResourceChanged({
      type: 'charge',
      reference,
      status: 'success',
      resource: { ...charge, status: 'success' },
    });
    await clock.advance(1_000); // the baseline is answered now, after the change

    // The current state as the service answered it, then the change published while it was being read.
    expect((await sub.next(2_000, 'the current state')).chargeUpdated).toMatchObject({ reference, status: 'SEND_OTP' });
    expect((await sub.next(2_000, 'the change published during the baseline')).chargeUpdated).toMatchObject({
      reference,
      status: 'SUCCESS',
    });
    expect(await withTimeout(sub.ended, 2_000, 'completion')).toEqual({ kind: 'complete' });
  });
});

describe('webhook-triggered refresh (live updates over a scripted upstream)', () => {
  let bus: EventBus;
  afterEach(async () => {
    await bus?.close();
  });

  /** An upstream whose fetchCharge answers are released by the test, in order. */
  function scriptedUpstream() {
    const calls: Array<{ reference: string; answer: (status: string) => void }> = [];
    const upstream = {
      fetchCharge: (reference: string) =>
        new Promise<Charge>((resolve) => {
          calls.push({ reference, answer: (status) => resolve({ reference, status } as unknown as Charge) });
        }),
    } as unknown as UpstreamClient;
    return { upstream, calls };
  }

  const webhook = (reference: string, receivedAt = new Date()): PaymentEventRecord => ({
    id: `evt_${reference}_${receivedAt.getTime()}`,
    kind: 'charge.success',
    receivedAt: receivedAt.toISOString(),
    reference,
    resourceType: 'charge',
    payload: { event: 'charge.success', data: { reference } },
  });

  it('does not reuse a fetch that started before the webhook arrived (its answer may predate the change)', async () => {
    bus = await createEventBus();
    const { upstream, calls } = scriptedUpstream();
    const live = createLiveUpdates({ bus, upstream, log: silentLogger, polling: { initialMs: 0, maxMs: 1 } });
    const changes = bus.subscribeResourceChanged('charge', 'ch_race');
    const firstChange = changes.next();

    // A fetch already in flight: a subscriber's baseline...
    const watch = live.watch('charge', 'ch_race');
    const watched = watch.next();
    await waitFor(() => calls.length === 1, 'the baseline fetch to start');
    // ...then the webhook, received after that fetch started: its refresh must ask again rather than join it.
    // Stamped a millisecond after now, hence after the fetch started (no waiting for the clock to tick).
    live.onWebhook(webhook('ch_race', new Date(Date.now() + 1)));
    expect(calls).toHaveLength(2);
    calls[0]!.answer('send_otp'); // the older answer, from before the change
    calls[1]!.answer('success');

    const { value } = await withTimeout(firstChange, 1_000, 'the refresh to be published');
    expect(value).toMatchObject({ reference: 'ch_race', status: 'success' });
    // The subscriber gets its current state (send_otp), then the change.
    expect((await withTimeout(watched, 1_000, 'the current state')).value).toMatchObject({ status: 'send_otp' });
    expect((await withTimeout(watch.next(), 1_000, 'the subscriber to see the change')).value).toMatchObject({ status: 'success' });
    await changes.return();
    await watch.return?.();
    live.close();
  });

  it('still coalesces: asks made after the webhook arrived share the refresh', async () => {
    bus = await createEventBus();
    const { upstream, calls } = scriptedUpstream();
    const live = createLiveUpdates({ bus, upstream, log: silentLogger, polling: { initialMs: 0, maxMs: 1 } });
    const received = new Date(Date.now() - 1);
    live.onWebhook(webhook('ch_burst', received));
    live.onWebhook(webhook('ch_burst', received));
    // A subscriber arriving now: its baseline joins the refresh (or it would wait for an answer that never comes).
    const watch = live.watch('charge', 'ch_burst');
    const baseline = watch.next();
    calls[0]!.answer('success');
    expect((await withTimeout(baseline, 1_000, 'the baseline')).value).toMatchObject({ status: 'success' });
    expect(calls).toHaveLength(1);
    await watch.return?.();
    live.close();
  });
});
