// Fairness between merchants in platform mode (docs/platform-mode.md), each figure beside its goal and its baseline
// (merchant B with A idle):
// 1. outgoing webhooks: with A's backlog of thousands of deliveries to a slow receiver, the time from B's event
//    logged to its first delivery (goal: well under 1 s), and B's deliveries' latency p99 against B alone;
// 2. B's first chunk after the approval of its batch, while A's 10,000-item batch runs and A floods (goal: within 1 s);
// 3. B's p99 on `charge(reference)` while A floods at 50 times its budget and runs that batch (goal: within 1.2 times
//    B's p99 alone; rounds with and without the flood alternated), and A answered RATE_LIMITED;
// 4. B's p99 while A's purge runs (A offboarded with its batch, index and keys; goal: the same bound).
// The gateway runs in a process of its own (bench/lib/fairness-gateway.ts: its event loop carries only its work, A's
// payroll runner included, as in production), pinned to core 0; the sandbox, the receivers and B's client share this
// one, on the other cores with A's flood, sent by wrk (bench/lib/wrk-flood.ts: a sender that costs the shared cores
// little, as a neighbour's traffic from elsewhere would) on an open-loop schedule at 50 times A's budget. B reads
// 100 times a second. Beside figure 3: the flood's rate while B was measured, the gateway's longest event-loop delay
// and its CPU alone and beside the flood, and what one of A's requests costs it. On the Redis at 127.0.0.1:6379. Prints the load
// average beside the figures; asserts nothing.
//
//   node --import tsx bench/platform-fairness.ts
//   BENCH_FAIRNESS_FIGURES=3 node --import tsx bench/platform-fairness.ts         (figure 3 only: about a minute)
//   BENCH_FAIRNESS_GATEWAY=inline …                                               (the gateway in this process)
//   BENCH_FAIRNESS_REFUSAL=yoga …                         (A refused in yoga's onParams, not before yoga: the earlier way)
//   BENCH_FAIRNESS_PROFILE=/tmp/flood.cpuprofile …   (the gateway's CPU during the rounds: bench/lib/profile-summary.ts)
//   BENCH_FAIRNESS_PIN=0 …                                 (every process on every core: the gateway not pinned to its own)
//   BENCH_FAIRNESS_READ_RATE=0 …                          (B's reads back to back, not 100 a second)
//   BENCH_FAIRNESS_CONTROL=1 …              (figure 3's A/A control: the flood stops before B's reads on both sides)
import { execFileSync, spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { SCOPES, mintStaffToken, type Scope } from '../src/auth/index.js';
import { loadConfig } from '../src/config.js';
import { startGateway } from '../src/gateway.js';
import { silentLogger } from '../src/logger.js';
import { connectRedis } from '../src/redis/index.js';
import { deleteNamespace } from './lib/redis-namespace.js';
import { inProcessGatewayEnv, platformBenchEnv } from './lib/in-process-env.js';
import { startSandbox } from '../src/sandbox/index.js';
import { accountTag } from '../src/sandbox/request-log.js';
import { WALLETS } from '../src/upstream/types.js';
import type { PaymentEventRecord } from '../src/events/payment-event.js';
import { startChild } from './lib/processes.js';
import { ROOT, TSX_LOADER } from './lib/stack.js';
import { startProfiler } from './lib/in-process-profile.js';
import { answerRate, wrkFlood, type AnswersByTenth, type FloodCounts } from './lib/wrk-flood.js';

const CONCURRENCY = Number(process.env.BENCH_FAIRNESS_CONCURRENCY ?? 8);
const READS = Number(process.env.BENCH_FAIRNESS_READS ?? 250);
/**
 * B's reads per second (a merchant's own traffic, which leaves the gateway room); BENCH_FAIRNESS_READ_RATE=0: back
 * to back, which keeps the gateway's core busy with B alone, so that any work beside it lengthens B's queue (what
 * it measures is then B's share of a saturated core, not its latency).
 */
const READ_RATE = Number(process.env.BENCH_FAIRNESS_READ_RATE ?? 100);
/** Rounds of B's reads with A's flood, each after one without it. */
const ROUNDS = Number(process.env.BENCH_FAIRNESS_ROUNDS ?? 3);
const PAYROLL = 10_000;
/** Each merchant's budget per minute: B's reads of every round fit in its own; A's flood asks 50 times as fast. */
const BUDGET = Number(process.env.BENCH_FAIRNESS_BUDGET ?? 2_000);
const FLOOD_TIMES = 50;
/** A's backlog of webhook deliveries, to a receiver that answers after RECEIVER_SLOW_MS. */
const BACKLOG = Number(process.env.BENCH_FAIRNESS_BACKLOG ?? 5_000);
const RECEIVER_SLOW_MS = 2_000;
/** B's events whose delivery latency is measured, logged at DELIVERY_RATE per second. */
const DELIVERIES = 200;
const DELIVERY_RATE = 100;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** BENCH_FAIRNESS_FIGURES=3: only the figures named (1 webhooks, 2 first chunk, 3 B's p99 beside the flood, 4 purge). */
const FIGURES = new Set((process.env.BENCH_FAIRNESS_FIGURES ?? '1,2,3,4').split(',').map((f) => Number(f.trim())));
/** BENCH_FAIRNESS_PROFILE=<file>: a CPU profile of this process while A floods (bench/lib/profile-summary.ts reads it). */
const PROFILE = process.env.BENCH_FAIRNESS_PROFILE ?? null;
/**
 * BENCH_FAIRNESS_GATEWAY=inline: the gateway in this process, beside the sandbox, the receivers and B's client (the
 * earlier setup: B's latency then also carries their work). Default: the gateway in a process of its own
 * (bench/lib/fairness-gateway.ts), whose event loop carries only the gateway's work, as in production.
 */
const GATEWAY_INLINE = process.env.BENCH_FAIRNESS_GATEWAY === 'inline';
/**
 * BENCH_FAIRNESS_REFUSAL=yoga: A's flood asks for application/graphql-response+json, which the refusal before yoga
 * (src/http/early-refusal.ts) leaves to yoga's onParams: the earlier way, measured on the same code.
 */
const FLOOD_ACCEPT = process.env.BENCH_FAIRNESS_REFUSAL === 'yoga' ? 'application/graphql-response+json' : undefined;
/**
 * BENCH_FAIRNESS_CONTROL=1: an A/A control of the bench's own noise: every round runs as usual (A's flood spends its
 * budget, its payroll runs), but the flood stops before B's reads "beside" it, so that both sides measure B alone.
 */
const CONTROL = process.env.BENCH_FAIRNESS_CONTROL === '1';
/** BENCH_FAIRNESS_FLOOD=node: A's flood from a Node process rather than wrk (a machine without wrk). */
const FLOOD_SENDER = process.env.BENCH_FAIRNESS_FLOOD === 'node' ? 'node' : 'wrk';
/**
 * The gateway alone on core 0, and this process (the sandbox, the receivers, B's client) with wrk on the other cores
 * (taskset): on a 2-core machine the nearest to production, where the gateway's core is shared neither with its
 * neighbour's traffic nor with its callers or the service. Redis stays where the scheduler puts it.
 * BENCH_FAIRNESS_PIN=0, or a machine without taskset or with one core: every process on every core.
 */
const PIN = !GATEWAY_INLINE && process.env.BENCH_FAIRNESS_PIN !== '0' && availableParallelism() >= 2 && hasTaskset();
if (PIN) execFileSync('taskset', ['-a', '-p', '-c', `1-${availableParallelism() - 1}`, String(process.pid)], { stdio: 'ignore' });
const load0 = loadavg();

const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
const jwtSecret = randomBytes(32).toString('hex');
const namespace = `bench-fairness-${randomUUID()}`;
const gatewayEnv = {
  ...inProcessGatewayEnv(sandbox.url, jwtSecret, REDIS_URL),
  ...platformBenchEnv(BUDGET),
  MERCHANT_OFFBOARD_GRACE: '1',
  ...(process.env.XPOLL ? { PAYOUT_BATCH_FOLLOW_POLL_MS: process.env.XPOLL } : {}),
};

/** What the benchmark asks of the gateway, wherever it runs. */
interface BenchGateway {
  graphqlUrl: string;
  /** Logs an event as the merchant's webhook route would. */
  publish(record: PaymentEventRecord): Promise<void>;
  /** Purges the offboarded merchants whose grace is over: how long it took (ms). */
  purge(): Promise<number>;
  /** The gateway's process's CPU so far (µs): with GATEWAY=inline, the whole benchmark's. */
  cpuMicros(): Promise<number>;
  /** Starts a CPU profile of the gateway's process; `stop` writes it. */
  profile(): Promise<{ stop(file: string): Promise<void> }>;
  /** The longest event-loop delay (ms) of the gateway's process since the last call. */
  loopDelayMax(): Promise<number>;
  close(): Promise<void>;
}

async function inlineGateway(): Promise<BenchGateway> {
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  const running = await startGateway(loadConfig(gatewayEnv), silentLogger, { redisNamespace: namespace });
  return {
    graphqlUrl: running.graphqlUrl,
    publish: async (record) => void (await running.bus.publishPaymentEventOnce(record, 3_600_000)),
    async purge() {
      const t0 = performance.now();
      await running.merchants!.purgeDue();
      return performance.now() - t0;
    },
    cpuMicros: async () => process.cpuUsage().user + process.cpuUsage().system,
    profile: () => startProfiler(),
    async loopDelayMax() {
      const max = loopDelay.max / 1e6;
      loopDelay.reset();
      return max;
    },
    close: () => running.close(),
  };
}

async function childGateway(): Promise<BenchGateway> {
  const args = ['--import', TSX_LOADER, join(ROOT, 'bench/lib/fairness-gateway.ts'), JSON.stringify(gatewayEnv), namespace];
  const child = await startChild(PIN ? 'taskset' : process.execPath, PIN ? ['-c', '0', process.execPath, ...args] : args, {
    ready: /^fairness gateway ready (\S+)/,
    label: 'gateway',
  });
  return {
    graphqlUrl: child.ready[1]!,
    publish: async (record) => void (await child.ask(`publish ${JSON.stringify(record)}`, `published ${record.id} `)),
    purge: async () => Number((await child.ask('purge', 'purged ')).slice('purged '.length)),
    cpuMicros: async () => Number((await child.ask('cpu', 'cpu ')).slice('cpu '.length)),
    loopDelayMax: async () => Number((await child.ask('loop', 'loop ')).slice('loop '.length)),
    async profile() {
      await child.ask('profile', 'profiling');
      return { stop: async (file) => void (await child.ask(`profiled ${file}`, 'profiled')) };
    },
    async close() {
      const exited = new Promise((resolve) => child.process.once('exit', resolve));
      child.process.stdin!.write('exit\n');
      await exited;
    },
  };
}

const gateway = GATEWAY_INLINE ? await inlineGateway() : await childGateway();
const agent = new Agent({ connections: CONCURRENCY * 3, keepAliveTimeout: 10_000 });
const token = async (scopes: Scope[], subject: string, merchantId?: string) =>
  (await mintStaffToken({ secret: jwtSecret, scopes, subject, ttlSeconds: 3600, merchantId })).token;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of the benchmark's own documents
type Answer = { data?: Record<string, any>; errors?: Array<{ extensions?: { code?: string } }> };
async function graphql(bearer: string, query: string, variables: Record<string, unknown> = {}): Promise<Answer> {
  const res = await request(gateway.graphqlUrl, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.body.json()) as Answer;
}

const operator = await token([...SCOPES], 'operator');
async function merchant(name: string) {
  const apiKey = `sk_test_${name}_${randomBytes(6).toString('hex')}`;
  const created = await graphql(
    operator,
    'mutation($i: CreateMerchantInput!) { createMerchant(input: $i) { ... on CreateMerchantPayload { merchant { merchantId } } } }',
    { i: { name, apiKey, webhookSecret: `whsec_${randomBytes(8).toString('hex')}`, idempotencyKey: randomUUID() } },
  );
  const id = created.data!.createMerchant.merchant.merchantId as string;
  for (const wallet of WALLETS) sandbox.topUp(apiKey, wallet, 1_000_000);
  const scopes: Scope[] = ['payments:read', 'payments:collect', 'payouts:write', 'webhooks:manage'];
  return {
    id,
    account: accountTag(apiKey),
    staff: await token(scopes, 'awa', id),
    approver: await token(['payouts:approve'], 'ibrahim', id),
  };
}
type Merchant = Awaited<ReturnType<typeof merchant>>;

const PREFIX = { opa_bf: '76', opb_bf: '70', opd_bf: '58', ope_bj: '0196', opf_bj: '0195' } as const;
/** A batch of `count` items of 100 XOF (phones never ending in 9: all paid), started, approved when asked. */
async function batch(m: Merchant, count: number, approve: boolean): Promise<{ id: string; approvedAt: number }> {
  const created = await graphql(
    m.staff,
    'mutation($i: CreatePayoutBatchInput!) { createPayoutBatch(input: $i) { ... on CreatePayoutBatchPayload { batch { batchId } } } }',
    { i: { idempotencyKey: randomUUID(), label: 'payroll', requireApproval: approve } },
  );
  const id = created.data!.createPayoutBatch.batch.batchId as string;
  for (let page = 0; page * 500 < count; page++) {
    const items = Array.from({ length: Math.min(500, count - page * 500) }, (_, i) => {
      const n = (page * 500 + i) * 10;
      const wallet = WALLETS[n % WALLETS.length]!;
      return { amount: 100, recipientPhone: PREFIX[wallet] + String(n % 1_000_000).padStart(6, '0') };
    });
    await graphql(m.staff, 'mutation($i: AddPayoutBatchItemsInput!) { addPayoutBatchItems(input: $i) { __typename } }', {
      i: { batchId: id, page: page + 1, items },
    });
  }
  const started = await graphql(m.staff, 'mutation($i: StartPayoutBatchInput!) { startPayoutBatch(input: $i) { __typename } }', {
    i: { batchId: id },
  });
  if (started.data?.startPayoutBatch.__typename !== 'StartPayoutBatchPayload') throw new Error(JSON.stringify(started));
  const approvedAt = Date.now();
  if (approve)
    await graphql(m.approver, 'mutation($i: ApprovePayoutBatchInput!) { approvePayoutBatch(input: $i) { __typename } }', {
      i: { batchId: id },
    });
  return { id, approvedAt };
}

const bulkCalls = (account: string) =>
  sandbox.requests.all().filter((r) => r.method === 'POST' && r.path.startsWith('/v1/payment/transfers/bulk') && r.account === account);

/** ms from the approval (asked) to the arrival at the service of the batch's first bulk call. */
async function firstChunkMs(m: Merchant): Promise<number> {
  const before = bulkCalls(m.account).length;
  const { approvedAt } = await batch(m, 100, true);
  for (;;) {
    const call = bulkCalls(m.account)[before];
    if (call) return call.at - approvedAt;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

async function chargeQuery(m: Merchant): Promise<string> {
  const created = await graphql(
    m.staff,
    `mutation { createCharge(input: { amount: 1500, phone: "70000000", provider: OPB_BF, idempotencyKey: "${randomUUID()}" }) { ... on CreateChargePayload { reference } } }`,
  );
  return `{ charge(reference: "${created.data!.createCharge.reference}") { reference status amount currency provider createdAt } }`;
}

/** `count` reads, CONCURRENCY at a time (at READ_RATE per second when set, else back to back): their latencies (ms). */
async function reads(bearer: string, query: string, count = READS): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < count) {
        const wait = READ_RATE ? start + ((next - 1) * 1000) / READ_RATE - performance.now() : 0;
        if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
        const t0 = performance.now();
        const body = await graphql(bearer, query);
        if (body.errors) throw new Error(JSON.stringify(body.errors));
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return latencies;
}
const p99 = (values: number[]) => [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor(0.99 * values.length))]!;

/**
 * A's flood of `query`, paced at FLOOD_TIMES times A's budget; `start` and `stop` it. Sent by wrk (bench/lib/wrk-flood.ts),
 * whose sender costs the shared cores little; BENCH_FAIRNESS_FLOOD=node: from a Node process (bench/lib/flood-client.ts).
 */
async function floodProcess(m: Merchant, query: string) {
  const rate = Math.round((BUDGET / 60) * FLOOD_TIMES);
  if (FLOOD_SENDER === 'wrk') {
    const flood = wrkFlood(gateway.graphqlUrl, m.staff, query, rate, CONCURRENCY * 8, FLOOD_ACCEPT);
    return { ...flood, multiple: () => multipleOf(flood.totals), close: async () => flood.stop() };
  }
  const child = await startChild(
    process.execPath,
    [
      '--import',
      TSX_LOADER,
      join(ROOT, 'bench/lib/flood-client.ts'),
      gateway.graphqlUrl,
      m.staff,
      query,
      String(rate),
      String(CONCURRENCY * 4),
    ],
    { ready: /^flood ready/, label: 'flood client' },
  );
  const totals: FloodCounts = { ok: 0, rateLimited: 0, other: 0, seconds: 0 };
  return {
    totals,
    start: () => child.ask('start', 'started'),
    async stop() {
      const counts = JSON.parse((await child.ask('stop', 'stopped ')).slice('stopped '.length)) as typeof totals;
      for (const key of Object.keys(totals) as Array<keyof typeof totals>) totals[key] += counts[key];
    },
    multiple: () => multipleOf(totals),
    /** Not counted by time: the Node sender reports its totals only. */
    answered: null as AnswersByTenth | null,
    close: () => child.stop(),
  };
}

/** Requests per second over every round, as a multiple of A's budget's rate. */
const multipleOf = (totals: FloodCounts) => (totals.ok + totals.rateLimited + totals.other) / totals.seconds / (BUDGET / 60);

/** Resolves once `bearer` is refused, plus a moment for the flood's served requests already under way to end. */
async function spentBudget(bearer: string, query: string) {
  for (let t0 = performance.now(); performance.now() - t0 < 30_000;) {
    const answer = await graphql(bearer, query);
    if (answer.errors?.some((e) => e.extensions?.code === 'RATE_LIMITED')) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
}

/** A receiver of webhooks: when each event `n` arrived; answers 204 after `delayMs`. */
async function receiver(delayMs: number) {
  const arrivals = new Map<number, number>();
  const waiting = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { n: number } }).data.n;
      if (!arrivals.has(n)) arrivals.set(n, performance.now());
      waiting.add(res);
      setTimeout(() => {
        waiting.delete(res);
        res.statusCode = 204;
        res.end();
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    async close() {
      for (const res of waiting) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function endpoint(m: Merchant, url: string): Promise<string> {
  const made = await graphql(
    m.staff,
    'mutation($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { ... on CreateWebhookEndpointPayload { endpoint { id } } } }',
    { i: { url, idempotencyKey: randomUUID() } },
  );
  return made.data!.createWebhookEndpoint.endpoint.id as string;
}

let eventNumber = 0;
/** Logs an event of the merchant as its webhook route does; returns its number (the receivers key arrivals by it). */
async function logEvent(m: Merchant): Promise<number> {
  const n = eventNumber++;
  const record: PaymentEventRecord = {
    id: `${m.id}:evt_${n}`,
    kind: 'charge.success',
    receivedAt: new Date().toISOString(),
    reference: `ch_${n}`,
    resourceType: null,
    payload: { event: 'charge.success', data: { n } },
    merchantId: m.id,
  };
  await gateway.publish(record);
  return n;
}

async function arrival(r: Awaited<ReturnType<typeof receiver>>, n: number): Promise<number> {
  for (;;) {
    const at = r.arrivals.get(n);
    if (at !== undefined) return at;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** B's first delivery (ms from its event logged to its arrival), then DELIVERIES more at DELIVERY_RATE: their p99. */
async function deliveries(m: Merchant, r: Awaited<ReturnType<typeof receiver>>): Promise<{ first: number; p99: number }> {
  const t0 = performance.now();
  const first = (await arrival(r, await logEvent(m))) - t0;
  const latencies = await Promise.all(
    Array.from({ length: DELIVERIES }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, (i * 1000) / DELIVERY_RATE));
      const logged = performance.now();
      return (await arrival(r, await logEvent(m))) - logged;
    }),
  );
  return { first, p99: p99(latencies) };
}

const a = await merchant('fairA');
const b = await merchant('fairB');
const queryA = await chargeQuery(a);
const queryB = await chargeQuery(b);

// 1. Outgoing webhooks: B alone, then beside A's backlog to a slow receiver.
const slow = await receiver(RECEIVER_SLOW_MS);
const fast = await receiver(0);
let hooks: { alone: { first: number; p99: number }; beside: { first: number; p99: number }; aDelivered: number } | null = null;
if (FIGURES.has(1)) {
  const endpointA = await endpoint(a, slow.url);
  await endpoint(b, fast.url);
  const hooksAlone = await deliveries(b, fast);
  for (let n = 0; n < BACKLOG; n += 100) await Promise.all(Array.from({ length: Math.min(100, BACKLOG - n) }, () => logEvent(a)));
  while (slow.arrivals.size === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  const hooksBeside = await deliveries(b, fast);
  hooks = { alone: hooksAlone, beside: hooksBeside, aDelivered: slow.arrivals.size };
  await graphql(a.staff, 'mutation($i: DeleteWebhookEndpointInput!) { deleteWebhookEndpoint(input: $i) { __typename } }', {
    i: { endpointId: endpointA },
  });
}

// 2. and 3. Baselines (B with A idle) alternated with rounds beside A's payroll and its flood from another process.
await reads(b.staff, queryB, 100); // warm-up
const firstAlone = FIGURES.has(2) ? await firstChunkMs(b) : 0;
const payroll = await batch(a, PAYROLL, false);
while (bulkCalls(a.account).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
const noisy = await floodProcess(a, queryA);
const profiler = PROFILE ? await gateway.profile() : null;
const alone: number[][] = [];
const beside: number[][] = [];
let firstBeside = 0;
/** The gateway's CPU (µs) and the wall time (ms) B alone and A's flood periods took, over every round. */
const spent = { aloneCpu: 0, aloneMs: 0, floodCpu: 0, floodMs: 0 };
const measured = async <T>(run: () => Promise<T>, into: 'alone' | 'flood'): Promise<T> => {
  const [cpu0, t0] = [await gateway.cpuMicros(), performance.now()];
  const result = await run();
  spent[`${into}Cpu`] += (await gateway.cpuMicros()) - cpu0;
  spent[`${into}Ms`] += performance.now() - t0;
  return result;
};
// A spends its budget first, under its flood, so that its served reads (its 2,000 full reads in a burst, and the
// garbage they leave) fall in neither side's measure: the two sides then differ by the flood alone. Within the
// budget's minute A stays refused through the rounds (each flood period checks it again).
await noisy.start();
await spentBudget(a.staff, queryA);
await noisy.stop();
await new Promise((resolve) => setTimeout(resolve, 2_000));
// The gateway's CPU with neither B nor A's flood (A's payroll runs through every period): taken out of both below.
const idleMs = 2_000;
const idleCpu = await measured(async () => {
  const cpu0 = await gateway.cpuMicros();
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  return (await gateway.cpuMicros()) - cpu0;
}, 'alone');
Object.assign(spent, { aloneCpu: 0, aloneMs: 0 });
/** µs of CPU per ms of wall time the gateway spends on A's payroll (and its timers) alone. */
const idleRate = idleCpu / idleMs;
/** B's measures beside the flood (Date.now() bounds): the flood's rate is read over them. */
const besideWindows: Array<[number, number]> = [];
const loopDelay = { alone: 0, beside: 0 };
for (let round = 0; round < ROUNDS; round++) {
  await gateway.loopDelayMax();
  alone.push(await measured(() => reads(b.staff, queryB), 'alone'));
  loopDelay.alone = Math.max(loopDelay.alone, await gateway.loopDelayMax());
  await measured(async () => {
    await noisy.start();
    // B is measured once A is refused (at once, unless its budget's minute ended: then it spends it again, within
    // 1.2 s at 50 times its rate) and any served reads of that burst are over: B pays for the refusals, not A's budget.
    await spentBudget(a.staff, queryA);
    if (round === 0 && FIGURES.has(2)) firstBeside = await firstChunkMs(b);
    if (CONTROL) await noisy.stop();
    await gateway.loopDelayMax();
    const from = Date.now();
    beside.push(await reads(b.staff, queryB));
    besideWindows.push([from, Date.now()]);
    loopDelay.beside = Math.max(loopDelay.beside, await gateway.loopDelayMax());
    if (!CONTROL) await noisy.stop();
  }, 'flood');
}
if (profiler) await profiler.stop(PROFILE!);
const aloneP99 = p99(alone.flat());
const besideP99 = p99(beside.flat());
const multiple = noisy.multiple();
/** The flood's rate while B was measured, as a multiple of A's budget's rate (wrk only: it counts answers by time). */
const answered = noisy.answered;
const multipleBeside = answered
  ? besideWindows.reduce((sum, [from, to]) => sum + answerRate(answered, from, to) * (to - from), 0) /
    besideWindows.reduce((sum, [from, to]) => sum + (to - from), 0) /
    (BUDGET / 60)
  : null;
// What one read of B and one request of A cost the gateway: each period's CPU less what the payroll took meanwhile
// (its idle rate), the flood's also less B's reads at what they cost alone. An estimate, not a profile.
const cpuPerRead = (spent.aloneCpu - idleRate * spent.aloneMs) / (ROUNDS * READS);
const floodRequests = noisy.totals.ok + noisy.totals.rateLimited + noisy.totals.other;
const cpuPerFloodRequest = (spent.floodCpu - idleRate * spent.floodMs - cpuPerRead * ROUNDS * READS) / floodRequests;
await noisy.close();
const aChunks = bulkCalls(a.account).length;

// 4. A offboarded and purged (its batch, still running, stops; every key its index names goes) while B reads.
const redis = await connectRedis({ url: REDIS_URL, namespace });
const aKeys = async () => (await redis.commands.keys(`${namespace}:{m:${a.id}}:*`)).length;
let purged: { keysBefore: number; keysAfter: number; keysLater: number; purgeMs: number; duringPurgeP99: number } | null = null;
if (FIGURES.has(4)) {
  await graphql(operator, 'mutation($i: OffboardMerchantInput!) { offboardMerchant(input: $i) { __typename } }', {
    i: { merchantId: a.id },
  });
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const keysBefore = await aKeys();
  let purgeMs = 0;
  const purge = gateway.purge().then((ms) => (purgeMs = ms));
  const duringPurgeP99 = p99(await reads(b.staff, queryB));
  await purge;
  const keysAfter = await aKeys();
  // A run that was still ending when A was offboarded must not make any of them again.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  purged = { keysBefore, keysAfter, keysLater: await aKeys(), purgeMs, duringPurgeP99 };
}

const load1 = loadavg();
console.log(
  `Platform fairness${CONTROL ? ' — A/A CONTROL: no flood while B reads on either side' : ''} (figures ${[...FIGURES].join(', ')}; gateway ${GATEWAY_INLINE ? 'in this process' : 'in a process of its own'}; A's flood from ${FLOOD_SENDER}, refused ${FLOOD_ACCEPT ? 'in yoga' : 'before yoga'}): A's ${BACKLOG} webhook deliveries to a receiver answering after ` +
    `${RECEIVER_SLOW_MS} ms (${hooks?.aDelivered ?? '-'} sent when B's were measured), B's ${DELIVERIES} at ${DELIVERY_RATE}/s; ` +
    `A's ${PAYROLL}-item payroll (${aChunks} chunks sent by then; id ${payroll.id}); ${ROUNDS} rounds of ${READS} reads of B, ` +
    `${CONCURRENCY} at a time${READ_RATE ? `, ${READ_RATE}/s` : ', back to back'}, without and with A's flood. ` +
    `Load average before: ${load0.map((l) => l.toFixed(2)).join(' ')}; after: ${load1.map((l) => l.toFixed(2)).join(' ')}`,
);
console.table({
  ...(hooks && {
    'B first delivery after its event, beside A’s backlog (ms)': {
      value: +hooks.beside.first.toFixed(1),
      baseline: +hooks.alone.first.toFixed(1),
      goal: '≤ 1000 (well under)',
    },
    'B deliveries’ latency p99 beside A’s backlog (ms)': {
      value: +hooks.beside.p99.toFixed(1),
      baseline: +hooks.alone.p99.toFixed(1),
      goal: `≤ ${(hooks.alone.p99 * 1.2).toFixed(1)} (1.2×)`,
    },
  }),
  ...(FIGURES.has(2) && { 'B first chunk after approval (ms)': { value: firstBeside, baseline: firstAlone, goal: '≤ 1000' } }),
  'B p99 charge(reference) beside A (ms)': {
    value: +besideP99.toFixed(2),
    baseline: +aloneP99.toFixed(2),
    goal: `≤ ${(aloneP99 * 1.2).toFixed(2)} (1.2×)`,
  },
  'A answered RATE_LIMITED / served': {
    value: `${noisy.totals.rateLimited} / ${noisy.totals.ok}${noisy.totals.other ? ` (${noisy.totals.other} other)` : ''}`,
    baseline: '',
    goal: 'RATE_LIMITED > 0',
  },
  'A’s flood, × its budget’s rate, while B was measured': {
    value: multipleBeside === null ? 'n/a (the Node sender)' : +multipleBeside.toFixed(1),
    baseline: `${multiple.toFixed(1)} over every flood period`,
    goal: `${FLOOD_TIMES} (the issue)`,
  },
  'the gateway’s longest event-loop delay (ms)': {
    value: `${loopDelay.beside.toFixed(1)} beside A`,
    baseline: `${loopDelay.alone.toFixed(1)} B alone`,
    goal: '',
  },
  [`gateway CPU, share of one core${GATEWAY_INLINE ? ' (whole process: inline)' : ''}`]: {
    value: `${((spent.floodCpu / 1000 / spent.floodMs) * 100).toFixed(0)}% beside A`,
    baseline: `${((spent.aloneCpu / 1000 / spent.aloneMs) * 100).toFixed(0)}% B alone`,
    goal: '',
  },
  [`gateway CPU per request (µs; payroll alone: ${((idleRate / 1000) * 100).toFixed(0)}% of a core)`]: {
    value: `≈ ${Math.round(cpuPerFloodRequest)} per A’s (${Math.round((noisy.totals.rateLimited / floodRequests) * 100)}% refused)`,
    baseline: `${Math.round(cpuPerRead)} per B’s read`,
    goal: 'refusal ≪ read',
  },
  ...(purged && {
    'B p99 while A’s purge runs (ms)': {
      value: +purged.duringPurgeP99.toFixed(2),
      baseline: +aloneP99.toFixed(2),
      goal: `≤ ${(aloneP99 * 1.2).toFixed(2)} (1.2×)`,
    },
    'A’s keys before / after the purge / 1.5 s later': {
      value: `${purged.keysBefore} / ${purged.keysAfter} / ${purged.keysLater}`,
      baseline: '',
      goal: 'after: 0',
    },
    'purge (ms)': { value: Math.round(purged.purgeMs), baseline: '', goal: '' },
  }),
});

await gateway.close();
await deleteNamespace(redis, namespace);
await redis.close();
await slow.close();
await fast.close();
await agent.close();
await sandbox.close();

/** Whether `taskset` (util-linux) is on this machine, to pin the gateway to a core of its own. */
function hasTaskset(): boolean {
  return spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;
}
