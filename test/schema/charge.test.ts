// Charges through the gateway (HTTP) against the sandbox (HTTP): creation per
// operator and what the customer must do next, OTP submission and its typed
// failures, validation before any upstream call, lookups, idempotent replays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHARGE_FEE_BPS, TEST_OTP, manualClock, type ManualClock } from '../../src/sandbox/index.js';
import { graphql } from '../gql/index.js';
import type { Provider } from '../gql/graphql.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { as, uniqueKey } from './support.js';

const CreateCharge = graphql(`
  mutation ChargeTestCreate($input: CreateChargeInput!) {
    createCharge(input: $input) {
      __typename
      ... on CreateChargePayload {
        reference status displayText displayTextFr operatorDisplayText nextAction liveMode
        charge {
          id reference amount feePercent currency status provider phone extId operatorId ipAddress paymentMethod
          transactionDate createdAt updatedAt cancelledAt cancellationReason liveMode
          confirmationAttempts { ipAddress attemptDate status }
        }
      }
      ... on ValidationError { fieldErrors { path message } }
      ... on PaymentError { code message messageFr retryable }
    }
  }
`);

const SubmitOtp = graphql(`
  mutation ChargeTestSubmitOtp($input: SubmitChargeOtpInput!) {
    submitChargeOtp(input: $input) {
      __typename
      ... on SubmitChargeOtpPayload {
        charge { reference status amount feePercent provider phone operatorId createdAt updatedAt transactionDate confirmationAttempts { ipAddress attemptDate status } }
      }
      ... on NotFoundError { reference }
      ... on ValidationError { fieldErrors { path message } }
      ... on PaymentError { code message messageFr retryable }
    }
  }
`);

const ChargeByRef = graphql(`
  query ChargeTestByRef($reference: String!) {
    charge(reference: $reference) { id reference amount feePercent status provider phone createdAt updatedAt transactionDate confirmationAttempts { attemptDate status } }
  }
`);

let clock: ManualClock;
let stack: TestStack;
beforeAll(async () => {
  clock = manualClock();
  stack = await startStack({ inProcess: true, sandbox: { clock } });
});
afterAll(() => stack.close());

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function create(input: {
  amount: number;
  phone: string;
  provider: Provider;
  confirmationMethod?: 'OTP' | 'USSD';
  extId?: string;
  idempotencyKey?: string;
}) {
  const res = await stack.gql(CreateCharge, { input: { ...input, idempotencyKey: input.idempotencyKey ?? uniqueKey('charge') } });
  expect(res.errors).toBeUndefined();
  return res.data!.createCharge;
}

async function submit(chargeReference: string, otp: string) {
  const res = await stack.gql(SubmitOtp, { input: { chargeReference, otp } });
  expect(res.errors).toBeUndefined();
  return res.data!.submitChargeOtp;
}

