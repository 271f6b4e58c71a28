// Pollers (no webhooks): one per followed resource, shared, stopped when the
// last subscriber leaves or at a final state; and the WebSocket limits: the
// per-connection subscription cap, the frame size limit, connection params.
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, type ManualClock } from '../../src/sandbox/index.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { ChargeUpdated, PaymentEvents, createOtpCharge, createPayOfflineCharge, submitOtp } from './documents.js';
import {
  delay,
  disposeAllClients,
  getsOf,
  probeBus,
  probeUpstream,
  subscribe,
  untilWatching,
  waitFor,
  withTimeout,
  wsClient,
  type BusProbe,
  type UpstreamProbe,
} from './helpers.js';

const POLL_MS = 50;
const MAX_SUBSCRIPTIONS = 5;

let stack: TestStack;
let clock: ManualClock;
let probe: BusProbe;
let upstream: UpstreamProbe;

beforeAll(async () => {
  clock = manualClock();
  stack = await startStack({
    sandbox: { clock, delays: { payOfflineMs: 1_000 } },
    // A constant interval (max = initial), so GETs per interval can be counted.
    env: { SUBSCRIPTION_POLL_MS: String(POLL_MS), SUBSCRIPTION_POLL_MAX_MS: String(POLL_MS), WS_MAX_SUBSCRIPTIONS: String(MAX_SUBSCRIPTIONS) },
  });
  probe = probeBus(stack.gateway.bus);
  upstream = probeUpstream(stack.gateway.upstream);
});
afterEach(async () => {
  await disposeAllClients();
  await waitFor(() => stack.gateway.live.activePollers === 0, 'pollers to stop after the test', 2_000);
});
afterAll(async () => {
  await disposeAllClients();
  await stack?.close();
});

describe('pollers', () => {
  it('unsubscribing stops the poller: activePollers drops to 0 and no more GETs reach the service', async () => {
    const ws = wsClient(stack.gateway.graphqlUrl);
    const reference = await createOtpCharge(stack);
    const since = getsOf(stack.sandbox, 'charge', reference);
    const sub = subscribe(ws, ChargeUpdated, { reference });
    await untilWatching(probe, stack.sandbox, 'charge', reference, { since });
    await waitFor(() => stack.gateway.live.activePollers === 1, 'the poller to start');
    const polled = getsOf(stack.sandbox, 'charge', reference);
    await waitFor(() => getsOf(stack.sandbox, 'charge', reference) >= polled + 2, 'two polls');

    sub.unsubscribe();
    await waitFor(() => stack.gateway.live.activePollers === 0, 'the poller to stop');
    await waitFor(() => probe.resourceOpen('charge', reference) === 0, 'the bus subscription to end');
    // A poll already on the wire when the client left may still land; none may start after.
    await waitFor(() => upstream.inFlight === 0, 'the last poll to settle');
    const atStop = getsOf(stack.sandbox, 'charge', reference);
    await delay(POLL_MS * 4);
    expect(getsOf(stack.sandbox, 'charge', reference) - atStop).toBe(0);
    expect(sub.results).toEqual([]);
  });

  it('several subscribers of one reference share one poller (GETs per interval do not grow with subscribers)', async () => {
    const clients = [wsClient(stack.gateway.graphqlUrl), wsClient(stack.gateway.graphqlUrl)];
    const reference = await createOtpCharge(stack);
    const since = getsOf(stack.sandbox, 'charge', reference);
    const subs = Array.from({ length: 8 }, (_, i) => subscribe(clients[i % 2]!, ChargeUpdated, { reference }));
    await untilWatching(probe, stack.sandbox, 'charge', reference, { since, subscribers: 8 });
    await waitFor(() => stack.gateway.live.activePollers === 1, 'one poller');
    const baselines = getsOf(stack.sandbox, 'charge', reference) - since;

    const windowMs = POLL_MS * 8;
    const start = getsOf(stack.sandbox, 'charge', reference);
    await delay(windowMs);
    const polls = getsOf(stack.sandbox, 'charge', reference) - start;
    // One poller: at most one GET per interval (8 in the window); 8 pollers would make ~64.
    expect(polls).toBeGreaterThanOrEqual(3);
    expect(polls).toBeLessThanOrEqual(windowMs / POLL_MS + 1);
    expect(stack.gateway.live.activePollers).toBe(1);
    expect(baselines).toBeGreaterThanOrEqual(1);
    expect(baselines).toBeLessThanOrEqual(8);

    // One change, seen by every subscriber once.
    await submitOtp(stack, reference);
    for (const sub of subs) expect((await sub.next(2_000, 'SUCCESS')).chargeUpdated.status).toBe('SUCCESS');
    await Promise.all(subs.map((s) => withTimeout(s.ended, 2_000, 'completion')));
    await waitFor(() => stack.gateway.live.activePollers === 0, 'the poller to stop');
  });

  it('a poller stops by itself at a final state, even before its subscribers have left', async () => {
    const reference = await createPayOfflineCharge(stack);
    // A watch taken directly and not drained: its subscriber has not left when the final state comes.
    const watch = stack.gateway.live.watch('charge', reference);
    const first = watch.next();
    await waitFor(() => stack.gateway.live.activePollers === 1, 'the poller to start');

    await clock.advance(1_000); // the customer confirms on the phone: success
    const { value, done } = await withTimeout(first, 2_000, 'the SUCCESS change');
    expect(done).toBe(false);
    expect(value).toMatchObject({ reference, status: 'success' });
    expect(stack.gateway.live.activePollers).toBe(0);
    const atFinal = getsOf(stack.sandbox, 'charge', reference);
    await delay(POLL_MS * 4);
    expect(getsOf(stack.sandbox, 'charge', reference)).toBe(atFinal);
    // The stream ends after the final state.
    expect(await watch.next()).toEqual({ done: true, value: undefined });
  });
});

