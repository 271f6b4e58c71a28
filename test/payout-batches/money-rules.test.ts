// Two money rules of a batch that a look-up at the service decides, each pinned here:
// - wrong recipient: a chunk whose answer was lost is looked up by ext_id; a transfer the service holds under an
//   item's ext_id with the same amount but another recipient is not that item's payout: the item ends FAILED, never
//   queued with that transfer's reference;
// - cancel while a chunk is on its way: the items of a chunk already sent (`sending`) are never reported NOT_SENT;
//   they stay in doubt (PENDING, the batch CANCELLING) until the chunk is answered or looked up.
// A fault-injecting proxy between the gateway and the sandbox loses or holds the bulk call's answer after the service
// carried it out. Gateway settings at their defaults, but one rate setting of the cancel test.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { startStack, testKey, type TestStack } from '../helpers/gateway.js';
import { Api } from '../helpers/sandbox-api.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait.js';
import { AddItems, BatchItems, BatchView, CancelBatch, CreateBatch, StartBatch, item } from './documents.js';

const BULK_POST = { method: 'POST', path: '/v1/payment/transfers/bulk/' } as const;
const namespace = uniqueNamespace('payout-money-rules');
const apiKey = testKey('money-rules');
let sandbox: Sandbox;
let proxy: FaultProxy;

beforeAll(async () => {
  sandbox = await startTestSandbox({ delays: { transferMs: 20 } });
  proxy = await startFaultProxy(sandbox.url);
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
  const redis = new Redis(REDIS_URL);
  await deleteByPrefix(redis, namespace);
  await redis.quit();
});

async function newBatch(stack: TestStack, items: Array<ReturnType<typeof item>>): Promise<string> {
  const created = (await stack.gql(CreateBatch, { input: { idempotencyKey: randomUUID(), label: 'rules' } })).data!.createPayoutBatch;
  if (created.__typename !== 'CreatePayoutBatchPayload') throw new Error(created.__typename);
  const added = (await stack.gql(AddItems, { input: { batchId: created.batch.id, page: 1, items } })).data!.addPayoutBatchItems;
  expect(added.__typename).toBe('AddPayoutBatchItemsPayload');
  return created.batch.id;
}

async function itemsOf(stack: TestStack, id: string) {
  return (await stack.gql(BatchItems, { id, first: 100 })).data!.payoutBatch!.items.edges.map((e) => e.node);
}

/** How many items of the batch have this status. */
async function countOf(stack: TestStack, id: string, status: 'PENDING' | 'NOT_SENT' | 'SUCCEEDED' | 'FAILED') {
  return (await stack.gql(BatchItems, { id, first: 1, filter: { status } })).data!.payoutBatch!.items.totalCount;
}

describe('wrong recipient', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({
      inProcess: true,
      sharedSandbox: sandbox,
      apiKey,
      redisNamespace: `${namespace}-wr`,
      env: { REDIS_URL, PAYMENT_BASE_URL: proxy.url },
    });
  });
  afterAll(() => stack?.close());

  it('a lost answer looked up: the transfer under an item’s ext_id paid to another recipient is not ours, the item fails', async () => {
    const items = Array.from({ length: 10 }, (_, i) => item(i));
    const id = await newBatch(stack, items);
    const target = (await itemsOf(stack, id)).find((i) => i.index === 3)!;
    // Someone else's payout, same amount, another recipient, under item 3's ext_id.
    const api = new Api(sandbox.url, apiKey);
    const other = await api.post('/v1/payment/transfers/', {
      amount: items[3]!.amount,
      recipient_phone: item(13).recipientPhone,
      ext_id: target.extId,
    });
    expect(other.status).toBeLessThan(300);
    const lost = proxy.inject({ ...BULK_POST, action: { kind: 'drop' } });
    await stack.gql(StartBatch, { input: { batchId: id } });
    await waitFor(async () => (await stack.gql(BatchView, { id })).data!.payoutBatch!.settled, 'the batch to be final', 60_000, 50);
    expect(lost.hits).toBe(1);

    const three = (await itemsOf(stack, id)).find((i) => i.index === 3)!;
    expect(three).toMatchObject({ status: 'FAILED', transferReference: null, failure: { code: 'INVALID_DATA' } });
    expect((await stack.gql(BatchView, { id })).data!.payoutBatch).toMatchObject({ sent: { items: 9 }, succeeded: { items: 8 } });
    const transfers = (await api.get('/v1/payment/transfers')).body.data as Array<{ ext_id: string; recipient_phone: string }>;
    await api.close();
    expect(transfers.filter((t) => t.ext_id === target.extId)).toHaveLength(1);
  }, 90_000);
});

describe('cancel while a chunk is on its way', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({
      inProcess: true,
      sharedSandbox: sandbox,
      apiKey,
      redisNamespace: `${namespace}-cancel`,
      // One call a second: while the first chunk's call is held, the second waits for its slot (and is stopped).
      env: { REDIS_URL, PAYMENT_BASE_URL: proxy.url, PAYOUT_BATCH_CALLS_PER_SECOND: '1' },
    });
  });
  afterAll(() => stack?.close());

  it('the held chunk’s items stay PENDING (CANCELLING) until looked up, then end paid or failed; the rest NOT_SENT', async () => {
    const id = await newBatch(
      stack,
      Array.from({ length: 300 }, (_, i) => item(i)),
    );
    // Carried out by the service; its answer never comes (the call times out after PAYMENT_TIMEOUT_MS: in doubt).
    const held = proxy.inject({ ...BULK_POST, action: { kind: 'hold' } });
    await stack.gql(StartBatch, { input: { batchId: id } });
    await held.handled(1);
    const cancelled = (await stack.gql(CancelBatch, { input: { batchId: id } })).data!.cancelPayoutBatch;
    expect(cancelled).toMatchObject({ __typename: 'CancelPayoutBatchPayload', batch: { status: 'CANCELLING', notSent: { items: 200 } } });
    // The first chunk (items 0 to 99, the first page of items) is in doubt: none of it NOT_SENT.
    const firstChunk = async () => itemsOf(stack, id);
    expect((await firstChunk()).every((i) => i.status === 'PENDING')).toBe(true);
    expect(await countOf(stack, id, 'PENDING')).toBe(100);
    expect(await countOf(stack, id, 'NOT_SENT')).toBe(200);
    // Still so a while later: nothing but an answer or a look-up decides it.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await stack.gql(BatchView, { id })).data!.payoutBatch).toMatchObject({ status: 'CANCELLING', settled: false });
    expect(await countOf(stack, id, 'PENDING')).toBe(100);

    await waitFor(async () => (await stack.gql(BatchView, { id })).data!.payoutBatch!.settled, 'the batch to be final', 60_000, 100);
    held.release();
    expect((await stack.gql(BatchView, { id })).data!.payoutBatch).toMatchObject({
      status: 'CANCELLED',
      sent: { items: 100 },
      succeeded: { items: 90 },
      failed: { items: 10 },
      notSent: { items: 200 },
    });
    expect((await firstChunk()).map((i) => i.status).sort()).toEqual([...Array(90).fill('SUCCEEDED'), ...Array(10).fill('FAILED')].sort());
    expect(stack.logLines.some((l) => l.includes('chunk in doubt'))).toBe(true);
  }, 90_000);
});
