// A batch can ask for a second approver itself (createPayoutBatch's requireApproval), where PAYOUT_BATCH_APPROVAL
// does not require one: once started it waits for someone else's approvePayoutBatch, as the back office always asks.
// The flag only adds the rule; that false never waives PAYOUT_BATCH_APPROVAL=required is pinned in four-eyes.test.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { AddItems, ApproveBatch, CreateBatch, StartBatch, item } from './documents.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ inProcess: true, sandbox: { delays: { transferMs: 20 } } });
});
afterAll(() => stack?.close());

async function people() {
  const scopes = ['payouts:write', 'payouts:approve', 'payments:read'] as const;
  const [alice, bob] = await Promise.all(['alice', 'bob'].map((who) => stack.mintToken(scopes, who)));
  return { alice: { authorization: `Bearer ${alice!}` }, bob: { authorization: `Bearer ${bob!}` } };
}

async function startedBatch(as: Record<string, string>, requireApproval: boolean | undefined, key = randomUUID()) {
  const input = { idempotencyKey: key, label: 'primes', ...(requireApproval === undefined ? {} : { requireApproval }) };
  const created = (await stack.gql(CreateBatch, { input }, as)).data!.createPayoutBatch;
  if (created.__typename !== 'CreatePayoutBatchPayload') throw new Error(created.__typename);
  const id = created.batch.id;
  await stack.gql(AddItems, { input: { batchId: id, page: 1, items: [item(0), item(1)] } }, as);
  return { id, started: (await stack.gql(StartBatch, { input: { batchId: id } }, as)).data!.startPayoutBatch };
}

it('with requireApproval, the started batch waits for someone else: its preparer is refused, another person approves', async () => {
  const { alice, bob } = await people();
  const bulkBefore = stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers/bulk' });
  const { id, started } = await startedBatch(alice, true);
  expect(started).toMatchObject({ __typename: 'StartPayoutBatchPayload', batch: { status: 'QUEUED', awaitingApproval: true } });
  // Starting it again changes nothing: it still waits.
  const again = (await stack.gql(StartBatch, { input: { batchId: id } }, alice)).data!.startPayoutBatch;
  expect(again).toMatchObject({ batch: { status: 'QUEUED', awaitingApproval: true } });

  const bySelf = (await stack.gql(ApproveBatch, { input: { batchId: id } }, alice)).data!.approvePayoutBatch;
  expect(bySelf).toMatchObject({ __typename: 'SelfApprovalError', code: 'SELF_APPROVAL_FORBIDDEN' });
  expect(stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers/bulk' })).toBe(bulkBefore);

  const byOther = (await stack.gql(ApproveBatch, { input: { batchId: id } }, bob)).data!.approvePayoutBatch;
  expect(byOther).toMatchObject({ __typename: 'ApprovePayoutBatchPayload', batch: { approvedBy: 'bob', awaitingApproval: false } });
});

it('without it (and PAYOUT_BATCH_APPROVAL=none), a start runs the batch at once, as before', async () => {
  const { alice } = await people();
  for (const requireApproval of [undefined, false]) {
    const { started } = await startedBatch(alice, requireApproval);
    expect(started).toMatchObject({ __typename: 'StartPayoutBatchPayload', batch: { awaitingApproval: false } });
  }
});

it('the same key with another answer to requireApproval is a conflict, not a batch without its second approver', async () => {
  const { alice } = await people();
  const key = randomUUID();
  await startedBatch(alice, true, key);
  const repeat = (await stack.gql(CreateBatch, { input: { idempotencyKey: key, label: 'primes', requireApproval: false } }, alice)).data!
    .createPayoutBatch;
  expect(repeat.__typename).toBe('IdempotencyConflictError');
});
