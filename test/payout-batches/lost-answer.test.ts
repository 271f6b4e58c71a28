// A chunk's answer is lost after the service processed it (a fault-injecting
// proxy between the gateway and the sandbox drops the connection once the
// sandbox has answered): the chunk is reconciled by ext_id and not sent again.
// A chunk refused with a 500 before the service saw it is sent again, once.
// Every item is paid exactly once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { startStack, testKey, type TestStack } from '../helpers/gateway.js';
import { Api } from '../helpers/sandbox-api.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait.js';
import { AddItems, BatchView, CreateBatch, StartBatch, item } from './documents.js';

const BULK_POST = { method: 'POST', path: '/v1/payment/transfers/bulk/' } as const;
let sandbox: Sandbox;
let proxy: FaultProxy;
let stack: TestStack;
const apiKey = testKey('lost-answer');

beforeAll(async () => {
  sandbox = await startTestSandbox({ delays: { transferMs: 20 } });
  proxy = await startFaultProxy(sandbox.url);
  stack = await startStack({
    inProcess: true,
    sharedSandbox: sandbox,
    apiKey,
    env: { PAYMENT_BASE_URL: proxy.url, PAYOUT_BATCH_SETTLE_MS: '300', PAYOUT_BATCH_FOLLOW_POLL_MS: '200' },
  });
});
afterAll(async () => {
  await stack?.close();
  await proxy?.close();
  await sandbox?.close();
});

it('a chunk whose answer was lost is reconciled, not resent; one refused unprocessed is resent; each item paid once', async () => {
  const created = (await stack.gql(CreateBatch, { input: { idempotencyKey: randomUUID(), label: 'cash-back' } })).data!.createPayoutBatch;
  if (created.__typename !== 'CreatePayoutBatchPayload') throw new Error(created.__typename);
  const id = created.batch.id;
  const items = Array.from({ length: 300 }, (_, i) => item(i));
  expect((await stack.gql(AddItems, { input: { batchId: id, page: 1, items } })).data!.addPayoutBatchItems.__typename).toBe(
    'AddPayoutBatchItemsPayload',
  );
  // The first chunk reaches the service and its answer is lost; the second is refused before the service sees it.
  const lost = proxy.inject({ ...BULK_POST, action: { kind: 'drop' } });
  const refused = proxy.inject({ ...BULK_POST, action: { kind: 'status500-unprocessed' } });
  await stack.gql(StartBatch, { input: { batchId: id } });
  await waitFor(async () => (await stack.gql(BatchView, { id })).data!.payoutBatch!.settled, 'the batch to settle', 60_000, 50);

  expect(lost.hits).toBe(1);
  expect(refused.hits).toBe(1);
  expect((await stack.gql(BatchView, { id })).data!.payoutBatch).toMatchObject({
    status: 'COMPLETED_WITH_FAILURES',
    sent: { items: 300 },
    succeeded: { items: 270 },
    failed: { items: 30 },
  });
  // Four bulk calls left the gateway; three reached the service: the lost chunk was found, never sent twice.
  expect(proxy.requests.filter((r) => r.method === 'POST' && r.path === BULK_POST.path)).toHaveLength(4);
  expect(sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers/bulk' })).toBe(3);
  const api = new Api(sandbox.url, apiKey);
  const transfers = (await api.get('/v1/payment/transfers')).body.data as Array<{ ext_id: string }>;
  await api.close();
  expect(transfers).toHaveLength(300);
  expect(new Set(transfers.map((t) => t.ext_id)).size).toBe(300);
  expect(stack.logLines.some((l) => l.includes('chunk in doubt'))).toBe(true);
}, 90_000);
