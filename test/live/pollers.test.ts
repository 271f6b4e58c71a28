// Pollers (no webhooks): one per followed resource, shared, stopped when the
// last subscriber leaves or at a final state; and the WebSocket limits: the
// per-connection subscription cap, the frame size limit, connection params.
// The gateway's pollers and the sandbox run on one manual clock: time moves only
// when the test moves it, one polling interval at a time, and each move waits
// for the polls it made due, so GETs per interval are counted exactly.
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, type ManualClock } from '../../src/sandbox/index.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { ChargeUpdated, PaymentEvents, createOtpCharge, createPayOfflineCharge, submitOtp } from './documents.js';
import {
  disposeAllClients,
  getsOf,
  probeBus,
  roundTrip,
  subscribe,
  untilWatching,
  waitFor,
  withTimeout,
  staffClient,
  type BusProbe,
} from './helpers.js';

const POLL_MS = 25;
const MAX_SUBSCRIPTIONS = 5;

let stack: TestStack;
let clock: ManualClock;
let probe: BusProbe;

beforeAll(async () => {
  clock = manualClock();
  stack = await startStack({
    sandbox: { clock, delays: { payOfflineMs: 1_000 } },
    clock,
    // A constant interval (max = initial), so GETs per interval can be counted.
    env: {
      SUBSCRIPTION_POLL_MS: String(POLL_MS),
      SUBSCRIPTION_POLL_MAX_MS: String(POLL_MS),
      WS_MAX_SUBSCRIPTIONS: String(MAX_SUBSCRIPTIONS),
    },
  });
  probe = probeBus(stack.gateway.bus);
});
afterEach(async () => {
  await disposeAllClients();
});
afterAll(async () => {
  await disposeAllClients();
  await stack?.close();
});

/** Moves the clock `n` polling intervals, one at a time; each step returns once its polls are answered. */
async function intervals(n: number) {
  for (let i = 0; i < n; i++) await clock.advance(POLL_MS);
}

/**
 * The poller arms its first interval once the initial fetch is answered, which the sandbox counts a moment before:
 * move time one interval at a time until it has polled once; from then on each interval makes exactly one poll.
 */
async function untilPolled(reference: string) {
  const before = getsOf(stack.sandbox, 'charge', reference);
  await waitFor(async () => {
    await intervals(1);
    return getsOf(stack.sandbox, 'charge', reference) > before;
  }, 'the poller to poll once');
}

describe('pollers', () => {
  it('unsubscribing stops the poller: no more GETs reach the service', async () => {
    const ws = staffClient(stack);
    const reference = await createOtpCharge(stack);
    const since = getsOf(stack.sandbox, 'charge', reference);
    const sub = subscribe(ws, ChargeUpdated, { reference });
    await untilWatching(probe, stack.sandbox, 'charge', reference, { since });
    await untilPolled(reference);
    const polled = getsOf(stack.sandbox, 'charge', reference);
    await intervals(2);
    expect(getsOf(stack.sandbox, 'charge', reference)).toBe(polled + 2);

    sub.unsubscribe();
    await waitFor(() => probe.resourceOpen('charge', reference) === 0, 'the bus subscription to end');
    const atStop = getsOf(stack.sandbox, 'charge', reference);
    await intervals(4);
    expect(getsOf(stack.sandbox, 'charge', reference) - atStop).toBe(0);
    // Only the state it had when it subscribed: nothing changed.
    expect(sub.results.map((r) => r.data?.chargeUpdated.status)).toEqual(['SEND_OTP']);
  });

  it('several subscribers of one reference share one poller (one GET per interval, however many subscribers)', async () => {
    const clients = [staffClient(stack), staffClient(stack)];
    const reference = await createOtpCharge(stack);
    const since = getsOf(stack.sandbox, 'charge', reference);
    const subs = Array.from({ length: 8 }, (_, i) => subscribe(clients[i % 2]!, ChargeUpdated, { reference }));
    await untilWatching(probe, stack.sandbox, 'charge', reference, { since, subscribers: 8 });
    for (const sub of subs) expect((await sub.next(2_000, 'the current state')).chargeUpdated.status).toBe('SEND_OTP');
    // Baselines: one per subscriber at most (concurrent ones share a GET); no poll yet, the clock has not moved.
    const baselines = getsOf(stack.sandbox, 'charge', reference) - since;
    expect(baselines).toBeGreaterThanOrEqual(1);
    expect(baselines).toBeLessThanOrEqual(8);

    await untilPolled(reference);
    const start = getsOf(stack.sandbox, 'charge', reference);
    await intervals(8);
    // One poller: one GET per interval; 8 pollers would make 64.
    expect(getsOf(stack.sandbox, 'charge', reference) - start).toBe(8);

    // One change, found by the next poll and seen by every subscriber once.
    await submitOtp(stack, reference);
    await intervals(1);
    for (const sub of subs) expect((await sub.next(2_000, 'SUCCESS')).chargeUpdated.status).toBe('SUCCESS');
    await Promise.all(subs.map((s) => withTimeout(s.ended, 2_000, 'completion')));
    // The poller saw the final state and stopped.
    const atFinal = getsOf(stack.sandbox, 'charge', reference);
    await intervals(3);
    expect(getsOf(stack.sandbox, 'charge', reference)).toBe(atFinal);
  });

  it('a poller stops by itself at a final state, even before its subscribers have left', async () => {
    const reference = await createPayOfflineCharge(stack);
    // A watch taken directly and not drained: its subscriber has not left when the final state comes.
    const watch = stack.gateway.live.watch('charge', reference);
    expect((await withTimeout(watch.next(), 2_000, 'the current state')).value).toMatchObject({ reference, status: 'pay_offline' });
    const next = watch.next();
    const baseline = getsOf(stack.sandbox, 'charge', reference);
    await intervals(1);
    expect(getsOf(stack.sandbox, 'charge', reference)).toBe(baseline + 1);

    // The customer confirms on the phone 1 s after the creation: success, found by the first poll after it.
    await intervals(1_000 / POLL_MS);
    const { value, done } = await withTimeout(next, 2_000, 'the SUCCESS change');
    expect(done).toBe(false);
    expect(value).toMatchObject({ reference, status: 'success' });
    const atFinal = getsOf(stack.sandbox, 'charge', reference);
    await intervals(4);
    expect(getsOf(stack.sandbox, 'charge', reference)).toBe(atFinal);
    // The stream ends after the final state.
    expect(await watch.next()).toEqual({ done: true, value: undefined });
  });
});

