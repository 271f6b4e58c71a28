// Payout batches per merchant in platform mode, in process over the shared Redis and the sandbox (over HTTP): two
// merchants create batches under the same idempotency key; each runs with its merchant's own key at the service
// (its transfers are in that merchant's account only), with four eyes inside the merchant; a batch of A is not found
// by B; its events reach A's history only; every key of it is under A's hash tag and in A's key index, so the purge
// leaves none; a suspended merchant's batch money moves are refused.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mintStaffToken, SCOPES, type Scope } from '../../src/auth/index.js';
import { connectRedis, type GatewayRedis } from '../../src/redis/index.js';
import { testKey, type TestStack } from '../helpers/gateway.js';
import { uniqueNamespace } from '../events/redis-helpers.js';
import { closePlatformStack, REDIS_URL, startPlatformStack } from '../helpers/platform.js';
import { waitFor } from '../helpers/wait.js';
import { AddItems, ApproveBatch, BatchItems, BatchView, CreateBatch, StartBatch, item } from '../payout-batches/documents.js';
import { graphql } from '../gql/index.js';

const namespace = uniqueNamespace('platform-batches');
let stack: TestStack;
let redis: GatewayRedis;

const Batches = graphql(`
  query TestPlatformPayoutBatches {
    payoutBatches(first: 50) { totalCount edges { node { batchId } } }
  }
`);
const Events = graphql(`
  query TestPlatformBatchEvents {
    events(first: 100, filter: { kinds: ["payout_batch.completed", "payout_batch.approved"] }) { edges { node { kind reference } } }
  }
`);

interface Merchant {
  id: string;
  apiKey: string;
  /** Headers of its staff: the creator (payouts:write) and a second person (payouts:approve). */
  creator: Record<string, string>;
  approver: Record<string, string>;
}

const bearer = async (scopes: Scope[], subject: string, merchantId?: string) => ({
  authorization: `Bearer ${(await mintStaffToken({ secret: stack.jwtSecret, scopes, subject, ttlSeconds: 600, merchantId })).token}`,
});

async function merchant(name: string): Promise<Merchant> {
  const apiKey = testKey(name);
  const operator = await bearer([...SCOPES], 'operator');
  const created = await stack.gql(
    graphql(`
      mutation TestPlatformBatchMerchant($i: CreateMerchantInput!) {
        createMerchant(input: $i) { ... on CreateMerchantPayload { merchant { merchantId } } }
      }
    `),
    { i: { name, apiKey, webhookSecret: `whsec_${randomBytes(8).toString('hex')}`, idempotencyKey: randomUUID() } },
    operator,
  );
  const id = created.data!.createMerchant!.merchant.merchantId;
  const staff: Scope[] = ['payments:read', 'payouts:write', 'events:read'];
  return {
    id,
    apiKey,
    creator: await bearer(staff, 'awa', id),
    approver: await bearer(['payments:read', 'payouts:approve'], 'ibrahim', id),
  };
}

/** A batch of `count` items under the merchant's idempotency key `k1`, four eyes required, started by its creator. */
async function startedBatch(m: Merchant, count: number): Promise<string> {
  const created = await stack.gql(CreateBatch, { input: { idempotencyKey: 'k1', label: 'payroll', requireApproval: true } }, m.creator);
  if (created.data?.createPayoutBatch.__typename !== 'CreatePayoutBatchPayload') throw new Error(created.raw);
  const id = created.data.createPayoutBatch.batch.batchId;
  const items = Array.from({ length: count }, (_, i) => item(i * 10));
  for (let page = 0; page * 100 < count; page++) {
    const added = await stack.gql(
      AddItems,
      { input: { batchId: id, page: page + 1, items: items.slice(page * 100, page * 100 + 100) } },
      m.creator,
    );
    expect(added.data?.addPayoutBatchItems.__typename, added.raw).toBe('AddPayoutBatchItemsPayload');
  }
  const started = await stack.gql(StartBatch, { input: { batchId: id } }, m.creator);
  expect(started.data?.startPayoutBatch).toMatchObject({ batch: { status: 'QUEUED', awaitingApproval: true } });
  return id;
}

