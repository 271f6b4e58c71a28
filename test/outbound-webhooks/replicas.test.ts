// Two gateway replicas (real processes) share the deliveries through Redis
// Streams consumer groups: 1,000 events each reach the merchant's receiver,
// and a second copy of an event comes only after a failed attempt. A replica
// SIGKILLed with deliveries in flight: the other one delivers what it held
// (claimed from the consumer group's pending list after the visibility timeout).
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { startChildReplica, type ChildReplica } from '../helpers/child-replica.js';
import { testKey } from '../helpers/gateway.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait.js';
import { startReceiver, type Receiver } from './helpers.js';
import { createEndpointOnReplica, postServiceWebhook } from './replica-support.js';

const namespace = uniqueNamespace('outbound-replicas');
const jwtSecret = randomBytes(32).toString('hex');
const webhookSecret = randomBytes(16).toString('hex');
let sandbox: Sandbox;
let replicas: ChildReplica[] = [];
let receiver: Receiver;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  const env = {
    WEBHOOK_SECRET: webhookSecret,
    WEBHOOK_SIGNATURE_SCHEME: 'hmac-sha256-hex',
    SUBSCRIPTION_POLL_MS: '0',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // A hanging attempt ends after 3 s (default 15 s: test/outbound-webhooks/settings.test.ts), so a dead replica's
    // events are taken over after 8 s (the timeout + 5 s). Not shorter: the receiver's 200 must reach a replica busy
    // with 1,000 events within it, or the replica counts a timeout and sends a copy the receiver sees after a 200.
    WEBHOOK_DELIVERY_TIMEOUT_MS: '3000',
  };
  const setup = { sandboxUrl: sandbox.url, apiKey: testKey('outbound-replicas'), jwtSecret, namespace, env };
  replicas = await Promise.all([startChildReplica(setup), startChildReplica(setup)]);
  receiver = await startReceiver();
  expect(await createEndpointOnReplica(replicas[0]!.url, jwtSecret, receiver.url)).toBe('CreateWebhookEndpointPayload');
}, 60_000);
afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  await receiver?.close();
  await sandbox?.close();
  const redis = new Redis(REDIS_URL);
  await deleteByPrefix(redis, namespace);
  await redis.quit();
});

/** Requests per webhook-id, in arrival order, with what the receiver answered. */
function byEvent(tag: string): Map<string, Array<number | null>> {
  const map = new Map<string, Array<number | null>>();
  for (const r of receiver.received) {
    if (!r.body.includes(`"${tag}-ref-`)) continue;
    const id = r.headers['webhook-id']!;
    map.set(id, [...(map.get(id) ?? []), r.answered]);
  }
  return map;
}

describe('two replicas', () => {
  it('1,000 events each reach the receiver; a second copy only after a failed attempt', async () => {
    // Every 10th event's first attempt is answered 500.
    const failedOnce = new Set<string>();
    receiver.behaviour = (r) => {
      const ref = (JSON.parse(r.body) as { data: { reference: string } }).data.reference;
      if (Number(ref.split('-').at(-1)) % 10 !== 0 || failedOnce.has(ref)) return 200;
      failedOnce.add(ref);
      return 500;
    };
    const tag = `a${randomBytes(3).toString('hex')}`;
    for (let i = 0; i < 1_000; i += 50) {
      const statuses = await Promise.all(
        Array.from({ length: 50 }, (_, k) => postServiceWebhook(replicas[(i + k) % 2]!.webhookUrl, webhookSecret, i + k, tag)),
      );
      expect(statuses.every((s) => s === 200)).toBe(true);
    }
    await waitFor(
      () => [...byEvent(tag).values()].filter((answers) => answers.includes(200)).length === 1_000,
      '1,000 delivered',
      60_000,
      100,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // any stray copy would land now
    const events = byEvent(tag);
    expect(events.size).toBe(1_000);
    for (const [id, answers] of events) {
      expect(
        answers.filter((a) => a === 200),
        id,
      ).toHaveLength(1);
      // Every copy before the accepted one was refused: a copy comes only after a failed attempt.
      expect(answers.at(-1), id).toBe(200);
    }
    expect([...events.values()].filter((answers) => answers.length === 2)).toHaveLength(100);
  }, 120_000);

  it('a replica SIGKILLed with deliveries in flight: the other delivers what it held', async () => {
    const tag = `k${randomBytes(3).toString('hex')}`;
    receiver.behaviour = 'hang';
    await Promise.all(Array.from({ length: 60 }, (_, i) => postServiceWebhook(replicas[i % 2]!.webhookUrl, webhookSecret, i, tag)));
    // Both replicas have attempts in flight (at most 10 each per endpoint): kill one of them now.
    await waitFor(() => byEvent(tag).size >= 12, 'attempts in flight', 10_000, 20);
    const [victim, survivor] = replicas as [ChildReplica, ChildReplica];
    victim.child.kill('SIGKILL');
    await new Promise((resolve) => victim.child.once('exit', resolve));
    receiver.behaviour = 200;
    await waitFor(() => [...byEvent(tag).values()].filter((answers) => answers.includes(200)).length === 60, '60 delivered', 45_000, 100);
    expect(survivor.child.exitCode).toBeNull();
    // Nothing is left in flight: the dead replica's pending entries were claimed and settled (a 200 is acknowledged
    // in the log a moment after the receiver answers it, hence the wait).
    const redis = new Redis(REDIS_URL);
    const pendingNow = async () =>
      ((await redis.xinfo('GROUPS', `${namespace}:events:log`)) as unknown[][]).map((g) => Number(g[g.indexOf('pending') + 1]));
    await waitFor(async () => (await pendingNow()).every((n) => n === 0), 'no entry left pending', 10_000, 100).catch(() => {});
    const pending = await pendingNow();
    await redis.quit();
    expect(pending).toEqual([0]);
    for (const answers of byEvent(tag).values()) expect(answers.filter((a) => a === 200)).toHaveLength(1);
  }, 90_000);
});