describe('WebSocket connections', () => {
  const tooMany = (end: { kind: string; error?: unknown }) =>
    end.kind === 'error' &&
    Array.isArray(end.error) &&
    (end.error as Array<{ extensions?: { code?: string } }>)[0]?.extensions?.code === 'TOO_MANY_SUBSCRIPTIONS';

  it(`a connection holds at most WS_MAX_SUBSCRIPTIONS (${MAX_SUBSCRIPTIONS}) subscriptions; the extra ones get an error`, async () => {
    const ws = staffClient(stack);
    await ws.connected;
    const attachedBefore = probe.paymentEventsAttached();
    // All sent at once: the server handles them concurrently.
    const subs = Array.from({ length: MAX_SUBSCRIPTIONS + 2 }, () => subscribe(ws, PaymentEvents, {}));
    await waitFor(() => subs.filter((s) => s.isEnded).length >= 2, 'the two extra subscriptions to be refused', 2_000);
    await waitFor(() => probe.paymentEventsAttached() - attachedBefore >= MAX_SUBSCRIPTIONS, 'the accepted ones to be live');
    await roundTrip(ws);
    const refused = subs.filter((s) => s.isEnded);
    expect(refused).toHaveLength(2);
    for (const s of refused) expect(tooMany(await s.ended)).toBe(true);
    expect(probe.paymentEventsOpen()).toBe(MAX_SUBSCRIPTIONS);

    // Being refused does not free a slot.
    const again = subscribe(ws, PaymentEvents, {});
    expect(tooMany(await withTimeout(again.ended, 2_000, 'refusal'))).toBe(true);

    // Leaving does.
    const live = subs.filter((s) => !s.isEnded);
    live[0]!.unsubscribe();
    await waitFor(() => probe.paymentEventsOpen() === MAX_SUBSCRIPTIONS - 1, 'one slot to free up');
    const attached = probe.paymentEventsAttached();
    const replacement = subscribe(ws, PaymentEvents, {});
    await waitFor(() => probe.paymentEventsAttached() === attached + 1, 'the replacement to be live');
    await roundTrip(ws);
    expect(replacement.isEnded).toBe(false);

    // The cap is per connection: another connection has its own.
    const other = staffClient(stack);
    const otherSub = subscribe(other, PaymentEvents, {});
    await waitFor(() => probe.paymentEventsAttached() === attached + 2, "the other connection's subscription");
    expect(otherSub.isEnded).toBe(false);
    expect(ws.closes).toEqual([]);
  });

  it('refusals do not free slots: subscribing one at a time past the cap keeps being refused', async () => {
    const ws = staffClient(stack);
    await ws.connected;
    const open = probe.paymentEventsOpen();
    for (let i = 1; i <= MAX_SUBSCRIPTIONS; i++) {
      subscribe(ws, PaymentEvents, {});
      await waitFor(() => probe.paymentEventsOpen() === open + i, `subscription ${i} to be live`);
    }
    for (let i = 0; i < 3; i++) {
      const extra = subscribe(ws, PaymentEvents, { kinds: ['charge.success'] });
      expect(tooMany(await withTimeout(extra.ended, 2_000, `refusal ${i + 1}`))).toBe(true);
    }
    await roundTrip(ws);
    expect(probe.paymentEventsOpen()).toBe(open + MAX_SUBSCRIPTIONS);
  });

  it('a query that does not parse is refused alone: the connection and its other subscriptions live on', async () => {
    const ws = staffClient(stack);
    await ws.connected;
    const open = probe.paymentEventsOpen();
    const good = subscribe(ws, PaymentEvents, {});
    await waitFor(() => probe.paymentEventsOpen() === open + 1, 'the good subscription to be live');
    const broken = await new Promise<unknown>((resolve) => {
      ws.client.subscribe({ query: 'subscription {' }, { next: resolve, error: resolve, complete: () => resolve('complete') });
    });
    expect(broken).toEqual([expect.objectContaining({ message: expect.stringMatching(/^Syntax Error/) })]);
    await roundTrip(ws);
    expect(ws.closes).toEqual([]);
    expect(good.isEnded).toBe(false);
    expect(probe.paymentEventsOpen()).toBe(open + 1);
    // Its slot was not kept: the cap still counts only live operations.
    const more = Array.from({ length: MAX_SUBSCRIPTIONS - 1 }, () => subscribe(ws, PaymentEvents, {}));
    await waitFor(() => probe.paymentEventsOpen() === open + MAX_SUBSCRIPTIONS, 'the connection to fill up to the cap');
    expect(more.some((s) => s.isEnded)).toBe(false);
  });

  it('a frame larger than the limit (64 KiB) closes the socket with 1009; a frame just under it is served', async () => {
    const ws = staffClient(stack);
    await ws.connected;
    const padded = (bytes: number) => ({ query: `# ${'x'.repeat(bytes)}\n{ __typename }` });

    // Just under the limit: an ordinary query padded with a comment.
    const ok = await new Promise<unknown>((resolve, reject) => {
      ws.client.subscribe(padded(60 * 1024), { next: resolve, error: reject, complete: () => {} });
    });
    expect(ok).toEqual({ data: { __typename: 'Query' } });

    const big = new Promise<unknown>((resolve) => {
      ws.client.subscribe(padded(65 * 1024), {
        next: () => resolve('unexpected result'),
        error: resolve,
        complete: () => resolve('unexpected completion'),
      });
    });
    const error = (await withTimeout(big, 2_000, 'the socket to close')) as { code?: number };
    expect(error.code).toBe(1009);
    expect(ws.closes.map((c) => c.code)).toEqual([1009]);
  });
});

