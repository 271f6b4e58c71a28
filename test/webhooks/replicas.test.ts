// End to end across two "replicas": each has its own HTTP server, webhook
// handler and Redis-backed event bus. The payment service delivers the same
// event to both at once; subscribers on both replicas see it exactly once.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventBus, type EventBus } from '../../src/events/bus.js';
import { connectRedis, type GatewayRedis } from '../../src/redis/index.js';
import { createLogger } from '../../src/logger.js';
import { acceptIntoLog, createWebhookHandler } from '../../src/webhooks/receiver.js';
import { signBody } from '../../src/webhooks/signature.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';

const SECRET = 'whsec_replicas_test_77';
const namespace = uniqueNamespace('replicas');

interface Replica {
  redis: GatewayRedis;
  bus: EventBus;
  server: Server;
  url: string;
}

const logLines: string[] = [];
let replicas: Replica[] = [];
let observer: Redis;

async function startReplica(): Promise<Replica> {
  const log = createLogger('debug', { write: (l) => logLines.push(l) });
  const redis = await connectRedis({ url: REDIS_URL, namespace, log });
  const bus = await createEventBus({ redis, log });
  const handler = createWebhookHandler({
    secret: SECRET,
    scheme: 'sha256-base64',
    accept: acceptIntoLog(bus),
    log,
  });
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { redis, bus, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

beforeAll(async () => {
  replicas = await Promise.all([startReplica(), startReplica()]);
  observer = new Redis(REDIS_URL);
});

afterAll(async () => {
  for (const { redis, bus, server } of replicas) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await bus.close();
    await redis.close();
  }
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
    expect(logLines.join('\n')).not.toContain(SECRET);
  });
});
