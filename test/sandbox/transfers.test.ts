import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, startSandbox, type ManualClock, type Sandbox } from '../../src/sandbox/index.js';
import { Api, OFFSET, newKey } from './helpers.js';
import type { Json } from '../helpers/sandbox-api.js';

let clock: ManualClock;
let sandbox: Sandbox;
let api: Api;

beforeAll(async () => {
  clock = manualClock();
  sandbox = await startSandbox({ clock });
});
beforeEach(() => {
  api = new Api(sandbox.url, newKey('transfers'));
});
afterEach(() => api.close());
afterAll(() => sandbox.close());

const transfer = (body: Record<string, unknown>) => api.post('/v1/payment/transfers/', body);
const wallet = async (key: string) => (await api.balance()).transfer_balances[key];

describe('single transfer', () => {
  it('queues: 201, pending, fees as a number, debits amount + fee (1%, rounded up) into pending', async () => {
    const res = await transfer({ amount: '1050', recipient_phone: '70123456', ext_id: 'pay-1' });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe(true);
    expect(res.body.message).toMatch(/queued/i);
    const t = res.body.data;
    expect(t).toEqual({
      reference: expect.stringMatching(/^tr_[0-9a-f]+$/),
      amount: 1050,
      fees: 1,
      recipient_phone: '70123456',
      currency: 'XOF',
      ip_address: '127.0.0.1',
      status: 'pending',
      live_mode: false,
      recipient_wallet: 'opb_bf',
      ext_id: 'pay-1',
      created_at: expect.stringMatching(OFFSET),
    });
    // 1% of 1050 = 10.5 -> 11
    expect(await wallet('opb_money_bf')).toEqual({ available: 100_000 - 1061, pending: 1061 });
    const fetched = (await api.get(`/v1/payment/transfers/${t.reference}`)).body.data;
    expect(fetched).toEqual({ ...t, fees: '1.00' });
    expect((await api.get('/v1/payment/transfers/')).body.data).toEqual([fetched]);
  });

  it('after transferMs: success, pending released', async () => {
    const ref = (await transfer({ amount: 1000, recipient_phone: '76123456' })).body.data.reference;
    await clock.advance(sandbox.delays.transferMs - 1);
    expect((await api.get(`/v1/payment/transfers/${ref}`)).body.data.status).toBe('pending');
    await clock.advance(1);
    expect((await api.get(`/v1/payment/transfers/${ref}`)).body.data.status).toBe('success');
    expect(await wallet('opa_money_bf')).toEqual({ available: 100_000 - 1010, pending: 0 });
  });

  it('setDelays: a transfer queued after it completes after the new delay; one queued before keeps its own', async () => {
    const before = (await transfer({ amount: 1000, recipient_phone: '76123456' })).body.data.reference;
    const was = sandbox.delays.transferMs;
    expect(() => sandbox.setDelays({ transferMs: -1 })).toThrow(TypeError);
    expect(() => sandbox.setDelays({ nope: 1 } as never)).toThrow(TypeError);
    expect(sandbox.delays.transferMs).toBe(was);
    sandbox.setDelays({ transferMs: was * 3 });
    try {
      const after = (await transfer({ amount: 1000, recipient_phone: '76123457' })).body.data.reference;
      const status = async (ref: string) => (await api.get(`/v1/payment/transfers/${ref}`)).body.data.status;
      await clock.advance(was);
      expect([await status(before), await status(after)]).toEqual(['success', 'pending']);
      await clock.advance(was * 2 - 1);
      expect(await status(after)).toBe('pending');
      await clock.advance(1);
      expect(await status(after)).toBe('success');
    } finally {
      sandbox.setDelays({ transferMs: was });
    }
  });

  it('numbers ending in 9 fail after transferMs and the money comes back', async () => {
    const ref = (await transfer({ amount: 5000, recipient_phone: '0196123459' })).body.data.reference;
    expect(await wallet('ope_money_bj')).toEqual({ available: 100_000 - 5050, pending: 5050 });
    await clock.advance(sandbox.delays.transferMs);
    expect((await api.get(`/v1/payment/transfers/${ref}`)).body.data.status).toBe('failed');
    expect(await wallet('ope_money_bj')).toEqual({ available: 100_000, pending: 0 });
  });

  it.each([
    ['76123456', 'opa_bf'],
    ['05123456', 'opa_bf'],
    ['71123456', 'opb_bf'],
    ['01123456', 'opb_bf'],
    ['58123456', 'opd_bf'],
    ['68123456', 'opd_bf'],
    ['0196123456', 'ope_bj'],
    ['0195123456', 'opf_bj'],
  ])('infers the wallet of %s: %s', async (phone, expected) => {
    const res = await transfer({ amount: 100, recipient_phone: phone });
    expect(res.status).toBe(201);
    expect(res.body.data.recipient_wallet).toBe(expected);
  });

  it('an explicit wallet must be able to reach the number', async () => {
    expect((await transfer({ amount: 100, recipient_phone: '76123456', recipient_wallet: 'opd_bf' })).status).toBe(201);
    const bad = await transfer({ amount: 100, recipient_phone: '76123456', recipient_wallet: 'opb_bf' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ recipient_phone: [expect.stringContaining('opb_bf')] });
  });

  it.each([
    [{ amount: 99, recipient_phone: '76123456' }, { amount: ['Ensure this value is greater than or equal to 100.'] }],
    [{ amount: '1e3', recipient_phone: '76123456' }, { amount: ['A valid integer is required.'] }],
    [{ amount: 100 }, { recipient_phone: ['This field is required.'] }],
    [{ amount: 100, recipient_phone: '12345678' }, { recipient_phone: ['Enter a valid Burkina Faso or Benin mobile number.'] }],
    [{ amount: 100, recipient_phone: '76123456', recipient_wallet: 'opc_bf' }, { recipient_wallet: ['"opc_bf" is not a valid choice.'] }],
  ])('validation %j', async (body, errors) => {
    const res = await transfer(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: false, message: expect.any(String), error_code: 'INVALID_DATA', errors });
  });

  it('ext_id is unique per account', async () => {
    expect((await transfer({ amount: 100, recipient_phone: '76123456', ext_id: 'dup' })).status).toBe(201);
    const again = await transfer({ amount: 100, recipient_phone: '76123456', ext_id: 'dup' });
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual({ ext_id: ['A transfer with this ext_id already exists.'] });
  });

  it('INSUFFICIENT_FUNDS names the wallet when amount + fee exceeds available; nothing is debited', async () => {
    sandbox.setBalance(api.key, { wallets: { opb_bf: { available: 1010 } } });
    const res = await transfer({ amount: 1001, recipient_phone: '70123456' }); // needs 1012
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: false, message: 'Insufficient balance in opb_bf wallet', error_code: 'INSUFFICIENT_FUNDS' });
    expect(await wallet('opb_money_bf')).toEqual({ available: 1010, pending: 0 });
    expect((await transfer({ amount: 1000, recipient_phone: '70123456' })).status).toBe(201); // exactly 1010
    expect(await wallet('opb_money_bf')).toEqual({ available: 0, pending: 1010 });
  });

  it('unknown reference: 404 TRANSACTION_NOT_FOUND', async () => {
    const res = await api.get('/v1/payment/transfers/tr_nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: false, message: 'Transfer not found', error_code: 'TRANSACTION_NOT_FOUND' });
  });

  it('balance: every wallet pre-funded with 100,000 XOF, totals add up', async () => {
    const b = await api.balance();
    expect(b.transfer_balances).toEqual({
      total_available: 500_000,
      total_pending: 0,
      opa_money_bf: { available: 100_000, pending: 0 },
      opb_money_bf: { available: 100_000, pending: 0 },
      opd_money_bf: { available: 100_000, pending: 0 },
      ope_money_bj: { available: 100_000, pending: 0 },
      opf_money_bj: { available: 100_000, pending: 0 },
    });
    expect(b.collection_balances).toEqual({ available: 0, pending: 0, currency: 'XOF' });
  });
});

