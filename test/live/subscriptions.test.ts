// GraphQL subscriptions end to end: a real graphql-ws client over a real
// WebSocket, the gateway over HTTP, and the sandbox (a real payment service)
// whose clock the tests move. Each resource is followed twice:
//   - "with webhooks": the sandbox posts signed webhooks to the gateway and
//     polling is off (SUBSCRIPTION_POLL_MS=0), so only a webhook can deliver;
//   - "polling only": no webhook target, pollers at 50 ms.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, type ManualClock } from '../../src/sandbox/index.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import {
  ChargeUpdated,
  CheckoutUpdated,
  PaymentEvents,
  SettlementUpdated,
  TransferUpdated,
  createOtpCharge,
  createPayOfflineCharge,
  createSettlement,
  createTransfer,
  initializeCheckout,
  submitOtp,
} from './documents.js';
import {
  disposeAllClients,
  getsOf,
  postForm,
  postWebhook,
  probeBus,
  subscribe,
  untilWatching,
  waitFor,
  withTimeout,
  staffClient,
  type BusProbe,
  type TestClient,
} from './helpers.js';

const DELAYS = { payOfflineMs: 1_000, transferMs: 1_000, settlementInTransitMs: 1_000, settlementSuccessMs: 2_000 };

/** The longest polling interval of the "polling only" mode. */
const POLL_MAX_MS = 200;

interface Mode {
  name: string;
  webhooks: boolean;
  env: Record<string, string>;
}

const MODES: Mode[] = [
  { name: 'with webhooks', webhooks: true, env: { SUBSCRIPTION_POLL_MS: '0' } },
  { name: 'polling only', webhooks: false, env: { SUBSCRIPTION_POLL_MS: '50', SUBSCRIPTION_POLL_MAX_MS: String(POLL_MAX_MS) } },
];

