import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PROVIDERS, type Provider } from '../../src/upstream/types.js';
import { TEST_OTP, TEST_PHONES, manualClock, startSandbox, type ManualClock, type Sandbox } from '../../src/sandbox/index.js';
import { Api, OFFSET, Z, newKey } from './helpers.js';
import type { Json } from '../helpers/sandbox-api.js';

let clock: ManualClock;
let sandbox: Sandbox;
let api: Api;

beforeAll(async () => {
  clock = manualClock();
  sandbox = await startSandbox({ clock });
});
beforeEach(() => {
  api = new Api(sandbox.url, newKey('charges'));
});
afterEach(() => api.close());
afterAll(() => sandbox.close());

/** The flow each provider runs by default (documented in the README). */
const FLOW: Record<Provider, 'send_otp' | 'pay_offline'> = {
  opa_bf: 'send_otp',
  opb_bf: 'send_otp',
  opc_bf: 'send_otp',
  opd_bf: 'send_otp',
  ope_bj: 'pay_offline',
  opf_bj: 'send_otp',
};

async function complete(reference: string, flow: 'send_otp' | 'pay_offline') {
  if (flow === 'send_otp') return api.submitOtp(reference, TEST_OTP);
  await clock.advance(sandbox.delays.payOfflineMs);
  return null;
}

describe('test numbers, per provider', () => {
  it('uses exactly the documented numbers', () => {
    expect(TEST_PHONES).toEqual({
      opa_bf: { succeeds: '76000000', rejected: '76000001', endsFailed: '76000002' },
      opb_bf: { succeeds: '70000000', rejected: '70000001', endsFailed: '70000002' },
      opc_bf: { succeeds: '58000000', rejected: '58000001', endsFailed: '58000002' },
      opd_bf: { succeeds: '68000000', rejected: '68000001', endsFailed: '68000002' },
      ope_bj: { succeeds: '0196000000', rejected: '0196000001', endsFailed: '0196000002' },
      opf_bj: { succeeds: '0195000000', rejected: '0195000001', endsFailed: '0195000002' },
    });
    expect(TEST_OTP).toBe('123456');
  });

  it.each(PROVIDERS)('%s: "succeeds" number ends success', async (provider) => {
    const created = await api.createCharge(provider, TEST_PHONES[provider].succeeds, 2000);
    expect(created.status).toBe(201);
    expect(created.body.status).toBe(true);
    expect(Object.keys(created.body.data).sort()).toEqual(['display_text', 'live_mode', 'reference', 'status']);
    expect(created.body.data).toMatchObject({ status: FLOW[provider], live_mode: false });
    expect(created.body.data.reference).toMatch(/^ch_[0-9a-f]+$/);
    expect(created.body.data.display_text.length).toBeGreaterThan(10);
    const ref = created.body.data.reference;
    const submitted = await complete(ref, FLOW[provider]);
    if (submitted) expect(submitted.status).toBe(200);
    const fetched = await api.get(`/v1/payment/charges/${ref}`);
    expect(fetched.body.data.status).toBe('success');
    expect(fetched.body.data.operator_id).toEqual(expect.any(String));
  });

  it.each(PROVIDERS)('%s: "rejected" number is refused at creation with INVALID_ACCOUNT', async (provider) => {
    const res = await api.createCharge(provider, TEST_PHONES[provider].rejected);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, error_code: 'INVALID_ACCOUNT' });
    expect(res.body.data).toBeUndefined();
    expect((await api.get('/v1/payment/charges')).body.pagination.total_records).toBe(0);
  });

  it.each(PROVIDERS)('%s: "ends failed" number is accepted, confirmed, then failed', async (provider) => {
    const created = await api.createCharge(provider, TEST_PHONES[provider].endsFailed);
    expect(created.status).toBe(201);
    expect(created.body.data.status).toBe(FLOW[provider]);
    const ref = created.body.data.reference;
    const submitted = await complete(ref, FLOW[provider]);
    if (submitted) {
      expect(submitted.status).toBe(400);
      expect(submitted.body).toMatchObject({ status: false, error_code: 'INSUFFICIENT_FUNDS', data: { reference: ref, status: 'failed' } });
    }
    const fetched = await api.get(`/v1/payment/charges/${ref}`);
    expect(fetched.body.data.status).toBe('failed');
    expect((await api.balance()).collection_balances.available).toBe(0);
  });

  it('any other valid number of the provider behaves like the succeeding one', async () => {
    const created = await api.createCharge('opa_bf', '05123456');
    expect(created.status).toBe(201);
    expect((await api.submitOtp(created.body.data.reference, TEST_OTP)).body.data.status).toBe('success');
    // 76000001 is opa_bf's rejected number, not opc_bf's: valid BF mobile for opc_bf.
    expect((await api.createCharge('opc_bf', '76000001')).status).toBe(201);
  });
});

