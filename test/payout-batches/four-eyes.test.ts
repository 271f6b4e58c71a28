// Four eyes with three people: the creator may never approve, even when someone else started the batch. (The
// starter rule alone is pinned in test/schema/payout-batch.test.ts, where one subject creates and starts.) And a
// batch's own requireApproval: false never waives PAYOUT_BATCH_APPROVAL=required.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { AddItems, ApproveBatch, BatchView, CreateBatch, StartBatch, item } from './documents.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ inProcess: true, sandbox: { delays: { transferMs: 20 } }, env: { PAYOUT_BATCH_APPROVAL: 'required' } });
});
afterAll(() => stack?.close());

it('A creates, C starts, A approves: refused (the creator never approves); B approves: it runs', async () => {
  const scopes = ['payouts:write', 'payouts:approve', 'payments:read'] as const;
  const [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map((who) => stack.mintToken(scopes, who)));
  const as = (token: string) => ({ authorization: `Bearer ${token}` });
  const created = (await stack.gql(CreateBatch, { input: { idempotencyKey: randomUUID(), label: 'bonuses' } }, as(alice!))).data!
    .createPayoutBatch;
  if (created.__typename !== 'CreatePayoutBatchPayload') throw new Error(created.__typename);
  const id = created.batch.id;
  await stack.gql(AddItems, { input: { batchId: id, page: 1, items: [item(0), item(1)] } }, as(alice!));
  const started = (await stack.gql(StartBatch, { input: { batchId: id } }, as(carol!))).data!.startPayoutBatch;
  expect(started).toMatchObject({ __typename: 'StartPayoutBatchPayload', batch: { status: 'QUEUED', awaitingApproval: true } });

  const byCreator = (await stack.gql(ApproveBatch, { input: { batchId: id } }, as(alice!))).data!.approvePayoutBatch;
  expect(byCreator).toMatchObject({ __typename: 'SelfApprovalError', code: 'SELF_APPROVAL_FORBIDDEN' });
  expect((await stack.gql(BatchView, { id }, as(bob!))).data!.payoutBatch).toMatchObject({ status: 'QUEUED', awaitingApproval: true });
  expect(stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers/bulk' })).toBe(0);

  const byOther = (await stack.gql(ApproveBatch, { input: { batchId: id } }, as(bob!))).data!.approvePayoutBatch;
  expect(byOther).toMatchObject({ __typename: 'ApprovePayoutBatchPayload', batch: { approvedBy: 'bob', awaitingApproval: false } });
});

it('requireApproval: false does not waive PAYOUT_BATCH_APPROVAL=required', async () => {
  const token = await stack.mintToken(['payouts:write', 'payments:read'], 'dave');
  const as = { authorization: `Bearer ${token}` };
  const input = { idempotencyKey: randomUUID(), label: 'no waiver', requireApproval: false };
  const created = (await stack.gql(CreateBatch, { input }, as)).data!.createPayoutBatch;
  if (created.__typename !== 'CreatePayoutBatchPayload') throw new Error(created.__typename);
  await stack.gql(AddItems, { input: { batchId: created.batch.id, page: 1, items: [item(2)] } }, as);
  const started = (await stack.gql(StartBatch, { input: { batchId: created.batch.id } }, as)).data!.startPayoutBatch;
  expect(started).toMatchObject({ __typename: 'StartPayoutBatchPayload', batch: { status: 'QUEUED', awaitingApproval: true } });
});
