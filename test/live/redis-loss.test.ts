// Event ids carry the generation of the log they came from: a gateway on a Redis
// of the test's own that is restarted empty (the log and the de-duplication keys
// lost). A client resuming with an id (or an `events` cursor) from before the
// loss is told to reload (EVENT_CURSOR_EXPIRED) even once the new log holds later ids; a subscriber
// connected across the loss gets every new event once, and not a second copy of
// a delivery the sender re-sends because its de-duplication key was lost.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startStack, testKey, type TestStack } from '../helpers/gateway.js';
import { startRedisServer, type TestRedisServer } from '../helpers/redis-server.js';
import { EventHistory, ResumableEvents } from './event-documents.js';
import { disposeAllClients, postWebhook, probeBus, staffClient, subscribe, waitFor, withTimeout, type BusProbe } from './helpers.js';

const secret = `whsec_${randomBytes(12).toString('hex')}`;
let redis: TestRedisServer;
let stack: TestStack;
let probe: BusProbe;

beforeAll(async () => {
  redis = await startRedisServer({ persistence: 'none' });
  stack = await startStack({
    apiKey: testKey('loss'),
    webhookSecret: secret,
    env: { REDIS_URL: redis.url, SUBSCRIPTION_POLL_MS: '0', RATE_LIMIT_PER_MINUTE: '100000' },
  });
  probe = probeBus(stack.gateway.bus);
});
afterEach(async () => {
  await disposeAllClients();
});
afterAll(async () => {
  await disposeAllClients();
  await stack?.close();
  await redis?.stop();
});

/** Posts one delivery (`id` is its delivery id: a re-send carries the same); its HTTP status. */
async function post(kind: string, name: string, id = `${name}-${randomBytes(4).toString('hex')}`): Promise<number> {
  const body = JSON.stringify({ id, event: kind, data: { reference: `${kind}#${name}` } });
  return (await postWebhook(stack.gateway.webhookUrl!, secret, body)).status;
}

async function expiredCode(after: string): Promise<unknown> {
  const sub = subscribe(staffClient(stack), ResumableEvents, { after });
  const end = await withTimeout(sub.ended, 5_000, 'the refusal');
  const errors = (end.kind === 'error' ? end.error : sub.results[0]?.errors) as Array<{ extensions?: Record<string, unknown> }>;
  return errors[0]?.extensions?.code;
}

describe('a Redis restarted empty under the event log', () => {
  it('resuming with an id from before is EVENT_CURSOR_EXPIRED even after new events; a subscriber across the loss sees no duplicate', async () => {
    const kind = 'loss.events';
    const before = probe.paymentEventsAttached();
    const away = subscribe(staffClient(stack), ResumableEvents, { kinds: [kind] });
    const throughout = subscribe(staffClient(stack), ResumableEvents, { kinds: [kind] });
    await waitFor(() => probe.paymentEventsAttached() >= before + 2, 'both subscriptions attached');

    expect(await post(kind, 'a0')).toBe(200);
    const x = (await away.next(10_000, 'a0')).paymentEvents;
    away.unsubscribe(); // this client goes away, remembering x.id

    const b1 = `b1-${randomBytes(4).toString('hex')}`;
    expect(await post(kind, 'b1', b1)).toBe(200);
    for (const n of ['b2', 'b3', 'b4', 'b5']) expect(await post(kind, n)).toBe(200);
    const seen = [];
    for (let i = 0; i < 6; i++) seen.push((await throughout.next(10_000, `event ${i + 1} before the loss`)).paymentEvents.reference);
    expect(seen).toEqual(['a0', 'b1', 'b2', 'b3', 'b4', 'b5'].map((n) => `${kind}#${n}`));

    // A page of the history before the loss: its cursors belong to the old log too.
    const oldPage = await stack.gql(EventHistory, { first: 2, filter: { kinds: [kind] } });
    const oldCursor = oldPage.data!.events.pageInfo.endCursor!;

    await redis.restart();
    // The sender re-sends b1 (its answer was lost, say): its de-duplication key went with Redis, so it is logged again.
    await waitFor(async () => (await post(kind, 'b1', b1)) === 200, 'webhooks accepted again', 15_000);
    for (const n of ['c1', 'c2', 'c3']) expect(await post(kind, n)).toBe(200);

    const after = [];
    for (let i = 0; i < 3; i++) after.push((await throughout.next(10_000, `event ${i + 1} after the loss`)).paymentEvents.reference);
    expect(after).toEqual(['c1', 'c2', 'c3'].map((n) => `${kind}#${n}`));
    expect(throughout.pending).toBe(0);

    // The new log holds ids later than x (Redis's clock), yet x belongs to the lost one.
    expect(await expiredCode(x.id)).toBe('EVENT_CURSOR_EXPIRED');
    const stale = await stack.gql(EventHistory, { first: 2, after: oldCursor, filter: { kinds: [kind] } });
    expect(stale.errors?.[0]?.extensions).toMatchObject({ code: 'EVENT_CURSOR_EXPIRED' });
    // Reloading from `events` gives ids of the new log, which resume.
    const history = await stack.gql(EventHistory, { first: 10, filter: { kinds: [kind] } });
    const newest = history.data!.events.edges[0]!.node;
    expect(newest.reference).toBe(`${kind}#c3`);
    const resumed = subscribe(staffClient(stack), ResumableEvents, { kinds: [kind], after: history.data!.events.edges[1]!.node.id });
    expect((await resumed.next(10_000, 'the event after the reloaded id')).paymentEvents.reference).toBe(`${kind}#c3`);
  });

  it('while Redis is down, resuming paymentEvents and reading `events` are SERVICE_UNAVAILABLE (retryable), not an unexpected error', async () => {
    const kind = 'loss.down';
    expect(await post(kind, 'd0')).toBe(200);
    const history = await stack.gql(EventHistory, { first: 1, filter: { kinds: [kind] } });
    const id = history.data!.events.edges[0]!.node.id;
    await redis.kill();
    try {
      const sub = subscribe(staffClient(stack), ResumableEvents, { kinds: [kind], after: id });
      const end = await withTimeout(sub.ended, 5_000, 'the refusal');
      const errors = (end.kind === 'error' ? end.error : sub.results[0]?.errors) as Array<{ extensions?: Record<string, unknown> }>;
      expect(errors[0]?.extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryable: true });
      const page = await stack.gql(EventHistory, { first: 1, filter: { kinds: [kind] } });
      expect(page.errors?.[0]?.extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryable: true });
      expect(page.raw).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack/i);
    } finally {
      await redis.restart();
    }
  });
});
