// Fairness of live reconciliation between merchants (platform mode, docs/platform-mode.md), printed beside its
// goal and its baseline: the time from merchant B's charge being due for a look (its webhook never comes) to B's
// synthesized event at B's webhook receiver, with B alone, then while merchant A has a backlog of BACKLOG watched
// charges due at once (charges made through the gateway whose customers never confirm: each look finds them
// unchanged). The lease holder takes merchants in turn, at most 50 looks each per pass (src/reconcile/reconciler.ts),
// so A's backlog may cost B one turn of A's looks, never the whole backlog (goal: within 1 s of B alone).
// Gateway, sandbox and receiver share this process, on the Redis at 127.0.0.1:6379; real timers
// (RECONCILE_AFTER_MS=1000, a pass every 250 ms). Prints the load average beside the figures; asserts nothing.
//
//   node --import tsx bench/platform-reconcile.ts
import { loadavg } from 'node:os';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { mintStaffToken, SCOPES, type Scope } from '../src/auth/index.js';
import { loadConfig } from '../src/config.js';
import { startGateway } from '../src/gateway.js';
import { silentLogger } from '../src/logger.js';
import { connectRedis } from '../src/redis/index.js';
import { redisMerchantReconcileStore } from '../src/reconcile/store.js';
import { startSandbox } from '../src/sandbox/index.js';
import { inProcessGatewayEnv, platformBenchEnv } from './lib/in-process-env.js';
import { deleteNamespace } from './lib/redis-namespace.js';

const BACKLOG = Number(process.env.BENCH_RECONCILE_BACKLOG ?? 5_000);
const ROUNDS = Number(process.env.BENCH_RECONCILE_ROUNDS ?? 5);
const AFTER_MS = 1_000;
const PAY_OFFLINE_MS = 200;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const load0 = loadavg();

// No webhook from the sandbox: every outcome is learned by a look.
const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', delays: { payOfflineMs: PAY_OFFLINE_MS } });
const jwtSecret = randomBytes(32).toString('hex');
const namespace = `bench-reconcile-${randomUUID()}`;
const gateway = await startGateway(
  loadConfig({
    ...inProcessGatewayEnv(sandbox.url, jwtSecret, REDIS_URL),
    ...platformBenchEnv(),
    RATE_LIMIT_MONEY_PER_MINUTE: '1000000000',
    RATE_LIMIT_STAFF_MONEY_PER_MINUTE: '1000000000',
    RECONCILE_AFTER_MS: String(AFTER_MS),
    SUBSCRIPTION_POLL_MS: '0',
  }),
  silentLogger,
  { redisNamespace: namespace },
);
const agent = new Agent({ connections: 32, keepAliveTimeout: 10_000 });
const token = async (scopes: readonly Scope[], subject: string, merchantId?: string) =>
  (await mintStaffToken({ secret: jwtSecret, scopes, subject, ttlSeconds: 3600, merchantId })).token;
const operator = await token(SCOPES, 'operator');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of the benchmark's own documents
async function graphql(bearer: string, query: string, variables: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await request(gateway.graphqlUrl, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ query, variables }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const answer = (await res.body.json()) as { data?: Record<string, any>; errors?: unknown };
  if (!answer.data) throw new Error(`no data: ${JSON.stringify(answer.errors)}`);
  return answer.data;
}

async function merchant(name: string): Promise<{ id: string; staff: string }> {
  const created = await graphql(
    operator,
    'mutation($i: CreateMerchantInput!) { createMerchant(input: $i) { ... on CreateMerchantPayload { merchant { merchantId } } } }',
    {
      i: {
        name,
        apiKey: `sk_test_${randomBytes(8).toString('hex')}`,
        webhookSecret: randomBytes(16).toString('hex'),
        idempotencyKey: randomUUID(),
      },
    },
  );
  const id = created.createMerchant.merchant.merchantId as string;
  return { id, staff: await token(['payments:read', 'payments:collect', 'webhooks:manage'], `staff-${name}`, id) };
}

