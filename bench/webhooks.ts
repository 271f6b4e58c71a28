// Webhooks to the merchant's servers (issue 27), with the production configuration: the gateway built, live mode,
// Redis (a redis-server of this bench's own, so that its memory is this bench's alone), a stub of the payment
// service; signed webhooks of the service into the gateway, Standard Webhooks out to the merchants' receivers
// (bench/lib/webhook-receivers.ts), each party in its own process. Printed beside its goal and its baseline:
// 1. Throughput: N events in the log, then one fast local receiver's endpoint replays them: deliveries per second
//    (the intake of the same events, webhooks answered per second, printed beside it).
// 2. Latency at 100 events/s, one receiver: from posting the service's webhook to the receiver's arrival, p50 and
//    p99; beside it the webhook's own answer time and a direct POST to the receiver (the harness's floor).
// 3. 100 endpoints at R events/s, all healthy, then with 10 that never answer: the healthy ones' p99, both runs.
// 4. Redis memory through M events with one endpoint down (connection refused) against the same with it up.
//
//   npm run bench:webhooks
//   BENCH_WEBHOOK_THROUGHPUT_EVENTS=20000 BENCH_WEBHOOK_MEMORY_EVENTS=100000 npm run bench:webhooks
//   BENCH_WEBHOOK_PARTS=isolation npm run bench:webhooks   (some parts only: throughput,latency,isolation,memory)
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { request } from 'undici';
import { signBody } from '../src/inbound-webhooks/signature.js';
import { load } from './lib/load.js';
import { cpuSecondsOf } from './lib/runtimes.js';
import { startChild, type Child } from './lib/processes.js';
import { ROOT, TSX_LOADER, startBenchStack, type BenchStack } from './lib/stack.js';

const THROUGHPUT_EVENTS = Number(process.env.BENCH_WEBHOOK_THROUGHPUT_EVENTS ?? 10_000);
const LATENCY_RATE = 100;
const LATENCY_SECONDS = Number(process.env.BENCH_WEBHOOK_LATENCY_SECONDS ?? 10);
const MANY_ENDPOINTS = 100;
const SILENT_ENDPOINTS = 10;
const MANY_RATE = Number(process.env.BENCH_WEBHOOK_MANY_RATE ?? 2);
const MANY_SECONDS = Number(process.env.BENCH_WEBHOOK_MANY_SECONDS ?? 20);
const MEMORY_EVENTS = Number(process.env.BENCH_WEBHOOK_MEMORY_EVENTS ?? 100_000);
const INTAKE_CONCURRENCY = 32;
const PARTS = new Set((process.env.BENCH_WEBHOOK_PARTS ?? 'throughput,latency,isolation,memory').split(','));
/** The receiver whose port is closed for 4. (after the healthy and the silent ones). */
const CLOSED_RECEIVER = MANY_ENDPOINTS + SILENT_ENDPOINTS;
/** WEBHOOK_RETRY_SET_MAX's and WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT's defaults. */
const RETRY_SET_MAX = 1000;
const MAX_IN_FLIGHT = 10;
const WEBHOOK_SECRET = randomBytes(24).toString('hex');

const epochNow = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const sortedOf = (values: number[]) => [...values].sort((a, b) => a - b);
const ms = (value: number) => `${value.toFixed(1)} ms`;
const loadLine = () =>
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;

function row(label: string, value: string, goal: string, met: boolean | null) {
  console.log(`| ${label} | ${value} | ${goal} | ${met === null ? '' : met ? 'met' : 'NOT MET'} |`);
}

