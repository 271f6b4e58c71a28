// A wallet runs dry mid-batch (its balance drops after the start's check): the
// items it could not cover are not sent, the batch pauses (PAUSED), and once the
// wallet is topped up a second startPayoutBatch resumes it to the end. Every
// item is sent at most once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { Api } from '../helpers/sandbox-api.js';
import { waitFor } from '../helpers/wait.js';
import { AddItems, BatchView, CreateBatch, StartBatch, item } from './documents.js';

let stack: TestStack;

beforeAll(async () => {
  stack = await startStack({ sandbox: { delays: { transferMs: 20 } }, sandboxWebhooks: true, env: { PAYOUT_BATCH_FOLLOW_POLL_MS: '200' } });
});
afterAll(() => stack.close());

it('pauses when a wallet runs dry mid-batch, and a second start resumes it after a top-up', { timeout: 120_000 }, async () => {
  const created = (await stack.gql(CreateBatch, { input: { idempotencyKey: randomUUID(), label: 'dry' } })).data!.createPayoutBatch;
  if (created.__typename !== 'CreatePayoutBatchPayload') throw new Error(created.__typename);
  const id = created.batch.id;
  // 600 items of 100 XOF from OPA_BF alone (6 chunks): 60,600 XOF with fees.
  stack.sandbox.topUp(stack.apiKey, 'opa_bf', 150_000);
  for (const page of [1, 2]) {
    const items = Array.from({ length: 300 }, (_, k) => item((page - 1) * 300 + k, 100, ['OPA_BF']));
    expect((await stack.gql(AddItems, { input: { batchId: id, page, items } })).data!.addPayoutBatchItems.__typename).toBe(
      'AddPayoutBatchItemsPayload',
    );
  }
  const bulk = () => stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers/bulk' });
  expect((await stack.gql(StartBatch, { input: { batchId: id } })).data!.startPayoutBatch.__typename).toBe('StartPayoutBatchPayload');
  await waitFor(() => bulk() >= 2, 'two chunks to be sent', 30_000, 2);
  // The wallet runs dry (another payout, a settlement...): later chunks find it empty.
  stack.sandbox.setBalance(stack.apiKey, { wallets: { opa_bf: { available: 0 } } });
  const view = async () => (await stack.gql(BatchView, { id })).data!.payoutBatch!;
  await waitFor(async () => (await view()).status === 'PAUSED', 'the batch to pause', 30_000, 20);
  const paused = await view();
  expect(paused.notSent.items).toBeGreaterThan(0);
  const sentBeforeResume = bulk();

  stack.sandbox.topUp(stack.apiKey, 'opa_bf', 1_000_000);
  const resumed = (await stack.gql(StartBatch, { input: { batchId: id } })).data!.startPayoutBatch;
  expect(resumed.__typename).toBe('StartPayoutBatchPayload');
  await waitFor(async () => (await view()).settled, 'the resumed batch to settle', 60_000, 50);
  const done = await view();
  expect(bulk()).toBeGreaterThan(sentBeforeResume);
  expect(done.status).toBe('COMPLETED_WITH_FAILURES');
  expect(done.sent.items + done.notSent.items).toBe(600);
  expect(done.notSent.items).toBe(paused.notSent.items);
  const api = new Api(stack.sandbox.url, stack.apiKey);
  const transfers = (await api.get('/v1/payment/transfers')).body.data as Array<{
    ext_id: string;
    recipient_phone: string;
    status: string;
  }>;
  await api.close();
  expect(transfers).toHaveLength(done.sent.items);
  expect(new Set(transfers.map((t) => t.ext_id)).size).toBe(transfers.length);
  expect(done.failed.items).toBe(transfers.filter((t) => t.recipient_phone.endsWith('9')).length);
});