describe('WebSocket connections', () => {
  const tooMany = (end: { kind: string; error?: unknown }) =>
    end.kind === 'error' && Array.isArray(end.error) && (end.error as Array<{ extensions?: { code?: string } }>)[0]?.extensions?.code === 'TOO_MANY_SUBSCRIPTIONS';

  it(`a connection holds at most WS_MAX_SUBSCRIPTIONS (${MAX_SUBSCRIPTIONS}) subscriptions; the extra ones get an error`, async () => {
    const ws = wsClient(stack.gateway.graphqlUrl);
    await ws.connected;
    const attachedBefore = probe.paymentEventsAttached();
    // All sent at once: the server handles them concurrently.
    const subs = Array.from({ length: MAX_SUBSCRIPTIONS + 2 }, () => subscribe(ws, PaymentEvents, {}));
    await waitFor(() => subs.filter((s) => s.isEnded).length >= 2, 'the two extra subscriptions to be refused', 2_000);
    await waitFor(() => probe.paymentEventsAttached() - attachedBefore >= MAX_SUBSCRIPTIONS, 'the accepted ones to be live');
    await delay(30);
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
    await delay(30);
    expect(replacement.isEnded).toBe(false);

    // The cap is per connection: another connection has its own.
    const other = wsClient(stack.gateway.graphqlUrl);
    const otherSub = subscribe(other, PaymentEvents, {});
    await waitFor(() => probe.paymentEventsAttached() === attached + 2, 'the other connection\'s subscription');
    expect(otherSub.isEnded).toBe(false);
    expect(ws.closes).toEqual([]);
  });

  it('refusals do not free slots: subscribing one at a time past the cap keeps being refused', async () => {
    const ws = wsClient(stack.gateway.graphqlUrl);
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
    await delay(30);
    expect(probe.paymentEventsOpen()).toBe(open + MAX_SUBSCRIPTIONS);
  });

  it('a query that does not parse is refused alone: the connection and its other subscriptions live on', async () => {
    const ws = wsClient(stack.gateway.graphqlUrl);
    await ws.connected;
    const open = probe.paymentEventsOpen();
    const good = subscribe(ws, PaymentEvents, {});
    await waitFor(() => probe.paymentEventsOpen() === open + 1, 'the good subscription to be live');
    const broken = await new Promise<unknown>((resolve) => {
      ws.client.subscribe({ query: 'subscription {' }, { next: resolve, error: resolve, complete: () => resolve('complete') });
    });
    expect(broken).toEqual([expect.objectContaining({ message: expect.stringMatching(/^Syntax Error/) })]);
    await delay(30);
    expect(ws.closes).toEqual([]);
    expect(good.isEnded).toBe(false);
    expect(probe.paymentEventsOpen()).toBe(open + 1);
    // Its slot was not kept: the cap still counts only live operations.
    const more = Array.from({ length: MAX_SUBSCRIPTIONS - 1 }, () => subscribe(ws, PaymentEvents, {}));
    await waitFor(() => probe.paymentEventsOpen() === open + MAX_SUBSCRIPTIONS, 'the connection to fill up to the cap');
    expect(more.some((s) => s.isEnded)).toBe(false);
  });

  it('a frame larger than the limit (64 KiB) closes the socket with 1009; a frame just under it is served', async () => {
    const ws = wsClient(stack.gateway.graphqlUrl);
    await ws.connected;
    const padded = (bytes: number) => ({ query: `# ${'x'.repeat(bytes)}\n{ __typename }` });

    // Just under the limit: an ordinary query padded with a comment.
    const ok = await new Promise<unknown>((resolve, reject) => {
      ws.client.subscribe(padded(60 * 1024), { next: resolve, error: reject, complete: () => {} });
    });
    expect(ok).toEqual({ data: { __typename: 'Query' } });

    const big = new Promise<unknown>((resolve) => {
      ws.client.subscribe(padded(65 * 1024), { next: () => resolve('unexpected result'), error: resolve, complete: () => resolve('unexpected completion') });
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

  it('accepts an object, null, or none', async () => {
    expect(await init({ authorization: 'Bearer x' })).toBe('ack');
    expect(await init(null)).toBe('ack');
    expect(await init(undefined, true)).toBe('ack');
  });
});
