// Resuming paymentEvents with `after`, against two replicas of one deployment
// on the real Redis (one namespace, one sandbox, one webhook secret) and real
// graphql-ws clients: a client that was away gets exactly what it missed, in
// order, then live events; on either replica; also while events keep coming
// during the replay, and across a restart of the replica it was connected to.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encodeEventId } from '../../src/events/stream-id.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { testKey, type TestStack } from '../helpers/gateway.js';
import { startReplica } from '../helpers/replica.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { ResumableEvents } from './event-documents.js';
import {
  disposeAllClients,
  postWebhook,
  probeBus,
  staffClient,
  subscribe,
  waitFor,
  withTimeout,
  type BusProbe,
  type LiveSubscription,
} from './helpers.js';

const namespace = uniqueNamespace('resume');
const secret = `whsec_${randomBytes(12).toString('hex')}`;

interface Replica {
  stack: TestStack;
  probe: BusProbe;
}

let sandbox: Sandbox;
let apiKey: string;
let a: Replica;
let b: Replica;
let redis: Redis;

async function replica(): Promise<Replica> {
  const stack = await startReplica(
    { sandbox, apiKey, webhookSecret: secret, redisNamespace: namespace },
    { SUBSCRIPTION_POLL_MS: '0', RATE_LIMIT_PER_MINUTE: '100000' },
  );
  return { stack, probe: probeBus(stack.gateway.bus) };
}

beforeAll(async () => {
  sandbox = await startTestSandbox();
  apiKey = testKey('resume');
  a = await replica();
  b = await replica();
  redis = new Redis(REDIS_URL);
});
afterEach(async () => {
  await disposeAllClients();
});
afterAll(async () => {
  await disposeAllClients();
  await b?.stack.close();
  await a?.stack.close();
  await sandbox?.close();
  if (redis) {
    await deleteByPrefix(redis, namespace);
    await redis.quit();
  }
});

type Events = LiveSubscription<{ paymentEvents: { id: string; kind: string; reference: string | null; source: string } }>;

/** One webhook of `kind` about reference `<kind>#<n>` (a kind about no resource: nothing is fetched). */
async function post(replica: Replica, kind: string, n: number): Promise<void> {
  const body = JSON.stringify({ id: `${kind}-${n}-${randomBytes(4).toString('hex')}`, event: kind, data: { reference: `${kind}#${n}` } });
  const reply = await postWebhook(replica.stack.gateway.webhookUrl!, secret, body);
  expect(reply.status).toBe(200);
}

async function postRange(replica: Replica, kind: string, from: number, to: number): Promise<void> {
  for (let n = from; n < to; n++) await post(replica, kind, n);
}

/** The next `count` events' references, in the order received. */
async function take(sub: Events, count: number, what: string): Promise<Array<{ id: string; reference: string | null }>> {
  const out: Array<{ id: string; reference: string | null }> = [];
  for (let i = 0; i < count; i++) {
    const { paymentEvents } = await sub.next(10_000, `${what} (${i + 1} of ${count})`);
    out.push({ id: paymentEvents.id, reference: paymentEvents.reference });
  }
  return out;
}

const refs = (kind: string, from: number, to: number) => Array.from({ length: to - from }, (_, i) => `${kind}#${from + i}`);

async function liveSubscription(replica: Replica, kind: string, after?: string): Promise<Events> {
  const before = replica.probe.paymentEventsAttached();
  const sub = subscribe(staffClient(replica.stack), ResumableEvents, { kinds: [kind], ...(after ? { after } : {}) });
  await waitFor(() => replica.probe.paymentEventsAttached() > before, `paymentEvents on the replica (${kind})`);
  return sub;
}

