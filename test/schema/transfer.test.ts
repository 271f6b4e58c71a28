// Transfers through the gateway against the sandbox: single payouts (wallet
// inference, validation, insufficient funds, reads, idempotent replays) and
// bulk payouts (per-item failures, batch limit, rate limit). The sandbox runs
// on a ManualClock so queued transfers and the bulk rate window move only
// when the test says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_WALLET_FUNDING, TRANSFER_FEE_BPS, feeAmount, manualClock, type ManualClock } from '../../src/sandbox/index.js';
import { graphql } from '../gql/index.js';
import type { BulkTransferItemInput, CreateTransferInput, TransferTestPageQuery } from '../gql/graphql.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { Api } from '../helpers/sandbox-api.js';
import { extIdForKey } from '../../src/idempotency/ext-id.js';
import { scopedKey } from '../../src/idempotency/run.js';
import { as, uniqueKey } from './support.js';

const CreateTransfer = graphql(`
  mutation TransferTestCreate($input: CreateTransferInput!) {
    createTransfer(input: $input) {
      __typename
      ... on CreateTransferPayload { transfer { id reference amount feePercent currency recipientPhone recipientWallet status extId ipAddress liveMode createdAt } }
      ... on InsufficientFundsError { wallet }
      ... on ValidationError { fieldErrors { path message } }
      ... on PaymentError { code message messageFr retryable }
    }
  }
`);

const CreateBulk = graphql(`
  mutation TransferTestBulk($input: CreateBulkTransferInput!) {
    createBulkTransfer(input: $input) {
      __typename
      ... on CreateBulkTransferPayload {
        queuedCount
        failures {
          index
          item { amount recipientPhone recipientWallet extId }
          error {
            __typename code message messageFr retryable
            ... on InsufficientFundsError { wallet }
            ... on ValidationError { fieldErrors { path message } }
          }
        }
      }
      ... on BatchSizeLimitExceededError { limit }
      ... on RateLimitedError { retryAfterMs }
      ... on ValidationError { fieldErrors { path message } }
      ... on PaymentError { code message messageFr retryable }
    }
  }
`);

const TransferByRef = graphql(`
  query TransferTestByRef($reference: String!) {
    transfer(reference: $reference) { id reference amount feePercent currency recipientPhone recipientWallet status extId liveMode createdAt }
  }
`);

const TransfersPage = graphql(`
  query TransferTestPage($first: Int, $after: String, $last: Int, $before: String) {
    transfers(first: $first, after: $after, last: $last, before: $before) {
      totalCount
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { cursor node { reference amount status } }
    }
  }
`);

const WalletBalances = graphql(`
  query TransferTestBalances {
    balance { transferTotal { available pending } wallets { wallet available pending } }
  }
`);

type TransferPage = TransferTestPageQuery['transfers'];

let clock: ManualClock;
let stack: TestStack;
beforeAll(async () => {
  clock = manualClock();
  stack = await startStack({ inProcess: true, sandbox: { clock } });
});
afterAll(() => stack.close());

const fee = (amount: number) => feeAmount(amount, TRANSFER_FEE_BPS);

async function create(input: Omit<CreateTransferInput, 'idempotencyKey'> & { idempotencyKey?: string }) {
  const res = await stack.gql(CreateTransfer, { input: { idempotencyKey: uniqueKey('transfer'), ...input } });
  expect(res.errors).toBeUndefined();
  return res.data!.createTransfer;
}

async function bulk(transfers: BulkTransferItemInput[], idempotencyKey?: string, s: TestStack = stack) {
  const res = await s.gql(CreateBulk, { input: { transfers, idempotencyKey: idempotencyKey ?? uniqueKey('bulk') } });
  expect(res.errors).toBeUndefined();
  return res.data!.createBulkTransfer;
}

async function wallet(name: string) {
  const res = await stack.gql(WalletBalances, {});
  return res.data!.balance.wallets.find((w) => w.wallet === name)!;
}

