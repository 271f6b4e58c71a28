// A wallet runs dry mid-batch (its balance drops after the start's check): the
// service refuses the items it cannot cover, they are not sent, the batch
// pauses (PAUSED), and once the wallet is topped up a second startPayoutBatch
// resumes it to the end, sending the refused items again under new ext_ids.
// Every item is paid exactly once.
import type { ResultOf } from '@graphql-typed-document-node/core';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { Api } from '../helpers/sandbox-api.js';
import { waitFor } from '../helpers/wait.js';
import { AddItems, BatchItemsPage, BatchView, CreateBatch, StartBatch, item } from './documents.js';

let stack: TestStack;

/** Every item of the batch (matching `filter`), page by page. */
async function allItems(id: string, filter?: { status: 'NOT_SENT' }) {
  type Node = NonNullable<ResultOf<typeof BatchItemsPage>['payoutBatch']>['items']['edges'][number]['node'];
  const nodes: Node[] = [];
  let after: string | null = null;
  for (;;) {
    const answer = await stack.gql(BatchItemsPage, { id, filter, after });
    if (!answer.data) throw new Error(JSON.stringify(answer.errors));
    const result: ResultOf<typeof BatchItemsPage> = answer.data;
    const page = result.payoutBatch!.items;
    nodes.push(...page.edges.map((e) => e.node));
    if (!page.pageInfo.hasNextPage) return nodes;
    after = page.pageInfo.endCursor!;
  }
}

beforeAll(async () => {
  stack = await startStack({ sandbox: { delays: { transferMs: 20 } }, sandboxWebhooks: true, env: { PAYOUT_BATCH_FOLLOW_POLL_MS: '200' } });
});
afterAll(() => stack.close());

it(
  'pauses when a wallet runs dry mid-batch; after a top-up a second start sends the refused items again, each paid once',
  { timeout: 120_000 },
  async () => {
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
    // The items the service refused, and the ext_ids they were refused under.
    const refused = await allItems(id, { status: 'NOT_SENT' });
    expect(refused).toHaveLength(paused.notSent.items);
    for (const node of refused) expect(node.failure?.__typename).toBe('InsufficientFundsError');
    const sentBeforeResume = bulk();

    // A resume the wallet still cannot cover is refused with the shortfall, the refused items counted in it.
    const refusedStart = (await stack.gql(StartBatch, { input: { batchId: id } })).data!.startPayoutBatch;
    expect(refusedStart.__typename).toBe('PayoutBatchShortfallError');
    expect(bulk()).toBe(sentBeforeResume);

    stack.sandbox.topUp(stack.apiKey, 'opa_bf', 1_000_000);
    const resumed = (await stack.gql(StartBatch, { input: { batchId: id } })).data!.startPayoutBatch;
    expect(resumed.__typename).toBe('StartPayoutBatchPayload');
    await waitFor(async () => (await view()).settled, 'the resumed batch to settle', 60_000, 50);
    const done = await view();
    expect(bulk()).toBeGreaterThan(sentBeforeResume);
    // Every item sent: only the sandbox's expected failures (numbers ending in 9), nothing left unsent.
    expect(done.notSent.items).toBe(0);
    expect(done.sent.items).toBe(600);
    expect(done.status).toBe('COMPLETED_WITH_FAILURES');
    const api = new Api(stack.sandbox.url, stack.apiKey);
    const transfers = (await api.get('/v1/payment/transfers')).body.data as Array<{
      reference: string;
      ext_id: string;
      recipient_phone: string;
      status: string;
    }>;
    await api.close();
    // One transfer per item: by recipient (each item has its own number) and by ext_id.
    expect(transfers).toHaveLength(600);
    expect(new Set(transfers.map((t) => t.recipient_phone)).size).toBe(600);
    expect(new Set(transfers.map((t) => t.ext_id)).size).toBe(600);
    expect(done.failed.items).toBe(60);
    expect(transfers.filter((t) => t.recipient_phone.endsWith('9')).every((t) => t.status === 'failed')).toBe(true);
    // The refused items went again under new ext_ids (a service that remembers refused ones would refuse a repeat), each
    // paid exactly once, and no transfer carries an ext_id the service refused.
    const byExtId = new Map(transfers.map((t) => [t.ext_id, t]));
    const after = new Map((await allItems(id)).map((node) => [node.index, node] as const));
    for (const before of refused) {
      const now = after.get(before.index)!;
      expect(now.extId).not.toBe(before.extId);
      expect(byExtId.has(before.extId)).toBe(false);
      expect(byExtId.get(now.extId)?.reference).toBe(now.transferReference);
      expect(['SUCCEEDED', 'FAILED']).toContain(now.status);
    }
  },
);
