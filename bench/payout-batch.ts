// How long a 10,000-item payout batch takes against the sandbox, next to the
// floor the service's rate allows: 100 bulk calls of 100 at 5 calls per second
// = 20 s. Goal: within 10% of the floor. The sandbox (its bulk endpoint
// enforces 100 items and 5 calls per second) and the gateway (built, as in
// production, with Redis) each run in their own process; this process drives
// the batch over GraphQL and reads the calls from the gateway's /metrics.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { SCOPES, mintStaffToken } from '../src/auth/index.js';
import { startChild, type Child } from './lib/processes.js';
import { ROOT, TSX_LOADER, startGatewayProcess } from './lib/stack.js';
import { execFileSync } from 'node:child_process';

const ITEMS = 10_000;
const PAGE = 500;
const FLOOR_MS = (ITEMS / 100 / 5) * 1_000;
const WALLETS = [
  ['OPA_BF', '76', 'opa_bf'],
  ['OPB_BF', '70', 'opb_bf'],
  ['OPD_BF', '58', 'opd_bf'],
  ['OPE_BJ', '0196', 'ope_bj'],
  ['OPF_BJ', '0195', 'opf_bj'],
] as const;

async function sparePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

type Gql = (query: string, variables: Record<string, unknown>) => Promise<Record<string, Record<string, unknown>>>;

interface Stack {
  sandbox: Child;
  gateway: Child;
  sandboxUrl: string;
  graphqlUrl: string;
  apiKey: string;
  metricsToken: string;
  gql: Gql;
}

/** The sandbox and the built gateway, each in its own process, the sandbox's webhooks pointed at the gateway. */
async function startStack(): Promise<Stack> {
  const gatewayPort = await sparePort();
  const webhookSecret = randomBytes(24).toString('hex');
  const apiKey = `sk_test_bench_${randomBytes(6).toString('hex')}`;
  const sandbox = await startChild(process.execPath, ['--import', TSX_LOADER, join(ROOT, 'src/sandbox/main.ts')], {
    label: 'sandbox',
    ready: /sandbox \(test mode\) at (\S+)/,
    env: {
      SANDBOX_PORT: '0',
      LOG_LEVEL: 'warn',
      SANDBOX_WEBHOOK_URL: `http://127.0.0.1:${gatewayPort}/webhooks/payment`,
      WEBHOOK_SECRET: webhookSecret,
    },
  });
  const sandboxUrl = sandbox.ready[1]!;
  const jwtSecret = randomBytes(32).toString('hex');
  const metricsToken = randomBytes(16).toString('hex');
  const gateway = await startGatewayProcess(sandboxUrl, jwtSecret, {
    PORT: String(gatewayPort),
    PAYMENT_API_KEY: apiKey,
    WEBHOOK_SECRET: webhookSecret,
    METRICS_TOKEN: metricsToken,
    LOG_LEVEL: 'warn',
    // To try another margin: PAYOUT_BATCH_PACING_MARGIN_MS=<ms> npx tsx bench/payout-batch.ts (the default otherwise).
    ...(process.env.PAYOUT_BATCH_PACING_MARGIN_MS ? { PAYOUT_BATCH_PACING_MARGIN_MS: process.env.PAYOUT_BATCH_PACING_MARGIN_MS } : {}),
  });
  const graphqlUrl = gateway.ready[1]!;
  const { token } = await mintStaffToken({ secret: jwtSecret, scopes: SCOPES, subject: 'bench', ttlSeconds: 3600 });
  return { sandbox, gateway, sandboxUrl, graphqlUrl, apiKey, metricsToken, gql: gqlClient(graphqlUrl, token) };
}

/** Posts one GraphQL operation as the bench's staff token; throws when the answer has no data. */
function gqlClient(graphqlUrl: string, token: string): Gql {
  return async (query, variables) => {
    const res = await request(graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.body.json()) as { data?: Record<string, Record<string, unknown>>; errors?: unknown };
    if (!body.data) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
}

/** Test-mode top-up: 2,000 items of 100 XOF (+1 fee) per wallet need more than the 100,000 each starts with. */
async function topUpWallets(sandboxUrl: string, apiKey: string): Promise<void> {
  for (const [, , wallet] of WALLETS) {
    const res = await request(`${sandboxUrl}/_sandbox/wallets/${wallet}/top-up`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 200_000 }),
    });
    if (res.statusCode !== 200) throw new Error(await res.body.text());
    await res.body.dump();
  }
}

