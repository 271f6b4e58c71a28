// What a merchant gets with the default settings when a replica dies with deliveries in flight: its attempts hang
// (the receiver never answers) until it is SIGKILLed; the survivor takes its entries over once they have been in
// flight longer than an attempt can last (WEBHOOK_DELIVERY_TIMEOUT_MS, 15 s by default, + 5 s), and every event
// reaches the receiver, accepted once, with its webhook-id. replicas.test.ts shortens the timeout to run the same
// story in a few seconds; this file keeps every webhook setting at its default.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { killHard, startChildReplica, stopChildReplicas, type ChildReplica } from '../helpers/child-replica.js';
import { testKey } from '../helpers/gateway.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait.js';
import { startReceiver, type Receiver } from './helpers.js';
import { createEndpointOnReplica, postServiceWebhook } from './replica-support.js';

const ATTEMPT_MS = 15_000; // WEBHOOK_DELIVERY_TIMEOUT_MS's default
const namespace = uniqueNamespace('outbound-takeover-defaults');
const jwtSecret = randomBytes(32).toString('hex');
const webhookSecret = randomBytes(16).toString('hex');
let sandbox: Sandbox;
let replicas: ChildReplica[] = [];
let receiver: Receiver;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  // Only what connects the replicas to the test: the service's webhook secret and scheme, and a receiver on localhost.
  const env = { WEBHOOK_SECRET: webhookSecret, WEBHOOK_SIGNATURE_SCHEME: 'hmac-sha256-hex', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
  const setup = { sandboxUrl: sandbox.url, apiKey: testKey('outbound-takeover-defaults'), jwtSecret, namespace, env };
  replicas = await Promise.all([startChildReplica(setup), startChildReplica(setup)]);
  receiver = await startReceiver();
  expect(await createEndpointOnReplica(replicas[0]!.url, jwtSecret, receiver.url)).toBe('CreateWebhookEndpointPayload');
}, 60_000);
afterAll(async () => {
  await stopChildReplicas(replicas);
  await receiver?.close();
  await sandbox?.close();
  const redis = new Redis(REDIS_URL);
  await deleteByPrefix(redis, namespace);
  await redis.quit();
});

it('defaults: a replica SIGKILLed with attempts hanging; the survivor delivers all it held within the attempt timeout + 5 s + the first retry', async () => {
  const tag = `d${randomBytes(3).toString('hex')}`;
  receiver.behaviour = 'hang';
  await Promise.all(Array.from({ length: 20 }, (_, i) => postServiceWebhook(replicas[i % 2]!.webhookUrl, webhookSecret, i, tag)));
  const ids = () => {
    const answers = new Map<string, Array<number | null>>();
    for (const r of receiver.received) {
      if (!r.body.includes(`"${tag}-ref-`)) continue;
      const id = r.headers['webhook-id']!;
      answers.set(id, [...(answers.get(id) ?? []), r.answered]);
    }
    return answers;
  };
  // Up to 2 s short of the attempt timeout (on a loaded 2-core machine the replicas took over 10 s): the story needs
  // every first attempt still hanging when the replica is killed.
  await waitFor(() => ids().size === 20, 'every event in flight', ATTEMPT_MS - 2_000, 20);
  // Both replicas hold entries of the endpoint's consumer group (each read some of the events).
  const redis = new Redis(REDIS_URL);
  const log = `${namespace}:events:log`;
  const [group] = (await redis.xinfo('GROUPS', log)) as unknown[][];
  const groupName = String(group![group!.indexOf('name') + 1]);
  const holding = ((await redis.xinfo('CONSUMERS', log, groupName)) as unknown[][]).filter((c) => Number(c[c.indexOf('pending') + 1]) > 0);
  await redis.quit();
  expect(holding).toHaveLength(2);
  const [victim, survivor] = replicas as [ChildReplica, ChildReplica];
  await killHard(victim);
  const killedAt = Date.now();
  receiver.behaviour = 200;
  // The dead replica's entries wait out their visibility (the attempt timeout + 5 s); the survivor's own hung
  // attempts time out and are retried on the schedule's first step (about 5 s): all within the bound below.
  await waitFor(
    () => [...ids().values()].filter((answers) => answers.includes(200)).length === 20,
    'every event delivered',
    ATTEMPT_MS + 5_000 + 15_000,
    100,
  );
  const tookMs = Date.now() - killedAt;
  process.stderr.write(`outbound takeover with defaults: every event delivered ${tookMs} ms after the kill\n`);
  expect(survivor.child.exitCode).toBeNull();
  for (const answers of ids().values()) expect(answers.filter((a) => a === 200)).toHaveLength(1);
}, 90_000);