async function sparePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A redis-server of the bench's own (no persistence), stopped by its PID. */
async function startOwnRedis(): Promise<{ url: string; client: Redis; stop(): Promise<void> }> {
  const port = await sparePort();
  const dir = mkdtempSync(join(tmpdir(), 'bench-webhooks-redis-'));
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 1 });
  client.on('error', () => undefined); // refused until the server listens: the loop below retries
  for (let i = 0; ; i++) {
    try {
      await client.connect();
      await client.ping();
      break;
    } catch {
      if (i > 100) throw new Error('redis-server did not start');
      client.disconnect();
      await sleep(50);
    }
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    client,
    stop: async () => {
      client.disconnect();
      const gone = new Promise((resolve) => child.once('exit', resolve));
      process.kill(child.pid!, 'SIGKILL');
      await gone;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Harness {
  stack: BenchStack;
  redis: Redis;
  receivers: Child;
  receiverUrls: string[];
  webhookUrl: string;
  gql(query: string, variables?: Record<string, unknown>): Promise<Record<string, Record<string, unknown>>>;
}

/** Webhooks the gateway answered 503 (it could not log them in time: the service sends those again, and so does the bench). */
let refusedWebhooks = 0;

/** The service's webhook for one charge event, sent again after a 503 as the service does; when it was first sent and when answered 200. */
async function postWebhook(h: Harness, reference: string): Promise<{ sent: number; answered: number }> {
  const body = JSON.stringify({
    event: 'charge.success',
    data: { reference, id: reference, status: 'success', amount: 2500, currency: 'XOF', payment_method: 'mobile_money' },
  });
  const headers = { 'content-type': 'application/json', 'x-webhook-hash': signBody(body, WEBHOOK_SECRET, 'hmac-sha256-hex') };
  const sent = epochNow();
  for (let attempt = 1; ; attempt++) {
    const res = await request(h.webhookUrl, { method: 'POST', headers, body });
    await res.body.dump();
    if (res.statusCode === 200) return { sent, answered: epochNow() };
    if (res.statusCode !== 503 || attempt >= 20) throw new Error(`webhook answered ${res.statusCode}`);
    refusedWebhooks++;
    await sleep(100);
  }
}

/** Posts `count` webhooks as fast as INTAKE_CONCURRENCY posters go; webhooks answered per second. */
async function intake(h: Harness, prefix: string, count: number): Promise<number> {
  let next = 0;
  const started = epochNow();
  await Promise.all(
    Array.from({ length: INTAKE_CONCURRENCY }, async () => {
      while (next < count) await postWebhook(h, `${prefix}${next++}`);
    }),
  );
  return count / ((epochNow() - started) / 1000);
}

/** Posts webhooks at `rate` per second for `seconds`; the send time of each reference. */
async function atRate(
  h: Harness,
  prefix: string,
  rate: number,
  seconds: number,
): Promise<{ sent: Map<string, number>; answerMs: number[] }> {
  const sent = new Map<string, number>();
  const answerMs: number[] = [];
  const posts: Array<Promise<void>> = [];
  const started = epochNow();
  for (let i = 0; i < rate * seconds; i++) {
    const wait = started + (i * 1000) / rate - epochNow();
    if (wait > 0) await sleep(wait);
    const reference = `${prefix}${i}`;
    posts.push(
      postWebhook(h, reference).then((t) => {
        sent.set(reference, t.sent);
        answerMs.push(t.answered - t.sent);
      }),
    );
  }
  await Promise.all(posts);
  return { sent, answerMs };
}

type Arrival = [endpointIndex: number, reference: string, epochMs: number];

async function arrivals(h: Harness, prefix: string): Promise<Arrival[]> {
  const line = await h.receivers.ask(`arrivals ${prefix}`, 'arrivals ');
  return JSON.parse(line.slice('arrivals '.length)) as Arrival[];
}

/** Waits until `expected` arrivals with the prefix are in (or `timeoutMs` passed); how many came. */
async function awaitCount(h: Harness, prefix: string, expected: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = Number((await h.receivers.ask(`count ${prefix}`, 'count ')).slice('count '.length));
    if (got >= expected || Date.now() > deadline) return got;
    await sleep(200);
  }
}

/** Waits as awaitCount, then returns the arrivals. */
async function awaitArrivals(h: Harness, prefix: string, expected: number, timeoutMs: number): Promise<Arrival[]> {
  await awaitCount(h, prefix, expected, timeoutMs);
  return arrivals(h, prefix);
}

async function createEndpoint(h: Harness, url: string): Promise<string> {
  const data = await h.gql(
    'mutation($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { __typename ... on CreateWebhookEndpointPayload { endpoint { id } } ... on PaymentError { message } } }',
    { i: { url, kinds: ['charge.success'], idempotencyKey: randomBytes(8).toString('hex') } },
  );
  const created = data.createWebhookEndpoint as { endpoint?: { id: string }; message?: string };
  if (!created.endpoint) throw new Error(`createWebhookEndpoint: ${JSON.stringify(created)}`);
  return created.endpoint.id;
}

async function deleteEndpoints(h: Harness, ids: string[]): Promise<void> {
  for (const id of ids) {
    await h.gql('mutation($id: ID!) { deleteWebhookEndpoint(input: { endpointId: $id }) { __typename } }', { id });
  }
}

/** 1. Deliveries per second from a backlog in the log to one fast receiver (a replay), beside the intake. */
async function throughput(h: Harness): Promise<void> {
  const prefix = `ch_tp_${randomBytes(3).toString('hex')}_`;
  const since = new Date(Date.now() - 1000).toISOString();
  const intakeRate = await intake(h, prefix, THROUGHPUT_EVENTS);
  const id = await createEndpoint(h, h.receiverUrls[0]!);
  const replay = await h.gql(
    'mutation($id: ID!, $since: DateTime!) { replayWebhookEvents(input: { endpointId: $id, since: $since }) { __typename ... on ReplayWebhookEventsPayload { eventsQueued } ... on PaymentError { message } } }',
    { id, since },
  );
  const queued = (replay.replayWebhookEvents as { eventsQueued?: number }).eventsQueued;
  const got = await awaitArrivals(h, prefix, THROUGHPUT_EVENTS, 300_000);
  await deleteEndpoints(h, [id]);
  const times = sortedOf(got.map(([, , at]) => at));
  // Sustained: the middle 90% of the deliveries, so the replay's start and the last stragglers do not count.
  const lo = times[Math.floor(times.length * 0.05)]!;
  const hi = times[Math.floor(times.length * 0.95)]!;
  const rate = (Math.floor(times.length * 0.95) - Math.floor(times.length * 0.05)) / ((hi - lo) / 1000);
  const whole = times.length / ((times.at(-1)! - times[0]!) / 1000);
  console.log(
    `\n1. ${THROUGHPUT_EVENTS} events in the log, then replayed (${queued ?? '?'} queued) to one fast local receiver; ${loadLine()}\n`,
  );
  console.log('| figure | measured | goal | |');
  console.log('|---|---|---|---|');
  row(
    'deliveries per second, sustained (middle 90%)',
    `${rate.toFixed(0)}/s (whole run ${whole.toFixed(0)}/s; ${got.length} delivered)`,
    '>= 1,000/s',
    rate >= 1000,
  );
  // The harness's floor: the same receiver driven directly by autocannon with as many requests in flight as the gateway
  // may hold for one endpoint (WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT).
  const body = JSON.stringify({
    type: 'charge.success',
    timestamp: new Date().toISOString(),
    data: { reference: 'direct_tp', status: 'SUCCESS' },
  });
  const direct = await load(
    { url: h.receiverUrls[0]!, method: 'POST', headers: { 'content-type': 'application/json', 'webhook-id': 'direct' }, body },
    MAX_IN_FLIGHT,
    5,
  );
  row(
    `  beside it: the receiver POSTed directly, ${MAX_IN_FLIGHT} in flight (autocannon)`,
    `${direct.requestsPerSecond.toFixed(0)}/s`,
    '',
    null,
  );
  row('  beside it: the service webhooks the gateway took in', `${intakeRate.toFixed(0)}/s (${INTAKE_CONCURRENCY} posters)`, '', null);
}

/** 2. Latency from the service's webhook to the merchant's receiver at 100 events/s, beside its floors. */
async function latency(h: Harness): Promise<void> {
  const id = await createEndpoint(h, h.receiverUrls[0]!);
  await atRate(h, `ch_warm_${randomBytes(3).toString('hex')}_`, LATENCY_RATE, 1);
  const prefix = `ch_lat_${randomBytes(3).toString('hex')}_`;
  const { sent, answerMs } = await atRate(h, prefix, LATENCY_RATE, LATENCY_SECONDS);
  const got = await awaitArrivals(h, prefix, sent.size, 30_000);
  await deleteEndpoints(h, [id]);
  const latencies = sortedOf(got.map(([, reference, at]) => at - sent.get(reference)!));
  const answers = sortedOf(answerMs);
  const direct = sortedOf(await directPosts(h.receiverUrls[0]!, LATENCY_RATE, LATENCY_SECONDS));
  console.log(
    `\n2. ${LATENCY_RATE} events/s for ${LATENCY_SECONDS} s, one receiver (${got.length} of ${sent.size} delivered); ${loadLine()}\n`,
  );
  console.log('| figure | measured | goal | |');
  console.log('|---|---|---|---|');
  row('service webhook posted -> merchant receiver, p50', ms(percentile(latencies, 50)), '<= 20 ms', percentile(latencies, 50) <= 20);
  row('service webhook posted -> merchant receiver, p99', ms(percentile(latencies, 99)), '<= 100 ms', percentile(latencies, 99) <= 100);
  row(
    '  beside it: the webhook answered 200 by the gateway, p50 / p99',
    `${ms(percentile(answers, 50))} / ${ms(percentile(answers, 99))}`,
    '',
    null,
  );
  row('  beside it: a direct POST to the receiver, p50 / p99', `${ms(percentile(direct, 50))} / ${ms(percentile(direct, 99))}`, '', null);
}

/** The harness's floor: the same receiver POSTed directly from here, at the same rate. */
async function directPosts(url: string, rate: number, seconds: number): Promise<number[]> {
  const body = JSON.stringify({
    type: 'charge.success',
    timestamp: new Date().toISOString(),
    data: { reference: 'direct_x', status: 'SUCCESS' },
  });
  const times: number[] = [];
  const started = epochNow();
  const posts: Array<Promise<void>> = [];
  for (let i = 0; i < rate * seconds; i++) {
    const wait = started + (i * 1000) / rate - epochNow();
    if (wait > 0) await sleep(wait);
    const t0 = epochNow();
    posts.push(
      request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'webhook-id': `direct_${i}` }, body }).then(
        async (res) => {
          await res.body.dump();
          times.push(epochNow() - t0);
        },
      ),
    );
  }
  await Promise.all(posts);
  return times;
}

