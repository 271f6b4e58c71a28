// MAX_SUBSCRIPTIONS_PER_SUBJECT and MAX_SUBSCRIPTIONS, with real graphql-ws clients over real sockets and SSE:
// a subject's subscriptions are counted over all its connections, tokens and both transports; the replica's over
// every caller; a refusal is the typed TOO_MANY_SUBSCRIPTIONS; slots come back when sockets close.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { encodeEventId } from '../../src/events/stream-id.js';
import { ChargeUpdated, PaymentEvents } from '../live/documents.js';
import { ResumableEvents } from '../live/event-documents.js';
import {
  disposeAllClients,
  probeBus,
  subscribe,
  waitFor,
  withTimeout,
  wsClient,
  type BusProbe,
  type LiveSubscription,
  type TestClient,
} from '../live/helpers.js';
import { bearer, codesOf, openSse } from '../schema/auth-support.js';

const PER_SUBJECT = 4;
const TOTAL = 7;

let stack: TestStack;
let probe: BusProbe;

beforeAll(async () => {
  stack = await startStack({
    env: { SUBSCRIPTION_POLL_MS: '0', MAX_SUBSCRIPTIONS_PER_SUBJECT: String(PER_SUBJECT), MAX_SUBSCRIPTIONS: String(TOTAL) },
  });
  probe = probeBus(stack.gateway.bus);
});
afterEach(async () => {
  await disposeAllClients();
  await waitFor(() => probe.paymentEventsOpen() === 0, 'every subscription to end');
});
afterAll(async () => {
  await disposeAllClients();
  await stack?.close();
});

const connect = async (subject: string): Promise<TestClient> => {
  const token = await stack.mintToken(['events:read', 'payments:read'], subject);
  const ws = wsClient(stack.gateway.graphqlUrl, { connectionParams: { authorization: `Bearer ${token}` } });
  await withTimeout(ws.connected, 5_000, `${subject} to connect`);
  return ws;
};

/** Opens `n` paymentEvents subscriptions on `ws` and waits until they are all attached to the bus. */
async function fill(ws: TestClient, n: number) {
  const before = probe.paymentEventsOpen();
  const subs = Array.from({ length: n }, () => subscribe(ws, PaymentEvents, {}));
  await waitFor(() => probe.paymentEventsOpen() === before + n, `${n} subscriptions to attach`);
  return subs;
}

type Errors = Array<{ message: string; extensions?: Record<string, unknown> }>;

/** The errors a refused subscription gets: one result with them, then the end (nothing ever streams). */
async function refusal(ws: TestClient): Promise<Errors> {
  const sub = subscribe(ws, PaymentEvents, {});
  const end = await withTimeout(sub.ended, 5_000, 'the refusal');
  if (end.kind === 'error') return end.error as Errors;
  expect(sub.results).toHaveLength(1);
  return (sub.results[0]?.errors ?? []) as Errors;
}

describe('subscription caps', () => {
  it('per subject: counted over every connection and token of the subject, then refused with TOO_MANY_SUBSCRIPTIONS', async () => {
    await fill(await connect('screen-a'), 2);
    await fill(await connect('screen-a'), 2); // another socket, another token, the same subject
    const third = await connect('screen-a');
    const errors = await refusal(third);
    expect(codesOf(errors)).toEqual(['TOO_MANY_SUBSCRIPTIONS']);
    expect(errors[0]?.message).toContain(`At most ${PER_SUBJECT} subscriptions may run at once for one token subject`);
    expect(errors[0]?.extensions?.messageFr).toBeTruthy();
    // Another subject is not affected.
    await fill(await connect('screen-b'), 1);
  });

  it('per subject across transports: a subject full over WebSocket is refused over SSE (429)', async () => {
    await fill(await connect('screen-sse'), PER_SUBJECT);
    const token = await stack.mintToken(['events:read'], 'screen-sse');
    const stream = await openSse(stack.gateway.graphqlUrl, 'subscription { paymentEvents { id } }', {}, bearer(token));
    expect(stream.status).toBe(429);
    expect(codesOf((await stream.next())?.errors)).toEqual(['TOO_MANY_SUBSCRIPTIONS']);
    stream.close();
  });

  it('for the whole replica: MAX_SUBSCRIPTIONS over all subjects, then "gateway" refusals', async () => {
    await fill(await connect('one'), PER_SUBJECT);
    await fill(await connect('two'), TOTAL - PER_SUBJECT);
    const errors = await refusal(await connect('three'));
    expect(codesOf(errors)).toEqual(['TOO_MANY_SUBSCRIPTIONS']);
    expect(errors[0]?.message).toContain(`The gateway holds its most subscriptions (${TOTAL})`);
  });

  it('gives the slots back when the sockets close, and when a subscription completes', async () => {
    const first = await connect('returning');
    const subs = await fill(first, PER_SUBJECT);
    expect(codesOf(await refusal(await connect('returning')))).toEqual(['TOO_MANY_SUBSCRIPTIONS']);
    // One completed by the client: one slot.
    subs[0]!.unsubscribe();
    await waitFor(() => probe.paymentEventsOpen() === PER_SUBJECT - 1, 'the unsubscribed stream to end');
    const again = await connect('returning');
    await fill(again, 1);
    // Every socket closed: the whole allowance.
    await first.dispose();
    await again.dispose();
    await waitFor(() => probe.paymentEventsOpen() === 0, 'the closed sockets’ streams to end');
    await fill(await connect('returning'), PER_SUBJECT);
  });
});

