import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NO_PAYOUT_KEY_PREFIX, manualClock, startSandbox, type ManualClock, type Sandbox } from '../../src/sandbox/index.js';
import { Api, OFFSET, UUID, Z, newKey, startReceiver } from './helpers.js';
import type { Json } from '../helpers/sandbox-api.js';

let clock: ManualClock;
let sandbox: Sandbox;
let api: Api;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  clock = manualClock();
  receiver = await startReceiver();
  sandbox = await startSandbox({ clock, webhook: { url: receiver.url, secret: 's', scheme: 'sha256-base64' } });
});
beforeEach(() => {
  api = new Api(sandbox.url, newKey('settle'));
  sandbox.setBalance(api.key, { collection: { available: 50_000 } });
  receiver.received.length = 0;
});
afterEach(() => api.close());
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

const create = (amount: unknown) => api.post('/v1/payment/settlements/', { amount });
const collection = async () => (await api.balance()).collection_balances;

describe('settlements', () => {
  it('lifecycle processing -> in_transit -> success on the clock, with balances and webhooks', async () => {
    const res = await create('10050');
    expect(res.status).toBe(201);
    const s = res.body.data;
    expect(s).toEqual({
      reference: expect.stringMatching(UUID),
      amount: 10_050,
      settlement_fees: 101,
      currency: 'XOF',
      status: 'processing',
      live_mode: false,
      created_at: expect.stringMatching(Z),
      updated_at: expect.stringMatching(OFFSET),
      account_type: 'bank',
      // The sandbox account's payout account: fixed test data, so a swapped field shows.
      iban: 'BF42BF0840101300463574000390',
      rib: 'BF084 01013 004635740003 90',
      bank_name: 'Banque Sandbox du Faso',
      bank_address: 'Avenue Kwame Nkrumah, Ouagadougou',
      account_holder_name: 'Sandbox Merchant SARL',
      account_holder_address: null,
      swift_bic_code: 'SBXFBFBF',
      provider: null,
      phone: null,
      usdt_wallet_address: null,
    });
    expect(await collection()).toEqual({ available: 39_950, pending: 10_050, currency: 'XOF' });

    const status = async () => (await api.get(`/v1/payment/settlements/${s.reference}`)).body.data.status;
    await clock.advance(sandbox.delays.settlementInTransitMs - 1);
    expect(await status()).toBe('processing');
    await clock.advance(1);
    expect(await status()).toBe('in_transit');
    await clock.advance(sandbox.delays.settlementSuccessMs);
    expect(await status()).toBe('success');
    expect(await collection()).toEqual({ available: 39_950, pending: 0, currency: 'XOF' });

    const events = receiver.received.map((r) => r.json);
    expect(events.map((e) => e.event).sort()).toEqual(['settlement.in_transit', 'settlement.processing', 'settlement.success']);
    expect(events.find((e) => e.event === 'settlement.success')!.data).toEqual(
      (await api.get(`/v1/payment/settlements/${s.reference}`)).body.data,
    );
  });

  it('cancel while processing: cancelled, updated_at changes, money back, no later moves', async () => {
    const s = (await create(20_000)).body.data;
    await clock.advance(1_000);
    const res = await api.get(`/v1/payment/settlements/${s.reference}/cancel/`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    expect(res.body.data.status).toBe('cancelled');
    expect(Date.parse(res.body.data.updated_at)).toBe(Date.parse(s.updated_at) + 1_000);
    expect(res.body.data.created_at).toBe(s.created_at);
    expect(await collection()).toEqual({ available: 50_000, pending: 0, currency: 'XOF' });
    await clock.advance(sandbox.delays.settlementInTransitMs + sandbox.delays.settlementSuccessMs);
    expect((await api.get(`/v1/payment/settlements/${s.reference}`)).body.data.status).toBe('cancelled');
    expect(receiver.events().sort()).toEqual(['settlement.cancelled', 'settlement.processing']);
  });

  it.each(['in_transit', 'success', 'cancelled'])('cancel in %s: 400, status false, validation message, no error_code', async (state) => {
    const s = (await create(1_000)).body.data;
    if (state === 'in_transit') await clock.advance(sandbox.delays.settlementInTransitMs);
    if (state === 'success') await clock.advance(sandbox.delays.settlementInTransitMs + sandbox.delays.settlementSuccessMs);
    if (state === 'cancelled') await api.get(`/v1/payment/settlements/${s.reference}/cancel`);
    const res = await api.get(`/v1/payment/settlements/${s.reference}/cancel/`);
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(false);
    expect(res.body.message).toBe('Settlement can only be cancelled when in processing status');
    expect(res.body.error_code).toBeUndefined();
    expect((await api.get(`/v1/payment/settlements/${s.reference}`)).body.data.status).toBe(state);
  });

  it('no payment account: 400, status false, the spec-like message, no error_code', async () => {
    const noPayout = api.withKey(`${NO_PAYOUT_KEY_PREFIX}${Date.now()}`);
    sandbox.setBalance(noPayout.key, { collection: { available: 10_000 } });
    const res = await noPayout.post('/v1/payment/settlements/', { amount: 1_000 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: false, message: 'No payment account found. Create one in your business settings.' });
    expect((await noPayout.balance()).collection_balances.available).toBe(10_000);
    await noPayout.close();
  });

  it('amount above collection available: INSUFFICIENT_FUNDS; zero or missing: INVALID_DATA', async () => {
    const over = await create(50_001);
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ status: false, error_code: 'INSUFFICIENT_FUNDS' });
    expect((await create(50_000)).status).toBe(201);
    expect((await create(0)).body.errors).toEqual({ amount: ['Ensure this value is greater than or equal to 1.'] });
    expect((await api.post('/v1/payment/settlements/', {})).body.errors).toEqual({ amount: ['This field is required.'] });
  });

  it('unknown reference: 404 "Settlement not found" for fetch and cancel', async () => {
    for (const path of ['/v1/payment/settlements/nope', '/v1/payment/settlements/nope/cancel/']) {
      const res = await api.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: false, message: 'Settlement not found' });
    }
  });

  it('list newest first', async () => {
    const a = (await create(100)).body.data.reference;
    await clock.advance(1);
    const b = (await create(100)).body.data.reference;
    const c = (await create(100)).body.data.reference;
    const list = (await api.get('/v1/payment/settlements')).body.data;
    expect(list.map((s: Json) => s.reference)).toEqual([c, b, a]);
  });
});
