// Cancel halfway, every gateway setting at its default, the sandbox's transfers taking 4 s: the batch is CANCELLING
// (not final) while what it sent is in flight, its counts still growing; no bulk call goes after the cancel's
// answer; it becomes CANCELLED once every sent item is final (sent = succeeded + failed, the rest NOT_SENT);
// payoutBatchUpdated sends that final view once and completes after it; and no count changes for 10 s after.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';
import { disposeAllClients, staffClient, subscribe } from '../live/helpers.js';
import { AddItems, BatchUpdated, BatchView, CancelBatch, CreateBatch, StartBatch, item } from './documents.js';

const namespace = uniqueNamespace('payout-cancel');
let stack: TestStack;

beforeAll(async () => {
  stack = await startStack({ sandbox: { delays: { transferMs: 4_000 } }, redisNamespace: namespace, env: { REDIS_URL } });
});
afterAll(async () => {
  await disposeAllClients();
  await stack?.close();
  const redis = new Redis(REDIS_URL);
  await deleteByPrefix(redis, namespace);
  await redis.quit();
});

it('cancel at ~500 of 1,000: CANCELLING while sent items fly, then CANCELLED once, final view sent once, counts frozen', async () => {
  const created = (await stack.gql(CreateBatch, { input: { idempotencyKey: randomUUID(), label: 'refunds' } })).data!.createPayoutBatch;
  if (created.__typename !== 'CreatePayoutBatchPayload') throw new Error(created.__typename);
  const id = created.batch.id;
  for (const page of [1, 2]) {
    const items = Array.from({ length: 500 }, (_, k) => item((page - 1) * 500 + k));
    await stack.gql(AddItems, { input: { batchId: id, page, items } });
  }
  const updates = subscribe(staffClient(stack), BatchUpdated, { id });
  await updates.next(30_000, 'the batch now');
  const bulk = () => stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers/bulk' });
  await stack.gql(StartBatch, { input: { batchId: id } });
  await waitFor(() => bulk() >= 5, 'five chunks to be sent', 30_000, 2);
  const cancelled = (await stack.gql(CancelBatch, { input: { batchId: id } })).data!.cancelPayoutBatch;
  const sentAtAck = bulk();
  if (cancelled.__typename !== 'CancelPayoutBatchPayload') throw new Error(cancelled.__typename);
  expect(cancelled.batch.status).toBe('CANCELLING');

  await waitFor(() => updates.isEnded, 'payoutBatchUpdated to complete', 60_000, 100);
  expect(await updates.ended).toEqual({ kind: 'complete' });
  expect(bulk()).toBe(sentAtAck);
  const seen = updates.results.map((r) => r.data!.payoutBatchUpdated);
  const last = seen.at(-1)!;
  const sent = sentAtAck * 100;
  expect(last).toMatchObject({ status: 'CANCELLED', settled: true, sent: { items: sent }, notSent: { items: 1000 - sent } });
  expect(last.succeeded.items + last.failed.items).toBe(sent);
  expect(last.succeeded.items).toBeGreaterThan(0);
  // The final view once, last; before it, CANCELLING views whose counts were still growing.
  expect(seen.filter((v) => v.status === 'CANCELLED')).toHaveLength(1);
  const cancelling = seen.filter((v) => v.status === 'CANCELLING');
  expect(cancelling.length).toBeGreaterThan(0);
  expect(cancelling.every((v) => !v.settled)).toBe(true);
  expect(cancelling.some((v) => v.succeeded.items < last.succeeded.items)).toBe(true);

  // Final means final: nothing moves for 10 s.
  const frozen = (await stack.gql(BatchView, { id })).data!.payoutBatch!;
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  expect((await stack.gql(BatchView, { id })).data!.payoutBatch).toEqual(frozen);
  expect(frozen).toMatchObject({
    status: 'CANCELLED',
    sent: last.sent,
    succeeded: last.succeeded,
    failed: last.failed,
    notSent: last.notSent,
  });
  expect(bulk()).toBe(sentAtAck);
}, 120_000);
