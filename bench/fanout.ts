// Live fan-out with the production configuration: signed webhooks into the gateway,
// results out to many graphql-ws connections held by other processes.
// 1. One webhook at a time to N paymentEvents subscribers: per delivery, the time from
//    posting the webhook to its arrival; the figure is p99 over every delivery (so
//    "until the last one has it", taken over many webhooks). The same subscriber processes are
//    then measured against a bare graphql-ws broadcast (bench/lib/broadcast-baseline.ts): the
//    floor of this harness, printed beside the gateway's figure.
// 2. M connections, each watching its own charge, while webhooks arrive at a steady
//    rate, each moving one charge to a final state: p99 from webhook to arrival.
// 3. Resident memory of the gateway per idle authenticated connection.
//
//   npx tsx bench/fanout.ts
//   BENCH_SUBSCRIBERS=1000 BENCH_WATCHERS=10000 BENCH_WEBHOOK_RATE=100 npx tsx bench/fanout.ts
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { signBody } from '../src/inbound-webhooks/signature.js';
import { startChild, type Child } from './lib/processes.js';
import { ROOT, TSX_LOADER, startBenchStack, type BenchStack } from './lib/stack.js';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 20);
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 10_000);
const WEBHOOK_RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 100);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 10);
const IDLE = Number(process.env.BENCH_IDLE ?? 2000);
/** Connections one subscriber process holds at most. */
const PER_PROCESS = 2500;
const WEBHOOK_SECRET = randomBytes(24).toString('hex');
const WEBHOOK_PATH = '/webhooks/payment';

const epochNow = () => performance.timeOrigin + performance.now();
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function startSubscribers(
  stack: Pick<BenchStack, 'graphqlUrl' | 'token'>,
  total: number,
  mode: 'events' | 'charges' | 'idle',
  prefix = '',
): Promise<Child[]> {
  const children: Child[] = [];
  for (let offset = 0; offset < total; offset += PER_PROCESS) {
    const spec = { url: stack.graphqlUrl, token: stack.token, connections: Math.min(PER_PROCESS, total - offset), mode, prefix, offset };
    children.push(
      await startChild(process.execPath, ['--import', TSX_LOADER, join(ROOT, 'bench/lib/subscribers.ts'), JSON.stringify(spec)], {
        label: `subscribers (${mode})`,
        ready: /SUBSCRIBERS READY/,
        timeoutMs: 300_000,
      }),
    );
  }
  return children;
}

async function postWebhook(webhookUrl: string, event: string, data: Record<string, unknown>): Promise<void> {
  const body = JSON.stringify({ event, data });
  const res = await request(webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-webhook-hash': signBody(body, WEBHOOK_SECRET, 'hmac-sha256-hex') },
    body,
  });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`webhook answered ${res.statusCode}`);
}

