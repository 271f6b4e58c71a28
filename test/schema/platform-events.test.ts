// Events per merchant over real connections: 10,000 events mixed over two merchants (as their webhook routes log
// them, each with its merchant's id) reach subscribers over WebSocket and SSE, each subscriber getting exactly its
// own merchant's events, in log order: A's staff and an operator acting for B, on both transports.
import { randomUUID } from 'node:crypto';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mintStaffToken, SCOPES } from '../../src/auth/index.js';
import type { PaymentEventRecord } from '../../src/events/payment-event.js';
import { testKey, type TestStack } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';
import { uniqueNamespace } from '../events/redis-helpers.js';
import { closePlatformStack, logOnce, startPlatformStack } from '../helpers/platform.js';
import { disposeAllClients, subscribe, wsClient } from '../live/helpers.js';

const EVENTS = 10_000;
const namespace = uniqueNamespace('platform-events');
let stack: TestStack;

beforeAll(async () => {
  stack = await startPlatformStack(namespace, { env: { MAX_SUBSCRIPTIONS_PER_SUBJECT: '10' } });
}, 30_000);

afterAll(async () => {
  await disposeAllClients();
  await closePlatformStack(stack, namespace);
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- ad-hoc documents of this suite
type Doc = TypedDocumentNode<any, Record<string, unknown>>;
const EVENTS_DOC = 'subscription { paymentEvents { kind payload } }';

/** An SSE subscriber: the `n` and merchant label of every event it receives. */
function sseSubscriber(authorization: string, headers: Record<string, string> = {}) {
  const seen: Array<{ n: number; merchant: string }> = [];
  const controller = new AbortController();
  const done = (async () => {
    const res = await fetch(stack.gateway.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization, ...headers },
      body: JSON.stringify({ query: EVENTS_DOC }),
      signal: controller.signal,
    });
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(message)?.[1];
        if (!data) continue;
        const payload = (JSON.parse(data) as { data?: { paymentEvents?: { payload: { data: { n: number; merchant: string } } } } }).data
          ?.paymentEvents?.payload.data;
        if (payload) seen.push(payload);
      }
    }
  })().catch(() => undefined);
  return { seen, close: () => controller.abort(), done };
}

it('delivers 10,000 events mixed over two merchants to each subscriber of its own merchant only, over WebSocket and SSE', async () => {
  const operator = (await mintStaffToken({ secret: stack.jwtSecret, scopes: SCOPES, subject: 'operator', ttlSeconds: 600 })).token;
  const create = async (name: string) =>
    (
      await stack.gql(
        parse(
          `mutation($i: CreateMerchantInput!) { createMerchant(input: $i) { ... on CreateMerchantPayload { merchant { merchantId } } } }`,
        ) as Doc,
        { i: { name, apiKey: testKey(name), webhookSecret: `whsec_${name}_123456`, idempotencyKey: randomUUID() } },
        { authorization: `Bearer ${operator}` },
      )
    ).data!.createMerchant.merchant.merchantId as string;
  const [a, b] = [await create('eventsa'), await create('eventsb')];
  const staffA = (
    await mintStaffToken({ secret: stack.jwtSecret, scopes: ['events:read'], subject: 'staff', ttlSeconds: 600, merchantId: a })
  ).token;

  const wsA = subscribe(
    wsClient(stack.gateway.graphqlUrl, { connectionParams: { authorization: `Bearer ${staffA}` } }),
    parse(EVENTS_DOC) as Doc,
  );
  const wsB = subscribe(
    wsClient(stack.gateway.graphqlUrl, { connectionParams: { authorization: `Bearer ${operator}`, merchantId: b } }),
    parse(EVENTS_DOC) as Doc,
  );
  const sseA = sseSubscriber(`Bearer ${staffA}`);
  const sseB = sseSubscriber(`Bearer ${operator}`, { 'x-merchant-id': b });
  const wsSeen = (sub: typeof wsA) => () =>
    sub.results.map(
      (r) => (r.data as { paymentEvents: { payload: { data: { n: number; merchant: string } } } }).paymentEvents.payload.data,
    );

  const event = (merchantId: string | null, n: number): PaymentEventRecord => ({
    id: `${merchantId ?? 'none'}:evt_${n}`,
    kind: 'charge.success',
    receivedAt: new Date().toISOString(),
    reference: null,
    resourceType: null,
    payload: { event: 'charge.success', data: { n, merchant: merchantId === a ? 'A' : merchantId === b ? 'B' : 'none' } },
    ...(merchantId ? { merchantId } : {}),
  });
  // Until every subscriber is live: one event each, repeated until all four have theirs.
  await waitFor(
    async () => {
      // A warm-up event lost to a timeout is simply sent again on the next turn (n = -1 is not counted).
      await stack.gateway.bus.publishPaymentEvent(event(a, -1)).catch(() => undefined);
      await stack.gateway.bus.publishPaymentEvent(event(b, -1)).catch(() => undefined);
      return [wsSeen(wsA)(), wsSeen(wsB)(), sseA.seen, sseB.seen].every((seen) => seen.length > 0);
    },
    'every subscriber live',
    30_000,
    100,
  );
  const before = { wsA: wsSeen(wsA)().length, wsB: wsSeen(wsB)().length, sseA: sseA.seen.length, sseB: sseB.seen.length };

  // Mixed at random, with some events of no merchant (the operator's merchant.* kind of event).
  const owners = Array.from({ length: EVENTS }, (_, n) => (n % 97 === 0 ? null : Math.random() < 0.5 ? a : b));
  // Logged as the webhook routes log them (append-once, a sender's retries).
  for (let n = 0; n < EVENTS; n += 50) {
    await Promise.all(owners.slice(n, n + 50).map((owner, i) => logOnce(stack.gateway.bus, event(owner, n + i))));
  }
  const expected = (merchant: string) => owners.flatMap((owner, n) => (owner === merchant ? [n] : []));
  const [ofA, ofB] = [expected(a), expected(b)];
  await waitFor(
    () =>
      wsSeen(wsA)().length - before.wsA >= ofA.length &&
      wsSeen(wsB)().length - before.wsB >= ofB.length &&
      sseA.seen.length - before.sseA >= ofA.length &&
      sseB.seen.length - before.sseB >= ofB.length,
    'every subscriber to receive its events',
    60_000,
    50,
  );
  const received = (seen: Array<{ n: number; merchant: string }>, skip: number) => seen.slice(skip).filter((e) => e.n >= 0);
  for (const [seen, skip, label, mine] of [
    [wsSeen(wsA)(), before.wsA, 'A', ofA],
    [sseA.seen, before.sseA, 'A', ofA],
    [wsSeen(wsB)(), before.wsB, 'B', ofB],
    [sseB.seen, before.sseB, 'B', ofB],
  ] as const) {
    const events = received(seen, skip);
    expect(events.every((e) => e.merchant === label)).toBe(true);
    // Exactly its own, each once.
    expect(events.map((e) => e.n).sort((x, y) => x - y)).toEqual(mine);
  }
  sseA.close();
  sseB.close();
}, 120_000);
