// Fan-out on one gateway instance: 1,000 chargeUpdated subscribers of one
// charge over 20 WebSocket connections (50 each). One webhook (the OTP
// submitted through the gateway) reaches all of them, and costs the payment
// service exactly one GET of the charge. Polling is off, so only the webhook
// can deliver. How long it takes is a benchmark's question (bench/), not a test's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { ChargeUpdated, createOtpCharge, submitOtp } from './documents.js';
import {
  disposeAllClients,
  getsOf,
  probeBus,
  subscribe,
  waitFor,
  withTimeout,
  staffClient,
  type BusProbe,
  type LiveSubscription,
} from './helpers.js';

const CONNECTIONS = 20;
const PER_CONNECTION = 50;
const SUBSCRIBERS = CONNECTIONS * PER_CONNECTION;

let stack: TestStack;
let bus: BusProbe;

beforeAll(async () => {
  // 50 per connection is exactly the default cap; leave headroom so the test is about fan-out. Every connection
  // uses the one staff token: 1,000 subscriptions of one subject, twice MAX_SUBSCRIPTIONS_PER_SUBJECT's default.
  stack = await startStack({
    env: { SUBSCRIPTION_POLL_MS: '0', WS_MAX_SUBSCRIPTIONS: '64', MAX_SUBSCRIPTIONS_PER_SUBJECT: String(SUBSCRIBERS) },
    sandboxWebhooks: true,
  });
  bus = probeBus(stack.gateway.bus);
});
afterAll(async () => {
  await disposeAllClients();
  await stack?.close();
});

describe('fan-out', () => {
  it(`one webhook reaches ${SUBSCRIBERS} subscribers on one instance with one GET of the charge`, { timeout: 60_000 }, async () => {
    const reference = await createOtpCharge(stack);
    const getsAtStart = getsOf(stack.sandbox, 'charge', reference);

    // The service holds its answer to the baseline GET until every subscription has asked for the current
    // state: however the 1,000 arrive, they all find that one GET in flight and share it.
    let answerBaseline!: () => void;
    const baselineHeld = new Promise<void>((resolve) => (answerBaseline = resolve));
    const service = stack.gateway.upstream as { fetchCharge(ref: string): Promise<unknown> };
    const fetchCharge = service.fetchCharge;
    let asked = 0;
    let answered = 0;
    service.fetchCharge = async (ref) => {
      asked += 1;
      await baselineHeld;
      return fetchCharge.call(service, ref).finally(() => (answered += 1));
    };

    // Set-up: 20 connections, 50 subscriptions each, all sent at once.
    const clients = Array.from({ length: CONNECTIONS }, () => staffClient(stack));
    await Promise.all(clients.map((c) => c.connected));
    const subs: Array<LiveSubscription<{ chargeUpdated: { reference: string; status: string } }>> = [];
    for (const client of clients) for (let i = 0; i < PER_CONNECTION; i++) subs.push(subscribe(client, ChargeUpdated, { reference }));
    // A subscription attaches its listener, then asks for the current state, in one step: once every listener
    // is attached, every ask has been made.
    await waitFor(() => bus.resourceAttached('charge', reference) >= SUBSCRIBERS, `${SUBSCRIBERS} attached subscriptions`, 30_000);
    answerBaseline();
    await waitFor(() => answered === asked, 'the baseline GET to be answered');
    service.fetchCharge = fetchCharge;
    expect(subs.filter((s) => s.isEnded)).toHaveLength(0);
    // Coalesced: one baseline GET for the 1,000.
    expect(asked).toBe(1);
    expect(getsOf(stack.sandbox, 'charge', reference) - getsAtStart).toBe(1);
    // Each got the current state at once.
    const current = await withTimeout(Promise.all(subs.map((s) => s.next(30_000, 'the current state'))), 30_000, 'every current state');
    expect(current.every((c) => c.chargeUpdated.reference === reference && c.chargeUpdated.status === 'SEND_OTP')).toBe(true);

    // The change: one OTP, one webhook.
    const getsBefore = getsOf(stack.sandbox, 'charge', reference);
    await submitOtp(stack, reference);
    const updates = await withTimeout(
      Promise.all(subs.map((s) => s.next(30_000, 'SUCCESS'))),
      30_000,
      'every subscriber to receive SUCCESS',
    );
    const endings = await withTimeout(Promise.all(subs.map((s) => s.ended)), 10_000, 'every stream to complete');
    await stack.sandbox.webhooks.idle();

    expect(updates.every((u) => u.chargeUpdated.reference === reference && u.chargeUpdated.status === 'SUCCESS')).toBe(true);
    expect(endings.every((e) => e.kind === 'complete')).toBe(true);
    expect(subs.every((s) => s.results.length === 2)).toBe(true);
    const webhooks = stack.sandbox.webhooks.all().filter((w) => w.event === 'charge.success');
    expect(webhooks).toEqual([expect.objectContaining({ ok: true, httpStatus: 200, attempt: 1 })]);
    const getsAfterWebhook = getsOf(stack.sandbox, 'charge', reference) - getsBefore;
    expect(getsAfterWebhook).toBe(1);
    expect(updates).toHaveLength(SUBSCRIBERS);
    await Promise.all(clients.map((c) => c.dispose()));
    await waitFor(() => bus.resourceOpen('charge', reference) === 0, 'every bus subscription to end');
  });
});
