// Payout batches through GraphQL, against the sandbox over HTTP (one gateway,
// no Redis: state in memory): create, fill page by page (a page retried is
// added once, an invalid page adds nothing), check the wallets, start, run to
// the end; the shortfall refusal and send-what-fits; cancel; four eyes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';
import { disposeAllClients, staffClient, subscribe } from '../live/helpers.js';
import {
  AddItems,
  ApproveBatch,
  BatchEvents,
  BatchItems,
  BatchUpdated,
  BatchView,
  CancelBatch,
  CreateBatch,
  StartBatch,
  item,
} from '../payout-batches/documents.js';

let stack: TestStack;

beforeAll(async () => {
  stack = await startStack({
    sandbox: { delays: { transferMs: 20 } },
    sandboxWebhooks: true,
    env: { PAYOUT_BATCH_FOLLOW_POLL_MS: '200', PAYOUT_BATCH_LEASE_MS: '2000' },
  });
});
afterAll(async () => {
  await disposeAllClients();
  await stack.close();
});

async function createBatch(label = 'test', token?: string): Promise<string> {
  const res = await stack.gql(
    CreateBatch,
    { input: { idempotencyKey: randomUUID(), label } },
    token ? { authorization: `Bearer ${token}` } : {},
  );
  const created = res.data!.createPayoutBatch;
  if (created.__typename !== 'CreatePayoutBatchPayload') throw new Error(res.raw);
  return created.batch.id;
}

async function addPage(id: string, page: number, items: ReturnType<typeof item>[]) {
  return (await stack.gql(AddItems, { input: { batchId: id, page, items } })).data!.addPayoutBatchItems;
}

async function view(id: string) {
  return (await stack.gql(BatchView, { id })).data!.payoutBatch!;
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);

describe('filling a draft', () => {
  it('adds pages, answers a retried page with what was added, refuses another page under a used number', async () => {
    const id = await createBatch();
    const first = await addPage(
      id,
      1,
      range(0, 3).map((i) => item(i)),
    );
    expect(first).toMatchObject({ __typename: 'AddPayoutBatchItemsPayload', page: 1, firstIndex: 0, added: 3 });
    expect(
      await addPage(
        id,
        2,
        range(3, 5).map((i) => item(i)),
      ),
    ).toMatchObject({ firstIndex: 3, added: 2 });
    // The same page again (its answer was lost): nothing more is added.
    const retried = await addPage(
      id,
      1,
      range(0, 3).map((i) => item(i)),
    );
    expect(retried).toMatchObject({ page: 1, firstIndex: 0, added: 3, batch: { added: { items: 5, amount: 500 } } });
    const other = await addPage(id, 1, [item(7)]);
    expect(other).toMatchObject({ __typename: 'IdempotencyConflictError', code: 'IDEMPOTENCY_CONFLICT' });
    expect((await view(id)).added).toEqual({ items: 5, amount: 500 });
  });

  it('a page with invalid items answers their indexes and field errors, in English and French, and adds none', async () => {
    const id = await createBatch();
    const items = [item(0), { ...item(1), amount: 50 }, item(2), { ...item(3), recipientPhone: '12' }];
    const res = await addPage(id, 1, items);
    if (res.__typename !== 'ValidationError') throw new Error(res.__typename);
    expect(res.fieldErrors.map((e) => e.path)).toEqual([
      ['input', 'items', '1', 'amount'],
      ['input', 'items', '3', 'recipientPhone'],
    ]);
    for (const e of res.fieldErrors) expect(e.messageFr).not.toBe(e.message);
    expect((await view(id)).added.items).toBe(0);
  });

  it('shows totals per wallet with fees and whether each wallet covers them before the start', async () => {
    const id = await createBatch();
    await addPage(id, 1, [item(0, 1000), item(5, 2500), item(1, 150)]);
    const wallets = (await view(id)).wallets;
    expect(wallets).toEqual([
      { wallet: 'OPA_BF', items: 2, amount: 3500, fees: 35, total: 3535, available: expect.any(Number), shortfall: 0 },
      { wallet: 'OPB_BF', items: 1, amount: 150, fees: 2, total: 152, available: expect.any(Number), shortfall: 0 },
    ]);
  });
});

