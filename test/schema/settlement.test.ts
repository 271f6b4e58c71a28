// Settlements and balances through the gateway against the sandbox: create,
// read, list, cancel (and when it cannot be cancelled), the account without a
// payout account, validation; the balance's shape and how a collected charge
// moves it. The sandbox runs on a ManualClock so settlements move on cue.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHARGE_FEE_BPS,
  NO_PAYOUT_KEY_PREFIX,
  SETTLEMENT_FEE_BPS,
  TEST_OTP,
  TEST_WALLET_FUNDING,
  feeAmount,
  manualClock,
  type ManualClock,
} from '../../src/sandbox/index.js';
import { graphql } from '../gql/index.js';
import type { Provider } from '../gql/graphql.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { as, uniqueKey } from './support.js';

const CreateSettlement = graphql(`
  mutation SettlementTestCreate($input: CreateSettlementInput!) {
    createSettlement(input: $input) {
      __typename
      ... on SettlementPayload {
        settlement {
          id reference amount settlementFees currency status accountType liveMode createdAt updatedAt
          account { accountHolderName accountHolderAddress bankName bankAddress iban rib swiftBicCode provider phone usdtWalletAddress }
        }
      }
      ... on InsufficientFundsError { wallet }
      ... on ValidationError { fieldErrors { path message } }
      ... on PaymentError { code message messageFr retryable }
    }
  }
`);

const CancelSettlement = graphql(`
  mutation SettlementTestCancel($reference: String!) {
    cancelSettlement(reference: $reference) {
      __typename
      ... on SettlementPayload { settlement { reference status amount createdAt updatedAt } }
      ... on SettlementNotCancellableError { settlementStatus }
      ... on NotFoundError { reference }
      ... on PaymentError { code message messageFr retryable }
    }
  }
`);

const SettlementByRef = graphql(`
  query SettlementTestByRef($reference: String!) {
    settlement(reference: $reference) {
      id reference amount settlementFees currency status accountType liveMode createdAt updatedAt
      account { accountHolderName accountHolderAddress bankName bankAddress iban rib swiftBicCode provider phone usdtWalletAddress }
    }
  }
`);

const SettlementsPage = graphql(`
  query SettlementTestPage($first: Int, $after: String) {
    settlements(first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage hasPreviousPage endCursor }
      edges { node { reference status amount } }
    }
  }
`);

const Balance = graphql(`
  query SettlementTestBalance {
    balance {
      currency
      collection { available pending }
      transferTotal { available pending }
      wallets { wallet available pending }
    }
  }
`);

const PayCharge = graphql(`
  mutation SettlementTestCharge($input: CreateChargeInput!) {
    createCharge(input: $input) { __typename ... on CreateChargePayload { reference } ... on PaymentError { code message } }
  }
`);

const ConfirmCharge = graphql(`
  mutation SettlementTestConfirm($input: SubmitChargeOtpInput!) {
    submitChargeOtp(input: $input) { __typename ... on SubmitChargeOtpPayload { charge { status amount } } ... on PaymentError { code message } }
  }
`);

let clock: ManualClock;
let stack: TestStack;
beforeAll(async () => {
  clock = manualClock();
  stack = await startStack({ inProcess: true, sandbox: { clock } });
  stack.sandbox.setBalance(stack.apiKey, { collection: { available: 100_000 } });
});
afterAll(() => stack.close());

async function createSettlement(amount: number, idempotencyKey = uniqueKey('settle'), s: TestStack = stack) {
  const res = await s.gql(CreateSettlement, { input: { amount, idempotencyKey } });
  expect(res.errors).toBeUndefined();
  return res.data!.createSettlement;
}

async function cancel(reference: string) {
  const res = await stack.gql(CancelSettlement, { reference });
  expect(res.errors).toBeUndefined();
  return res.data!.cancelSettlement;
}

async function balance(s: TestStack = stack) {
  const res = await s.gql(Balance, {});
  expect(res.errors).toBeUndefined();
  return res.data!.balance;
}

