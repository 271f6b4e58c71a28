// One endpoint's trouble stays its own. A receiver that answers after 20 s
// (past the default 15 s timeout) holds its own attempts, and another
// endpoint's deliveries all arrive meanwhile. An event wakes only the endpoints
// that take its kind; the others read past it later, sending nothing. A dead endpoint does not fill
// Redis: once its retry set is full it stops reading the log and holds its
// place there, and Redis holds no more for it however many events come; back
// up, it delivers them all.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';
import { createEndpoint, startReceiver, type Receiver } from './helpers.js';
import { postServiceWebhook } from './replica-support.js';

const namespace = uniqueNamespace('outbound-isolation');
const clock = { t: Date.now() };
let stack: TestStack;
let redis: Redis;
const receivers: Receiver[] = [];
const raw = (globalId: string) => Buffer.from(globalId, 'base64url').toString('utf8').split(':')[1]!;
const refsAt = (r: Receiver, tag: string) =>
  new Set(
    r
      .delivered()
      .map((d) => String(d.data['reference']))
      .filter((x) => x.startsWith(`${tag}-`)),
  );

beforeAll(async () => {
  stack = await startStack({
    redisNamespace: namespace,
    webhookSecret: 'isolation-secret',
    // The default timeout (15 s) and in-flight bound (10); a retry set of 5 to see it fill.
    env: {
      REDIS_URL,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_SIGNATURE_SCHEME: 'hmac-sha256-hex',
      SUBSCRIPTION_POLL_MS: '0',
      WEBHOOK_RETRY_SET_MAX: '5',
    },
    outboundWebhooks: { now: () => clock.t, pollMs: 50 },
  });
  redis = new Redis(REDIS_URL);
}, 30_000);
afterAll(async () => {
  await stack?.close();
  for (const r of receivers) await r.close();
  await deleteByPrefix(redis, namespace);
  await redis.quit();
});

/**
 * Where an endpoint's consumer group stands in the log: entries read and not acknowledged (`pending`), and entries
 * not read yet (`unread`), counted after its last-delivered-id rather than taken from XINFO's `lag`, which Redis
 * reports as null when it cannot tell (read as 0, it once passed for "read everything").
 */
async function placeOf(group: string): Promise<{ pending: number; unread: number }> {
  const logKey = `${namespace}:events:log`;
  const groups = (await redis.xinfo('GROUPS', logKey)) as unknown[][];
  const mine = groups.find((g) => g[g.indexOf('name') + 1] === group)!;
  const lastRead = String(mine[mine.indexOf('last-delivered-id') + 1]);
  const unread = (await redis.xrange(logKey, `(${lastRead}`, '+')).length;
  return { pending: Number(mine[mine.indexOf('pending') + 1]), unread };
}

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

describe('per-endpoint isolation', () => {
  it('an endpoint answering after 20 s does not hold back another endpoint’s deliveries', async () => {
    const slow = await receiver();
    const fast = await receiver();
    slow.delayMs = 20_000;
    await createEndpoint(stack, slow.url, ['charge.success']);
    await createEndpoint(stack, fast.url, ['charge.success']);
    for (let i = 0; i < 60; i++) expect(await postServiceWebhook(stack.gateway.webhookUrl!, stack.webhookSecret, i, 'iso')).toBe(200);
    await waitFor(() => refsAt(fast, 'iso-ref').size === 60, 'the fast endpoint has all 60', 10_000, 20);
    // Meanwhile the slow one has its 10 attempts open and has answered none.
    expect(slow.received.length).toBeGreaterThanOrEqual(10);
    expect(slow.received.length).toBeLessThanOrEqual(10);
    expect(slow.received.every((r) => r.answered === null)).toBe(true);
  }, 30_000);

  it('a dead endpoint stops reading the log when its retry set is full, and Redis holds no more for it', async () => {
    const dead = await receiver();
    dead.behaviour = 503;
    const { id } = await createEndpoint(stack, dead.url, ['charge.success']);
    const endpoint = raw(id);
    for (let i = 0; i < 200; i += 20) {
      const statuses = await Promise.all(
        Array.from({ length: 20 }, (_, k) => postServiceWebhook(stack.gateway.webhookUrl!, stack.webhookSecret, i + k, 'dead')),
      );
      expect(statuses.every((s) => s === 200)).toBe(true);
    }
    const retrySet = `${namespace}:webhooks:retry:${endpoint}`;
    await waitFor(async () => (await redis.zcard(retrySet)) >= 5, 'the retry set full', 10_000, 20);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Bounded: the set (5) plus what was in flight when it filled (10 at most); the rest stays in the log.
    const held = await redis.zcard(retrySet);
    expect(held).toBeLessThanOrEqual(5 + 10);
    expect(await redis.hlen(`${namespace}:webhooks:deliveries:${endpoint}`)).toBe(held);
    const place = await placeOf(`webhooks:${endpoint}`);
    expect(place.pending).toBe(0);
    expect(place.unread).toBeGreaterThanOrEqual(200 - 15);

    // Back up: the retries come due, and the endpoint reads on from its place until every event is delivered.
    dead.behaviour = 200;
    clock.t += 10 * 3_600_000;
    await waitFor(() => refsAt(dead, 'dead-ref').size === 200, 'all 200 delivered', 30_000, 50);
    expect(await redis.zcard(retrySet)).toBe(0);
  }, 60_000);

  it('an endpoint is sent only the kinds it takes, and reads past the others without leaving them in flight', async () => {
    const failures = await receiver();
    const successes = await receiver();
    const { id } = await createEndpoint(stack, failures.url, ['charge.failed']);
    await createEndpoint(stack, successes.url, ['charge.success']);
    const url = stack.gateway.webhookUrl!;
    // The failures first: the successes after them wake only the other endpoint, so only the full pass (pollMs) reads
    // them past for this one.
    for (let i = 0; i < 3; i++) expect(await postServiceWebhook(url, stack.webhookSecret, i, 'kinds-ko', 'charge.failed')).toBe(200);
    for (let i = 0; i < 30; i++) expect(await postServiceWebhook(url, stack.webhookSecret, i, 'kinds-ok')).toBe(200);
    await waitFor(() => refsAt(successes, 'kinds-ok-ref').size === 30, 'the 30 successes delivered', 10_000, 20);
    await waitFor(() => refsAt(failures, 'kinds-ko-ref').size === 3, 'the 3 failures delivered', 10_000, 20);
    const kindsAt = (r: Receiver) => new Set(r.received.map((x) => (JSON.parse(x.body) as { type: string }).type));
    expect(kindsAt(failures)).toEqual(new Set(['charge.failed']));
    expect(failures.received).toHaveLength(3);
    expect(kindsAt(successes)).toEqual(new Set(['charge.success']));
    // The charge.failed endpoint's place in the log is past every event, and none is left in flight.
    const group = `webhooks:${raw(id)}`;
    // Read (unread 0) and then acknowledged (pending 0): a pass reads a batch, then acknowledges what its kinds skip,
    // so the two reach 0 a moment apart; an entry left in flight keeps pending above 0 and the wait fails.
    const settled = async () => {
      const now = await placeOf(group);
      return now.unread === 0 && now.pending === 0;
    };
    await waitFor(settled, 'the endpoint read past the other kinds and acknowledged them', 10_000, 20);
    expect(await placeOf(group)).toEqual({ pending: 0, unread: 0 });
  }, 30_000);
});
