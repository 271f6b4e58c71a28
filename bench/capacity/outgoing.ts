// The outgoing webhook delivery (issue 27): one endpoint on a local receiver that answers 200 at once; each
// webhook received from the service is counted until the receiver has its delivery. The row's cost less the
// "webhook received" row's is what the delivery adds.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { countPath, idleRate, sendOne, type PathCost } from './count.js';
import type { OperationSpec } from './operations.js';
import type { BenchRedis } from './redis.js';

interface Receiver {
  url: string;
  /** Resolves once a delivery whose body contains `marker` arrived (fails after 15 s). */
  received(marker: string): Promise<void>;
  close(): Promise<void>;
}

function startReceiver(): Promise<Receiver> {
  const bodies: string[] = [];
  const waiting = new Map<string, () => void>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      bodies.push(body);
      for (const [marker, resolve] of waiting) if (body.includes(marker)) resolve();
      res.writeHead(200).end();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        received: (marker) =>
          new Promise<void>((done, fail) => {
            if (bodies.some((b) => b.includes(marker))) return done();
            const timer = setTimeout(() => fail(new Error(`no delivery of ${marker}`)), 15_000);
            waiting.set(marker, () => {
              clearTimeout(timer);
              waiting.delete(marker);
              done();
            });
          }),
        close: () => new Promise<void>((closed) => server.close(() => closed())),
      });
    });
  });
}

async function createEndpoint(spec: OperationSpec, url: string): Promise<void> {
  const query =
    'mutation($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { __typename ... on CreateWebhookEndpointPayload { endpoint { id } } } }';
  const res = await request(spec.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${spec.token}` },
    body: JSON.stringify({ query, variables: { i: { url, kinds: ['charge.success'], idempotencyKey: randomUUID() } } }),
  });
  const text = await res.body.text();
  if (!text.includes('CreateWebhookEndpointPayload')) throw new Error(`createWebhookEndpoint: ${text.slice(0, 300)}`);
}

/** Webhook in, delivered out to one endpoint; run last (the endpoint then takes every later event). */
export async function countOutgoing(redis: BenchRedis, spec: OperationSpec, ops: number): Promise<PathCost> {
  const receiver = await startReceiver();
  try {
    await createEndpoint(spec, receiver.url);
    const run = randomBytes(3).toString('hex');
    for (let i = 0; i < 5; i++) {
      await sendOne('webhook', spec, `ch_out_warm_${run}_${i}`);
      await receiver.received(`ch_out_warm_${run}_${i}`);
    }
    const idle = await idleRate(redis);
    return await countPath(redis, idle, 'webhook received and delivered to 1 endpoint of the merchant (outgoing)', ops, async (i) => {
      const marker = `ch_out_${run}_${i}`;
      await sendOne('webhook', spec, marker);
      await receiver.received(marker);
    });
  } finally {
    await receiver.close();
  }
}
