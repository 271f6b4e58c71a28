// The `events` query: a Relay connection over the event log (a Redis Stream
// on the real Redis), newest first, paged forward and backward, filtered by
// kind, reference and time, with cursors bound to their filter; and its ids
// are the ones `paymentEvents(after:)` resumes from.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import type { EventHistoryQuery, EventHistoryQueryVariables } from '../gql/graphql.js';
import { EventHistory, ResumableEvents } from './event-documents.js';
import { disposeAllClients, postWebhook, staffClient, subscribe } from './helpers.js';

const namespace = uniqueNamespace('history');
const COUNT = 30;
let stack: TestStack;
let redis: Redis;
/** ref_0 … ref_29 in the order posted (oldest first); even ones are hist.a, odd ones hist.b; ref_7 is sent twice more as ref_7 updates. */
const posted: Array<{ kind: string; reference: string }> = [];

beforeAll(async () => {
  stack = await startStack({ redisNamespace: namespace, env: { REDIS_URL, SUBSCRIPTION_POLL_MS: '0', RATE_LIMIT_PER_MINUTE: '100000' } });
  redis = new Redis(REDIS_URL);
  for (let n = 0; n < COUNT; n++) {
    const event = { kind: n % 2 === 0 ? 'hist.a' : 'hist.b', reference: n % 10 === 7 ? 'ref_7' : `ref_${n}` };
    const body = JSON.stringify({
      id: `h_${n}_${randomBytes(3).toString('hex')}`,
      event: event.kind,
      data: { reference: event.reference },
    });
    expect((await postWebhook(stack.gateway.webhookUrl!, stack.webhookSecret, body)).status).toBe(200);
    posted.push(event);
  }
});
afterAll(async () => {
  await disposeAllClients();
  await stack?.close();
  await deleteByPrefix(redis, namespace);
  await redis.quit();
});

type Page = EventHistoryQuery['events'];

async function history(variables: EventHistoryQueryVariables, headers?: Record<string, string>): Promise<Page> {
  const res = await stack.gql(EventHistory, variables, headers);
  if (res.errors) throw Object.assign(new Error(res.errors[0]!.message), { extensions: res.errors[0]!.extensions });
  return res.data!.events;
}

const refsOf = (page: Page) => page.edges.map((e) => e.node.reference);
const newestFirst = (filter: (e: { kind: string; reference: string }) => boolean = () => true) =>
  posted
    .filter(filter)
    .map((e) => e.reference)
    .reverse();

describe('events', () => {
  it('pages forward, newest first, to the end; then backward from the end to the start', async () => {
    const forward: Array<string | null> = [];
    let page = await history({ first: 7 });
    expect(page.totalCount).toBe(COUNT);
    expect(page.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
    forward.push(...refsOf(page));
    while (page.pageInfo.hasNextPage) {
      page = await history({ first: 7, after: page.pageInfo.endCursor });
      expect(page.pageInfo.hasPreviousPage).toBe(true);
      forward.push(...refsOf(page));
    }
    expect(forward).toEqual(newestFirst());
    expect(page.edges).toHaveLength(COUNT % 7);

    const backward: Array<string | null> = [];
    page = await history({ last: 7 });
    expect(page.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    backward.unshift(...refsOf(page));
    while (page.pageInfo.hasPreviousPage) {
      page = await history({ last: 7, before: page.pageInfo.startCursor });
      expect(page.pageInfo.hasNextPage).toBe(true);
      backward.unshift(...refsOf(page));
    }
    expect(backward).toEqual(newestFirst());
    const sources = new Set(page.edges.map((e) => e.node.source));
    expect(sources).toEqual(new Set(['WEBHOOK']));
  });

  it('filters by kind, reference and time; cursors belong to their filter', async () => {
    const onlyA = { kinds: ['hist.a'] };
    const first = await history({ first: 4, filter: onlyA });
    expect(first.totalCount).toBe(COUNT / 2);
    const second = await history({ first: 20, after: first.pageInfo.endCursor, filter: onlyA });
    expect([...refsOf(first), ...refsOf(second)]).toEqual(newestFirst((e) => e.kind === 'hist.a'));
    expect(second.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect([...first.edges, ...second.edges].every((e) => e.node.kind === 'hist.a')).toBe(true);
    const back = await history({ last: 2, before: second.pageInfo.startCursor, filter: onlyA });
    expect(refsOf(back)).toEqual(refsOf(first).slice(-2));

    const ref7 = await history({ first: 10, filter: { reference: 'ref_7' } });
    expect(refsOf(ref7)).toEqual(['ref_7', 'ref_7', 'ref_7']);
    expect(ref7.totalCount).toBe(3);

    // Time: everything received at or after the 11th event, and at or before the 20th.
    const all = await history({ first: COUNT });
    const oldestFirst = [...all.edges].reverse();
    const since = oldestFirst[10]!.node.receivedAt;
    const until = oldestFirst[19]!.node.receivedAt;
    const window = await history({ first: COUNT, filter: { since, until } });
    const inWindow = oldestFirst.filter((e) => e.node.receivedAt >= since && e.node.receivedAt <= until).map((e) => e.node.id);
    expect(window.edges.map((e) => e.node.id)).toEqual(inWindow.reverse());
    expect(window.edges.length).toBeGreaterThanOrEqual(10);

    await expect(history({ first: 2, after: first.pageInfo.endCursor, filter: { kinds: ['hist.b'] } })).rejects.toMatchObject({
      extensions: { code: 'INVALID_CURSOR' },
    });
    await expect(history({ first: 2, after: 'garbage' })).rejects.toMatchObject({ extensions: { code: 'INVALID_CURSOR' } });
    await expect(history({ first: 101 })).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    await expect(history({ first: 1, last: 1 })).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('needs events:read; its ids are where paymentEvents resumes', async () => {
    const readOnly = await stack.mintToken(['payments:read']);
    await expect(history({ first: 1 }, { authorization: `Bearer ${readOnly}` })).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN', requiredScope: 'events:read' },
    });
    const eventsOnly = await stack.mintToken(['events:read']);
    expect((await history({ first: 1 }, { authorization: `Bearer ${eventsOnly}` })).edges).toHaveLength(1);

    // Reload from `events`, then subscribe after the id of the fifth newest: the four newer ones, in order.
    const page = await history({ first: 5 });
    const sub = subscribe(staffClient(stack), ResumableEvents, { after: page.edges[4]!.node.id });
    const replayed: Array<string | null> = [];
    for (let i = 0; i < 4; i++) replayed.push((await sub.next(5_000, 'a replayed event')).paymentEvents.reference);
    expect(replayed).toEqual(refsOf(page).slice(0, 4).reverse());
    expect(sub.pending).toBe(0);
  });
});
