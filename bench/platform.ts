// Platform mode's costs (docs/platform-mode.md), each figure beside its goal:
// 1. per-request CPU of `charge(reference)` in platform mode (a merchant's staff token) against single mode, both on
//    the same Redis and sandbox, rounds alternated (goal: at most 5% more);
// 2. what 1,000 idle merchants cost: gateway heap (goal: at most 2 MB) and Redis memory (goal: at most 10 MB);
// 3. a noisy neighbour: merchant A floods at 50 times its budget while B reads; B's p99 against B alone (goal: at
//    most 1.2 times), and A answered RATE_LIMITED.
// Gateway, sandbox and client share one process (as bench/limits.ts): CPU is the process's, per request. Prints
// figures; asserts nothing.
//
//   node --expose-gc --import tsx bench/platform.ts        (needs Redis at 127.0.0.1:6379)
//   BENCH_PLATFORM_REQUESTS=3000 node --expose-gc --import tsx bench/platform.ts
import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { SCOPES, mintStaffToken } from '../src/auth/index.js';
import { loadConfig } from '../src/config.js';
import { startGateway, type RunningGateway } from '../src/gateway.js';
import { silentLogger } from '../src/logger.js';
import { connectRedis } from '../src/redis/index.js';
import { deleteNamespace, keysUnder } from './lib/redis-namespace.js';
import { inProcessGatewayEnv } from './lib/in-process-env.js';
import { startSandbox } from '../src/sandbox/index.js';

const REQUESTS = Number(process.env.BENCH_PLATFORM_REQUESTS ?? 1500);
const ROUNDS = Number(process.env.BENCH_PLATFORM_ROUNDS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_PLATFORM_CONCURRENCY ?? 8);
const IDLE_MERCHANTS = 1_000;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
const jwtSecret = randomBytes(32).toString('hex');
const namespaces = { single: `bench-single-${randomUUID()}`, platform: `bench-platform-${randomUUID()}` };
const base = {
  ...inProcessGatewayEnv(sandbox.url, jwtSecret, REDIS_URL),
  RATE_LIMIT_PER_MINUTE: '1000000000',
  RATE_LIMIT_STAFF_PER_MINUTE: '1000000000',
  RATE_LIMIT_MERCHANT_PER_MINUTE: '1000000000',
};
const KEK = randomBytes(32).toString('base64');
const single = await startGateway(loadConfig(base), silentLogger, { redisNamespace: namespaces.single });
const platform = await startGateway(loadConfig({ ...base, MERCHANT_MODE: 'platform', MERCHANT_KEYS_KEK: KEK }), silentLogger, {
  redisNamespace: namespaces.platform,
});
const agent = new Agent({ connections: CONCURRENCY * 2, keepAliveTimeout: 10_000 });
const mint = (merchantId?: string) => mintStaffToken({ secret: jwtSecret, scopes: SCOPES, subject: 'bench', ttlSeconds: 3600, merchantId });

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of the benchmark's own documents
type Answer = { data?: Record<string, any>; errors?: Array<{ extensions?: { code?: string } }> };

async function graphql(gateway: RunningGateway, token: string, query: string): Promise<Answer> {
  const res = await request(gateway.graphqlUrl, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query }),
  });
  return (await res.body.json()) as Answer;
}

