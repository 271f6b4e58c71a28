// Two batches of 2,000 items on two replicas sharing Redis, against one
// sandbox account whose bulk endpoint allows 100 items and 5 calls per second:
// both run to COMPLETED_WITH_FAILURES with exactly the sandbox's expected
// failures (numbers ending in 9), the sandbox holds one transfer per item (by
// ext_id), and no bulk call was refused for rate (the sandbox counts every
// call, refused ones included: exactly 40 reached it).
import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { startStack, testKey, type TestStack } from '../helpers/gateway.js';
import { Api } from '../helpers/sandbox-api.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait.js';
import { AddItems, BatchView, CreateBatch, StartBatch, item } from './documents.js';

const namespace = uniqueNamespace('payout-batches');
let sandbox: Sandbox;
let a: TestStack;
let b: TestStack;

beforeAll(async () => {
  sandbox = await startTestSandbox({ delays: { transferMs: 50 } });
  const apiKey = testKey('batches');
  const webhookSecret = randomBytes(16).toString('hex');
  const env = {
    REDIS_URL,
    PAYOUT_BATCH_FOLLOW_POLL_MS: '500',
    // The default pacing margin: the sandbox runs in this test's own busy process, on a shared machine where a call
    // may reach it a few hundred ms after its slot, and a slot is held from the call's end, so that is waited out.
  };
  a = await startStack({ sharedSandbox: sandbox, apiKey, webhookSecret, redisNamespace: namespace, env, sandboxWebhooks: true });
  b = await startStack({ sharedSandbox: sandbox, apiKey, webhookSecret, redisNamespace: namespace, env });
}, 30_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
  await sandbox?.close();
  const redis = new Redis(REDIS_URL);
  await deleteByPrefix(redis, namespace);
  await redis.quit();
});

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);

async function fill(stack: TestStack): Promise<string> {
  const created = (await stack.gql(CreateBatch, { input: { idempotencyKey: randomUUID(), label: 'commissions' } })).data!.createPayoutBatch;
  if (created.__typename !== 'CreatePayoutBatchPayload') throw new Error(created.__typename);
  const id = created.batch.id;
  for (const page of [1, 2, 3, 4]) {
    const items = range((page - 1) * 500, page * 500).map((i) => item(i));
    const answer = await stack.gql(AddItems, { input: { batchId: id, page, items } });
    // The answer's errors, should there be any, in the failure's message.
    expect(answer.errors).toBeUndefined();
    const added = answer.data!.addPayoutBatchItems;
    expect(added).toMatchObject({ __typename: 'AddPayoutBatchItemsPayload', firstIndex: (page - 1) * 500, added: 500 });
    if (page === 2) {
      // Retried (on the other replica, as a load balancer would): added once.
      const other = stack === a ? b : a;
      const again = (await other.gql(AddItems, { input: { batchId: id, page, items } })).data!.addPayoutBatchItems;
      expect(again).toMatchObject({ firstIndex: 500, added: 500, batch: { added: { items: 1000 } } });
    }
  }
  return id;
}

it('two batches of 2,000 on two replicas: exact failures, one transfer per item, no call refused for rate', async () => {
  const [idA, idB] = await Promise.all([fill(a), fill(b)]);
  const bulk = () => sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers/bulk' });
  expect(bulk()).toBe(0);
  const [startA, startB] = await Promise.all([
    a.gql(StartBatch, { input: { batchId: idA } }),
    b.gql(StartBatch, { input: { batchId: idB } }),
  ]);
  expect(startA.data!.startPayoutBatch.__typename).toBe('StartPayoutBatchPayload');
  expect(startB.data!.startPayoutBatch.__typename).toBe('StartPayoutBatchPayload');

  // A read that failed (a Redis command past its timeout on a loaded machine answers an error) is asked again, as a
  // polling client would; a batch that never settles still fails the wait.
  const settled = async (id: string) => (await a.gql(BatchView, { id })).data?.payoutBatch?.settled === true;
  await waitFor(async () => (await settled(idA)) && (await settled(idB)), 'both batches to settle', 120_000, 100).catch(
    async (err: Error) => {
      // A batch that never settles: where each one stands, and what the replicas warned of, in the failure's message.
      const views = await Promise.all([idA, idB].map(async (id) => JSON.stringify((await a.gql(BatchView, { id })).data?.payoutBatch)));
      const warned = [...a.logLines, ...b.logLines].filter((line) => line.includes('"level":"warn"') || line.includes('"level":"error"'));
      throw new Error(`${err.message}\n${views.join('\n')}\n${warned.slice(-20).join('\n')}`);
    },
  );

  for (const id of [idA, idB]) {
    expect((await b.gql(BatchView, { id })).data!.payoutBatch).toMatchObject({
      status: 'COMPLETED_WITH_FAILURES',
      added: { items: 2000, amount: 200_000 },
      sent: { items: 2000, amount: 200_000 },
      succeeded: { items: 1800 },
      failed: { items: 200 },
      notSent: { items: 0 },
    });
  }
  // 20 chunks per batch, each sent once: a call refused for rate would be one more request.
  const warnings = [...a.logLines, ...b.logLines].filter((line) => line.includes('"level":"warn"') && line.includes('payout'));
  expect(bulk(), warnings.join('\n')).toBe(40);
  expect([...a.logLines, ...b.logLines].some((line) => line.includes('refused for rate'))).toBe(false);

  const api = new Api(sandbox.url, a.apiKey);
  const transfers = (await api.get('/v1/payment/transfers')).body.data as Array<{
    ext_id: string;
    recipient_phone: string;
    status: string;
  }>;
  await api.close();
  expect(transfers).toHaveLength(4000);
  expect(new Set(transfers.map((t) => t.ext_id)).size).toBe(4000);
  expect(transfers.filter((t) => t.status === 'failed').every((t) => t.recipient_phone.endsWith('9'))).toBe(true);
  expect(transfers.filter((t) => t.status === 'failed')).toHaveLength(400);
}, 180_000);