describe('connection params', () => {
  /** A bare graphql-transport-ws connection; resolves with the close code, or 'ack'. */
  const init = (payload: unknown, omit = false) =>
    new Promise<number | 'ack'>((resolve, reject) => {
      const socket = new WebSocket(stack.gateway.graphqlUrl.replace(/^http/, 'ws'), 'graphql-transport-ws');
      socket.on('error', reject);
      socket.on('open', () => socket.send(JSON.stringify(omit ? { type: 'connection_init' } : { type: 'connection_init', payload })));
      socket.on('message', (data) => {
        if ((JSON.parse(String(data)) as { type: string }).type === 'connection_ack') {
          socket.close(1000);
          resolve('ack');
        }
      });
      socket.on('close', (code) => resolve(code));
    });

  it('refuses connection params that are not an object', async () => {
    expect(await init('sk_test_token')).toBe(4400);
    expect(await init(42)).toBe(4400);
    expect(await init(['a', 'b'])).toBe(4400);
    expect(await init(true)).toBe(4400);
  });

  it('accepts an object carrying a valid token; refuses (4403) a bad token, null, or none', async () => {
    expect(await init({ authorization: `Bearer ${stack.staffToken}` })).toBe('ack');
    expect(await init({ authorization: 'Bearer x' })).toBe(4403);
    expect(await init(null)).toBe(4403);
    expect(await init(undefined, true)).toBe(4403);
  });
});
