// What the client puts on the wire: methods, paths, headers, bodies, query strings.
import { afterEach, describe, expect, it } from 'vitest';
import { createUpstreamClient } from '../../src/upstream/client.js';
import { UpstreamCallError } from '../../src/upstream/call-error.js';
import type { UpstreamClient } from '../../src/upstream/types.js';
import { json, startStub, type StubServer } from './stub-server.js';

const API_KEY = 'sk_test_wire_key';

let server: StubServer | null = null;
let client: UpstreamClient | null = null;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = null;
  server = null;
});

/** A stub that answers every request with the given envelope, and a client on it (base URL may carry a path). */
async function setup(answer: unknown, basePath = '', pageParams = { pageParam: 'page', pageSizeParam: 'page_size' }) {
  server = await startStub((_req, res) => json(res, 200, answer));
  client = createUpstreamClient({ baseUrl: `${server.url}${basePath}`, apiKey: API_KEY, timeoutMs: 2000, pageSize: 20, ...pageParams });
  return { s: server, c: client };
}

const createdCharge = {
  status: true,
  message: 'Charge created',
  data: { reference: 'ch_1', status: 'send_otp', display_text: 'Enter the OTP', live_mode: false },
};

describe('headers', () => {
  it('GET carries the key and Accept, no Content-Type', async () => {
    const { s, c } = await setup({ status: true, message: 'ok', data: [] });
    await c.listTransfers();
    const h = s.requests[0]!.headers;
    expect(h['x-api-key']).toBe(API_KEY);
    expect(h.accept).toBe('application/json');
    expect(h['content-type']).toBeUndefined();
    expect(s.requests[0]!.method).toBe('GET');
    expect(s.requests[0]!.url).toBe('/v1/payment/transfers');
  });
  it('POST carries a JSON body with Content-Type', async () => {
    const { s, c } = await setup(createdCharge);
    await c.createCharge({ amount: 1000, phone: '76000000', provider: 'opa_bf' });
    expect(s.requests[0]!.headers['content-type']).toBe('application/json');
    expect(s.requests[0]!.headers['x-api-key']).toBe(API_KEY);
  });
});