/** Redis's count of each command it ran so far (INFO commandstats). */
async function commandCounts(redis: Redis): Promise<Map<string, number>> {
  const info = await redis.info('commandstats');
  return new Map([...info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map(([, name, calls]) => [name!, Number(calls)]));
}

/** Redis commands per delivery between two counts, the busiest first (a figure the machine's load does not change). */
function perDelivery(before: Map<string, number>, after: Map<string, number>, deliveries: number): string {
  const diff = [...after].map(([name, calls]) => [name, (calls - (before.get(name) ?? 0)) / deliveries] as const);
  const total = diff.reduce((sum, [, n]) => sum + n, 0);
  const top = diff
    .filter(([, n]) => n >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${n.toFixed(2)}`);
  return `${total.toFixed(2)} (${top.join(', ')})`;
}

/** One run of 3.: `healthy` + `silent` endpoints (the receivers' first ones, then the silent ones); healthy p99. */
async function manyRun(
  h: Harness,
  silent: number,
): Promise<{ p50: number; p99: number; delivered: number; expected: number; commands: string; cpuMs: number }> {
  const healthyCount = MANY_ENDPOINTS - silent;
  const urls = [...h.receiverUrls.slice(0, healthyCount), ...h.receiverUrls.slice(MANY_ENDPOINTS, MANY_ENDPOINTS + silent)];
  const ids: string[] = [];
  for (const url of urls) ids.push(await createEndpoint(h, url));
  await atRate(h, `ch_mwarm_${randomBytes(3).toString('hex')}_`, MANY_RATE, 2);
  const prefix = `ch_many${silent}_${randomBytes(3).toString('hex')}_`;
  const countsBefore = await commandCounts(h.redis);
  const cpuBefore = cpuSecondsOf(h.stack.gateway.process.pid!) ?? NaN;
  const { sent } = await atRate(h, prefix, MANY_RATE, MANY_SECONDS);
  const expected = sent.size * healthyCount;
  // Silent receivers record what they take too: count only the healthy ones' arrivals, or the wait ends early.
  const healthyArrivals = async () => (await arrivals(h, prefix)).filter(([index]) => index < healthyCount);
  const deadline = Date.now() + 30_000;
  let got = await healthyArrivals();
  while (got.length < expected && Date.now() < deadline) {
    await sleep(200);
    got = await healthyArrivals();
  }
  const commands = perDelivery(countsBefore, await commandCounts(h.redis), Math.max(got.length, 1));
  // The gateway's CPU time (user + system) per healthy delivery: the intake of the service's webhooks included.
  const cpuMs = (((cpuSecondsOf(h.stack.gateway.process.pid!) ?? NaN) - cpuBefore) * 1000) / Math.max(got.length, 1);
  await deleteEndpoints(h, ids);
  const latencies = sortedOf(got.map(([, reference, at]) => at - sent.get(reference)!));
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), delivered: got.length, expected, commands, cpuMs };
}

/** 3. The healthy endpoints' p99 with 10 of 100 never answering, against all 100 healthy. */
async function isolation(h: Harness): Promise<void> {
  const allHealthy = await manyRun(h, 0);
  const withSilent = await manyRun(h, SILENT_ENDPOINTS);
  const ratio = withSilent.p99 / allHealthy.p99;
  console.log(
    `\n3. ${MANY_ENDPOINTS} endpoints, ${MANY_RATE} events/s for ${MANY_SECONDS} s (${MANY_RATE * MANY_ENDPOINTS} deliveries/s); ${loadLine()}\n`,
  );
  console.log('| figure | measured | goal | |');
  console.log('|---|---|---|---|');
  row(
    `all ${MANY_ENDPOINTS} healthy: p50 / p99`,
    `${ms(allHealthy.p50)} / ${ms(allHealthy.p99)} (${allHealthy.delivered} of ${allHealthy.expected})`,
    '',
    null,
  );
  row(
    `${SILENT_ENDPOINTS} never answer: the ${MANY_ENDPOINTS - SILENT_ENDPOINTS} healthy ones' p50 / p99`,
    `${ms(withSilent.p50)} / ${ms(withSilent.p99)} (${withSilent.delivered} of ${withSilent.expected})`,
    '',
    null,
  );
  row('healthy p99 with silent endpoints / all-healthy p99', `${(ratio * 100).toFixed(0)}%`, 'within 120%', ratio <= 1.2);
  row(
    `  beside it: the gateway's CPU time per healthy delivery, all healthy / ${SILENT_ENDPOINTS} never answer`,
    `${allHealthy.cpuMs.toFixed(2)} ms / ${withSilent.cpuMs.toFixed(2)} ms`,
    '',
    null,
  );
  row('  beside it: Redis commands per healthy delivery, all healthy', allHealthy.commands, '', null);
  row(`  beside it: Redis commands per healthy delivery, ${SILENT_ENDPOINTS} never answer`, withSilent.commands, '', null);
}

/** Redis's view of the outbound webhooks: used_memory, the webhooks keys' MEMORY USAGE, the log's stream. */
async function redisMemory(redis: Redis): Promise<{ used: number; webhookKeys: number; keys: number; stream: number }> {
  const info = await redis.info('memory');
  const used = Number(/used_memory:(\d+)/.exec(info)![1]);
  let webhookKeys = 0;
  let keys = 0;
  let stream = 0;
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'COUNT', 1000);
    cursor = next;
    for (const key of batch) {
      const size = (await redis.memory('USAGE', key, 'SAMPLES', '0')) ?? 0;
      if (key.includes('webhooks')) {
        webhookKeys += size;
        keys++;
      }
      if (key.endsWith('events:log')) stream += size;
    }
  } while (cursor !== '0');
  return { used, webhookKeys, keys, stream };
}