describe('createCharge', () => {
  it.each([
    { provider: 'OPA_BF', phone: '76000000', status: 'SEND_OTP', nextAction: 'DIAL_USSD_THEN_ENTER_OTP', text: /\*144\*4\*6\*1500#/ },
    { provider: 'OPB_BF', phone: '70000000', status: 'SEND_OTP', nextAction: 'ENTER_OTP', text: /OTP/ },
    {
      provider: 'OPB_BF',
      phone: '70000000',
      confirmationMethod: 'USSD',
      status: 'PAY_OFFLINE',
      nextAction: 'CONFIRM_ON_PHONE',
      text: /\*115\*6\*1500#/,
    },
    { provider: 'OPB_BF', phone: '70000000', confirmationMethod: 'OTP', status: 'SEND_OTP', nextAction: 'ENTER_OTP', text: /OTP/ },
    { provider: 'OPC_BF', phone: '58000000', status: 'SEND_OTP', nextAction: 'ENTER_OTP', text: /OTP/ },
    { provider: 'OPD_BF', phone: '68000000', status: 'SEND_OTP', nextAction: 'ENTER_OTP', text: /OTP/ },
    { provider: 'OPE_BJ', phone: '0196000000', status: 'PAY_OFFLINE', nextAction: 'CONFIRM_ON_PHONE', text: /phone/ },
    { provider: 'OPF_BJ', phone: '0195000000', status: 'SEND_OTP', nextAction: 'ENTER_OTP', text: /OTP/ },
  ] as const)('$provider $confirmationMethod -> $status, $nextAction', async (c) => {
    const result = as(
      await create({
        amount: 1500,
        phone: c.phone,
        provider: c.provider,
        ...('confirmationMethod' in c ? { confirmationMethod: c.confirmationMethod } : {}),
      }),
      'CreateChargePayload',
    );
    expect(result.reference).toMatch(/^ch_[0-9a-f]+$/);
    expect(result.status).toBe(c.status);
    expect(result.nextAction).toBe(c.nextAction);
    expect(result.displayText).toMatch(c.text);
    // One language per field: the sandbox's operator text is "French / English" in one string.
    expect(result.operatorDisplayText).toMatch(/ \/ /);
    expect(result.displayText).not.toMatch(/ \/ |Composez|Un code|Validez/);
    expect(result.displayTextFr).toMatch(
      c.text.source === 'OTP'
        ? /^Un code OTP vous a été envoyé par SMS/
        : c.text.source === 'phone'
          ? /^Validez le paiement/
          : /^Composez \*/,
    );
    expect(result.displayTextFr).toMatch(c.text.source === 'OTP' || c.text.source === 'phone' ? /./ : c.text);
    expect(result.liveMode).toBe(false);

    // The payload's `charge` is the full charge, as the service now has it.
    const charge = result.charge!;
    const fee = CHARGE_FEE_BPS[c.provider.toLowerCase() as keyof typeof CHARGE_FEE_BPS] / 100;
    expect(charge).toMatchObject({
      reference: result.reference,
      amount: 1500,
      currency: 'XOF',
      status: c.status,
      provider: c.provider,
      phone: c.phone,
      paymentMethod: 'mobile_money',
      liveMode: false,
      confirmationAttempts: [],
      cancelledAt: null,
      cancellationReason: null,
    });
    expect(typeof charge.feePercent).toBe('number');
    expect(charge.feePercent).toBe(fee);
    expect(charge.id).toEqual(expect.any(String));
    // The service mixes "Z" and "+00:00": the gateway always answers in UTC "Z".
    expect(charge.createdAt).toMatch(ISO_Z);
    expect(charge.updatedAt).toMatch(ISO_Z);
    expect(charge.transactionDate).toMatch(ISO_Z);
    expect(charge.createdAt).toBe(new Date(clock.now()).toISOString());
  });

  it('keeps the extId given', async () => {
    const result = as(await create({ amount: 800, phone: '76000000', provider: 'OPA_BF', extId: 'order-42' }), 'CreateChargePayload');
    expect(result.charge!.extId).toBe('order-42');
  });

  it('returns InvalidAccountError for a number without an account (76000001)', async () => {
    const result = as(await create({ amount: 1000, phone: '76000001', provider: 'OPA_BF' }), 'InvalidAccountError');
    expect(result).toMatchObject({ code: 'INVALID_ACCOUNT', retryable: false });
    expect(result.messageFr).not.toBe(result.message);
  });

  describe('rejects invalid input with field paths before any call to the service', () => {
    it.each([
      {
        name: 'phone not matching the provider rule',
        input: { amount: 1000, phone: '70000000', provider: 'OPA_BF' as const },
        paths: ['input.phone'],
      },
      { name: 'phone too short', input: { amount: 1000, phone: '7600000', provider: 'OPA_BF' as const }, paths: ['input.phone'] },
      {
        name: 'Benin number for a Burkina operator',
        input: { amount: 1000, phone: '0196000000', provider: 'OPC_BF' as const },
        paths: ['input.phone'],
      },
      { name: 'amount 0', input: { amount: 0, phone: '76000000', provider: 'OPA_BF' as const }, paths: ['input.amount'] },
      { name: 'negative amount', input: { amount: -5, phone: '76000000', provider: 'OPA_BF' as const }, paths: ['input.amount'] },
      {
        name: 'confirmationMethod for another operator than OPB_BF',
        input: { amount: 1000, phone: '76000000', provider: 'OPA_BF' as const, confirmationMethod: 'USSD' as const },
        paths: ['input.confirmationMethod'],
      },
      {
        name: 'extId over 100 characters',
        input: { amount: 1000, phone: '76000000', provider: 'OPA_BF' as const, extId: 'x'.repeat(101) },
        paths: ['input.extId'],
      },
      {
        name: 'several fields at once',
        input: { amount: 0, phone: '12', provider: 'OPD_BF' as const, confirmationMethod: 'OTP' as const },
        paths: ['input.amount', 'input.confirmationMethod', 'input.phone'],
      },
    ])('$name', async ({ input, paths }) => {
      stack.sandbox.requests.clear();
      const result = as(await create(input), 'ValidationError');
      expect(result.code).toBe('VALIDATION_FAILED');
      expect(result.retryable).toBe(false);
      expect(result.fieldErrors.map((e) => e.path.join('.')).sort()).toEqual(paths);
      for (const e of result.fieldErrors) expect(e.message.length).toBeGreaterThan(0);
      expect(stack.sandbox.requests.count()).toBe(0);
    });
  });

  it('replays the first result for a repeated idempotency key: one charge at the service', async () => {
    const key = uniqueKey('charge');
    stack.sandbox.requests.clear();
    const first = as(await create({ amount: 1234, phone: '58000000', provider: 'OPC_BF', idempotencyKey: key }), 'CreateChargePayload');
    const again = as(await create({ amount: 1234, phone: '58000000', provider: 'OPC_BF', idempotencyKey: key }), 'CreateChargePayload');
    expect(again.reference).toBe(first.reference);
    expect(again.nextAction).toBe(first.nextAction);
    expect(stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/charges' })).toBe(1);

    const other = await create({ amount: 4321, phone: '58000000', provider: 'OPC_BF', idempotencyKey: key });
    expect(other).toMatchObject({ __typename: 'IdempotencyConflictError', code: 'IDEMPOTENCY_CONFLICT', retryable: false });
    expect(stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/charges' })).toBe(1);
  });

  it('does not replay a refusal: the same key runs again after a typed failure', async () => {
    const key = uniqueKey('charge-refused');
    stack.sandbox.requests.clear();
    expect(await create({ amount: 1000, phone: '76000001', provider: 'OPA_BF', idempotencyKey: key })).toMatchObject({
      __typename: 'InvalidAccountError',
    });
    expect(await create({ amount: 1000, phone: '76000001', provider: 'OPA_BF', idempotencyKey: key })).toMatchObject({
      __typename: 'InvalidAccountError',
    });
    expect(stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/charges' })).toBe(2);
  });
});

describe('submitChargeOtp', () => {
  it('confirms the charge with the right OTP', async () => {
    const created = as(await create({ amount: 2000, phone: '70000000', provider: 'OPB_BF' }), 'CreateChargePayload');
    const result = as(await submit(created.reference, TEST_OTP), 'SubmitChargeOtpPayload');
    expect(result.charge).toMatchObject({
      reference: created.reference,
      status: 'SUCCESS',
      amount: 2000,
      feePercent: 3,
      provider: 'OPB_BF',
    });
    expect(result.charge.operatorId).toEqual(expect.any(String));
    expect(result.charge.confirmationAttempts).toEqual([
      { ipAddress: expect.any(String), attemptDate: expect.stringMatching(ISO_Z), status: 'success' },
    ]);

    // A later read agrees.
    const read = await stack.gql(ChargeByRef, { reference: created.reference });
    expect(read.data!.charge).toMatchObject({ status: 'SUCCESS', confirmationAttempts: [{ status: 'success' }] });
  });

  it('returns the whole charge: phone and timestamps are not lost on the way', async () => {
    const created = as(await create({ amount: 2100, phone: '68000000', provider: 'OPD_BF' }), 'CreateChargePayload');
    const result = as(await submit(created.reference, TEST_OTP), 'SubmitChargeOtpPayload');
    expect(result.charge.phone).toBe('68000000');
    expect(result.charge.createdAt).toBe(created.charge!.createdAt);
    expect(result.charge.updatedAt).toMatch(ISO_Z);
    expect(result.charge.transactionDate).toMatch(ISO_Z);
  });

  it('returns OtpInvalidError for a wrong OTP, and the right one still succeeds', async () => {
    const created = as(await create({ amount: 2500, phone: '76000000', provider: 'OPA_BF' }), 'CreateChargePayload');
    const wrong = as(await submit(created.reference, '000000'), 'OtpInvalidError');
    expect(wrong).toMatchObject({ code: 'OTP_INVALID', retryable: false });
    expect(wrong.messageFr).not.toBe(wrong.message);

    const read = await stack.gql(ChargeByRef, { reference: created.reference });
    expect(read.data!.charge).toMatchObject({ status: 'SEND_OTP', confirmationAttempts: [{ status: 'failed' }] });

    const ok = as(await submit(created.reference, TEST_OTP), 'SubmitChargeOtpPayload');
    expect(ok.charge.status).toBe('SUCCESS');
    expect(ok.charge.confirmationAttempts.map((a) => a.status)).toEqual(['failed', 'success']);
  });

  it('returns OtpExpiredError once the OTP lifetime has passed', async () => {
    const created = as(await create({ amount: 3000, phone: '58000000', provider: 'OPC_BF' }), 'CreateChargePayload');
    await clock.advance(stack.sandbox.delays.otpLifetimeMs + 1);
    const expired = as(await submit(created.reference, TEST_OTP), 'OtpExpiredError');
    expect(expired).toMatchObject({ code: 'OTP_EXPIRED', retryable: false });
    expect(expired.messageFr).not.toBe(expired.message);
  });

  it('returns NotFoundError (CHARGE_NOT_FOUND) for an unknown charge reference', async () => {
    const reference = 'ch_000000000000000000000000';
    const result = as(await submit(reference, TEST_OTP), 'NotFoundError');
    expect(result).toMatchObject({ code: 'CHARGE_NOT_FOUND', reference, retryable: false });
  });

  it("reports a payment declined by the customer's operator as a non-retryable typed error, and the charge is FAILED", async () => {
    const created = as(await create({ amount: 3100, phone: '76000002', provider: 'OPA_BF' }), 'CreateChargePayload');
    const result = as(await submit(created.reference, TEST_OTP), 'InsufficientFundsError');
    expect(result).toMatchObject({ code: 'INSUFFICIENT_FUNDS', retryable: false });
    const read = await stack.gql(ChargeByRef, { reference: created.reference });
    expect(read.data!.charge!.status).toBe('FAILED');
  });

  it.each([
    { name: 'empty OTP', chargeReference: 'ch_0123456789abcdef01234567', otp: '', paths: ['input.otp'] },
    { name: 'blank OTP', chargeReference: 'ch_0123456789abcdef01234567', otp: '   ', paths: ['input.otp'] },
    { name: 'OTP with letters', chargeReference: 'ch_0123456789abcdef01234567', otp: '12a456', paths: ['input.otp'] },
    { name: 'empty charge reference', chargeReference: '', otp: '123456', paths: ['input.chargeReference'] },
  ])('rejects $name before any call to the service', async ({ chargeReference, otp, paths }) => {
    stack.sandbox.requests.clear();
    const result = as(await submit(chargeReference, otp), 'ValidationError');
    expect(result.fieldErrors.map((e) => e.path.join('.'))).toEqual(paths);
    expect(stack.sandbox.requests.count()).toBe(0);
  });
});

describe('charge(reference)', () => {
  it('is null for an unknown reference, without error', async () => {
    const res = await stack.gql(ChargeByRef, { reference: 'ch_ffffffffffffffffffffffff' });
    expect(res.errors).toBeUndefined();
    expect(res.data!.charge).toBeNull();
  });

  it('reads a charge with UTC timestamps and a numeric fee rate', async () => {
    const created = as(await create({ amount: 999, phone: '0195000000', provider: 'OPF_BJ' }), 'CreateChargePayload');
    const res = await stack.gql(ChargeByRef, { reference: created.reference });
    const charge = res.data!.charge!;
    expect(charge).toMatchObject({
      reference: created.reference,
      amount: 999,
      status: 'SEND_OTP',
      provider: 'OPF_BJ',
      phone: '0195000000',
      feePercent: 3.5,
    });
    for (const t of [charge.createdAt, charge.updatedAt, charge.transactionDate]) expect(t).toMatch(ISO_Z);
  });

  it('sees a PAY_OFFLINE charge complete by itself', async () => {
    const created = as(await create({ amount: 1700, phone: '0196000000', provider: 'OPE_BJ' }), 'CreateChargePayload');
    await clock.advance(stack.sandbox.delays.payOfflineMs);
    const res = await stack.gql(ChargeByRef, { reference: created.reference });
    expect(res.data!.charge).toMatchObject({ status: 'SUCCESS', confirmationAttempts: [] });
  });
});