/** Whether the sandbox account of an API key holds a transfer (asked over HTTP). */
async function holds(apiKey: string, reference: string): Promise<boolean> {
  const res = await fetch(`${stack.sandbox.url}/v1/payment/transfers/${reference}`, {
    headers: { 'x-api-key': apiKey, accept: 'application/json' },
  });
  return ((await res.json()) as { status: boolean }).status;
}

const keysUnder = (merchantId: string) => redis.commands.keys(`${namespace}:{m:${merchantId}}:*`);

let a: Merchant;
let b: Merchant;
let batchA: string;
let batchB: string;

beforeAll(async () => {
  stack = await startPlatformStack(namespace, {
    inProcess: true,
    sandbox: { delays: { transferMs: 20 } },
    env: { PAYOUT_BATCH_FOLLOW_POLL_MS: '200', MERCHANT_OFFBOARD_GRACE: '1' },
  });
  redis = await connectRedis({ url: REDIS_URL, namespace });
  a = await merchant('batcha');
  b = await merchant('batchb');
  batchA = await startedBatch(a, 150);
  batchB = await startedBatch(b, 20);
}, 60_000);

afterAll(async () => {
  await redis?.close();
  await closePlatformStack(stack, namespace);
});

it('keeps the same idempotency key of two merchants apart, and A’s batch is not found by B', async () => {
  expect(batchA).not.toBe(batchB);
  const unknown = 'pb_000000000000000000000000';
  for (const [own, otherBatch] of [
    [a, batchB],
    [b, batchA],
  ] as const) {
    const onOther = await stack.gql(BatchView, { id: otherBatch }, own.creator);
    const onUnknown = await stack.gql(BatchView, { id: unknown }, own.creator);
    expect(onOther.raw).toBe(onUnknown.raw);
    expect(onOther.data?.payoutBatch).toBeNull();
    const listed = (await stack.gql(Batches, {}, own.creator)).data!.payoutBatches.edges.map((e) => e.node.batchId);
    expect(listed).toEqual([own === a ? batchA : batchB]);
    // Approving the other merchant's batch: the answer of a batch that does not exist.
    const approveOther = await stack.gql(ApproveBatch, { input: { batchId: otherBatch } }, own.approver);
    const approveUnknown = await stack.gql(ApproveBatch, { input: { batchId: unknown } }, own.approver);
    expect(approveOther.raw.replace(otherBatch, unknown)).toBe(approveUnknown.raw);
    expect(approveOther.data?.approvePayoutBatch.__typename).toBe('PayoutBatchNotFoundError');
  }
});

it('runs each merchant’s batch with its own key, four eyes within the merchant, its events in its own history', async () => {
  // The creator may not approve its own batch; the merchant's second person may.
  const self = await stack.gql(ApproveBatch, { input: { batchId: batchA } }, await bearer(['payouts:approve'], 'awa', a.id));
  expect(self.data?.approvePayoutBatch.__typename).toBe('SelfApprovalError');
  for (const [m, id] of [
    [a, batchA],
    [b, batchB],
  ] as const) {
    const approved = await stack.gql(ApproveBatch, { input: { batchId: id } }, m.approver);
    expect(approved.data?.approvePayoutBatch).toMatchObject({ batch: { approvedBy: 'ibrahim' } });
  }
  for (const [m, id, count] of [
    [a, batchA, 150],
    [b, batchB, 20],
  ] as const) {
    await waitFor(
      async () => (await stack.gql(BatchView, { id }, m.creator)).data?.payoutBatch?.settled === true,
      `${m.id}'s batch settled`,
      30_000,
    );
    const view = (await stack.gql(BatchView, { id }, m.creator)).data!.payoutBatch!;
    // Phones ending in 9 fail in the sandbox: none here (i * 10).
    expect(view).toMatchObject({ status: 'COMPLETED', succeeded: { items: count } });
    const items = (await stack.gql(BatchItems, { id, first: 100 }, m.creator)).data!.payoutBatch!.items.edges.map((e) => e.node);
    const other = m === a ? b : a;
    // Spot checks over HTTP: each transfer is in the merchant's own account, never in the other's.
    for (const { transferReference } of [items[0]!, items[items.length - 1]!]) {
      expect(await holds(m.apiKey, transferReference!)).toBe(true);
      expect(await holds(other.apiKey, transferReference!)).toBe(false);
    }
    const eventsRes = await stack.gql(Events, {}, m.creator);
    if (!eventsRes.data) throw new Error(eventsRes.raw);
    const events = eventsRes.data.events.edges.map((e) => `${e.node.kind} ${e.node.reference}`);
    expect(events.sort()).toEqual([`payout_batch.approved ${id}`, `payout_batch.completed ${id}`]);
  }
}, 60_000);