describe('createTransfer', () => {
  it('queues a transfer (PENDING) with its fee rate, and debits amount + fee from the wallet', async () => {
    const before = await wallet('OPA_BF');
    const key = uniqueKey('first-transfer');
    const result = as(await create({ amount: 1000, recipientPhone: '76123456', idempotencyKey: key }), 'CreateTransferPayload');
    expect(result.transfer).toMatchObject({
      amount: 1000,
      feePercent: TRANSFER_FEE_BPS / 100,
      currency: 'XOF',
      recipientPhone: '76123456',
      recipientWallet: 'OPA_BF',
      status: 'PENDING',
      // Without an extId of the caller's, the gateway tags the payout with one derived from the caller's key (to find it again).
      extId: extIdForKey(scopedKey('test-staff', 'createTransfer', key)),
      liveMode: false,
    });
    expect(typeof result.transfer.feePercent).toBe('number');
    expect(result.transfer.reference).toMatch(/^tr_[0-9a-f]+$/);
    expect(result.transfer.createdAt).toMatch(/Z$/);
    const after = await wallet('OPA_BF');
    expect(after.available).toBe(before.available - 1000 - fee(1000));
    expect(after.pending).toBe(before.pending + 1000 + fee(1000));
  });

  it.each([
    ['70123456', 'OPB_BF'],
    ['58123456', 'OPD_BF'],
    ['68123456', 'OPD_BF'],
    ['0196123456', 'OPE_BJ'],
    ['0195123456', 'OPF_BJ'],
  ])('infers the wallet from the recipient %s when omitted: %s', async (recipientPhone, expected) => {
    const result = as(await create({ amount: 150, recipientPhone }), 'CreateTransferPayload');
    expect(result.transfer.recipientWallet).toBe(expected);
  });

  it('uses the wallet named (OPD_BF pays any Burkina Faso mobile)', async () => {
    const result = as(
      await create({ amount: 150, recipientPhone: '76123456', recipientWallet: 'OPD_BF', extId: 'payout-7' }),
      'CreateTransferPayload',
    );
    expect(result.transfer).toMatchObject({ recipientWallet: 'OPD_BF', extId: 'payout-7' });
  });

  it.each([
    { name: 'amount below the minimum of 100', input: { amount: 99, recipientPhone: '76123456' }, paths: ['input.amount'] },
    { name: 'zero amount', input: { amount: 0, recipientPhone: '76123456' }, paths: ['input.amount'] },
    {
      name: 'recipient not reachable from the wallet named',
      input: { amount: 500, recipientPhone: '70123456', recipientWallet: 'OPA_BF' as const },
      paths: ['input.recipientPhone'],
    },
    {
      name: 'Benin number from a Burkina wallet',
      input: { amount: 500, recipientPhone: '0196123456', recipientWallet: 'OPD_BF' as const },
      paths: ['input.recipientPhone'],
    },
    { name: 'not a mobile number of either country', input: { amount: 500, recipientPhone: '12345678' }, paths: ['input.recipientPhone'] },
    {
      name: 'several problems',
      input: { amount: 5, recipientPhone: 'abc', extId: 'e'.repeat(101) },
      paths: ['input.amount', 'input.extId', 'input.recipientPhone'],
    },
  ])('refuses $name with a ValidationError, before any call', async ({ input, paths }) => {
    stack.sandbox.requests.clear();
    const result = as(await create(input), 'ValidationError');
    expect(result).toMatchObject({ code: 'VALIDATION_FAILED', retryable: false });
    expect(result.fieldErrors.map((e) => e.path.join('.')).sort()).toEqual(paths);
    expect(stack.sandbox.requests.count()).toBe(0);
  });

  it('returns InsufficientFundsError naming the wallet when amount + fee exceed its balance', async () => {
    // 1,000 + 1% fee = 1,010: 1,009 is one short, 1,010 is just enough.
    stack.sandbox.setBalance(stack.apiKey, { wallets: { opb_bf: { available: 1009 } } });
    const short = as(await create({ amount: 1000, recipientPhone: '70123456' }), 'InsufficientFundsError');
    expect(short).toMatchObject({ code: 'INSUFFICIENT_FUNDS', wallet: 'OPB_BF', retryable: false });
    // Named as people know the operator, never by the service's token.
    expect(short.message).toMatch(/the OPB Money Burkina Faso wallet/);
    expect(short.messageFr).toMatch(/portefeuille OPB Money Burkina Faso/);
    expect(`${short.message} ${short.messageFr}`).not.toMatch(/opb_bf/i);
    expect(short.messageFr).not.toBe(short.message);

    stack.sandbox.setBalance(stack.apiKey, { wallets: { opb_bf: { available: 1010 } } });
    as(await create({ amount: 1000, recipientPhone: '70123456' }), 'CreateTransferPayload');
    expect((await wallet('OPB_BF')).available).toBe(0);
    stack.sandbox.setBalance(stack.apiKey, { wallets: { opb_bf: { available: TEST_WALLET_FUNDING } } });
  });

  it('returns InsufficientFundsError for an amount larger than the whole wallet', async () => {
    const result = as(await create({ amount: 5_000_000, recipientPhone: '0195123456' }), 'InsufficientFundsError');
    expect(result.wallet).toBe('OPF_BJ');
  });

  it('replays the first result for a repeated idempotency key: one transfer at the service', async () => {
    const key = uniqueKey('transfer');
    stack.sandbox.requests.clear();
    const first = as(await create({ amount: 700, recipientPhone: '68123456', idempotencyKey: key }), 'CreateTransferPayload');
    const again = as(await create({ amount: 700, recipientPhone: '68123456', idempotencyKey: key }), 'CreateTransferPayload');
    expect(again.transfer.reference).toBe(first.transfer.reference);
    expect(stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers' })).toBe(1);
    const other = await create({ amount: 701, recipientPhone: '68123456', idempotencyKey: key });
    expect(other).toMatchObject({ __typename: 'IdempotencyConflictError', code: 'IDEMPOTENCY_CONFLICT' });
    expect(stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers' })).toBe(1);
  });
});

describe('reading transfers', () => {
  it('transfer(reference) reads it back; unknown references are null', async () => {
    const created = as(await create({ amount: 1200, recipientPhone: '0196123456', extId: 'read-1' }), 'CreateTransferPayload');
    const res = await stack.gql(TransferByRef, { reference: created.transfer.reference });
    const { ipAddress: _ip, ...expected } = created.transfer;
    expect(res.data!.transfer).toEqual(expected);
    const unknown = await stack.gql(TransferByRef, { reference: 'tr_000000000000000000000000' });
    expect(unknown.errors).toBeUndefined();
    expect(unknown.data!.transfer).toBeNull();
  });

  it('follows a transfer to SUCCESS, and one to a number ending in 9 to FAILED with its money back', async () => {
    const ok = as(await create({ amount: 300, recipientPhone: '77123456' }), 'CreateTransferPayload');
    const before = await wallet('OPA_BF');
    const failing = as(await create({ amount: 400, recipientPhone: '77123459' }), 'CreateTransferPayload');
    await clock.advance(stack.sandbox.delays.transferMs);
    expect((await stack.gql(TransferByRef, { reference: ok.transfer.reference })).data!.transfer!.status).toBe('SUCCESS');
    expect((await stack.gql(TransferByRef, { reference: failing.transfer.reference })).data!.transfer!.status).toBe('FAILED');
    const after = await wallet('OPA_BF');
    expect(after.available).toBe(before.available);
  });

  it("transfers: the service's list, newest first, walked with cursors both ways", async () => {
    const rest = new Api(stack.sandbox.url, stack.apiKey);
    const listed = ((await rest.get('/v1/payment/transfers')).body.data as Array<{ reference: string }>).map((t) => t.reference);
    await rest.close();
    expect(listed.length).toBeGreaterThan(10);

    const forward: string[] = [];
    let after: string | null = null;
    for (;;) {
      const c: TransferPage = (await stack.gql(TransfersPage, { first: 4, after })).data!.transfers;
      expect(c.totalCount).toBe(listed.length);
      expect(c.pageInfo.hasPreviousPage).toBe(after !== null);
      forward.push(...c.edges.map((e) => e.node.reference));
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    expect(forward).toEqual(listed);

    const backward: string[] = [];
    let before: string | null = null;
    for (;;) {
      const c: TransferPage = (await stack.gql(TransfersPage, { last: 3, before })).data!.transfers;
      backward.unshift(...c.edges.map((e) => e.node.reference));
      if (!c.pageInfo.hasPreviousPage) break;
      before = c.pageInfo.startCursor;
    }
    expect(backward).toEqual(listed);
  });
});

describe('createBulkTransfer', () => {
  it('queues what the wallets cover and reports each other item with its index, the item and a typed error', async () => {
    await clock.advance(1_000); // a fresh rate-limit window
    stack.sandbox.setBalance(stack.apiKey, { wallets: { opd_bf: { available: 5_000 } } });
    const items: BulkTransferItemInput[] = [
      { amount: 1000, recipientPhone: '68111111' }, // opd: 1,010 of 5,000
      { amount: 500, recipientPhone: '76111111' },
      { amount: 10_000, recipientPhone: '68222222', extId: 'too-big' }, // opd: 10,100 > 3,990
      { amount: 200, recipientPhone: '0196111111' },
      { amount: 3000, recipientPhone: '58111111' }, // opd: 3,030 of 3,990
    ];
    const result = as(await bulk(items), 'CreateBulkTransferPayload');
    expect(result.queuedCount).toBe(4);
    expect(result.failures).toHaveLength(1);
    const failure = result.failures[0]!;
    expect(failure.index).toBe(2);
    expect(failure.item).toEqual({ amount: 10_000, recipientPhone: '68222222', recipientWallet: null, extId: 'too-big' });
    expect(failure.error).toMatchObject({
      __typename: 'InsufficientFundsError',
      code: 'INSUFFICIENT_FUNDS',
      wallet: 'OPD_BF',
      retryable: false,
    });
    expect(failure.error.messageFr).not.toBe(failure.error.message);
    expect((await wallet('OPD_BF')).available).toBe(5_000 - 1010 - 3030);
    stack.sandbox.setBalance(stack.apiKey, { wallets: { opd_bf: { available: TEST_WALLET_FUNDING } } });
  });

  it("reports an item the service refuses for a field with a validation error at that item's path", async () => {
    await clock.advance(1_000);
    const extId = uniqueKey('dup');
    const result = as(
      await bulk([
        { amount: 150, recipientPhone: '76111111', extId },
        { amount: 160, recipientPhone: '76111112', extId }, // ext_id is unique per account at the service
        { amount: 170, recipientPhone: '76111113' },
      ]),
      'CreateBulkTransferPayload',
    );
    expect(result.queuedCount).toBe(2);
    expect(result.failures).toHaveLength(1);
    const failure = result.failures[0]!;
    expect(failure.item).toMatchObject({ amount: 160, recipientPhone: '76111112', extId });
    expect(failure.index).toBe(1);
    expect(failure.error).toMatchObject({ __typename: 'ValidationError', code: 'INVALID_DATA' });
    const fieldErrors = (failure.error as { fieldErrors: Array<{ path: string[] }> }).fieldErrors;
    expect(fieldErrors.map((e) => e.path.join('.'))).toEqual(['input.transfers.1.extId']);
  });

  it('attributes the failure to the right one of two identical items (the wallet covers only the first)', async () => {
    await clock.advance(1_000);
    stack.sandbox.setBalance(stack.apiKey, { wallets: { ope_bj: { available: 1_500 } } });
    const result = as(
      await bulk([
        { amount: 1000, recipientPhone: '0196222222' },
        { amount: 1000, recipientPhone: '0196222222' },
      ]),
      'CreateBulkTransferPayload',
    );
    expect(result.queuedCount).toBe(1);
    expect(result.failures.map((f) => [f.index, f.error.__typename])).toEqual([[1, 'InsufficientFundsError']]);
    stack.sandbox.setBalance(stack.apiKey, { wallets: { ope_bj: { available: TEST_WALLET_FUNDING } } });
  });

  it('refuses more than 100 items with BatchSizeLimitExceededError (limit 100) without calling the service', async () => {
    stack.sandbox.requests.clear();
    const items = Array.from({ length: 101 }, (_, i) => ({ amount: 100 + i, recipientPhone: '76123456' }));
    const result = as(await bulk(items), 'BatchSizeLimitExceededError');
    expect(result).toMatchObject({ code: 'BATCH_SIZE_LIMIT_EXCEEDED', limit: 100, retryable: false });
    expect(result.messageFr).not.toBe(result.message);
    expect(stack.sandbox.requests.count()).toBe(0);
  });

  it('accepts exactly 100 items', async () => {
    await clock.advance(1_000);
    const items = Array.from({ length: 100 }, () => ({ amount: 100, recipientPhone: '0195123456' }));
    const result = as(await bulk(items), 'CreateBulkTransferPayload');
    expect(result).toMatchObject({ queuedCount: 100, failures: [] });
  });

  it('refuses an empty batch and invalid items with field paths, before any call', async () => {
    stack.sandbox.requests.clear();
    const empty = as(await bulk([]), 'ValidationError');
    expect(empty.fieldErrors.map((e) => e.path.join('.'))).toEqual(['input.transfers']);
    const invalid = as(
      await bulk([
        { amount: 1000, recipientPhone: '76123456' },
        { amount: 50, recipientPhone: '76123456' },
        { amount: 1000, recipientPhone: '70123456', recipientWallet: 'OPA_BF' },
      ]),
      'ValidationError',
    );
    expect(invalid.fieldErrors.map((e) => e.path.join('.')).sort()).toEqual([
      'input.transfers.1.amount',
      'input.transfers.2.recipientPhone',
    ]);
    expect(stack.sandbox.requests.count()).toBe(0);
  });

  it('replays a bulk transfer for a repeated idempotency key: one call at the service', async () => {
    await clock.advance(1_000);
    const key = uniqueKey('bulk');
    stack.sandbox.requests.clear();
    const items = [
      { amount: 250, recipientPhone: '76123456' },
      { amount: 260, recipientPhone: '70123456' },
    ];
    const first = as(await bulk(items, key), 'CreateBulkTransferPayload');
    const again = as(await bulk(items, key), 'CreateBulkTransferPayload');
    expect(again).toEqual(first);
    expect(stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers/bulk' })).toBe(1);
  });

  it('returns RateLimitedError (retryable) beyond 5 bulk calls in one second', async () => {
    await clock.advance(1_000);
    // Its own account: the service counts bulk calls per account.
    const other = await startStack({ inProcess: true, sharedSandbox: stack.sandbox });
    try {
      stack.sandbox.requests.clear();
      const results = await Promise.all(
        Array.from({ length: 7 }, (_, i) => bulk([{ amount: 100 + i, recipientPhone: '76123456' }], undefined, other)),
      );
      const limited = results.filter((r) => r.__typename === 'RateLimitedError');
      const queued = results.filter((r) => r.__typename === 'CreateBulkTransferPayload');
      // The sandbox clock does not move: exactly 5 calls fit in the window.
      expect(queued).toHaveLength(5);
      expect(limited).toHaveLength(2);
      for (const r of limited) {
        expect(r).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', retryable: true, retryAfterMs: expect.any(Number) });
        expect(as(r, 'RateLimitedError').retryAfterMs).toBeGreaterThan(0);
      }
      // Never retried behind the client's back.
      expect(stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers/bulk' })).toBe(7);

      await clock.advance(1_000);
      as(await bulk([{ amount: 100, recipientPhone: '76123456' }], undefined, other), 'CreateBulkTransferPayload');
    } finally {
      await other.close();
    }
  });
});
