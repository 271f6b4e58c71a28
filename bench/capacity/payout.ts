// The Redis cost of one payout-batch item over its whole life: added (one page), sent (in bulk calls of 100,
// paced), and settled by the service's webhook for its transfer. The upstream is the sandbox in its own process
// (the stub has no bulk endpoint), its webhooks pointed at the replica. The bench's progress reads (`payoutBatch`,
// one a second) are counted on their own and taken off.
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { request } from 'undici';
import { sparePort } from '../../test/helpers/redis-server.js';
import { startChild } from '../lib/processes.js';
import { ROOT, TSX_LOADER } from '../lib/stack.js';
import { countPath, idleRate, type PathCost } from './count.js';
import { startFleet } from './fleet.js';
import type { BenchRedis } from './redis.js';

const ITEMS = Number(process.env.BENCH_CAPACITY_BATCH_ITEMS ?? 300);

type Gql = (query: string, variables: Record<string, unknown>) => Promise<Record<string, Record<string, unknown>>>;

function graphqlClient(url: string, token: string): Gql {
  return async (query, variables) => {
    const res = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.body.json()) as { data?: Record<string, Record<string, unknown>>; errors?: unknown };
    if (!body.data) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
}

const VIEW = 'query($id: ID!) { payoutBatch(id: $id) { status settled } }';

/** Creates a batch of ITEMS items and returns its id. */
async function prepareBatch(gql: Gql): Promise<string> {
  const created = await gql(
    'mutation($i: CreatePayoutBatchInput!) { createPayoutBatch(input: $i) { ... on CreatePayoutBatchPayload { batch { id } } } }',
    { i: { idempotencyKey: randomUUID(), label: 'capacity' } },
  );
  return (created.createPayoutBatch!.batch as { id: string }).id;
}

async function runBatch(gql: Gql, id: string, onPoll: () => void): Promise<string> {
  const items = Array.from({ length: ITEMS }, (_, i) => ({
    amount: 100,
    recipientPhone: `70${String(i).padStart(6, '0')}`,
    recipientWallet: 'OPB_BF',
  }));
  const added = await gql('mutation($i: AddPayoutBatchItemsInput!) { addPayoutBatchItems(input: $i) { __typename } }', {
    i: { batchId: id, page: 1, items },
  });
  if (added.addPayoutBatchItems!.__typename !== 'AddPayoutBatchItemsPayload') throw new Error(JSON.stringify(added));
  const started = await gql('mutation($i: StartPayoutBatchInput!) { startPayoutBatch(input: $i) { __typename } }', { i: { batchId: id } });
  if (started.startPayoutBatch!.__typename !== 'StartPayoutBatchPayload') throw new Error(JSON.stringify(started));
  const deadline = Date.now() + 120_000;
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    onPoll();
    const view = (await gql(VIEW, { id })).payoutBatch as { status: string; settled: boolean };
    if (view.settled) return view.status;
    if (Date.now() > deadline) throw new Error(`payout batch not settled in time: ${view.status}`);
  }
}

export async function countPayoutItem(redis: BenchRedis): Promise<PathCost> {
  const port = await sparePort();
  const webhookSecret = randomBytes(24).toString('hex');
  const sandbox = await startChild(process.execPath, ['--import', TSX_LOADER, join(ROOT, 'src/sandbox/main.ts')], {
    label: 'sandbox',
    ready: /sandbox \(test mode\) at (\S+)/,
    env: {
      SANDBOX_PORT: '0',
      LOG_LEVEL: 'warn',
      SANDBOX_WEBHOOK_URL: `http://127.0.0.1:${port}/webhooks/payment`,
      WEBHOOK_SECRET: webhookSecret,
    },
  });
  const fleet = await startFleet(1, sandbox.ready[1]!, redis.env, {
    PORT: String(port),
    WEBHOOK_SECRET: webhookSecret,
    PAYMENT_API_KEY: `sk_test_bench_${randomBytes(6).toString('hex')}`,
    LOG_LEVEL: 'warn',
  }).catch(async (err: unknown) => {
    await sandbox.stop();
    throw err;
  });
  try {
    const gql = graphqlClient(fleet.urls[0]!, fleet.token);
    const id = await prepareBatch(gql);
    const idle = await idleRate(redis);
    const view = await countPath(redis, idle, 'progress read', 20, async () => void (await gql(VIEW, { id })));
    let polls = 0;
    let status = '';
    const item = await countPath(redis, idle, '', 1, async () => void (status = await runBatch(gql, id, () => polls++)));
    const perItem = (x: number, poll: number) => (x - poll * polls) / ITEMS;
    return {
      label: `payout-batch item (batch of ${ITEMS}: added, sent in bulk calls of 100, settled by its webhook; ${status})`,
      ops: ITEMS,
      commands: perItem(item.commands, view.commands),
      roundTrips: perItem(item.roundTrips, view.roundTrips),
      cpuUsPerOp: perItem(item.cpuUsPerOp, view.cpuUsPerOp),
      calls: item.calls
        .map(([name, n]) => [name, perItem(n, view.calls.find(([v]) => v === name)?.[1] ?? 0)] as [string, number])
        .filter(([, n]) => n >= 0.05),
    };
  } finally {
    await fleet.stop();
    await sandbox.stop();
  }
}