describe.each(MODES)('resource subscriptions, $name', (mode) => {
  let stack: TestStack;
  let clock: ManualClock;
  let probe: BusProbe;
  let ws: TestClient;

  beforeAll(async () => {
    clock = manualClock();
    // The gateway's pollers run on the sandbox's clock: a poll happens only when the test moves time.
    stack = await startStack({ sandbox: { clock, delays: DELAYS }, clock, env: mode.env, sandboxWebhooks: mode.webhooks });
    probe = probeBus(stack.gateway.bus);
  });
  afterAll(async () => {
    await disposeAllClients();
    await stack?.close();
  });
  afterEach(async () => {
    await disposeAllClients();
  });

  const connect = async () => {
    ws = staffClient(stack);
    await ws.connected;
    return ws;
  };

  /** Polling only: moves time by the longest polling interval, so that a poll after the change has been answered. */
  const pollAfterChange = async () => {
    if (!mode.webhooks) await clock.advance(POLL_MAX_MS);
  };

  /** What the mode promises about how the change arrived. */
  const checkDelivery = (type: 'charge' | 'transfer' | 'settlement' | 'checkout', reference: string, getsBeforeChange: number) => {
    const after = getsOf(stack.sandbox, type, reference) - getsBeforeChange;
    if (mode.webhooks) {
      // Polling is off: the one GET after the change is the refresh the webhook triggered.
      expect(after).toBe(1);
    } else {
      expect(stack.sandbox.webhooks.all()).toEqual([]);
      expect(after).toBeGreaterThanOrEqual(1);
    }
  };

  it('chargeUpdated: SEND_OTP -> SUCCESS after the OTP is submitted through the gateway, then completes', async () => {
    const client = await connect();
    const reference = await createOtpCharge(stack);
    const since = getsOf(stack.sandbox, 'charge', reference);
    const sub = subscribe(client, ChargeUpdated, { reference });
    await untilWatching(probe, stack.sandbox, 'charge', reference, { since });
    // The current state comes first, at once.
    expect((await sub.next(3_000, 'the current state')).chargeUpdated).toMatchObject({ reference, status: 'SEND_OTP' });

    const before = getsOf(stack.sandbox, 'charge', reference);
    await submitOtp(stack, reference);
    await pollAfterChange();

    const update = await sub.next(3_000, 'chargeUpdated SUCCESS');
    expect(update.chargeUpdated).toEqual({ __typename: 'Charge', reference, status: 'SUCCESS', amount: 1500, provider: 'OPA_BF' });
    expect(await withTimeout(sub.ended, 2_000, 'the stream to complete')).toEqual({ kind: 'complete' });
    expect(sub.results).toHaveLength(2);
    checkDelivery('charge', reference, before);

    // A late "pending" (e.g. a slow replica's stale refresh) after success: nothing listens any more, so
    // nothing more can be delivered (the in-memory bus hands an event to its listeners as it is published).
    await waitFor(() => probe.resourceOpen('charge', reference) === 0, 'the bus subscription to end');
    const current = await stack.gateway.upstream.fetchCharge(reference);
    await stack.gateway.bus.publishResourceChanged({
      type: 'charge',
      reference,
      status: 'pending',
      resource: { ...current, status: 'pending' },
    });
    expect(sub.results).toHaveLength(2);
  });

  it('chargeUpdated: PAY_OFFLINE -> SUCCESS when the customer confirms on the phone, then completes', async () => {
    const client = await connect();
    const reference = await createPayOfflineCharge(stack);
    const since = getsOf(stack.sandbox, 'charge', reference);
    const sub = subscribe(client, ChargeUpdated, { reference });
    await untilWatching(probe, stack.sandbox, 'charge', reference, { since });
    expect((await sub.next(3_000, 'the current state')).chargeUpdated).toMatchObject({ reference, status: 'PAY_OFFLINE' });

    const before = getsOf(stack.sandbox, 'charge', reference);
    await clock.advance(DELAYS.payOfflineMs);
    await pollAfterChange();

    const update = await sub.next(3_000, 'chargeUpdated SUCCESS');
    expect(update.chargeUpdated).toMatchObject({ reference, status: 'SUCCESS', provider: 'OPB_BF' });
    expect(await withTimeout(sub.ended, 2_000, 'the stream to complete')).toEqual({ kind: 'complete' });
    checkDelivery('charge', reference, before);
  });

  it('transferUpdated: PENDING -> SUCCESS when the transfer settles, and PENDING -> FAILED for a failing number', async () => {
    const client = await connect();
    const ok = await createTransfer(stack, '76000000');
    const ko = await createTransfer(stack, '76000009');
    const sinceOk = getsOf(stack.sandbox, 'transfer', ok);
    const sinceKo = getsOf(stack.sandbox, 'transfer', ko);
    const subOk = subscribe(client, TransferUpdated, { reference: ok });
    const subKo = subscribe(client, TransferUpdated, { reference: ko });
    await untilWatching(probe, stack.sandbox, 'transfer', ok, { since: sinceOk });
    await untilWatching(probe, stack.sandbox, 'transfer', ko, { since: sinceKo });
    expect((await subOk.next(3_000, 'the current state')).transferUpdated).toMatchObject({ reference: ok, status: 'PENDING' });
    expect((await subKo.next(3_000, 'the current state')).transferUpdated).toMatchObject({ reference: ko, status: 'PENDING' });

    const beforeOk = getsOf(stack.sandbox, 'transfer', ok);
    await clock.advance(DELAYS.transferMs);
    await pollAfterChange();

    expect((await subOk.next(3_000, 'transfer SUCCESS')).transferUpdated).toEqual({
      __typename: 'Transfer',
      reference: ok,
      status: 'SUCCESS',
      amount: 1000,
      recipientPhone: '76000000',
    });
    expect((await subKo.next(3_000, 'transfer FAILED')).transferUpdated).toMatchObject({ reference: ko, status: 'FAILED' });
    expect(await withTimeout(subOk.ended, 2_000, 'the stream to complete')).toEqual({ kind: 'complete' });
    expect(await withTimeout(subKo.ended, 2_000, 'the stream to complete')).toEqual({ kind: 'complete' });
    checkDelivery('transfer', ok, beforeOk);
  });

  it('settlementUpdated: PROCESSING -> IN_TRANSIT -> SUCCESS, a stale step back in between is dropped, then completes', async () => {
    const client = await connect();
    const reference = await createSettlement(stack);
    const since = getsOf(stack.sandbox, 'settlement', reference);
    const sub = subscribe(client, SettlementUpdated, { reference });
    await untilWatching(probe, stack.sandbox, 'settlement', reference, { since });
    expect((await sub.next(3_000, 'the current state')).settlementUpdated).toMatchObject({ reference, status: 'PROCESSING' });

    const beforeTransit = getsOf(stack.sandbox, 'settlement', reference);
    await clock.advance(DELAYS.settlementInTransitMs);
    await pollAfterChange();
    expect((await sub.next(3_000, 'IN_TRANSIT')).settlementUpdated).toEqual({
      __typename: 'Settlement',
      reference,
      status: 'IN_TRANSIT',
      amount: 5000,
    });
    checkDelivery('settlement', reference, beforeTransit);
    expect(sub.isEnded).toBe(false);

    // Stale and repeated states published on the bus (as a lagging replica would) never reach the client.
    const current = await stack.gateway.upstream.fetchSettlement(reference);
    await stack.gateway.bus.publishResourceChanged({
      type: 'settlement',
      reference,
      status: 'processing',
      resource: { ...current, status: 'processing' },
    });
    await stack.gateway.bus.publishResourceChanged({ type: 'settlement', reference, status: 'in_transit', resource: current });
    expect(sub.pending).toBe(0);
    // They were published before the next real change: had one got through, it would come before SUCCESS (checked below).

    const beforeSuccess = getsOf(stack.sandbox, 'settlement', reference);
    await clock.advance(DELAYS.settlementSuccessMs);
    await pollAfterChange();
    expect((await sub.next(3_000, 'SUCCESS')).settlementUpdated).toMatchObject({ reference, status: 'SUCCESS' });
    expect(await withTimeout(sub.ended, 2_000, 'the stream to complete')).toEqual({ kind: 'complete' });
    expect(sub.results.map((r) => r.data?.settlementUpdated.status)).toEqual(['PROCESSING', 'IN_TRANSIT', 'SUCCESS']);
    checkDelivery('settlement', reference, beforeSuccess);
  });

  it('checkoutUpdated: PENDING -> SUCCESS when paid on the payment page, by UUID and by chk_ reference', async () => {
    const client = await connect();
    const { chk, uuid, page } = await initializeCheckout(stack);
    expect(chk).toMatch(/^chk_/);
    const since = getsOf(stack.sandbox, 'checkout', uuid);
    const byUuid = subscribe(client, CheckoutUpdated, { reference: uuid });
    const byChk = subscribe(client, CheckoutUpdated, { reference: chk });
    // Both subscriptions listen on the UUID (the form events carry).
    await untilWatching(probe, stack.sandbox, 'checkout', chk, { since, busKey: uuid, subscribers: 2 });
    await waitFor(() => getsOf(stack.sandbox, 'checkout', uuid) >= since + 1, 'the baselines');
    for (const sub of [byUuid, byChk]) {
      expect((await sub.next(3_000, 'the current state')).checkoutUpdated).toMatchObject({ reference: uuid, status: 'PENDING' });
    }

    // The customer picks an operator, enters the number, then the OTP, as the page's forms post them.
    const pay = await postForm(`${page}/pay`, { provider: 'opa_bf', phone: '76000000' });
    expect(pay.status).toBe(303);
    // A charge was attached; the checkout is still pending: nothing is delivered for that (had anything been,
    // it would come before the SUCCESS below, and each stream holds exactly that one result).
    expect(byUuid.pending + byChk.pending).toBe(0);
    const before = getsOf(stack.sandbox, 'checkout', uuid);
    const otp = await postForm(`${page}/otp`, { otp: '123456' });
    expect(otp.status).toBe(303);
    expect(otp.location).toContain(`reference=${uuid}`);
    await pollAfterChange();

    for (const sub of [byUuid, byChk]) {
      const update = await sub.next(3_000, 'checkout SUCCESS');
      expect(update.checkoutUpdated).toMatchObject({ __typename: 'Checkout', reference: uuid, status: 'SUCCESS', amount: 3000 });
      expect(update.checkoutUpdated.chargeReference).toMatch(/^ch_/);
      expect(await withTimeout(sub.ended, 2_000, 'the stream to complete')).toEqual({ kind: 'complete' });
      expect(sub.results).toHaveLength(2);
    }
    checkDelivery('checkout', uuid, before);
  });
});

