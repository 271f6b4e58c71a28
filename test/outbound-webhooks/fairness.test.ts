// Platform mode's delivery worker is fair between merchants: merchant A, with two endpoints whose receiver holds
// every answer and a backlog of 30 events, never has more than WEBHOOK_MAX_IN_FLIGHT_PER_MERCHANT attempts open; when
// A holds every slot of the replica (WEBHOOK_MAX_IN_FLIGHT) and B's event arrives, the first slot A frees goes to B,
// before any more of A's backlog. Asserted by order (what each receiver had received when B's delivery came), never
// by time. In process, with real receivers and a real Redis.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mintStaffToken } from '../../src/auth/index.js';
import { uniqueNamespace } from '../events/redis-helpers.js';
import type { TestStack } from '../helpers/gateway.js';
import { closePlatformStack, createMerchant, gqlAs, logOnce, startPlatformStack, merchantEvent } from '../helpers/platform.js';
import { waitFor } from '../helpers/wait.js';
import { CREATE_ENDPOINT } from './helpers.js';

const namespace = uniqueNamespace('outbound-fairness');
const BACKLOG = 30;
let stack: TestStack;

/** A receiver that holds its answers while `holding`, and says how many requests it has had and holds. */
interface HoldingReceiver {
  url: string;
  received: string[];
  held: ServerResponse[];
  holding: boolean;
  /** The most requests it held open at once. */
  mostHeld: number;
  answerOne(): void;
  answerAll(): void;
  close(): Promise<void>;
}

/** Which receiver each request reached, in the order they came (both receivers' together). */
const arrivals: HoldingReceiver[] = [];

async function holdingReceiver(): Promise<HoldingReceiver> {
  const receiver: HoldingReceiver = {
    url: '',
    received: [],
    held: [],
    holding: true,
    mostHeld: 0,
    answerOne: () => receiver.held.shift()?.end('ok'),
    answerAll: () => {
      receiver.holding = false;
      for (const res of receiver.held.splice(0)) res.end('ok');
    },
    close: async () => {
      receiver.answerAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.received.push(Buffer.concat(chunks).toString('utf8'));
      arrivals.push(receiver);
      if (!receiver.holding) return void res.end('ok');
      receiver.held.push(res);
      receiver.mostHeld = Math.max(receiver.mostHeld, receiver.held.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

const receivers: HoldingReceiver[] = [];

beforeAll(async () => {
  stack = await startPlatformStack(namespace, {
    inProcess: true,
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_MAX_IN_FLIGHT_PER_MERCHANT: '2', WEBHOOK_MAX_IN_FLIGHT: '2' },
    outboundWebhooks: { pollMs: 50 },
  });
}, 30_000);

afterAll(async () => {
  for (const r of receivers) await r.close();
  await closePlatformStack(stack, namespace);
});

/** A merchant with an endpoint to each receiver; returns its id. */
async function merchantWith(name: string, urls: string[]): Promise<string> {
  const as = gqlAs(stack);
  const id = await createMerchant(stack, name);
  const token = (
    await mintStaffToken({ secret: stack.jwtSecret, scopes: ['webhooks:manage'], subject: name, ttlSeconds: 600, merchantId: id })
  ).token;
  for (const url of urls) {
    const made = await as(token, CREATE_ENDPOINT, { input: { url, idempotencyKey: randomUUID() } });
    if (made.data?.createWebhookEndpoint.__typename !== 'CreateWebhookEndpointPayload') throw new Error(made.raw);
  }
  return id;
}

const event = merchantEvent;

it('gives B’s first delivery the first slot A frees, while A’s backlog to a slow receiver waits within its cap', async () => {
  const slowA = await holdingReceiver();
  const fastB = await holdingReceiver();
  receivers.push(slowA, fastB);
  fastB.holding = false;
  const a = await merchantWith('fairnessa', [slowA.url, slowA.url]);
  const b = await merchantWith('fairnessb', [fastB.url]);

  for (let n = 0; n < BACKLOG; n++) await logOnce(stack.gateway.bus, event(a, n));
  // A holds both slots of the replica (its cap, and every slot there is).
  await waitFor(() => slowA.held.length === 2, 'A’s first two attempts', 10_000, 5);
  await logOnce(stack.gateway.bus, event(b, 1_000));
  // Nothing is free: B waits. Once B has asked for a slot, the first slot A frees is B's, not A's next event. B's
  // pass asks when the worker hears of its event, which a loaded machine may delay past A's first answer: that
  // slot may then go to A, but the next one is B's. First come, first served, A's own passes (woken by each end of
  // its attempts) would take every slot until its backlog of 60 attempts is done.
  let answered = 0;
  while (fastB.received.length === 0) {
    expect(answered, 'B still waits after three of A’s attempts ended').toBeLessThan(3);
    slowA.answerOne();
    answered += 1;
    await waitFor(() => fastB.received.length === 1 || slowA.held.length === 2, 'the slot A freed, taken', 10_000, 5);
  }
  // Before B's delivery came A's first two attempts, and one for each slot A freed before B's (B's own slot, freed
  // at once by its receiver, may go to A right after).
  expect(arrivals.indexOf(fastB)).toBe(1 + answered);
  expect(JSON.parse(fastB.received[0]!).data.n).toBe(1_000);

  // Then A's backlog drains, never more than its cap at once: two endpoints, each event to both.
  slowA.answerAll();
  await waitFor(() => slowA.received.length >= BACKLOG * 2, 'A’s backlog delivered', 20_000, 10);
  expect(slowA.mostHeld).toBe(2);
  const delivered = slowA.received.map((body) => (JSON.parse(body) as { data: { n: number } }).data.n);
  expect([...new Set(delivered)].sort((x, y) => x - y)).toEqual(Array.from({ length: BACKLOG }, (_, n) => n));
}, 40_000);
