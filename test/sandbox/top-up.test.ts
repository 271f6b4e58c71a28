// The sandbox's test-mode top-up: a wallet can be funded beyond its 100,000 XOF
// (a payout batch of thousands of items needs it), over HTTP with the account's key.
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { manualClock, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { Api, newKey } from './helpers.js';

let sandbox: Sandbox;
let api: Api;

beforeAll(async () => {
  sandbox = await startSandbox({ clock: manualClock() });
});
beforeEach(() => {
  api = new Api(sandbox.url, newKey('topup'));
});
afterEach(() => api.close());
afterAll(() => sandbox.close());

const topUp = (wallet: string, body: unknown, key?: string | null) =>
  api.post(`/_sandbox/wallets/${wallet}/top-up`, body, key === undefined ? {} : { key });

it('credits the wallet of the key’s account only, and the balance shows it', async () => {
  const res = await topUp('opb_bf', { amount: 2_000_000 });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ status: true, message: 'Wallet funded' });
  expect(res.body.data.transfer_balances.opb_money_bf).toEqual({ available: 2_100_000, pending: 0 });
  const balance = await api.balance();
  expect(balance.transfer_balances.opb_money_bf.available).toBe(2_100_000);
  expect(balance.transfer_balances.opa_money_bf.available).toBe(100_000);
  const other = api.withKey(newKey('topup-other'));
  expect((await other.balance()).transfer_balances.opb_money_bf.available).toBe(100_000);
  await other.close();
});

it('the funds pay a transfer the wallet could not cover before', async () => {
  const transfer = { amount: 500_000, recipient_phone: '70123456' };
  expect((await api.post('/v1/payment/transfers/', transfer)).body.error_code).toBe('INSUFFICIENT_FUNDS');
  expect((await topUp('opb_bf', { amount: '500000' })).status).toBe(200);
  expect((await api.post('/v1/payment/transfers/', transfer)).status).toBe(201);
});

it('refuses an unknown wallet, a bad amount and a missing key', async () => {
  const wallet = await topUp('opc_bf', { amount: 100 });
  expect(wallet.status).toBe(400);
  expect(wallet.body).toMatchObject({ error_code: 'INVALID_DATA', errors: { wallet: [expect.any(String)] } });
  for (const amount of [0, -5, 1.5, 'x', null]) {
    const res = await topUp('opa_bf', { amount });
    expect(res.status).toBe(400);
    expect(res.body.errors.amount).toHaveLength(1);
  }
  expect((await topUp('opa_bf', { amount: 100 }, null)).status).toBe(401);
  expect((await api.balance()).transfer_balances.opa_money_bf.available).toBe(100_000);
});

it('the programmatic top-up does the same', async () => {
  sandbox.topUp(api.key, 'ope_bj', 900_000);
  expect((await api.balance()).transfer_balances.ope_money_bj.available).toBe(1_000_000);
  expect(() => sandbox.topUp(api.key, 'ope_bj', 0)).toThrow();
});
