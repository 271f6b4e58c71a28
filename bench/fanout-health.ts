// A large fan-out must not stall the gateway: 10,000 paymentEvents subscriptions (20 token subjects x 10
// connections x 50 subscriptions, every cap at its default), one webhook at a time, while another process asks
// GET /health/live every few ms. Prints the liveness latency during the fan-outs next to the idle baseline, and the
// gateway's memory before the subscribers connect, while they are connected, and after their sockets close.
//
//   npx tsx bench/fanout-health.ts
//   BENCH_SUBJECTS=20 BENCH_CONNECTIONS_PER_SUBJECT=10 BENCH_SUBSCRIPTIONS_PER_CONNECTION=50 BENCH_WEBHOOKS=10 npx tsx bench/fanout-health.ts
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { SCOPES, mintStaffToken } from '../src/auth/index.js';
import { signBody } from '../src/inbound-webhooks/signature.js';
import { startChild, type Child } from './lib/processes.js';
import { ROOT, TSX_LOADER, startBenchStack, type BenchStack } from './lib/stack.js';

const SUBJECTS = Number(process.env.BENCH_SUBJECTS ?? 20);
const CONNECTIONS_PER_SUBJECT = Number(process.env.BENCH_CONNECTIONS_PER_SUBJECT ?? 10);
const PER_CONNECTION = Number(process.env.BENCH_SUBSCRIPTIONS_PER_CONNECTION ?? 50);
const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 10);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 30_000);
const SUBSCRIPTIONS = SUBJECTS * CONNECTIONS_PER_SUBJECT * PER_CONNECTION;
const WEBHOOK_SECRET = randomBytes(24).toString('hex');
const WEBHOOK_PATH = '/webhooks/payment';
const METRICS_TOKEN = randomBytes(16).toString('hex');

const epochNow = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

interface Window {
  count: number;
  /** Probes that failed since the probe started (never expected). */
  failures: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface Memory {
  rss: number;
  heap: number;
}

/** The gateway's resident memory (from /proc) and its used heap (from its own /metrics), in MB. */
async function memoryOf(origin: string, pid: number): Promise<Memory> {
  const rss = rssMb(pid);
  const res = await request(`${origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.body.text();
  const heap = Number(/^gateway_nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1] ?? NaN) / 1024 / 1024;
  return { rss, heap };
}

/** Posts one signed charge.success webhook. As the payment service does: a 503 (the gateway could not store the event) is sent again. */
async function postWebhook(origin: string, marker: string): Promise<void> {
  const body = JSON.stringify({ event: 'charge.success', data: { reference: marker, id: marker } });
  for (let attempt = 1; ; attempt++) {
    const res = await request(`${origin}${WEBHOOK_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-hash': signBody(body, WEBHOOK_SECRET, 'hmac-sha256-hex') },
      body,
    });
    await res.body.text();
    if (res.statusCode === 200) return;
    if (res.statusCode !== 503 || attempt >= 5) throw new Error(`webhook answered ${res.statusCode}`);
    console.log(`webhook ${marker} answered 503; sending it again`);
    await sleep(200 * attempt);
  }
}

/** One process holding every subscription: SUBJECTS token subjects, CONNECTIONS_PER_SUBJECT connections each. */
async function startSubscribers(stack: BenchStack): Promise<Child> {
  const tokens = await Promise.all(
    Array.from(
      { length: SUBJECTS },
      async (_, i) => (await mintStaffToken({ secret: stack.jwtSecret, scopes: SCOPES, subject: `screen-${i}`, ttlSeconds: 3600 })).token,
    ),
  );
  const spec = {
    url: stack.graphqlUrl,
    token: tokens[0],
    tokens,
    connections: SUBJECTS * CONNECTIONS_PER_SUBJECT,
    mode: 'events',
    perConnection: PER_CONNECTION,
  };
  return startChild(process.execPath, ['--import', TSX_LOADER, join(ROOT, 'bench/lib/subscribers.ts'), JSON.stringify(spec)], {
    label: 'subscribers',
    ready: /SUBSCRIBERS READY/,
    timeoutMs: 300_000,
  });
}

/** Waits (at most `timeoutMs`) until `marker` reached every subscription; returns how many it reached. */
async function reachAll(subscribers: Child, marker: string, timeoutMs: number): Promise<number> {
  const count = async () => Number((await subscribers.ask(`count ${marker}`, `count ${marker} `)).split(' ')[2]);
  const deadline = Date.now() + timeoutMs;
  let n = 0;
  while ((n = await count()) < SUBSCRIPTIONS && Date.now() < deadline) await sleep(5);
  return n;
}

/** Subscriptions register some time after connection_ack: warm up until one event reaches every one. */
async function warmUp(subscribers: Child, origin: string): Promise<void> {
  for (let i = 0; ; i++) {
    const marker = `warm_${i}_${randomBytes(3).toString('hex')}`; // unique: a delivery id seen before is a duplicate (never delivered again)
    await postWebhook(origin, marker);
    // Generous: 10,000 subscriptions take a while to register on a loaded machine.
    const reached = await reachAll(subscribers, marker, 30_000);
    console.log(`warm-up ${i}: ${reached} of ${SUBSCRIPTIONS}`);
    if (reached >= SUBSCRIPTIONS) break;
    if (i >= 10) throw new Error(`only ${reached} of ${SUBSCRIPTIONS} subscriptions receive events (a cap refused the rest?)`);
  }
}

interface Fanouts {
  /** The probe's figures during each fan-out. */
  windows: Window[];
  /** Milliseconds from each webhook to its arrival at the last subscription. */
  deliveries: number[];
}