describe('bodies', () => {
  it('create charge: snake_case, integer amount, nested details, optional fields omitted', async () => {
    const { s, c } = await setup(createdCharge);
    await c.createCharge({ amount: 1000, phone: '76000000', provider: 'opa_bf', extId: null, confirmationMethod: undefined });
    expect(s.requests[0]!.url).toBe('/v1/payment/charges/');
    expect(JSON.parse(s.requests[0]!.body)).toEqual({
      amount: 1000,
      payment_method_details: { phone: '76000000', provider: 'opa_bf' },
    });
    await c.createCharge({
      amount: 500,
      phone: '70000000',
      provider: 'opb_bf',
      extId: 'order-9',
      confirmationMethod: 'ussd',
      currency: 'XOF',
    });
    expect(JSON.parse(s.requests[1]!.body)).toEqual({
      amount: 500,
      currency: 'XOF',
      ext_id: 'order-9',
      payment_method_details: { phone: '70000000', provider: 'opb_bf', confirmation_method: 'ussd' },
    });
  });
  it('non-integer amounts are refused before anything is sent', async () => {
    const { s, c } = await setup(createdCharge);
    await expect(c.createCharge({ amount: 10.5, phone: '76000000', provider: 'opa_bf' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(c.createSettlement({ amount: Number.NaN })).rejects.toBeInstanceOf(UpstreamCallError);
    expect(s.requests).toHaveLength(0);
  });
  it('checkout, OTP, transfer, bulk and settlement bodies', async () => {
    const { s, c } = await setup({ status: false, message: 'x', error_code: 'INVALID_DATA' });
    const swallow = (p: Promise<unknown>) => p.catch(() => undefined);
    await swallow(c.initializeCheckout({ amount: 1500, successUrl: 'https://s/ok', cancelUrl: 'https://s/ko', email: null }));
    await swallow(c.submitChargeOtp({ chargeReference: 'ch_1', otp: '123456' }));
    await swallow(c.createTransfer({ amount: 100, recipientPhone: '76000000', recipientWallet: null, extId: 'e1' }));
    await swallow(c.createBulkTransfer([{ amount: 100, recipientPhone: '76000000', recipientWallet: 'opa_bf' }]));
    await swallow(c.createSettlement({ amount: 20000 }));
    const sent = s.requests.map((r) => [r.method, r.url, JSON.parse(r.body)]);
    expect(sent).toEqual([
      ['POST', '/v1/payment/checkouts/initialize/', { amount: 1500, success_url: 'https://s/ok', cancel_url: 'https://s/ko' }],
      ['POST', '/v1/payment/charges/submit', { otp: '123456', charge_reference: 'ch_1' }],
      ['POST', '/v1/payment/transfers/', { amount: 100, recipient_phone: '76000000', ext_id: 'e1' }],
      ['POST', '/v1/payment/transfers/bulk/', { transfers: [{ amount: 100, recipient_phone: '76000000', recipient_wallet: 'opa_bf' }] }],
      ['POST', '/v1/payment/settlements/', { amount: 20000 }],
    ]);
  });
});

describe('paths', () => {
  it('URL-encodes references as one path segment and keeps a base path', async () => {
    const { s, c } = await setup({ status: false, message: 'Transfer not found' }, '/api/');
    await expect(c.fetchTransfer('tr_1/../../balances?x=1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(s.requests[0]!.url).toBe('/api/v1/payment/transfers/tr_1%2F..%2F..%2Fbalances%3Fx%3D1');
    await expect(c.fetchCheckout('chk_0a1b')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(s.requests[1]!.url).toBe('/api/v1/payment/checkouts/chk_0a1b');
  });
  it('refuses empty and dot references without a request', async () => {
    const { s, c } = await setup({ status: true, message: 'ok', data: [] });
    await expect(c.fetchCharge('')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(c.cancelSettlement('..')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(s.requests).toHaveLength(0);
  });
});

describe('charge list query', () => {
  it('sends filters snake_case and paging under the configured names', async () => {
    const { s, c } = await setup({ status: true, message: 'ok', data: [] }, '', { pageParam: 'p', pageSizeParam: 'limit' });
    const page = await c.listCharges({ status: 'success', dateFrom: '2024-05-01', amountMin: 100 }, { page: 3, pageSize: 50 });
    const url = new URL(s.requests[0]!.url, 'http://x');
    expect(url.pathname).toBe('/v1/payment/charges');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      status: 'success',
      date_from: '2024-05-01',
      amount_min: '100',
      p: '3',
      limit: '50',
    });
    // no pagination in the answer: synthesized
    expect(page).toEqual({
      items: [],
      pagination: { totalRecords: 100, currentPage: 3, totalPages: 3, hasNext: false, hasPrevious: true },
    });
  });
});

describe('bulk transfer answers', () => {
  const items = [
    { amount: 100, recipientPhone: '76000000', recipientWallet: 'opa_bf' as const },
    { amount: 200, recipientPhone: '70000000', recipientWallet: 'opb_bf' as const },
  ];
  it('status false with per-item failures and no code is a result, not a whole-call failure', async () => {
    const { c } = await setup({
      status: false,
      message: 'No transfer could be queued',
      failed_transfers: [
        {
          data: { amount: 200, recipient_phone: '70000000', recipient_wallet: 'opb_bf', ext_id: null },
          errors: { non_field_errors: ['Insufficient balance in opb_bf wallet'] },
        },
        {
          data: { amount: 100, recipient_phone: '76000000', recipient_wallet: 'opa_bf', ext_id: null },
          errors: { non_field_errors: ['Insufficient balance in opa_bf wallet'] },
        },
      ],
    });
    const res = await c.createBulkTransfer(items);
    expect(res.queuedCount).toBe(0);
    expect(res.failures.map((f) => f.index)).toEqual([1, 0]);
  });
  it('status false with an error code is a failure', async () => {
    const { c } = await setup({ status: false, message: 'Slow down', error_code: 'RATE_LIMIT_EXCEEDED' });
    await expect(c.createBulkTransfer(items)).rejects.toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', retryable: true });
  });
  it('status true with an empty failed_transfers: everything queued', async () => {
    const { c } = await setup({ status: true, message: '2 transfers queued for processing', failed_transfers: [] });
    expect(await c.createBulkTransfer(items)).toEqual({ message: '2 transfers queued for processing', queuedCount: 2, failures: [] });
  });
});
