// Fairness of the shared runner between merchants, in order only (no timing asserted), over the shared Redis and the
// sandbox (over HTTP, which records the account of each bulk call): with merchant A's 2,000-item batch running and
// its chunks waiting for workers, merchant B's batch approved later has its first chunk sent before A has sent more
// than its cap of further chunks. A pool served first come, first served would put B behind A's waiting chunks.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mintStaffToken, SCOPES, type Scope } from '../../src/auth/index.js';
import { accountTag } from '../../src/sandbox/request-log.js';
import { testKey, type TestStack } from '../helpers/gateway.js';
import { uniqueNamespace } from '../events/redis-helpers.js';
import { closePlatformStack, startPlatformStack } from '../helpers/platform.js';
import { waitFor } from '../helpers/wait.js';
import { WALLETS } from '../../src/upstream/types.js';
import { AddItems, ApproveBatch, CancelBatch, CreateBatch, StartBatch, item } from './documents.js';
import { graphql } from '../gql/index.js';

const CAP = 3;
const namespace = uniqueNamespace('platform-fairness');
let stack: TestStack;

beforeAll(async () => {
  stack = await startPlatformStack(namespace, {
    inProcess: true,
    env: { PAYOUT_BATCH_WORKERS: String(CAP + 1), PAYOUT_BATCH_MERCHANT_WORKERS: String(CAP), PAYOUT_BATCH_FOLLOW_POLL_MS: '1000' },
  });
}, 30_000);

afterAll(() => closePlatformStack(stack, namespace));

const headers = async (scopes: Scope[], subject: string, merchantId?: string) => ({
  authorization: `Bearer ${(await mintStaffToken({ secret: stack.jwtSecret, scopes, subject, ttlSeconds: 600, merchantId })).token}`,
});

async function merchant(name: string) {
  const apiKey = testKey(name);
  const created = await stack.gql(
    graphql(`
      mutation TestFairnessMerchant($i: CreateMerchantInput!) {
        createMerchant(input: $i) { ... on CreateMerchantPayload { merchant { merchantId } } }
      }
    `),
    { i: { name, apiKey, webhookSecret: `whsec_${randomBytes(8).toString('hex')}`, idempotencyKey: randomUUID() } },
    await headers([...SCOPES], 'operator'),
  );
  const id = created.data!.createMerchant!.merchant.merchantId;
  for (const wallet of WALLETS) stack.sandbox.topUp(apiKey, wallet, 1_000_000);
  return { id, account: accountTag(apiKey), staff: await headers(['payouts:write', 'payouts:approve'], 'awa', id) };
}

/** A batch of `count` items, filled and started (with `requireApproval`, only queued for a second person). */
async function batch(staff: Record<string, string>, count: number, requireApproval: boolean): Promise<string> {
  const created = await stack.gql(CreateBatch, { input: { idempotencyKey: randomUUID(), label: 'payroll', requireApproval } }, staff);
  if (created.data?.createPayoutBatch.__typename !== 'CreatePayoutBatchPayload') throw new Error(created.raw);
  const id = created.data.createPayoutBatch.batch.batchId;
  for (let page = 0; page * 500 < count; page++) {
    const items = Array.from({ length: Math.min(500, count - page * 500) }, (_, i) => item((page * 500 + i) * 10));
    await stack.gql(AddItems, { input: { batchId: id, page: page + 1, items } }, staff);
  }
  const started = await stack.gql(StartBatch, { input: { batchId: id } }, staff);
  expect(started.data?.startPayoutBatch.__typename, started.raw).toBe('StartPayoutBatchPayload');
  return id;
}

/** The accounts of the bulk calls the sandbox received, in arrival order. */
const bulkCalls = () =>
  stack.sandbox.requests
    .all()
    .filter((r) => r.method === 'POST' && r.path.startsWith('/v1/payment/transfers/bulk'))
    .map((r) => r.account);

it('sends B’s first chunk before A has sent more than its cap of further chunks', async () => {
  const a = await merchant('faira');
  const b = await merchant('fairb');
  const batchA = await batch(a.staff, 2_000, false);
  const batchB = await batch(b.staff, 100, true);
  // A's run is under way: its cap of workers held, its other chunks waiting for one.
  await waitFor(async () => bulkCalls().filter((x) => x === a.account).length >= 2, 'A sending', 20_000);

  const approver = await headers(['payouts:approve'], 'ibrahim', b.id);
  const approved = await stack.gql(ApproveBatch, { input: { batchId: batchB } }, approver);
  expect(approved.data?.approvePayoutBatch.__typename, approved.raw).toBe('ApprovePayoutBatchPayload');
  const aAtApproval = bulkCalls().filter((x) => x === a.account).length;

  await waitFor(async () => bulkCalls().includes(b.account), 'B’s first chunk sent', 20_000);
  const calls = bulkCalls();
  const aBeforeB = calls.slice(0, calls.indexOf(b.account)).filter((x) => x === a.account).length;
  expect(aBeforeB - aAtApproval).toBeLessThanOrEqual(CAP);
  // A was still running: its batch had chunks left when B's went.
  expect(aBeforeB).toBeLessThan(20);
  await stack.gql(CancelBatch, { input: { batchId: batchA } }, a.staff);
}, 60_000);