/** Creates a batch and adds ITEMS items of 100 XOF, page by page, spread over the wallets; returns its id. */
async function createFullBatch(gql: Gql): Promise<string> {
  const created = await gql(
    'mutation($i: CreatePayoutBatchInput!) { createPayoutBatch(input: $i) { ... on CreatePayoutBatchPayload { batch { id } } } }',
    { i: { idempotencyKey: randomUUID(), label: 'bench' } },
  );
  const id = (created.createPayoutBatch!.batch as { id: string }).id;
  for (let page = 0; page < ITEMS / PAGE; page++) {
    const items = Array.from({ length: PAGE }, (_, k) => {
      const i = page * PAGE + k;
      const [enumValue, prefix] = WALLETS[i % WALLETS.length]!;
      return { amount: 100, recipientPhone: prefix + String(i).padStart(6, '0'), recipientWallet: enumValue };
    });
    const added = await gql('mutation($i: AddPayoutBatchItemsInput!) { addPayoutBatchItems(input: $i) { __typename } }', {
      i: { batchId: id, page: page + 1, items },
    });
    if (added.addPayoutBatchItems!.__typename !== 'AddPayoutBatchItemsPayload') throw new Error(JSON.stringify(added));
  }
  return id;
}

type View = { status: string; settled: boolean; sent: { items: number }; failed: { items: number }; succeeded: { items: number } };

interface Run {
  /** Date.now() just before the start mutation. */
  startedAt: number;
  /** From the start mutation to every item counted as sent, and to settled. */
  sentMs: number;
  settledMs: number;
  /** The settled batch. */
  last: View;
  failedReads: number;
}

/** Starts the batch and follows it every 50 ms until it is settled. */
async function runBatch(gql: Gql, id: string): Promise<Run> {
  const view = async (): Promise<View> => {
    const data = await gql(
      'query($id: ID!) { payoutBatch(id: $id) { status settled sent { items } failed { items } succeeded { items } } }',
      {
        id,
      },
    );
    if (!data.payoutBatch) throw new Error('no batch in the answer');
    return data.payoutBatch as unknown as View;
  };

  const t0 = performance.now();
  const startedAt = Date.now();
  const started = await gql(
    'mutation($i: StartPayoutBatchInput!) { startPayoutBatch(input: $i) { __typename ... on PayoutBatchShortfallError { shortfalls { wallet required available } } ... on PaymentError { message } } }',
    {
      i: { batchId: id },
    },
  );
  if (started.startPayoutBatch!.__typename !== 'StartPayoutBatchPayload') throw new Error(JSON.stringify(started));
  let sentMs: number | null = null;
  let last = await view();
  let failedReads = 0;
  while (!last.settled) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const read = await view().catch(() => null);
    // A read that failed (a timeout on a busy machine) is counted and the next one taken.
    if (!read) {
      failedReads++;
      continue;
    }
    last = read;
    if (sentMs === null && last.sent.items >= ITEMS) sentMs = performance.now() - t0;
  }
  const settledMs = performance.now() - t0;
  sentMs ??= settledMs;
  return { startedAt, sentMs, settledMs, last, failedReads };
}

interface GatewayFigures {
  bulkSucceeded: number;
  bulkRefused: number;
  listReads: number;
  meanCallMs: number;
}

/** Sum of the samples of a Prometheus text exposition whose lines pass `keep`. */
function sumSamples(metrics: string, keep: (line: string) => boolean): number {
  return metrics
    .split('\n')
    .filter(keep)
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}