const operator = (await mint()).token;
async function createMerchant(name: string): Promise<string> {
  // Variables, not literals: a thousand different documents would fill yoga's parse cache, not the merchants' cost.
  const res = await request(platform.graphqlUrl, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${operator}` },
    body: JSON.stringify({
      query:
        'mutation($i: CreateMerchantInput!) { createMerchant(input: $i) { ... on CreateMerchantPayload { merchant { merchantId } } } }',
      variables: {
        i: {
          name,
          apiKey: `sk_test_${name}_${randomBytes(6).toString('hex')}`,
          webhookSecret: `whsec_${randomBytes(8).toString('hex')}`,
          idempotencyKey: randomUUID(),
        },
      },
    }),
  });
  const body = (await res.body.json()) as { data: { createMerchant: { merchant: { merchantId: string } } } };
  return body.data.createMerchant.merchant.merchantId;
}
async function chargeQuery(gateway: RunningGateway, token: string): Promise<string> {
  const created = await graphql(
    gateway,
    token,
    `mutation { createCharge(input: { amount: 1500, phone: "70000000", provider: OPB_BF, idempotencyKey: "${randomUUID()}" }) { ... on CreateChargePayload { reference } } }`,
  );
  return `{ charge(reference: "${created.data!.createCharge.reference}") { reference status amount currency provider createdAt } }`;
}

/** `count` requests, CONCURRENCY at a time: latencies (ms) and the process CPU they took (µs). */
async function round(gateway: RunningGateway, token: string, query: string, count = REQUESTS) {
  const latencies: number[] = [];
  let next = 0;
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < count) {
        const t0 = performance.now();
        const body = await graphql(gateway, token, query);
        if (body.errors) throw new Error(JSON.stringify(body.errors));
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return { latencies, cpuMicros: cpu.user + cpu.system };
}
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

// 1. Per-request CPU, platform against single.
const singleToken = (await mint()).token;
const merchantA = await createMerchant('benchA');
const staffA = (await mint(merchantA)).token;
const sides = {
  single: { gateway: single, token: singleToken, query: await chargeQuery(single, singleToken), cpu: 0, n: 0, latencies: [] as number[] },
  platform: { gateway: platform, token: staffA, query: await chargeQuery(platform, staffA), cpu: 0, n: 0, latencies: [] as number[] },
};
for (const side of Object.values(sides)) await round(side.gateway, side.token, side.query, 300); // warm-up
for (let r = 0; r < ROUNDS; r++) {
  for (const name of r % 2 === 0 ? (['single', 'platform'] as const) : (['platform', 'single'] as const)) {
    const side = sides[name];
    const result = await round(side.gateway, side.token, side.query);
    side.cpu += result.cpuMicros;
    side.n += result.latencies.length;
    side.latencies.push(...result.latencies);
  }
}
const cpuPerRequest = (name: 'single' | 'platform') => sides[name].cpu / sides[name].n;
const cpuCost = cpuPerRequest('platform') / cpuPerRequest('single') - 1;

// 2. 1,000 idle merchants.
const gc = (globalThis as { gc?: () => void }).gc;
const heap = () => {
  gc?.();
  return process.memoryUsage().heapUsed;
};
const redis = await connectRedis({ url: REDIS_URL, namespace: namespaces.platform });
const redisBytes = async () => {
  let total = 0;
  for await (const keys of keysUnder(redis, namespaces.platform))
    for (const key of keys) total += Number((await redis.commands.call('MEMORY', 'USAGE', key)) ?? 0);
  return total;
};
const [heap0, redis0] = [heap(), await redisBytes()];
for (let i = 0; i < IDLE_MERCHANTS; i += 50) await Promise.all(Array.from({ length: 50 }, (_, j) => createMerchant(`idle${i + j}`)));
const [heapIdle, redisIdle] = [heap() - heap0, (await redisBytes()) - redis0];

// 3. Noisy neighbour: A floods (its budget: RATE_LIMIT_MERCHANT_PER_MINUTE of a gateway of its own settings).
const budget = 1_500; // per minute: B's own 700 requests fit, A's flood runs far beyond
const tight = await startGateway(
  loadConfig({
    ...base,
    MERCHANT_MODE: 'platform',
    MERCHANT_KEYS_KEK: KEK,
    RATE_LIMIT_MERCHANT_PER_MINUTE: String(budget),
  }),
  silentLogger,
  { redisNamespace: namespaces.platform },
);
const merchantB = await createMerchant('benchB');
const staffB = (await mint(merchantB)).token;
const queryB = await chargeQuery(tight, staffB);
await round(tight, staffB, queryB, 200); // warm-up
const alone = (await round(tight, staffB, queryB, 500)).latencies;
let flooding = true;
const floodAnswers = { ok: 0, rateLimited: 0 };
const floodQuery = sides.platform.query;
const flood = Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    // As fast as it is answered while B reads (its rate against A's budget is printed).
    for (let i = 0; flooding && i < (budget * 50) / CONCURRENCY; i++) {
      const body = await graphql(tight, staffA, floodQuery);
      if (body.errors?.[0]?.extensions?.code === 'RATE_LIMITED') floodAnswers.rateLimited += 1;
      else floodAnswers.ok += 1;
    }
  }),
);
const floodStart = performance.now();
const neighbour = (await round(tight, staffB, queryB, 500)).latencies;
const floodSeconds = (performance.now() - floodStart) / 1000;
flooding = false;
await flood;

console.log(`Platform mode, charge(reference), ${CONCURRENCY} concurrent, ${ROUNDS} alternated rounds of ${REQUESTS} per side`);
console.table({
  'CPU per request, single (µs)': { value: Math.round(cpuPerRequest('single')), goal: '' },
  'CPU per request, platform (µs)': { value: Math.round(cpuPerRequest('platform')), goal: '' },
  'platform cost (%)': { value: +(cpuCost * 100).toFixed(1), goal: '≤ 5' },
  'p50 single / platform (ms)': {
    value: `${pct(sides.single.latencies, 50).toFixed(2)} / ${pct(sides.platform.latencies, 50).toFixed(2)}`,
    goal: '',
  },
  [`gateway heap, ${IDLE_MERCHANTS} idle merchants (MB)`]: {
    value: +(heapIdle / 1e6).toFixed(2),
    goal: gc ? '≤ 2' : '≤ 2 (run with --expose-gc)',
  },
  [`Redis, ${IDLE_MERCHANTS} idle merchants (MB)`]: { value: +(redisIdle / 1e6).toFixed(2), goal: '≤ 10' },
  'B p99 alone (ms)': { value: +pct(alone, 99).toFixed(2), goal: '' },
  'B p99 beside A’s flood (ms)': { value: +pct(neighbour, 99).toFixed(2), goal: `≤ ${(pct(alone, 99) * 1.2).toFixed(2)} (1.2×)` },
  'A answered RATE_LIMITED / served': { value: `${floodAnswers.rateLimited} / ${floodAnswers.ok}`, goal: `served ≤ ${budget}` },
  'A’s flood, × its budget’s rate': {
    value: +((floodAnswers.rateLimited + floodAnswers.ok) / floodSeconds / (budget / 60)).toFixed(1),
    goal: '50 asked by the issue',
  },
});

await Promise.all([single.close(), platform.close(), tight.close()]);
for (const ns of Object.values(namespaces)) await deleteNamespace(redis, ns);
await redis.close();
await agent.close();
await sandbox.close();