it('keeps every key of a merchant’s batches and idempotency keys under its tag and in its index, so the purge leaves none', async () => {
  const owned = new Set(await redis.commands.zrange(`${namespace}:{m:${a.id}}:expiring-keys`, 0, -1));
  const batchKeys = (await keysUnder(a.id)).filter((key) => key.includes(':payout-batches:') || key.includes(':idem:'));
  expect(batchKeys.some((key) => key.includes(`batch:${batchA}`))).toBe(true);
  // The batch's create and its chunks' claims: the merchant's idempotency keys, under its tag too.
  expect(batchKeys.filter((key) => key.includes(':idem:')).length).toBeGreaterThanOrEqual(3);
  expect(batchKeys.filter((key) => !owned.has(key))).toEqual([]);
  // Nothing of A's batches outside its tag, its chunks' idempotency keys included.
  const outside = (await redis.commands.keys(`${namespace}:*${batchA}*`)).filter((key) => !key.includes(`{m:${a.id}}`));
  expect(outside).toEqual([]);

  const operator = await bearer([...SCOPES], 'operator');
  const offboard = graphql(`
    mutation TestPlatformBatchOffboard($i: OffboardMerchantInput!) { offboardMerchant(input: $i) { __typename } }
  `);
  await stack.gql(offboard, { i: { merchantId: a.id } }, operator);
  // The grace (1 s here) over, the purge removes what A's index names.
  await waitFor(async () => (await stack.gateway.merchants!.purgeDue()).includes(a.id), 'A purged', 5_000);
  expect(await keysUnder(a.id)).toEqual([]);
  expect((await keysUnder(b.id)).some((key) => key.includes(`batch:${batchB}`))).toBe(true);
});

it('refuses a suspended merchant’s batch money moves with the suspension’s error, and serves its reads', async () => {
  const created = await stack.gql(CreateBatch, { input: { idempotencyKey: 'k2', label: 'late' } }, b.creator);
  const id = created.data!.createPayoutBatch.__typename === 'CreatePayoutBatchPayload' ? created.data!.createPayoutBatch.batch.batchId : '';
  await stack.gql(AddItems, { input: { batchId: id, page: 1, items: [item(1)] } }, b.creator);
  const suspend = graphql(`
    mutation TestPlatformBatchSuspend($i: SuspendMerchantInput!) { suspendMerchant(input: $i) { __typename } }
  `);
  await stack.gql(suspend, { i: { merchantId: b.id } }, await bearer([...SCOPES], 'operator'));
  await waitFor(
    async () =>
      (await stack.gql(StartBatch, { input: { batchId: id } }, b.creator)).data?.startPayoutBatch.__typename === 'MerchantSuspendedError',
    'start refused as suspended',
    5_000,
  );
  expect((await stack.gql(BatchView, { id }, b.creator)).data?.payoutBatch?.status).toBe('DRAFT');
});