async function arrivals(children: Child[], marker: string, expected: number, timeoutMs = 30_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = await Promise.all(children.map(async (c) => Number((await c.ask(`count ${marker}`, `count ${marker} `)).split(' ')[2])));
    const total = counts.reduce((a, b) => a + b, 0);
    if (total >= expected || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const lists = await Promise.all(
    children.map(
      async (c) => JSON.parse((await c.ask(`times ${marker}`, `times ${marker} `)).slice(`times ${marker} `.length)) as number[],
    ),
  );
  return lists.flat();
}

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

function row(label: string, value: string, goal: string, met: boolean) {
  console.log(`${label.padEnd(58)} ${value.padEnd(30)} ${goal.padEnd(22)} ${met ? 'met' : 'NOT MET'}`);
}

interface Fanout {
  p50: number;
  p99: number;
}

/** Subscribes SUBSCRIBERS connections to paymentEvents on `target`, then sends WEBHOOKS events one at a time with `send`. */
async function fanout(target: Pick<BenchStack, 'graphqlUrl' | 'token'>, send: (marker: string) => Promise<void>): Promise<Fanout> {
  const subscribers = await startSubscribers(target, SUBSCRIBERS, 'events');
  try {
    // Subscriptions are registered some time after connection_ack: warm up until one event reaches all.
    for (let i = 0; ; i++) {
      const marker = `warm_${i}`;
      await send(marker);
      if ((await arrivals(subscribers, marker, SUBSCRIBERS, 2000)).length >= SUBSCRIBERS) break;
    }
    const latencies: number[] = [];
    for (let i = 0; i < WEBHOOKS; i++) {
      const marker = `fan_${i}_${randomBytes(3).toString('hex')}`;
      const sent = epochNow();
      await send(marker);
      const times = await arrivals(subscribers, marker, SUBSCRIBERS);
      if (times.length < SUBSCRIBERS) console.log(`warning: event ${i} reached ${times.length} of ${SUBSCRIBERS}`);
      latencies.push(...times.map((t) => t - sent));
    }
    latencies.sort((a, b) => a - b);
    return { p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  } finally {
    await Promise.all(subscribers.map((c) => c.stop()));
  }
}

/** Part 3, run first on a quiet gateway: resident memory per idle authenticated connection. */
async function measureIdleMemory(stack: BenchStack): Promise<() => void> {
  const pid = stack.gateway.process.pid!;
  const before = rssKb(pid);
  const idle = await startSubscribers(stack, IDLE, 'idle');
  await new Promise((r) => setTimeout(r, 2000));
  const perConnectionKb = (rssKb(pid) - before) / IDLE;
  await Promise.all(idle.map((c) => c.stop()));
  return () =>
    row(`memory per idle authenticated connection (${IDLE})`, `${perConnectionKb.toFixed(1)} KB`, '<= 10 KB', perConnectionKb <= 10);
}

/** The bare graphql-ws broadcast (bench/lib/broadcast-baseline.ts) measured with the same subscribers: the harness's floor. */
async function baselineFanout(): Promise<Fanout> {
  const baseline = await startChild(process.execPath, ['--import', TSX_LOADER, join(ROOT, 'bench/lib/broadcast-baseline.ts')], {
    label: 'broadcast baseline',
    ready: /BASELINE READY (\S+)/,
  });
  try {
    const broadcastUrl = baseline.ready[1]!.replace(/\/graphql$/, '/broadcast');
    return await fanout({ graphqlUrl: baseline.ready[1]!, token: 'none' }, async (marker) => {
      await (await request(`${broadcastUrl}?marker=${marker}`, { method: 'POST' })).body.text();
    });
  } finally {
    await baseline.stop();
  }
}

/** Part 1: one webhook at a time to every paymentEvents subscriber, and the same through the bare broadcast baseline. */
async function measureFanout(stack: BenchStack, webhookUrl: string): Promise<Array<() => void>> {
  const gateway = await fanout(stack, (marker) => postWebhook(webhookUrl, 'charge.success', { reference: marker, id: marker }));
  const baseline = await baselineFanout();
  return [
    () =>
      row(
        `1 webhook -> ${SUBSCRIBERS} paymentEvents, p99`,
        `${gateway.p99.toFixed(1)} ms (p50 ${gateway.p50.toFixed(1)})`,
        '<= 50 ms',
        gateway.p99 <= 50,
      ),
    () =>
      console.log(
        `${'  baseline: bare graphql-ws broadcast, same subscribers'.padEnd(58)} ${`${baseline.p99.toFixed(1)} ms (p50 ${baseline.p50.toFixed(1)})`.padEnd(30)} ${`gateway adds ${(gateway.p99 - baseline.p99).toFixed(1)} ms at p99`}`,
      ),
  ];
}

/** Sends WEBHOOK_RATE webhooks a second, each moving one watched charge to its final state; returns when each was sent. */
async function sendFinalStates(stack: BenchStack, webhookUrl: string, prefix: string, total: number): Promise<Map<string, number>> {
  const sentAt = new Map<string, number>();
  const started = epochNow();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / WEBHOOK_RATE;
    const wait = due - epochNow();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const reference = `${prefix}${i}`;
    // The service has the charge in its final state before it calls back, as a real one does.
    await (await request(`${stack.stubUrl}/_stub/status?reference=${reference}&status=success`)).body.text();
    sentAt.set(reference, epochNow());
    void postWebhook(webhookUrl, 'charge.success', { reference, id: reference, status: 'success' });
  }
  return sentAt;
}

/** Part 2: each connection watches its own charge; webhooks move them to a final state at a steady rate. */
async function measureWatchers(stack: BenchStack, webhookUrl: string): Promise<() => void> {
  const prefix = `ch_watch_${randomBytes(3).toString('hex')}_`;
  const watchers = await startSubscribers(stack, WATCHERS, 'charges', prefix);
  try {
    const total = Math.min(WATCHERS, WEBHOOK_RATE * RATE_SECONDS);
    const sentAt = await sendFinalStates(stack, webhookUrl, prefix, total);
    const latencies: number[] = [];
    let missing = 0;
    for (const [reference, sent] of sentAt) {
      const times = await arrivals(watchers, reference, 1, 10_000);
      if (times.length === 0) missing++;
      else latencies.push(times[0]! - sent);
    }
    latencies.sort((a, b) => a - b);
    const p99 = percentile(latencies, 99);
    if (missing) console.log(`warning: ${missing} of ${total} watched charges never got their update`);
    return () =>
      row(
        `${WATCHERS} watchers, ${WEBHOOK_RATE} webhooks/s, p99 delivery`,
        `${p99.toFixed(1)} ms (p50 ${percentile(latencies, 50).toFixed(1)})`,
        '<= 50 ms',
        p99 <= 50 && missing === 0,
      );
  } finally {
    await Promise.all(watchers.map((c) => c.stop()));
  }
}

async function main() {
  console.log(
    `${SUBSCRIBERS} paymentEvents subscribers x ${WEBHOOKS} webhooks; ${WATCHERS} charge watchers at ${WEBHOOK_RATE} webhooks/s for ${RATE_SECONDS} s; ${IDLE} idle connections`,
  );
  // Every connection uses the one bench token: one subject holding 10,000 subscriptions, far past the per-subject cap.
  const stack = await startBenchStack({
    WEBHOOK_SECRET,
    WEBHOOK_PATH,
    WS_MAX_CONNECTIONS_PER_IP: '100000',
    SUBSCRIPTION_POLL_MS: '0',
    MAX_SUBSCRIPTIONS_PER_SUBJECT: '100000',
    MAX_SUBSCRIPTIONS: '100000',
  });
  const webhookUrl = stack.graphqlUrl.replace(/\/graphql$/, WEBHOOK_PATH);
  const results: Array<() => void> = [];
  try {
    // 3 first, on a quiet gateway.
    results.push(await measureIdleMemory(stack));
    results.push(...(await measureFanout(stack, webhookUrl)));
    results.push(await measureWatchers(stack, webhookUrl));
  } finally {
    await stack.stop();
  }
  console.log('');
  console.log(`${'figure'.padEnd(58)} ${'measured'.padEnd(30)} ${'goal'.padEnd(22)}`);
  for (const print of results) print();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