describe('createSettlement', () => {
  it('creates a PROCESSING settlement to the bank payout account, and holds the amount in the collection balance', async () => {
    const before = await balance();
    const result = as(await createSettlement(10_000), 'SettlementPayload');
    const s = result.settlement;
    expect(s).toMatchObject({
      amount: 10_000,
      settlementFees: feeAmount(10_000, SETTLEMENT_FEE_BPS),
      currency: 'XOF',
      status: 'PROCESSING',
      accountType: 'BANK',
      liveMode: false,
      // The sandbox account's payout account, as the service reports it (fixed test data).
      account: {
        bankName: 'Banque Sandbox du Faso',
        bankAddress: 'Avenue Kwame Nkrumah, Ouagadougou',
        iban: 'BF42BF0840101300463574000390',
        rib: 'BF084 01013 004635740003 90',
        swiftBicCode: 'SBXFBFBF',
        accountHolderName: 'Sandbox Merchant SARL',
        accountHolderAddress: null,
        provider: null,
        phone: null,
        usdtWalletAddress: null,
      },
    });
    expect(s.reference).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(s.createdAt).toMatch(/Z$/);
    expect(s.updatedAt).toMatch(/Z$/);
    const after = await balance();
    expect(after.collection).toEqual({ available: before.collection.available - 10_000, pending: before.collection.pending + 10_000 });
  });

  it.each([0, -1])('refuses amount %i with a ValidationError, before any call', async (amount) => {
    stack.sandbox.requests.clear();
    const result = as(await createSettlement(amount), 'ValidationError');
    expect(result).toMatchObject({ code: 'VALIDATION_FAILED', retryable: false });
    expect(result.fieldErrors.map((e) => e.path.join('.'))).toEqual(['input.amount']);
    expect(stack.sandbox.requests.count()).toBe(0);
  });

  it('returns InsufficientFundsError for more than the collection balance holds', async () => {
    const { collection } = await balance();
    const result = as(await createSettlement(collection.available + 1), 'InsufficientFundsError');
    expect(result).toMatchObject({ code: 'INSUFFICIENT_FUNDS', wallet: null, retryable: false });
  });

  it('returns PaymentAccountMissingError for an account without a payout account', async () => {
    const noPayout = await startStack({
      inProcess: true,
      sharedSandbox: stack.sandbox,
      apiKey: `${NO_PAYOUT_KEY_PREFIX}${randomBytes(8).toString('hex')}`,
    });
    try {
      noPayout.sandbox.setBalance(noPayout.apiKey, { collection: { available: 50_000 } });
      const result = as(await createSettlement(1_000, undefined, noPayout), 'PaymentAccountMissingError');
      expect(result).toMatchObject({ code: 'PAYMENT_ACCOUNT_MISSING', retryable: false });
      expect(result.messageFr).not.toBe(result.message);
    } finally {
      await noPayout.close();
    }
  });

  it('replays the first result for a repeated idempotency key: one settlement at the service', async () => {
    const key = uniqueKey('settlement');
    stack.sandbox.requests.clear();
    const first = as(await createSettlement(1_500, key), 'SettlementPayload');
    const again = as(await createSettlement(1_500, key), 'SettlementPayload');
    expect(again.settlement.reference).toBe(first.settlement.reference);
    expect(stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/settlements' })).toBe(1);
  });
});

describe('reading settlements', () => {
  it('settlement(reference) reads it back; an unknown reference is null', async () => {
    const created = as(await createSettlement(2_000), 'SettlementPayload');
    const res = await stack.gql(SettlementByRef, { reference: created.settlement.reference });
    expect(res.data!.settlement).toEqual(created.settlement);
    const unknown = await stack.gql(SettlementByRef, { reference: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.errors).toBeUndefined();
    expect(unknown.data!.settlement).toBeNull();
  });

  it('settlements lists them newest first, with cursors', async () => {
    const a = as(await createSettlement(3_001), 'SettlementPayload').settlement.reference;
    const b = as(await createSettlement(3_002), 'SettlementPayload').settlement.reference;
    const all = (await stack.gql(SettlementsPage, { first: 100 })).data!.settlements;
    expect(all.edges.length).toBe(all.totalCount);
    expect(all.edges.slice(0, 2).map((e) => e.node.reference)).toEqual([b, a]);

    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const c: typeof all = (await stack.gql(SettlementsPage, { first: 2, after })).data!.settlements;
      expect(c.totalCount).toBe(all.totalCount);
      expect(c.pageInfo.hasPreviousPage).toBe(after !== null);
      seen.push(...c.edges.map((e) => e.node.reference));
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    expect(seen).toEqual(all.edges.map((e) => e.node.reference));
  });
});

describe('cancelSettlement', () => {
  it('cancels a PROCESSING settlement (funds back), then refuses to cancel it again', async () => {
    const created = as(await createSettlement(4_000), 'SettlementPayload').settlement;
    const before = await balance();
    await clock.advance(1_000);
    const cancelled = as(await cancel(created.reference), 'SettlementPayload').settlement;
    expect(cancelled).toMatchObject({ reference: created.reference, status: 'CANCELLED', amount: 4_000, createdAt: created.createdAt });
    expect(Date.parse(cancelled.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    const after = await balance();
    expect(after.collection).toEqual({ available: before.collection.available + 4_000, pending: before.collection.pending - 4_000 });

    const again = as(await cancel(created.reference), 'SettlementNotCancellableError');
    expect(again).toMatchObject({ code: 'SETTLEMENT_NOT_CANCELLABLE', settlementStatus: 'CANCELLED', retryable: false });
    expect(again.messageFr).not.toBe(again.message);
  });

  it('refuses to cancel a settlement already IN_TRANSIT, and says so', async () => {
    const created = as(await createSettlement(5_000), 'SettlementPayload').settlement;
    await clock.advance(stack.sandbox.delays.settlementInTransitMs);
    expect((await stack.gql(SettlementByRef, { reference: created.reference })).data!.settlement!.status).toBe('IN_TRANSIT');
    const result = as(await cancel(created.reference), 'SettlementNotCancellableError');
    expect(result.settlementStatus).toBe('IN_TRANSIT');
    await clock.advance(stack.sandbox.delays.settlementSuccessMs);
    expect(as(await cancel(created.reference), 'SettlementNotCancellableError').settlementStatus).toBe('SUCCESS');
  });

  it('returns NotFoundError for an unknown reference', async () => {
    const reference = '00000000-0000-4000-8000-000000000000';
    const result = as(await cancel(reference), 'NotFoundError');
    expect(result).toMatchObject({ code: 'NOT_FOUND', reference, retryable: false });
  });
});

describe('balance', () => {
  it('has the collection, transfer total and one entry per wallet', async () => {
    const fresh = await startStack({ inProcess: true, sharedSandbox: stack.sandbox });
    try {
      const b = await balance(fresh);
      expect(b).toEqual({
        currency: 'XOF',
        collection: { available: 0, pending: 0 },
        transferTotal: { available: 5 * TEST_WALLET_FUNDING, pending: 0 },
        wallets: ['OPA_BF', 'OPB_BF', 'OPD_BF', 'OPE_BJ', 'OPF_BJ'].map((wallet) => ({
          wallet,
          available: TEST_WALLET_FUNDING,
          pending: 0,
        })),
      });
    } finally {
      await fresh.close();
    }
  });

  it('grows the collection by the amount less fees for each successful charge, and not for a failed one', async () => {
    const fresh = await startStack({ inProcess: true, sharedSandbox: stack.sandbox });
    try {
      const pay = async (provider: Provider, phone: string, amount: number) => {
        const created = await fresh.gql(PayCharge, { input: { amount, phone, provider, idempotencyKey: uniqueKey('charge') } });
        const reference = as(created.data!.createCharge, 'CreateChargePayload').reference;
        return (await fresh.gql(ConfirmCharge, { input: { chargeReference: reference, otp: TEST_OTP } })).data!.submitChargeOtp;
      };
      const start = (await balance(fresh)).collection.available;
      expect((await pay('OPA_BF', '76000000', 1001)).__typename).toBe('SubmitChargeOtpPayload');
      const afterOne = (await balance(fresh)).collection.available;
      expect(afterOne - start).toBe(1001 - feeAmount(1001, CHARGE_FEE_BPS.opa_bf)); // 1001 - 26

      expect((await pay('OPD_BF', '68000000', 12_345)).__typename).toBe('SubmitChargeOtpPayload');
      expect((await pay('OPA_BF', '76000002', 5_000)).__typename).toBe('InsufficientFundsError'); // declined for lack of funds: ends failed
      const end = await balance(fresh);
      expect(end.collection.available - start).toBe(
        1001 - feeAmount(1001, CHARGE_FEE_BPS.opa_bf) + 12_345 - feeAmount(12_345, CHARGE_FEE_BPS.opd_bf),
      );
      expect(end.collection.pending).toBe(0);
    } finally {
      await fresh.close();
    }
  });
});