describe('paymentEvents (webhooks)', () => {
  let stack: TestStack;
  let clock: ManualClock;
  let probe: BusProbe;

  beforeAll(async () => {
    clock = manualClock();
    stack = await startStack({ sandbox: { clock, delays: DELAYS }, env: { SUBSCRIPTION_POLL_MS: '0' }, sandboxWebhooks: true });
    probe = probeBus(stack.gateway.bus);
  });
  afterAll(async () => {
    await disposeAllClients();
    await stack?.close();
  });

  it('delivers typed events with the resource resolved, and `kinds` filters them', async () => {
    const ws = staffClient(stack);
    await ws.connected;
    const all = subscribe(ws, PaymentEvents, {});
    const charges = subscribe(ws, PaymentEvents, { kinds: ['charge.success', 'charge.failed'] });
    await waitFor(() => probe.paymentEventsAttached() >= 2, 'two paymentEvents subscriptions');

    // First a transfer event (not in `kinds`), then a charge event: the order is fixed because
    // advance() waits for the transfer's webhook to be answered before the charge is created.
    const transfer = await createTransfer(stack);
    await clock.advance(DELAYS.transferMs);
    const charge = await createOtpCharge(stack);
    const paidFrom = Date.now();
    await submitOtp(stack, charge);
    await stack.sandbox.webhooks.idle();
    const answeredBy = Date.now();

    const first = (await all.next(3_000, 'transfer.success')).paymentEvents;
    expect(first).toMatchObject({
      kind: 'transfer.success',
      reference: transfer,
      transfer: { reference: transfer, status: 'SUCCESS' },
      charge: null,
      checkout: null,
      settlement: null,
    });
    const second = (await all.next(3_000, 'charge.success')).paymentEvents;
    expect(second).toMatchObject({
      kind: 'charge.success',
      reference: charge,
      charge: { reference: charge, status: 'SUCCESS' },
      transfer: null,
    });

    const only = (await charges.next(3_000, 'charge.success (filtered)')).paymentEvents;
    expect(only).toEqual(second);
    expect(only.id).toEqual(expect.any(String));
    expect(only.id.length).toBeGreaterThan(0);
    expect(only.id).not.toBe(first.id);
    expect(only.receivedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    // Stamped by the gateway when the webhook arrived: after the charge was paid, before the sandbox saw it answered.
    expect(Date.parse(only.receivedAt)).toBeGreaterThanOrEqual(paidFrom);
    expect(Date.parse(only.receivedAt)).toBeLessThanOrEqual(answeredBy);
    expect(only.payload).toMatchObject({ event: 'charge.success', data: { reference: charge, status: 'success' } });

    // A last charge event, as a barrier: had anything else been delivered (the transfer event to the
    // filtered subscriber, a second copy of one), it would come before this one.
    const marker = JSON.stringify({ event: 'charge.failed', data: { reference: 'ch_marker' } });
    expect((await postWebhook(stack.gateway.webhookUrl!, stack.webhookSecret, marker)).status).toBe(200);
    expect((await all.next(3_000, 'the marker')).paymentEvents.payload).toEqual(JSON.parse(marker));
    expect((await charges.next(3_000, 'the marker (filtered)')).paymentEvents.payload).toEqual(JSON.parse(marker));
    expect(charges.pending).toBe(0); // the transfer event never reached the filtered subscriber
    expect(all.pending).toBe(0);
    expect(charges.results).toHaveLength(2);
    expect(all.results).toHaveLength(3);
    expect(all.isEnded || charges.isEnded).toBe(false);
    all.unsubscribe();
    charges.unsubscribe();
    await waitFor(() => probe.paymentEventsOpen() === 0, 'the bus iterators to close');
  });
});
