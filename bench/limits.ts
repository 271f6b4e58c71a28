// What the limits of src/limits/ cost on the hottest read: `charge(reference)`
// through a gateway with every limit on (armor, one-money-mutation rule, upstream
// budget, rate limits, body cap, connection caps) and through one with them off,
// against one embedded sandbox, rounds alternated so a noisy neighbour on this
// shared machine hits both sides alike. Prints figures; asserts nothing.
//
//   npx tsx bench/limits.ts            (also run by `npm run bench`)
//   BENCH_LIMITS_REQUESTS=3000 BENCH_LIMITS_ROUNDS=3 npx tsx bench/limits.ts
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import { SCOPES, mintStaffToken } from '../src/auth/index.js';
import { loadConfig } from '../src/config.js';
import { startGateway, type RunningGateway } from '../src/gateway.js';
import { silentLogger } from '../src/logger.js';
import { startSandbox } from '../src/sandbox/index.js';

const REQUESTS = Number(process.env.BENCH_LIMITS_REQUESTS ?? 1500);
const ROUNDS = Number(process.env.BENCH_LIMITS_ROUNDS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_LIMITS_CONCURRENCY ?? 8);

const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
const apiKey = `sk_test_bench_${randomBytes(6).toString('hex')}`;
const jwtSecret = randomBytes(32).toString('hex');
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  PAYMENT_BASE_URL: sandbox.url,
  PAYMENT_API_KEY: apiKey,
  AUTH_JWT_SECRET: jwtSecret,
  LOG_LEVEL: 'silent',
  HEALTH_PROBE_MS: '3600000',
  // The rate limiter still counts every request; it just never trips during the run.
  RATE_LIMIT_PER_MINUTE: '1000000000',
  RATE_LIMIT_STAFF_PER_MINUTE: '1000000000',
});
const on = await startGateway(config, silentLogger);
const off = await startGateway(config, silentLogger, { withoutLimits: true });
const token = (await mintStaffToken({ secret: jwtSecret, scopes: SCOPES, subject: 'bench', ttlSeconds: 3600 })).token;
const agent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 10_000 });

async function graphql(gateway: RunningGateway, query: string): Promise<Record<string, unknown>> {
  const res = await request(gateway.graphqlUrl, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query }),
  });
  const body = (await res.body.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
  if (res.statusCode !== 200 || body.errors) throw new Error(`unexpected answer ${res.statusCode}: ${JSON.stringify(body)}`);
  return body.data!;
}

const created = await graphql(
  on,
  `mutation { createCharge(input: { amount: 1500, phone: "70000000", provider: OPB_BF, idempotencyKey: "${randomBytes(8).toString('hex')}" }) { ... on CreateChargePayload { reference } } }`,
);
const reference = (created.createCharge as { reference: string }).reference;
const QUERY = `{ charge(reference: "${reference}") { reference status amount currency provider createdAt } }`;

async function round(gateway: RunningGateway): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < REQUESTS) {
        const t0 = performance.now();
        await graphql(gateway, QUERY);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return latencies;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const results = { on: [] as number[], off: [] as number[], onSeconds: 0, offSeconds: 0 };
await round(on); // warm-up: JIT, connection pools, the sandbox's charge
await round(off);
for (let r = 0; r < ROUNDS; r++) {
  for (const side of r % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
    const t0 = performance.now();
    results[side].push(...(await round(side === 'on' ? on : off)));
    results[`${side}Seconds`] += (performance.now() - t0) / 1000;
  }
}

const row = (side: 'on' | 'off') => {
  const sorted = [...results[side]].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    'req/s': Math.round(sorted.length / results[`${side}Seconds`]),
    'p50 ms': +pct(sorted, 50).toFixed(2),
    'p95 ms': +pct(sorted, 95).toFixed(2),
    'p99 ms': +pct(sorted, 99).toFixed(2),
  };
};
const table = { 'limits off': row('off'), 'limits on': row('on') };
console.log(
  `charge(reference), ${CONCURRENCY} concurrent, ${ROUNDS} alternated rounds of ${REQUESTS} per side (gateway, sandbox and client in one process)`,
);
console.table(table);
const p50Cost = table['limits on']['p50 ms'] - table['limits off']['p50 ms'];
const throughputCost = 1 - table['limits on']['req/s'] / table['limits off']['req/s'];
console.log(JSON.stringify({ p50CostMs: +p50Cost.toFixed(3), throughputCostPercent: +(throughputCost * 100).toFixed(1) }));

await on.close();
await off.close();
await agent.close();
await sandbox.close();