describe('paymentEvents(after:)', () => {
  it('a client back after 50 webhooks gets exactly those 50, in order, then live events; the same on the other replica', async () => {
    const kind = 'resume.fifty';
    const first = await liveSubscription(a, kind);
    await post(a, kind, 0);
    const [seen] = await take(first, 1, 'the event before the disconnection');
    expect(seen!.reference).toBe(`${kind}#0`);
    await disposeAllClients(); // the client goes away

    await postRange(a, kind, 1, 51);

    const back = subscribe(staffClient(a.stack), ResumableEvents, { kinds: [kind], after: seen!.id });
    const missed = await take(back, 50, 'the missed events on A');
    expect(missed.map((e) => e.reference)).toEqual(refs(kind, 1, 51));
    await post(a, kind, 51);
    const [live] = await take(back, 1, 'the live event on A');
    expect(live!.reference).toBe(`${kind}#51`);
    expect(back.pending).toBe(0);
    const ids = [seen!, ...missed, live!].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);

    // Replica B never saw this client: the id it got on A is a position in the one shared log.
    const onB = subscribe(staffClient(b.stack), ResumableEvents, { kinds: [kind], after: seen!.id });
    const replayedOnB = await take(onB, 51, 'the missed events on B');
    expect(replayedOnB).toEqual([...missed, live!]);
    await post(a, kind, 52);
    expect((await take(onB, 1, 'the live event on B'))[0]!.reference).toBe(`${kind}#52`);
    expect((await take(back, 1, 'the same live event on A'))[0]!.reference).toBe(`${kind}#52`);
    expect(onB.pending + back.pending).toBe(0);
  });

  it('events arriving during the replay are delivered once each, in order, with no gap', async () => {
    const kind = 'resume.during';
    const watcher = await liveSubscription(a, kind);
    await postRange(a, kind, 0, 100);
    const [from] = await take(watcher, 1, 'the first event');

    // Resume on B from the first event while 50 more are posted to A.
    const resumed = subscribe(staffClient(b.stack), ResumableEvents, { kinds: [kind], after: from!.id });
    const [received] = await Promise.all([take(resumed, 149, 'the replay and the events posted during it'), postRange(a, kind, 100, 150)]);
    expect(received.map((e) => e.reference)).toEqual(refs(kind, 1, 150));
    const marker = post(a, kind, 150);
    expect((await take(resumed, 1, 'a last live event'))[0]!.reference).toBe(`${kind}#150`);
    await marker;
    expect(resumed.pending).toBe(0);
  });

  it('an id the log no longer holds is EVENT_CURSOR_EXPIRED (reload from `events`); a malformed one is BAD_USER_INPUT', async () => {
    const ws = staffClient(a.stack);
    const codeOf = async (after: string) => {
      const sub = subscribe(ws, ResumableEvents, { after });
      const end = await withTimeout(sub.ended, 5_000, 'the refusal');
      const errors = (end.kind === 'error' ? end.error : sub.results[0]?.errors) as Array<{
        message: string;
        extensions?: Record<string, unknown>;
      }>;
      return errors[0]!;
    };
    const expired = await codeOf(encodeEventId('1-0')); // older than the retention
    expect(expired.extensions).toMatchObject({ code: 'EVENT_CURSOR_EXPIRED', retryable: false });
    expect(expired.message).toMatch(/reload .*`events`/);
    // An id after the end of the log: a log lost with its Redis (or another deployment's id).
    expect((await codeOf(encodeEventId(`${Date.now() + 86_400_000}-0`))).extensions).toMatchObject({ code: 'EVENT_CURSOR_EXPIRED' });
    expect((await codeOf('not-an-event-id')).extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(ws.closes).toEqual([]);
  });

  it('a replica restarted mid-stream: its subscriber resumes on the new process and misses nothing', async () => {
    const kind = 'resume.restart';
    const total = 120;
    let sub = await liveSubscription(b, kind);
    const poster = postRange(a, kind, 0, total); // the service keeps sending, to A, all along
    const got = await take(sub, 40, 'events before the restart');

    await b.stack.close(); // B goes away mid-stream; its client's socket closes
    await withTimeout(sub.ended, 5_000, 'the subscription on the stopped replica to end');
    got.push(...sub.results.slice(40).map((r) => ({ id: r.data!.paymentEvents.id, reference: r.data!.paymentEvents.reference })));
    b = await replica();

    sub = subscribe(staffClient(b.stack), ResumableEvents, { kinds: [kind], after: got.at(-1)!.id });
    got.push(...(await take(sub, total - got.length, 'the rest, after the restart')));
    await poster;
    expect(got.map((e) => e.reference)).toEqual(refs(kind, 0, total));
    expect(new Set(got.map((e) => e.id)).size).toBe(total);
  });
});