describe('flows and display_text', () => {
  it('opa_bf: send_otp with the USSD code carrying the amount', async () => {
    const res = await api.createCharge('opa_bf', '76000000', 1500);
    expect(res.body.data.display_text).toContain('*144*4*6*1500#');
  });

  it('opb_bf: send_otp by default and with otp; pay_offline with ussd, completing by itself', async () => {
    expect((await api.createCharge('opb_bf', '70000000', 1000, { confirmation_method: 'otp' })).body.data.status).toBe('send_otp');
    const ussd = await api.createCharge('opb_bf', '70000000', 1200, { confirmation_method: 'ussd' });
    expect(ussd.body.data.status).toBe('pay_offline');
    expect(ussd.body.data.display_text).toMatch(/\*\d+\*\d+\*1200#/);
    const ref = ussd.body.data.reference;
    await clock.advance(sandbox.delays.payOfflineMs - 1);
    expect((await api.get(`/v1/payment/charges/${ref}`)).body.data.status).toBe('pay_offline');
    await clock.advance(1);
    expect((await api.get(`/v1/payment/charges/${ref}`)).body.data.status).toBe('success');
  });

  it('confirmation_method is ignored outside opb_bf, but still validated', async () => {
    expect((await api.createCharge('opa_bf', '76000000', 1000, { confirmation_method: 'ussd' })).body.data.status).toBe('send_otp');
    const bad = await api.createCharge('opb_bf', '70000000', 1000, { confirmation_method: 'sms' });
    expect(bad.body.errors).toEqual({ payment_method_details: { confirmation_method: ['"sms" is not a valid choice.'] } });
  });

  it('a pay_offline charge refuses an OTP', async () => {
    const ref = (await api.createCharge('ope_bj', '0196000000')).body.data.reference;
    const res = await api.submitOtp(ref, TEST_OTP);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, error_code: 'INVALID_DATA' });
    expect(res.body.message).toMatch(/not awaiting an OTP \(status: pay_offline\)/);
  });
});