interface MemoryPoint {
  used: number;
  webhookKeys: number;
  stream: number;
  waiting: number | null;
}

/** Redis's figures now, and the endpoint's deliveries waiting as the gateway reports them. */
async function memoryPoint(h: Harness, id: string): Promise<MemoryPoint> {
  const { used, webhookKeys, stream } = await redisMemory(h.redis);
  const list = await h.gql('{ webhookEndpoints(first: 100) { edges { node { id health { deliveriesWaiting } } } } }');
  const edges = (list.webhookEndpoints as { edges: Array<{ node: { id: string; health: { deliveriesWaiting: number } } }> }).edges;
  return { used, webhookKeys, stream, waiting: edges.find((e) => e.node.id === id)?.node.health.deliveriesWaiting ?? null };
}

/**
 * One run of 4.: an endpoint up or down (its port closed) through MEMORY_EVENTS events, in two halves; Redis's
 * figures before, after the first half and at the end. Up: each half waits until it is delivered. Down: each half
 * waits 15 s more, long enough for the endpoint's retry set to fill (a refused connection fails at once).
 */
async function memoryRun(h: Harness, up: boolean) {
  const id = await createEndpoint(h, h.receiverUrls[up ? 0 : CLOSED_RECEIVER]!);
  const prefix = `ch_mem${up ? 'up' : 'down'}_${randomBytes(3).toString('hex')}_`;
  const points: MemoryPoint[] = [await memoryPoint(h, id)];
  const rates: number[] = [];
  for (const half of [0, 1]) {
    rates.push(await intake(h, `${prefix}${half}_`, MEMORY_EVENTS / 2));
    if (up) await awaitCount(h, prefix, ((half + 1) * MEMORY_EVENTS) / 2, 600_000);
    else await sleep(15_000);
    points.push(await memoryPoint(h, id));
  }
  const delivered = Number((await h.receivers.ask(`count ${prefix}`, 'count ')).slice('count '.length));
  await deleteEndpoints(h, [id]);
  return { points, delivered, intakeRate: (rates[0]! + rates[1]!) / 2 };
}