/** WEBHOOKS fan-outs, one at a time, each with the liveness probe's window around it. */
async function runFanouts(subscribers: Child, origin: string, windowOf: (from: number, to: number) => Promise<Window>): Promise<Fanouts> {
  const windows: Window[] = [];
  const deliveries: number[] = [];
  for (let i = 0; i < WEBHOOKS; i++) {
    const marker = `fan_${i}_${randomBytes(3).toString('hex')}`;
    await sleep(200); // a quiet gap, so each window holds one fan-out
    const sent = epochNow();
    await postWebhook(origin, marker);
    const reached = await reachAll(subscribers, marker, 30_000);
    const done = epochNow();
    if (reached < SUBSCRIPTIONS) console.log(`warning: webhook ${i} reached ${reached} of ${SUBSCRIPTIONS}`);
    deliveries.push(done - sent);
    windows.push(await windowOf(sent, done));
    console.log(`fan-out ${i}: ${(done - sent).toFixed(0)} ms to all; /health/live ${JSON.stringify(windows.at(-1))}`);
  }
  return { windows, deliveries };
}

/** The memory SETTLE_MS after the sockets closed (read once a second meanwhile, as before). */
async function settledMemory(memory: () => Promise<Memory>): Promise<Memory> {
  const closedAt = Date.now();
  let after = await memory();
  while (Date.now() - closedAt < SETTLE_MS) {
    await sleep(1_000);
    after = await memory();
  }
  return after;
}

interface Report extends Fanouts {
  idle: Window;
  before: Memory;
  connected: Memory;
  after: Memory;
}

function printReport({ idle, windows, deliveries, before, connected, after }: Report): void {
  const worst = Math.max(...windows.map((w) => w.maxMs));
  const p99s = windows.map((w) => w.p99Ms).sort((a, b) => a - b);
  const probes = windows.reduce((n, w) => n + w.count, 0);
  deliveries.sort((a, b) => a - b);
  const row = (label: string, value: string, goal = '', met?: boolean) =>
    console.log(`${label.padEnd(60)} ${value.padEnd(34)} ${goal.padEnd(12)} ${met === undefined ? '' : met ? 'met' : 'NOT MET'}`);
  console.log('');
  row('figure', 'measured', 'goal');
  row(
    '/health/live idle (no subscriber), p50 / p99 / max',
    `${idle.p50Ms.toFixed(1)} / ${idle.p99Ms.toFixed(1)} / ${idle.maxMs.toFixed(1)} ms (${idle.count})`,
  );
  row(
    `/health/live during ${WEBHOOKS} fan-outs to ${SUBSCRIPTIONS}, worst`,
    `${worst.toFixed(1)} ms (${probes} probes)`,
    '< 100 ms',
    worst < 100,
  );
  row(
    '  median / worst of the fan-outs’ p99 (idle p99 / max above)',
    `${p99s[Math.floor(p99s.length / 2)]!.toFixed(1)} / ${p99s.at(-1)!.toFixed(1)} ms`,
  );
  row(
    `webhook to the last of ${SUBSCRIPTIONS} subscribers, median / worst`,
    `${deliveries[Math.floor(deliveries.length / 2)]!.toFixed(0)} / ${deliveries.at(-1)!.toFixed(0)} ms`,
  );
  row(
    'gateway RSS: before subscribers / connected / after close',
    `${before.rss.toFixed(0)} / ${connected.rss.toFixed(0)} / ${after.rss.toFixed(0)} MB`,
  );
  row(
    'gateway heap used: before / connected / after close',
    `${before.heap.toFixed(0)} / ${connected.heap.toFixed(0)} / ${after.heap.toFixed(0)} MB`,
  );
  row(`  (after: ${(SETTLE_MS / 1000).toFixed(0)} s after the sockets closed)`, '');
}

async function main() {
  console.log(
    `${SUBSCRIPTIONS} paymentEvents subscriptions (${SUBJECTS} subjects x ${CONNECTIONS_PER_SUBJECT} connections x ${PER_CONNECTION}), ${WEBHOOKS} webhooks, /health/live probed throughout`,
  );
  // Subscription caps at their defaults: 500 per subject is exactly 10 connections x 50.
  const stack = await startBenchStack({
    WEBHOOK_SECRET,
    WEBHOOK_PATH,
    METRICS_TOKEN,
    WS_MAX_CONNECTIONS_PER_IP: '100000',
    SUBSCRIPTION_POLL_MS: '0',
  });
  const pid = stack.gateway.process.pid!;
  const origin = new URL(stack.graphqlUrl).origin;
  const memory = () => memoryOf(origin, pid);
  const probe = await startChild(
    process.execPath,
    ['--import', TSX_LOADER, join(ROOT, 'bench/lib/health-probe.ts'), `${origin}/health/live`],
    {
      label: 'health probe',
      ready: /PROBE READY/,
    },
  );
  const windowOf = async (from: number, to: number) =>
    JSON.parse((await probe.ask(`window ${from} ${to}`, 'window ')).slice('window '.length)) as Window;
  let subscribers: Child | null = null;
  try {
    // Idle: the same probe with no subscriber at all.
    await sleep(1_000);
    const idleFrom = epochNow();
    await sleep(3_000);
    const idle = await windowOf(idleFrom, epochNow());
    const before = await memory();
    console.log(`idle: ${JSON.stringify(idle)}; RSS ${before.rss.toFixed(0)} MB`);

    subscribers = await startSubscribers(stack);
    await warmUp(subscribers, origin);
    const connected = await memory();
    console.log(`subscribed: RSS ${connected.rss.toFixed(0)} MB`);
    const fanouts = await runFanouts(subscribers, origin, windowOf);

    await subscribers.stop();
    subscribers = null;
    const after = await settledMemory(memory);
    printReport({ idle, ...fanouts, before, connected, after });
  } finally {
    await subscribers?.stop();
    await probe.stop();
    await stack.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