describe('running a batch', () => {
  it('sends 300 items in 3 chunks, follows each to its end: numbers ending in 9 fail, one transfer per item', async () => {
    const id = await createBatch('run');
    await addPage(
      id,
      1,
      range(0, 300).map((i) => item(i)),
    );
    const bulkBefore = stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers/bulk' });
    const started = (await stack.gql(StartBatch, { input: { batchId: id } })).data!.startPayoutBatch;
    expect(started).toMatchObject({ __typename: 'StartPayoutBatchPayload', batch: { awaitingApproval: false } });
    await waitFor(async () => (await view(id)).settled, 'the batch to settle', 30_000, 50);
    const done = await view(id);
    expect(done).toMatchObject({
      status: 'COMPLETED_WITH_FAILURES',
      sent: { items: 300, amount: 30_000 },
      succeeded: { items: 270 },
      failed: { items: 30 },
      notSent: { items: 0 },
    });
    expect(stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers/bulk' }) - bulkBefore).toBe(3);
    const failed = (await stack.gql(BatchItems, { id, filter: { status: 'FAILED' }, first: 100 })).data!.payoutBatch!.items;
    expect(failed.totalCount).toBe(30);
    for (const { node } of failed.edges) {
      expect(node.recipientPhone.endsWith('9')).toBe(true);
      expect(node.failure).toMatchObject({ __typename: 'TransferFailedError', code: 'TRANSFER_FAILED' });
      expect(node.transferReference).toMatch(/^tr_/);
    }
  });
});

describe('a wallet short of funds', () => {
  it('refuses the start with the shortfall; with sendWhatFits it sends what fits and reports the rest not sent', async () => {
    const id = await createBatch('short');
    // Ten items of 1,000 XOF from OPA_BF: 1,010 each with the 1% fee.
    await addPage(
      id,
      1,
      range(0, 10).map((i) => item(i * 5, 1000)),
    );
    stack.sandbox.setBalance(stack.apiKey, { wallets: { opa_bf: { available: 5_000 } } });
    try {
      const refused = (await stack.gql(StartBatch, { input: { batchId: id } })).data!.startPayoutBatch;
      expect(refused).toMatchObject({
        __typename: 'PayoutBatchShortfallError',
        code: 'INSUFFICIENT_FUNDS',
        shortfalls: [{ wallet: 'OPA_BF', required: 10_100, available: 5_000, shortfall: 5_100 }],
      });
      if (refused.__typename !== 'PayoutBatchShortfallError') throw new Error('unreachable');
      expect(refused.messageFr).toContain('5100 XOF');
      expect((await view(id)).status).toBe('DRAFT');

      const started = (await stack.gql(StartBatch, { input: { batchId: id, sendWhatFits: true } })).data!.startPayoutBatch;
      expect(started.__typename).toBe('StartPayoutBatchPayload');
      await waitFor(async () => (await view(id)).settled, 'the batch to settle', 30_000, 50);
      // 4 x 1,010 fit in 5,000; the other six were never sent.
      expect(await view(id)).toMatchObject({
        status: 'COMPLETED_WITH_FAILURES',
        sent: { items: 4, amount: 4_000 },
        succeeded: { items: 4 },
        notSent: { items: 6, amount: 6_000 },
      });
      const notSent = (await stack.gql(BatchItems, { id, filter: { status: 'NOT_SENT' }, first: 10 })).data!.payoutBatch!.items;
      expect(notSent.edges.map((e) => e.node.index)).toEqual([4, 5, 6, 7, 8, 9]);
      for (const { node } of notSent.edges)
        expect(node.failure).toMatchObject({ __typename: 'InsufficientFundsError', code: 'INSUFFICIENT_FUNDS' });
    } finally {
      stack.sandbox.setBalance(stack.apiKey, { wallets: { opa_bf: { available: 100_000 } } });
    }
  });
});

describe('cancel', () => {
  it('halfway: no chunk is sent after the cancel is acknowledged; sent items are followed to their end', { timeout: 90_000 }, async () => {
    const id = await createBatch('cancel');
    for (const page of [1, 2, 3, 4])
      await addPage(
        id,
        page,
        range((page - 1) * 500, page * 500).map((i) => item(i, 100)),
      );
    const bulk = () => stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers/bulk' });
    const before = bulk();
    await stack.gql(StartBatch, { input: { batchId: id } });
    await waitFor(() => bulk() - before >= 3, 'three chunks to be sent', 30_000, 5);
    const cancelled = (await stack.gql(CancelBatch, { input: { batchId: id } })).data!.cancelPayoutBatch;
    const sentAtAck = bulk() - before;
    if (cancelled.__typename !== 'CancelPayoutBatchPayload') throw new Error(cancelled.__typename);
    // CANCELLING while sent items are not final (test/payout-batches/cancel.test.ts shows it with slow transfers).
    expect(cancelled.batch.status).toMatch(/^CANCELL(ING|ED)$/);
    // Chunks already marked as sending when the cancel came (at most the rate's worth) still go; the rest never.
    expect(sentAtAck).toBeLessThan(20);
    await waitFor(async () => (await view(id)).settled, 'the cancelled batch to settle', 30_000, 50);
    const done = await view(id);
    expect(bulk() - before).toBe(sentAtAck);
    expect(done).toMatchObject({ status: 'CANCELLED', sent: { items: sentAtAck * 100 }, notSent: { items: 2000 - sentAtAck * 100 } });
    expect(done.succeeded.items + done.failed.items).toBe(sentAtAck * 100);
    const again = (await stack.gql(CancelBatch, { input: { batchId: id } })).data!.cancelPayoutBatch;
    expect(again.__typename).toBe('CancelPayoutBatchPayload');
  });
});

describe('four eyes (PAYOUT_BATCH_APPROVAL=required)', () => {
  let approvals: TestStack;
  beforeAll(async () => {
    approvals = await startStack({
      sandbox: { delays: { transferMs: 20 } },
      sandboxWebhooks: true,
      env: { PAYOUT_BATCH_APPROVAL: 'required', PAYOUT_BATCH_FOLLOW_POLL_MS: '200' },
    });
  });
  afterAll(() => approvals.close());

  it('start only queues; the creator cannot approve; another subject with payouts:approve starts it; the audit names both', async () => {
    const alice = await approvals.mintToken(['payouts:write', 'payouts:approve', 'payments:read'], 'alice');
    const bob = await approvals.mintToken(['payouts:approve', 'payments:read'], 'bob');
    const carol = await approvals.mintToken(['payouts:write', 'payments:read'], 'carol');
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    const created = (await approvals.gql(CreateBatch, { input: { idempotencyKey: randomUUID(), label: 'salaries' } }, as(alice))).data!
      .createPayoutBatch;
    if (created.__typename !== 'CreatePayoutBatchPayload') throw new Error(created.__typename);
    const id = created.batch.id;
    await approvals.gql(AddItems, { input: { batchId: id, page: 1, items: range(0, 150).map((i) => item(i)) } }, as(alice));
    const bulk = () => approvals.sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers/bulk' });

    // bob may approve but not start: he alone cannot send money.
    const bobStarts = await approvals.gql(StartBatch, { input: { batchId: id } }, as(bob));
    expect(bobStarts.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', requiredScope: 'payouts:write' });
    const started = (await approvals.gql(StartBatch, { input: { batchId: id } }, as(alice))).data!.startPayoutBatch;
    expect(started).toMatchObject({ __typename: 'StartPayoutBatchPayload', batch: { status: 'QUEUED', awaitingApproval: true } });
    const own = (await approvals.gql(ApproveBatch, { input: { batchId: id } }, as(alice))).data!.approvePayoutBatch;
    expect(own).toMatchObject({ __typename: 'SelfApprovalError', code: 'SELF_APPROVAL_FORBIDDEN' });
    const noScope = await approvals.gql(ApproveBatch, { input: { batchId: id } }, as(carol));
    expect(noScope.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', requiredScope: 'payouts:approve' });
    expect(bulk()).toBe(0);
    expect(await approvals.gql(BatchView, { id }, as(bob))).toMatchObject({
      data: { payoutBatch: { status: 'QUEUED', awaitingApproval: true } },
    });

    const approved = (await approvals.gql(ApproveBatch, { input: { batchId: id } }, as(bob))).data!.approvePayoutBatch;
    expect(approved).toMatchObject({ __typename: 'ApprovePayoutBatchPayload', batch: { approvedBy: 'bob', awaitingApproval: false } });
    await waitFor(
      async () => (await approvals.gql(BatchView, { id }, as(bob))).data!.payoutBatch!.settled,
      'the batch to settle',
      30_000,
      50,
    );
    expect(bulk()).toBe(2);
    const audit = approvals.logLines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.audit === true);
    const approval = audit.find((l) => l.operation === 'approvePayoutBatch' && String(l.outcome).startsWith('approved'));
    expect(approval).toMatchObject({ subject: 'bob', outcome: expect.stringContaining('created by alice') });
    expect(audit.find((l) => l.operation === 'approvePayoutBatch' && l.subject === 'alice')).toMatchObject({
      outcome: 'SELF_APPROVAL_FORBIDDEN',
    });
    expect(audit.find((l) => l.operation === 'payoutBatchCompleted')).toMatchObject({ startedBy: 'alice', approvedBy: 'bob' });
  });
});

describe('following a batch', () => {
  it(
    'payoutBatchUpdated: the batch now, counts that only grow, the final status once, then complete; payout_batch.* in paymentEvents',
    { timeout: 90_000 },
    async () => {
      const id = await createBatch('followed');
      // Six chunks (two pages of 300): the sixth waits for the pacer's second, so the batch is RUNNING at least that long.
      for (const page of [1, 2])
        await addPage(
          id,
          page,
          range((page - 1) * 300, page * 300).map((i) => item(i)),
        );
      const batchId = (await view(id)).batchId;
      const client = staffClient(stack);
      const events = subscribe(client, BatchEvents, { kinds: ['payout_batch.running', 'payout_batch.completed'] });
      const updates = subscribe(client, BatchUpdated, { id });
      expect((await updates.next(30_000, 'the batch now')).payoutBatchUpdated).toMatchObject({ status: 'DRAFT', sent: { items: 0 } });
      expect((await stack.gql(StartBatch, { input: { batchId: id } })).data!.startPayoutBatch.__typename).toBe('StartPayoutBatchPayload');
      expect(await updates.ended).toEqual({ kind: 'complete' });

      const seen = updates.results.map((r) => r.data!.payoutBatchUpdated);
      const finals = seen.filter((b) => b.status === 'COMPLETED_WITH_FAILURES');
      expect(finals).toHaveLength(1);
      expect(seen.at(-1)).toMatchObject({
        status: 'COMPLETED_WITH_FAILURES',
        settled: true,
        sent: { items: 600 },
        succeeded: { items: 540 },
        failed: { items: 60 },
      });
      expect(seen.some((b) => b.status === 'RUNNING')).toBe(true);
      for (let k = 1; k < seen.length; k++) {
        for (const tally of ['sent', 'succeeded', 'failed', 'notSent'] as const) {
          expect(seen[k]![tally].items).toBeGreaterThanOrEqual(seen[k - 1]![tally].items);
        }
      }
      const running = await events.next(30_000, 'payout_batch.running');
      const completed = await events.next(30_000, 'payout_batch.completed');
      expect(running.paymentEvents).toMatchObject({ kind: 'payout_batch.running', reference: batchId });
      expect(completed.paymentEvents).toMatchObject({ kind: 'payout_batch.completed', reference: batchId });
      events.unsubscribe();
    },
  );

  it('an unknown batch is NOT_FOUND, in English and French', async () => {
    const updates = subscribe(staffClient(stack), BatchUpdated, { id: 'pb_000000000000000000000000' });
    const ended = await updates.ended;
    const errors = (ended.kind === 'error' ? ended.error : updates.results[0]?.errors) as Array<{ message: string; extensions: unknown }>;
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe('No payout batch has this id.');
    expect(errors[0]!.extensions).toMatchObject({ code: 'NOT_FOUND', retryable: false, messageFr: expect.stringContaining('lot') });
    expect(updates.results.filter((r) => r.data)).toEqual([]);
  });
});