/** 4. Redis memory with one endpoint down through MEMORY_EVENTS events, against the same run with it up. */
async function memory(h: Harness): Promise<void> {
  await h.receivers.ask(`close ${CLOSED_RECEIVER}`, 'closed ');
  const up = await memoryRun(h, true);
  const down = await memoryRun(h, false);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
  const grew = (run: typeof up, key: 'used' | 'webhookKeys' | 'stream', from = 0, to = 2) => run.points[to]![key] - run.points[from]![key];
  console.log(`\n4. Redis memory through ${MEMORY_EVENTS} events (two halves), one endpoint, settings at their defaults; ${loadLine()}\n`);
  console.log('| figure | endpoint up | endpoint down (connection refused) | goal | |');
  console.log('|---|---|---|---|---|');
  console.log(`| used_memory grew by | ${kb(grew(up, 'used'))} | ${kb(grew(down, 'used'))} | | |`);
  console.log(
    `| the event log's stream grew by (MEMORY USAGE; the same events) | ${kb(grew(up, 'stream'))} | ${kb(grew(down, 'stream'))} | | |`,
  );
  console.log(`| outbound webhooks' keys grew by, whole run | ${kb(grew(up, 'webhookKeys'))} | ${kb(grew(down, 'webhookKeys'))} | | |`);
  const secondHalf = grew(down, 'webhookKeys', 1, 2);
  const firstHalf = grew(down, 'webhookKeys', 0, 1);
  const bounded = secondHalf <= 0.05 * Math.max(firstHalf, 1) && (down.points[2]!.waiting ?? Infinity) <= RETRY_SET_MAX + MAX_IN_FLIGHT;
  console.log(
    `| outbound webhooks' keys grew by: first half / second half | ${kb(grew(up, 'webhookKeys', 0, 1))} / ${kb(grew(up, 'webhookKeys', 1, 2))} | ${kb(firstHalf)} / ${kb(secondHalf)} | second half adds nothing (<= 5% of the first): bounded, not per event | ${bounded ? 'met' : 'NOT MET'} |`,
  );
  console.log(
    `| deliveries waiting (after each half) | ${up.points[1]!.waiting} / ${up.points[2]!.waiting} | ${down.points[1]!.waiting} / ${down.points[2]!.waiting} | <= ${RETRY_SET_MAX} + ${MAX_IN_FLIGHT} in flight | |`,
  );
  const extra = grew(down, 'used') - grew(up, 'used');
  console.log(`| down minus up: used_memory | ${kb(extra)} (${(extra / MEMORY_EVENTS).toFixed(1)} bytes per event) | | | |`);
  console.log(
    `| intake, webhooks per second; delivered | ${up.intakeRate.toFixed(0)}/s; ${up.delivered} | ${down.intakeRate.toFixed(0)}/s; ${down.delivered} | | |`,
  );
}