describe('validation', () => {
  it('accepts the amount as a numeric string; defaults currency and payment_method', async () => {
    const ref = (await api.createCharge('opa_bf', '76000000', '2500')).body.data.reference;
    const charge = (await api.get(`/v1/payment/charges/${ref}`)).body.data;
    expect(charge).toMatchObject({ amount: 2500, currency: 'XOF', payment_method: 'mobile_money' });
  });

  it.each([
    [{ amount: 'abc' }, { amount: ['A valid integer is required.'] }],
    [{ amount: 10.5 }, { amount: ['A valid integer is required.'] }],
    [{ amount: 0 }, { amount: ['Ensure this value is greater than or equal to 1.'] }],
    [{ amount: undefined }, { amount: ['This field is required.'] }],
    [{ currency: 'EUR' }, { currency: ['"EUR" is not a valid choice.'] }],
    [{ payment_method: 'card' }, { payment_method: ['"card" is not a valid choice.'] }],
    [{ payment_method_details: undefined }, { payment_method_details: ['This field is required.'] }],
    [{ payment_method_details: { provider: 'opa_bf' } }, { payment_method_details: { phone: ['This field is required.'] } }],
    [{ payment_method_details: { phone: '76000000' } }, { payment_method_details: { provider: ['This field is required.'] } }],
  ])('%j -> INVALID_DATA %j', async (patch, errors) => {
    const body: Record<string, unknown> = { amount: 1000, payment_method_details: { phone: '76000000', provider: 'opa_bf' }, ...patch };
    const res = await api.post('/v1/payment/charges/', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: false, message: expect.any(String), error_code: 'INVALID_DATA', errors });
  });

  it.each([
    ['opa_bf', '70000000'],
    ['opb_bf', '76000000'],
    ['opc_bf', '86000000'],
    ['opa_bf', '7600000'],
    ['ope_bj', '0195000000'],
    ['opf_bj', '96000000'],
  ])('%s rejects phone %s as a nested field error', async (provider, phone) => {
    const res = await api.createCharge(provider, phone);
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe('INVALID_DATA');
    expect(res.body.errors).toEqual({ payment_method_details: { phone: [expect.stringContaining(provider)] } });
  });

  it('an unknown provider is UNSUPPORTED_PROVIDER', async () => {
    const res = await api.createCharge('opz_bf', '76000000');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, error_code: 'UNSUPPORTED_PROVIDER' });
  });

  it('submit without fields lists both', async () => {
    const res = await api.post('/v1/payment/charges/submit', {});
    expect(res.body.errors).toEqual({ otp: ['This field is required.'], charge_reference: ['This field is required.'] });
  });
});

describe('OTP submission', () => {
  it('wrong OTP: OTP_INVALID and a failed attempt; the right OTP afterwards succeeds', async () => {
    const ref = (await api.createCharge('opa_bf', '76000000', 1000)).body.data.reference;
    const wrong = await api.submitOtp(ref, '000000');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ status: false, error_code: 'OTP_INVALID' });
    expect(wrong.body.message).toMatch(/invalid/i);
    expect(wrong.body.message).toMatch(/try again/i);
    let charge = (await api.get(`/v1/payment/charges/${ref}`)).body.data;
    expect(charge.status).toBe('send_otp');
    expect(charge.confirmation_attempts).toEqual([
      { ip_address: '127.0.0.1', attempt_date: expect.stringMatching(Z), confirmation_status: 'failed' },
    ]);

    const right = await api.submitOtp(ref, TEST_OTP);
    expect(right.status).toBe(200);
    expect(right.body.status).toBe(true);
    expect(right.body.data.status).toBe('success');
    expect(right.body.data.confirmation_attempts.map((a: Json) => a.confirmation_status)).toEqual(['failed', 'success']);
    charge = (await api.get(`/v1/payment/charges/${ref}`)).body.data;
    expect(charge.status).toBe('success');

    const again = await api.submitOtp(ref, TEST_OTP);
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/status: success/);
  });

  it('an OTP older than otpLifetimeMs is OTP_EXPIRED (exactly at the lifetime it still works)', async () => {
    const early = (await api.createCharge('opc_bf', '58000000')).body.data.reference;
    const late = (await api.createCharge('opc_bf', '58000000')).body.data.reference;
    await clock.advance(sandbox.delays.otpLifetimeMs);
    expect((await api.submitOtp(early, TEST_OTP)).body.data.status).toBe('success');
    await clock.advance(1);
    const res = await api.submitOtp(late, TEST_OTP);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, error_code: 'OTP_EXPIRED' });
    expect((await api.get(`/v1/payment/charges/${late}`)).body.data.status).toBe('send_otp');
  });

  it('unknown charge: 404 CHARGE_NOT_FOUND "Charge not found" on submit and fetch', async () => {
    const submit = await api.submitOtp('ch_doesnotexist', TEST_OTP);
    expect(submit.status).toBe(404);
    expect(submit.body).toEqual({ status: false, message: 'Charge not found', error_code: 'CHARGE_NOT_FOUND' });
    const fetch = await api.get('/v1/payment/charges/ch_doesnotexist');
    expect(fetch.status).toBe(404);
    expect(fetch.body).toEqual({ status: false, message: 'Charge not found', error_code: 'CHARGE_NOT_FOUND' });
  });
});

