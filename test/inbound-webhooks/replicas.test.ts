// End to end across two replicas of one deployment (test/helpers/replica.ts): each a gateway with its own HTTP
// server, webhook handler and Redis-backed event bus. The payment service delivers the same event to both at once;
// subscribers on both replicas see it exactly once.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { signBody } from '../../src/inbound-webhooks/signature.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { testKey, type TestStack } from '../helpers/gateway.js';
import { startReplica } from '../helpers/replica.js';
import { startTestSandbox } from '../helpers/sandbox.js';

const SECRET = 'whsec_replicas_test_77';
const namespace = uniqueNamespace('replicas');

interface Replica {
  stack: TestStack;
  bus: TestStack['gateway']['bus'];
  url: string;
}

let sandbox: Sandbox;
let replicas: Replica[] = [];
let observer: Redis;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  const deployment = { sandbox, apiKey: testKey('webhook-replicas'), webhookSecret: SECRET, redisNamespace: namespace };
  const stacks = await Promise.all([0, 1].map(() => startReplica(deployment, { WEBHOOK_SIGNATURE_SCHEME: 'sha256-base64' })));
  replicas = stacks.map((stack) => ({ stack, bus: stack.gateway.bus, url: stack.gateway.webhookUrl! }));
  observer = new Redis(REDIS_URL);
});

afterAll(async () => {
  for (const { stack } of replicas) await stack.close();
  await sandbox?.close();
  await deleteByPrefix(observer, namespace);
  await observer.quit();
});

describe('two replicas behind one Redis', () => {
  it('publish a delivery received by both at the same moment exactly once', async () => {
    const subs = replicas.map((r) => r.bus.subscribePaymentEvents());
    const firsts = subs.map((s) => s.next());
    // Listening from the first next(): each replica reads the event log, no subscription to wait for.

    const body = JSON.stringify({ event: 'transfer.success', data: { reference: 'tr_dup', amount: 5000 } });
    const headers = { 'content-type': 'application/json', 'x-webhook-hash': signBody(body, SECRET, 'sha256-base64') };
    const replies = await Promise.all(
      [...replicas, ...replicas, ...replicas].map((r) => fetch(r.url, { method: 'POST', headers, body }).then((res) => res.json())),
    );
    expect(replies.filter((r) => r.ok === true)).toHaveLength(6);
    expect(replies.filter((r) => r.duplicate === false)).toHaveLength(1);

    for (const first of firsts) {
      const { value } = await first;
      expect(value).toMatchObject({ kind: 'transfer.success', reference: 'tr_dup', resourceType: 'transfer' });
    }
    // No second copy anywhere: the next event every subscriber gets is a later, different delivery.
    const seconds = subs.map((s) => s.next());
    const marker = JSON.stringify({ event: 'transfer.success', data: { reference: 'tr_marker', amount: 5000 } });
    const reply = await fetch(replicas[0]!.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-hash': signBody(marker, SECRET, 'sha256-base64') },
      body: marker,
    });
    expect(reply.status).toBe(200);
    for (const second of seconds) expect((await second).value).toMatchObject({ reference: 'tr_marker' });
    await Promise.all(subs.map((s) => s.return()));
    expect(replicas.flatMap((r) => r.stack.logLines).join('\n')).not.toContain(SECRET);
  });
});