// A refused subscription gives its slot back (issue 26, point 5): one admitted by the caps (yoga's onSubscribe)
// and then refused by its field (an `after` from a lost log: EVENT_CURSOR_EXPIRED; a token without the field's
// scope: FORBIDDEN; a resource that does not exist: NOT_FOUND, whose stream fails on its first pull) holds no slot, over WebSocket and over SSE alike. After more refusals than the caps allow,
// the whole allowance is still there.
describe('refused subscriptions give their slots back', () => {
  /** An `after` the log cannot resume from: an id of another (lost) generation of the log. */
  const expiredAfter = encodeEventId('1-0', 'lost');
  const REFUSALS = TOTAL + 1; // more than either cap

  const wsRefusal = async (ws: TestClient, expired: boolean): Promise<unknown[]> =>
    wsCodes(subscribe(ws, ResumableEvents, expired ? { after: expiredAfter } : {}));
  const wsCodes = async (sub: LiveSubscription<unknown>): Promise<unknown[]> => {
    const end = await withTimeout(sub.ended, 5_000, 'the refusal');
    return codesOf((end.kind === 'error' ? end.error : sub.results[0]?.errors) as Errors);
  };
  const sseRefusal = async (token: string, expired: boolean): Promise<unknown[]> => {
    const query = 'subscription ($after: ID) { paymentEvents(after: $after) { id } }';
    const stream = await openSse(stack.gateway.graphqlUrl, query, expired ? { after: expiredAfter } : {}, bearer(token));
    try {
      return codesOf((await stream.next())?.errors);
    } finally {
      stream.close();
    }
  };
  /** A token of `subject` without events:read: paymentEvents is FORBIDDEN to it. */
  const forbiddenToken = (subject: string) => stack.mintToken(['payments:read'], subject);
  const forbiddenWs = async (subject: string) => {
    const ws = wsClient(stack.gateway.graphqlUrl, { connectionParams: { authorization: `Bearer ${await forbiddenToken(subject)}` } });
    await withTimeout(ws.connected, 5_000, `${subject} to connect`);
    return ws;
  };

  it(`over WebSocket: ${REFUSALS} expired \`after\`s, forbidden fields and unknown references from one subject, then its whole allowance is accepted`, async () => {
    const ws = await connect('refused-ws');
    const forbidden = await forbiddenWs('refused-ws');
    for (let i = 0; i < REFUSALS; i++) {
      expect(await wsRefusal(ws, true)).toEqual(['EVENT_CURSOR_EXPIRED']);
      expect(await wsRefusal(forbidden, false)).toEqual(['FORBIDDEN']);
      expect(await wsCodes(subscribe(ws, ChargeUpdated, { reference: 'ch_does_not_exist' }))).toEqual(['NOT_FOUND']);
    }
    await fill(ws, PER_SUBJECT);
  });

  it(`over SSE: ${REFUSALS} of each from one subject, then a valid stream over SSE and the rest of its allowance`, async () => {
    const token = await stack.mintToken(['events:read'], 'refused-sse');
    const forbidden = await forbiddenToken('refused-sse');
    for (let i = 0; i < REFUSALS; i++) {
      expect(await sseRefusal(token, true)).toEqual(['EVENT_CURSOR_EXPIRED']);
      expect(await sseRefusal(forbidden, false)).toEqual(['FORBIDDEN']);
    }
    const before = probe.paymentEventsOpen();
    const stream = await openSse(stack.gateway.graphqlUrl, 'subscription { paymentEvents { id } }', {}, bearer(token));
    try {
      expect(stream.status).toBe(200);
      expect(stream.contentType).toContain('text/event-stream');
      await waitFor(() => probe.paymentEventsOpen() === before + 1, 'the SSE subscription to attach');
      await fill(await connect('refused-sse'), PER_SUBJECT - 1);
    } finally {
      stream.close();
    }
  });

  it(`for the whole replica: ${REFUSALS} refusals from as many subjects, both transports, then MAX_SUBSCRIPTIONS (${TOTAL}) valid ones are accepted`, async () => {
    for (let i = 0; i < REFUSALS; i++) {
      const subject = `refused-${i}`;
      if (i % 2 === 0) expect(await wsRefusal(await connect(subject), true)).toEqual(['EVENT_CURSOR_EXPIRED']);
      else expect(await sseRefusal(await forbiddenToken(subject), false)).toEqual(['FORBIDDEN']);
    }
    await fill(await connect('whole-a'), PER_SUBJECT);
    await fill(await connect('whole-b'), TOTAL - PER_SUBJECT);
  });
});