/** The gateway's own count of its calls to the service, from its /metrics. */
async function gatewayFigures(graphqlUrl: string, metricsToken: string): Promise<GatewayFigures> {
  const metrics = await (
    await request(`${graphqlUrl.replace(/\/graphql$/, '')}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
  ).body.text();
  const bulkCalls = (outcome: string) =>
    sumSamples(
      metrics,
      (l) => l.startsWith('gateway_upstream_requests_total') && l.includes('/transfers/bulk') && l.includes(`outcome="${outcome}"`),
    );
  const listReads = sumSamples(metrics, (l) => l.startsWith('gateway_upstream_requests_total') && l.includes('GET /v1/payment/transfers"'));
  const bulkSeconds = (suffix: string) =>
    sumSamples(
      metrics,
      (l) =>
        l.startsWith(`gateway_upstream_request_duration_seconds_${suffix}`) &&
        l.includes('/transfers/bulk') &&
        l.includes('outcome="success"'),
    );
  const meanCallMs = (bulkSeconds('sum') / bulkSeconds('count')) * 1000;
  return { bulkSucceeded: bulkCalls('success'), bulkRefused: bulkCalls('RATE_LIMIT_EXCEEDED'), listReads, meanCallMs };
}

interface ServiceView {
  /** When each bulk call arrived at the service (epoch ms), oldest first. */
  calls: number[];
  tightest: number;
  spanMs: number;
  windows: number;
  spanFloorMs: number;
}

/**
 * The service's own view of the pacing: when each call arrived there (its transfers' created_at; the items of one
 * call share it), whatever the gateway's start and the progress reads cost around it.
 */
async function serviceView(sandboxUrl: string, apiKey: string): Promise<ServiceView> {
  const listed = await request(`${sandboxUrl}/v1/payment/transfers`, { headers: { 'x-api-key': apiKey } });
  const transfers = ((await listed.body.json()) as { data: Array<{ recipient_phone: string; created_at: string }> }).data;
  const arrivals = new Map<number, number>();
  for (const t of transfers) {
    const chunk = Math.floor(Number(t.recipient_phone.slice(-6)) / 100);
    const at = Date.parse(t.created_at);
    arrivals.set(chunk, Math.min(arrivals.get(chunk) ?? at, at));
  }
  const calls = [...arrivals.values()].sort((a, b) => a - b);
  // Any 6 consecutive calls must span at least 1 s (at most 5 in any second); the tightest is the pacing's real margin.
  let tightest = Infinity;
  for (let k = 5; k < calls.length; k++) tightest = Math.min(tightest, calls[k]! - calls[k - 5]!);
  const spanMs = calls.at(-1)! - calls[0]!;
  const windows = Math.ceil(calls.length / 5) - 1;
  return { calls, tightest, spanMs, windows, spanFloorMs: windows * 1_000 };
}

function printReport(run: Run, gateway: GatewayFigures, service: ServiceView): void {
  const { startedAt, sentMs, settledMs, last, failedReads } = run;
  const { calls, tightest, spanMs, windows, spanFloorMs } = service;
  console.log(`payout batch of ${ITEMS} items (${ITEMS / 100} bulk calls), sandbox in its own process, gateway built, Redis`);
  console.log('');
  console.log('| figure | measured | goal |');
  console.log('|---|---|---|');
  console.log(
    `| start to every item accepted by the service | ${(sentMs / 1000).toFixed(2)} s (${((sentMs / FLOOR_MS - 1) * 100).toFixed(1)}% over the ${FLOOR_MS / 1000} s floor) | within 10% of the floor |`,
  );
  console.log(
    `| the service's view: first to last bulk call | ${(spanMs / 1000).toFixed(2)} s (${((spanMs - spanFloorMs) / windows).toFixed(1)} ms a window over the ${spanFloorMs / 1000} s the rate allows) | |`,
  );
  console.log(`| the service's view: tightest 6 consecutive calls | ${tightest} ms | at least 1000 ms |`);
  console.log(
    `| start to first call at the service; last call to every item counted as sent | ${calls[0]! - startedAt} ms; ${(sentMs - (calls.at(-1)! - startedAt)).toFixed(0)} ms | |`,
  );
  console.log(`| start to settled (every transfer final, sandbox transfers take 3 s) | ${(settledMs / 1000).toFixed(2)} s | |`);
  console.log(`| bulk calls answered / refused for rate | ${gateway.bulkSucceeded} / ${gateway.bulkRefused} | 100 / 0 |`);
  // Each window lasts a second plus about one answer's time (the pacer frees a slot a second after the answer).
  console.log(`| a bulk call's answer time, mean (the gateway's metrics) | ${gateway.meanCallMs.toFixed(1)} ms | |`);
  console.log(`| reads of the service's whole transfer list (reconciliation, following) | ${gateway.listReads} | |`);
  console.log(`| progress reads answered with an error (a busy machine) | ${failedReads} | 0 |`);
  console.log(
    `| final status | ${last.status}: ${last.succeeded.items} succeeded, ${last.failed.items} failed | COMPLETED_WITH_FAILURES, 1000 failed (numbers ending in 9) |`,
  );
}

async function main(): Promise<void> {
  if (process.env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const stack = await startStack();
  try {
    await topUpWallets(stack.sandboxUrl, stack.apiKey);
    const id = await createFullBatch(stack.gql);
    const run = await runBatch(stack.gql, id);
    const gateway = await gatewayFigures(stack.graphqlUrl, stack.metricsToken);
    const service = await serviceView(stack.sandboxUrl, stack.apiKey);
    printReport(run, gateway, service);
  } finally {
    await stack.gateway.stop();
    await stack.sandbox.stop();
  }
}

await main();