async function main(): Promise<void> {
  if (process.env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const ownRedis = await startOwnRedis();
  const stack = await startBenchStack({
    REDIS_URL: ownRedis.url,
    WEBHOOK_SECRET,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_ENDPOINTS_MAX: '200',
    LOG_LEVEL: 'warn',
  }).catch(async (err: unknown) => {
    await ownRedis.stop();
    throw err;
  });
  const receivers = await startChild(
    process.execPath,
    [
      '--import',
      TSX_LOADER,
      join(ROOT, 'bench/lib/webhook-receivers.ts'),
      JSON.stringify({ healthy: MANY_ENDPOINTS, silent: SILENT_ENDPOINTS + 1 }),
    ],
    { label: 'receivers', ready: /RECEIVERS READY (.+)$/ },
  );
  const h: Harness = {
    stack,
    redis: ownRedis.client,
    receivers,
    receiverUrls: JSON.parse(receivers.ready[1]!) as string[],
    webhookUrl: stack.graphqlUrl.replace(/\/graphql$/, '/webhooks/payment'),
    gql: async (query, variables = {}) => {
      const res = await request(stack.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.token}` },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.body.json()) as { data?: Record<string, Record<string, unknown>>; errors?: unknown };
      if (!body.data) throw new Error(JSON.stringify(body.errors));
      return body.data;
    },
  };
  try {
    console.log(`webhooks to merchants' servers: gateway built, live mode, its own Redis, stub service; ${loadLine()}`);
    if (PARTS.has('throughput')) await throughput(h);
    if (PARTS.has('latency')) await latency(h);
    if (PARTS.has('isolation')) await isolation(h);
    if (PARTS.has('memory')) await memory(h);
    console.log(`\nwebhooks the gateway answered 503 (sent again, as the service does): ${refusedWebhooks}; ${loadLine()}`);
  } finally {
    await receivers.stop();
    await stack.stop();
    await ownRedis.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