const CREATE_CHARGE =
  'mutation($i: CreateChargeInput!) { createCharge(input: $i) { __typename ... on CreateChargePayload { reference } } }';
async function charge(staff: string, input: Record<string, unknown>): Promise<string> {
  const created = (await graphql(staff, CREATE_CHARGE, { i: { amount: 1000, idempotencyKey: randomUUID(), ...input } })).createCharge;
  if (created.__typename !== 'CreateChargePayload') throw new Error(`createCharge: ${created.__typename}`);
  return created.reference as string;
}

// B's receiver: when each reference's synthesized charge.success arrives.
const arrivals = new Map<string, number>();
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const event = JSON.parse(body) as { type?: string; data?: { reference?: string } };
    if (event.type === 'charge.success' && event.data?.reference) arrivals.set(event.data.reference, performance.now());
    res.writeHead(204).end();
  });
}).listen(0, '127.0.0.1');
await new Promise((resolve) => receiver.once('listening', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

const a = await merchant('a');
const b = await merchant('b');
await graphql(b.staff, 'mutation($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { __typename } }', {
  i: { url: receiverUrl, kinds: ['charge.success'], idempotencyKey: randomUUID() },
});

/** B's charge, paid on the phone (USSD) with no webhook: ms from its watch being due to its event at B's receiver. */
async function bWait(): Promise<number> {
  const createdAt = performance.now();
  const reference = await charge(b.staff, { phone: '70000000', provider: 'OPB_BF', confirmationMethod: 'USSD' });
  while (!arrivals.has(reference)) {
    if (performance.now() - createdAt > 60_000) throw new Error(`B's ${reference} not reconciled within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return arrivals.get(reference)! - (createdAt + AFTER_MS);
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
const alone: number[] = [];
for (let i = 0; i < ROUNDS; i++) alone.push(await bWait());

// A's backlog: charges whose customers never confirm (OTP never sent), all due together.
const t0 = performance.now();
for (let done = 0; done < BACKLOG; done += 50) {
  await Promise.all(Array.from({ length: Math.min(50, BACKLOG - done) }, () => charge(a.staff, { phone: '58000000', provider: 'OPC_BF' })));
}
const made = performance.now() - t0;
// Each look finds A's charges unchanged and puts the next one off (2 s, 4 s... up to 16 × RECONCILE_AFTER_MS): A's
// watches then come due faster than the 50 looks a pass gives A, so A keeps a backlog due at every pass. How many
// are due is read from A's watch list (in Redis, under A's tag) as each of B's charges is made.
const redis = await connectRedis({ url: REDIS_URL, namespace });
const aWatches = redisMerchantReconcileStore(redis, { itemTtlMs: 3_600_000 }, a.id);
const aDue = async () => (await aWatches.due(Date.now(), BACKLOG)).length;
await new Promise((resolve) => setTimeout(resolve, 20 * AFTER_MS));
const beside: number[] = [];
const dueThen: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  dueThen.push(await aDue());
  beside.push(await bWait());
}

const fmt = (values: number[]) => `median ${median(values).toFixed(0)} ms, worst ${Math.max(...values).toFixed(0)} ms`;
const load1 = loadavg();
console.log(`reconciliation fairness (platform mode, RECONCILE_AFTER_MS=${AFTER_MS}, ${ROUNDS} charges of B each way)`);
console.log(`  B's event after its charge was due, B alone:                  ${fmt(alone)}`);
console.log(`  the same beside A's ${BACKLOG} watched charges (made in ${(made / 1000).toFixed(1)} s): ${fmt(beside)}`);
console.log(`  A's watches due as each of B's charges was made: ${dueThen.join(', ')}`);
console.log(`  goal: within 1,000 ms of B alone -> ${median(beside) - median(alone) <= 1_000 ? 'met' : 'MISSED'}`);
console.log(
  `  load average ${load0.map((l) => l.toFixed(2)).join(' ')} before, ${load1.map((l) => l.toFixed(2)).join(' ')} after (2 cores)`,
);

receiver.close();
await agent.close();
await gateway.close();
await sandbox.close();
await deleteNamespace(redis, namespace);
await redis.close();