describe('wire forms', () => {
  it('fees: a float in the submit response, a decimal string in fetch and list', async () => {
    const ref = (await api.createCharge('opa_bf', '76000000', 1000, { ext_id: 'order-42' })).body.data.reference;
    const submitted = (await api.submitOtp(ref, TEST_OTP)).body.data;
    expect(submitted.fees).toBe(2.5);
    const fetched = (await api.get(`/v1/payment/charges/${ref}`)).body.data;
    expect(fetched.fees).toBe('2.50');
    const listed = (await api.get(`/v1/payment/charges?reference=${ref}`)).body.data[0];
    expect(listed.fees).toBe('2.50');
    expect(listed).toEqual(fetched);
  });

  it('fetch form has exactly the spec fields; the submit form omits phone, created_at, updated_at', async () => {
    const ref = (await api.createCharge('opd_bf', '68000000', 3000, { ext_id: 'x-1' })).body.data.reference;
    const submitted = (await api.submitOtp(ref, TEST_OTP)).body.data;
    const fetched = (await api.get(`/v1/payment/charges/${ref}`)).body.data;
    expect(Object.keys(fetched).sort()).toEqual(
      [
        'amount',
        'cancellation_reason',
        'cancelled_at',
        'confirmation_attempts',
        'created_at',
        'currency',
        'ext_id',
        'fees',
        'ip_address',
        'live_mode',
        'operator_id',
        'payment_method',
        'phone',
        'provider',
        'reference',
        'status',
        'transaction_date',
        'updated_at',
      ].sort(),
    );
    expect(Object.keys(submitted).sort()).toEqual(
      Object.keys(fetched)
        .filter((k) => !['phone', 'created_at', 'updated_at'].includes(k))
        .sort(),
    );
    expect(fetched).toMatchObject({
      reference: ref,
      amount: 3000,
      currency: 'XOF',
      status: 'success',
      live_mode: false,
      payment_method: 'mobile_money',
      provider: 'opd_bf',
      phone: '68000000',
      ext_id: 'x-1',
      ip_address: '127.0.0.1',
      cancelled_at: null,
      cancellation_reason: null,
    });
  });

  it('timestamps mix Z (created_at, attempt_date) and +00:00 (updated_at, transaction_date)', async () => {
    const ref = (await api.createCharge('opa_bf', '76000000')).body.data.reference;
    await api.submitOtp(ref, TEST_OTP);
    const c = (await api.get(`/v1/payment/charges/${ref}`)).body.data;
    expect(c.created_at).toMatch(Z);
    expect(c.updated_at).toMatch(OFFSET);
    expect(c.transaction_date).toMatch(OFFSET);
    expect(c.confirmation_attempts[0].attempt_date).toMatch(Z);
    expect(Date.parse(c.created_at)).toBe(clock.now());
  });
});

describe('collection balance', () => {
  it('is credited with amount less the fee, rounded up in whole XOF', async () => {
    // opa_bf 2.5% of 1001 = 25.025 -> 26
    const a = (await api.createCharge('opa_bf', '76000000', 1001)).body.data.reference;
    await api.submitOtp(a, TEST_OTP);
    expect((await api.balance()).collection_balances).toEqual({ available: 975, pending: 0, currency: 'XOF' });
    // ope_bj 3% of 2000 = 60, by itself after payOfflineMs
    await api.createCharge('ope_bj', '0196000000', 2000);
    await clock.advance(sandbox.delays.payOfflineMs);
    expect((await api.balance()).collection_balances.available).toBe(975 + 1940);
  });
});
