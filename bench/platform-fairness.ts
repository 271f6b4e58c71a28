// Fairness between merchants in platform mode (docs/platform-mode.md#payout-batches), each figure beside its goal
// and its baseline (merchant B with A idle):
// 1. B's first chunk after the approval of its batch, while A's 10,000-item batch runs and A floods (goal: within 1 s);
// 2. B's p99 on `charge(reference)` while A floods at (up to) 50 times its budget and runs that batch (goal: within
//    1.2 times B's p99 alone), and A answered RATE_LIMITED;
// 3. B's p99 while A's purge runs (A offboarded with its batch, index and keys; goal: the same bound).
// Gateway, sandbox and client share one process (as bench/platform.ts), on the Redis at 127.0.0.1:6379. Prints the
// load average beside the figures; asserts nothing.
//
//   node --import tsx bench/platform-fairness.ts
import { loadavg } from 'node:os';
import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { SCOPES, mintStaffToken, type Scope } from '../src/auth/index.js';
import { loadConfig } from '../src/config.js';
import { startGateway } from '../src/gateway.js';
import { silentLogger } from '../src/logger.js';
import { connectRedis } from '../src/redis/index.js';
import { startSandbox } from '../src/sandbox/index.js';
import { accountTag } from '../src/sandbox/request-log.js';
import { WALLETS } from '../src/upstream/types.js';

const CONCURRENCY = Number(process.env.BENCH_FAIRNESS_CONCURRENCY ?? 8);
const READS = Number(process.env.BENCH_FAIRNESS_READS ?? 500);
const PAYROLL = 10_000;
/** A's budget per minute (B's reads fit in its own); A's flood asks as fast as it is answered. */
const BUDGET = 3_000;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const load0 = loadavg();

const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
const jwtSecret = randomBytes(32).toString('hex');
const namespace = `bench-fairness-${randomUUID()}`;
const gateway = await startGateway(
  loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PAYMENT_BASE_URL: sandbox.url,
    PAYMENT_API_KEY: `sk_test_bench_${randomBytes(6).toString('hex')}`,
    AUTH_JWT_SECRET: jwtSecret,
    LOG_LEVEL: 'silent',
    HEALTH_PROBE_MS: '3600000',
    REDIS_URL,
    MERCHANT_MODE: 'platform',
    MERCHANT_KEYS_KEK: randomBytes(32).toString('base64'),
    MERCHANT_OFFBOARD_GRACE: '1',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    RATE_LIMIT_STAFF_PER_MINUTE: '1000000000',
    RATE_LIMIT_MERCHANT_PER_MINUTE: String(BUDGET),
  }),
  silentLogger,
  { redisNamespace: namespace },
);
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
  const scopes: Scope[] = ['payments:read', 'payments:collect', 'payouts:write'];
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

/** `count` reads, CONCURRENCY at a time: their latencies (ms). */
async function reads(bearer: string, query: string, count = READS): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < count) {
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

/** A floods `charge(reference)` as fast as it is answered until `stop()`; counts its answers. */
function flood(m: Merchant, query: string) {
  let on = true;
  const answers = { ok: 0, rateLimited: 0 };
  const t0 = performance.now();
  const done = Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (on) {
        const body = await graphql(m.staff, query);
        if (body.errors?.[0]?.extensions?.code === 'RATE_LIMITED') answers.rateLimited += 1;
        else answers.ok += 1;
      }
    }),
  );
  return {
    answers,
    async stop() {
      on = false;
      await done;
      return (answers.ok + answers.rateLimited) / ((performance.now() - t0) / 1000) / (BUDGET / 60);
    },
  };
}

const a = await merchant('fairA');
const b = await merchant('fairB');
const queryA = await chargeQuery(a);
const queryB = await chargeQuery(b);

// Baselines: B with A idle.
await reads(b.staff, queryB, 200); // warm-up
const aloneP99 = p99(await reads(b.staff, queryB));
const firstAlone = await firstChunkMs(b);

// A's payroll runs and A floods.
const payroll = await batch(a, PAYROLL, false);
while (bulkCalls(a.account).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
const noisy = flood(a, queryA);
// B is measured once A has spent its budget: from then on A is answered RATE_LIMITED.
while (noisy.answers.rateLimited === 0) await new Promise((resolve) => setTimeout(resolve, 20));
const firstBeside = await firstChunkMs(b);
const besideP99 = p99(await reads(b.staff, queryB));
const multiple = await noisy.stop();
const aChunks = bulkCalls(a.account).length;

// A offboarded and purged (its batch, still running, stops; every key its index names goes) while B reads.
await graphql(operator, 'mutation($i: OffboardMerchantInput!) { offboardMerchant(input: $i) { __typename } }', { i: { merchantId: a.id } });
await new Promise((resolve) => setTimeout(resolve, 1_100));
const redis = await connectRedis({ url: REDIS_URL, namespace });
const aKeys = async () => (await redis.commands.keys(`${namespace}:{m:${a.id}}:*`)).length;
const keysBefore = await aKeys();
let purgeMs = 0;
const purge = (async () => {
  const t0 = performance.now();
  await gateway.merchants!.purgeDue();
  purgeMs = performance.now() - t0;
})();
const duringPurgeP99 = p99(await reads(b.staff, queryB));
await purge;
const keysAfter = await aKeys();
// A run that was still ending when A was offboarded must not make any of them again.
await new Promise((resolve) => setTimeout(resolve, 1_500));
const keysLater = await aKeys();

const load1 = loadavg();
console.log(
  `Platform fairness: A's ${PAYROLL}-item payroll (${aChunks} chunks sent by then; id ${payroll.id}), ${CONCURRENCY} concurrent readers. ` +
    `Load average before: ${load0.map((l) => l.toFixed(2)).join(' ')}; after: ${load1.map((l) => l.toFixed(2)).join(' ')}`,
);
console.table({
  'B first chunk after approval (ms)': { value: firstBeside, baseline: firstAlone, goal: '≤ 1000' },
  'B p99 charge(reference) beside A (ms)': {
    value: +besideP99.toFixed(2),
    baseline: +aloneP99.toFixed(2),
    goal: `≤ ${(aloneP99 * 1.2).toFixed(2)} (1.2×)`,
  },
  'A answered RATE_LIMITED / served': {
    value: `${noisy.answers.rateLimited} / ${noisy.answers.ok}`,
    baseline: '',
    goal: 'RATE_LIMITED > 0',
  },
  'A’s flood, × its budget’s rate': { value: +multiple.toFixed(1), baseline: '', goal: '50 asked by the issue' },
  'B p99 while A’s purge runs (ms)': {
    value: +duringPurgeP99.toFixed(2),
    baseline: +aloneP99.toFixed(2),
    goal: `≤ ${(aloneP99 * 1.2).toFixed(2)} (1.2×)`,
  },
  'A’s keys before / after the purge / 1.5 s later': {
    value: `${keysBefore} / ${keysAfter} / ${keysLater}`,
    baseline: '',
    goal: 'after: 0',
  },
  'purge (ms)': { value: Math.round(purgeMs), baseline: '', goal: '' },
});

await gateway.close();
let cursor = '0';
do {
  const [next, keys] = await redis.commands.scan(cursor, 'MATCH', `${namespace}*`, 'COUNT', 1000);
  if (keys.length) await redis.commands.del(...keys);
  cursor = next;
} while (cursor !== '0');
await redis.close();
await agent.close();
await sandbox.close();