describe('bulk transfer', () => {
  const bulk = (transfers: unknown) => api.post('/v1/payment/transfers/bulk/', { transfers });

  it('queues the valid items in order, checking the balance cumulatively; failed ones echo the item', async () => {
    sandbox.setBalance(api.key, { wallets: { opa_bf: { available: 2020 } } });
    const res = await bulk([
      { amount: 1000, recipient_phone: '76123456', ext_id: 'b-1' }, // 1010, leaves 1010
      { amount: '1000', recipient_phone: '76123457', ext_id: 'b-2' }, // 1010, leaves 0
      { amount: 100, recipient_phone: '76123458', recipient_wallet: 'opa_bf', ext_id: 'b-3' }, // no money left
      { amount: 50, recipient_phone: '70123456' }, // invalid amount
      'not an object',
      { amount: 100, recipient_phone: '70123456', ext_id: 'b-1' }, // duplicate ext_id within the batch
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: true,
      message: '2 transfers queued for processing',
      failed_transfers: [
        {
          data: { amount: 100, recipient_phone: '76123458', recipient_wallet: 'opa_bf', ext_id: 'b-3' },
          errors: { non_field_errors: ['Insufficient balance in opa_bf wallet'] },
        },
        {
          data: { amount: 50, recipient_phone: '70123456', recipient_wallet: null, ext_id: null },
          errors: { amount: ['Ensure this value is greater than or equal to 100.'] },
        },
        {
          data: { amount: null, recipient_phone: null, recipient_wallet: null, ext_id: null },
          errors: { non_field_errors: [expect.stringContaining('Expected a dictionary')] },
        },
        {
          data: { amount: 100, recipient_phone: '70123456', recipient_wallet: null, ext_id: 'b-1' },
          errors: { ext_id: ['A transfer with this ext_id already exists.'] },
        },
      ],
    });
    expect(res.body.data).toBeUndefined();
    const listed = (await api.get('/v1/payment/transfers')).body.data;
    expect(listed.map((t: Json) => t.ext_id)).toEqual(['b-2', 'b-1']);
    expect(await wallet('opa_money_bf')).toEqual({ available: 0, pending: 2020 });
  });

  it('all accepted: empty failed_transfers, singular message', async () => {
    const res = await bulk([{ amount: 100, recipient_phone: '76123456' }]);
    expect(res.body).toEqual({ status: true, message: '1 transfer queued for processing', failed_transfers: [] });
  });

  it('100 items pass, 101 are BATCH_SIZE_LIMIT_EXCEEDED and nothing is queued', async () => {
    const item = { amount: 100, recipient_phone: '76123456' };
    const over = await bulk(Array(101).fill(item));
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ status: false, error_code: 'BATCH_SIZE_LIMIT_EXCEEDED' });
    expect((await api.get('/v1/payment/transfers')).body.data).toHaveLength(0);
    const max = await bulk(Array(100).fill(item));
    expect(max.body.message).toBe('100 transfers queued for processing');
  });

  it.each([
    [{}, { transfers: ['This field is required.'] }],
    [{ transfers: 'x' }, { transfers: [expect.stringContaining('Expected a list')] }],
    [{ transfers: [] }, { transfers: ['This list may not be empty.'] }],
  ])('malformed body %j -> INVALID_DATA', async (body, errors) => {
    const res = await api.post('/v1/payment/transfers/bulk', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, error_code: 'INVALID_DATA', errors });
  });

  it('more than 5 calls in a sliding second: 429 RATE_LIMIT_EXCEEDED with Retry-After; per account', async () => {
    const item = [{ amount: 100, recipient_phone: '76123456' }];
    for (let i = 0; i < 5; i++) {
      expect((await bulk(item)).status).toBe(200);
      await clock.advance(100);
    }
    const limited = await bulk(item); // t = 500 ms, 5 calls in (−500, 500]
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ status: false, error_code: 'RATE_LIMIT_EXCEEDED' });
    expect(limited.headers['retry-after']).toBe('1');

    const other = api.withKey(newKey('other'));
    expect((await other.post('/v1/payment/transfers/bulk', { transfers: item })).status).toBe(200);
    await other.close();

    await clock.advance(499); // first call (t=0) is still inside the window at t=999
    expect((await bulk(item)).status).toBe(429);
    await clock.advance(1); // t=1000: first call left the window
    expect((await bulk(item)).status).toBe(200);
    expect((await bulk(item)).status).toBe(429);
  });
});
