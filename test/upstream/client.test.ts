// Every operation of the client against the embedded sandbox, over real HTTP.
// Each test uses its own API key, hence its own isolated sandbox account.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, startSandbox } from '../../src/sandbox/index.js';
import { createUpstreamClient } from '../../src/upstream/client.js';
import { LONG_BODY } from '../../src/upstream/envelope.js';
import { UpstreamCallError } from '../../src/upstream/call-error.js';
import type { Charge, UpstreamClient } from '../../src/upstream/types.js';

const DELAYS = {
  payOfflineMs: 5_000,
  transferMs: 3_000,
  settlementInTransitMs: 10_000,
  settlementSuccessMs: 20_000,
  otpLifetimeMs: 300_000,
  webhookRetryBaseMs: 1_000,
};
const OTP = '123456';
const DAY = 86_400_000;
const UTC_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let sb: Awaited<ReturnType<typeof startSandbox>>;
const clock = manualClock();
const clients: UpstreamClient[] = [];

beforeAll(async () => {
  sb = await startSandbox({ port: 0, clock, delays: DELAYS });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sb?.close();
});

function client(apiKey = `sk_test_${randomUUID().replace(/-/g, '')}`): UpstreamClient {
  const c = createUpstreamClient(
    { baseUrl: sb.url, apiKey, timeoutMs: 5_000, pageParam: 'page', pageSizeParam: 'page_size', pageSize: 20 },
    { retryBaseMs: 5 },
  );
  clients.push(c);
  return c;
}

async function failure(p: Promise<unknown>): Promise<UpstreamCallError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(UpstreamCallError);
    return e as UpstreamCallError;
  }
  throw new Error('expected a rejection');
}

/** A charge paid with the test OTP. */
async function paidCharge(c: UpstreamClient, amount: number, provider: 'opa_bf' | 'opd_bf' = 'opa_bf'): Promise<Charge> {
  const phone = provider === 'opa_bf' ? '76000000' : '68000000';
  const created = await c.createCharge({ amount, phone, provider });
  return c.submitChargeOtp({ chargeReference: created.reference, otp: OTP });
}

describe('authentication', () => {
  it('an invalid key is UNAUTHENTICATED, and the key does not leak', async () => {
    const e = await failure(client('sk_live_not_a_sandbox_key_123').fetchBalance());
    expect(e.code).toBe('UNAUTHENTICATED');
    expect(e.retryable).toBe(false);
    expect(`${e.message} ${JSON.stringify(e)}`).not.toContain('sk_live_not_a_sandbox_key_123');
  });
});

describe('checkouts', () => {
  it('initialize, then fetch by both reference forms, and list', async () => {
    const c = client();
    const init = await c.initializeCheckout({
      amount: 2500,
      successUrl: 'https://shop.example/ok',
      cancelUrl: 'https://shop.example/cancel',
      email: 'buyer@example.com',
    });
    expect(init.reference).toMatch(/^chk_[0-9a-f]+$/);
    expect(init.authorizationUrl.startsWith('http')).toBe(true);
    expect(init.liveMode).toBe(false);
    expect(init.message).toMatch(/initiali[sz]ed/i);

    const byChk = await c.fetchCheckout(init.reference);
    expect(byChk.reference).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(byChk).toMatchObject({
      amount: 2500,
      email: 'buyer@example.com',
      successUrl: 'https://shop.example/ok',
      cancelUrl: 'https://shop.example/cancel',
      // empty strings upstream until a payment is attempted
      phone: null,
      provider: null,
      chargeReference: null,
      status: 'pending',
      liveMode: false,
    });
    expect(byChk.createdAt).toMatch(UTC_Z);
    expect(byChk.updatedAt).toMatch(UTC_Z);

    const byUuid = await c.fetchCheckout(byChk.reference);
    expect(byUuid).toEqual(byChk);

    const list = await c.listCheckouts();
    expect(list.map((x) => x.reference)).toEqual([byChk.reference]);
  });
  it('an unknown checkout is NOT_FOUND', async () => {
    const e = await failure(client().fetchCheckout('chk_00000000000000000000000000000000'));
    expect(e.code).toBe('NOT_FOUND');
  });
});

describe('charges', () => {
  it('wrong OTP is OTP_INVALID, then the right OTP succeeds; fees from float and from string', async () => {
    const c = client();
    const created = await c.createCharge({ amount: 1000, phone: '76000000', provider: 'opa_bf', extId: 'order-1' });
    expect(created.status).toBe('send_otp');
    expect(created.displayText.length).toBeGreaterThan(0);
    expect(created.reference).toMatch(/^ch_/);

    const wrong = await failure(c.submitChargeOtp({ chargeReference: created.reference, otp: '000000' }));
    expect(wrong.code).toBe('OTP_INVALID');
    expect(wrong.outcomeUnknown).toBe(false);

    const paid = await c.submitChargeOtp({ chargeReference: created.reference, otp: OTP });
    expect(paid.status).toBe('success');
    expect(paid.feePercent).toBe(2.5); // a float in the submit response
    expect(paid.extId).toBe('order-1');
    expect(paid.confirmationAttempts.map((a) => a.status)).toEqual(['failed', 'success']);
    for (const a of paid.confirmationAttempts) expect(a.attemptDate).toMatch(UTC_Z);

    const fetched = await c.fetchCharge(created.reference);
    expect(fetched.feePercent).toBe(2.5); // "2.50" in the fetch response
    expect(fetched).toMatchObject({ reference: created.reference, amount: 1000, provider: 'opa_bf', phone: '76000000', currency: 'XOF' });
    expect(fetched.operatorId).not.toBeNull();
    for (const t of [fetched.transactionDate, fetched.createdAt, fetched.updatedAt]) expect(t).toMatch(UTC_Z);
  });
  it('a rejected test number is INVALID_ACCOUNT', async () => {
    const e = await failure(client().createCharge({ amount: 1000, phone: '76000001', provider: 'opa_bf' }));
    expect(e.code).toBe('INVALID_ACCOUNT');
  });
  it('a malformed phone is INVALID_DATA with the nested field path', async () => {
    const e = await failure(client().createCharge({ amount: 1000, phone: '12', provider: 'opa_bf' }));
    expect(e.code).toBe('INVALID_DATA');
    expect(e.fieldErrors.map((f) => f.path)).toContainEqual(['payment_method_details', 'phone']);
  });
  it('opb_bf with ussd is pay_offline and completes on its own', async () => {
    const c = client();
    const created = await c.createCharge({ amount: 1500, phone: '70000000', provider: 'opb_bf', confirmationMethod: 'ussd' });
    expect(created.status).toBe('pay_offline');
    expect((await c.fetchCharge(created.reference)).status).toBe('pay_offline');
    await clock.advance(DELAYS.payOfflineMs);
    expect((await c.fetchCharge(created.reference)).status).toBe('success');
  });
  it('an unknown charge is CHARGE_NOT_FOUND', async () => {
    const e = await failure(client().fetchCharge('ch_doesnotexist'));
    expect(e.code).toBe('CHARGE_NOT_FOUND');
    expect(e.message).toMatch(/charge not found/i);
  });

  describe('list with each filter and paging', () => {
    const c = () => lc;
    let lc: UpstreamClient;
    const ref: Record<string, string> = {};
    const refs = (items: Charge[]) => items.map((i) => i.reference).sort();
    const want = (...names: string[]) => names.map((n) => ref[n]!).sort();

    beforeAll(async () => {
      lc = client();
      const day1 = new Date(clock.now()).toISOString().slice(0, 10);
      ref.day1 = day1;
      ref.c1 = (await paidCharge(lc, 1000)).reference; // success, opa_bf
      ref.c2 = (await lc.createCharge({ amount: 2000, phone: '70000000', provider: 'opb_bf' })).reference; // pending (send_otp)
      await clock.advance(DAY);
      ref.day2 = new Date(clock.now()).toISOString().slice(0, 10);
      ref.c3 = (await paidCharge(lc, 3000, 'opd_bf')).reference; // success, opd_bf
      const c4 = await lc.createCharge({ amount: 4000, phone: '76000002', provider: 'opa_bf' });
      await lc.submitChargeOtp({ chargeReference: c4.reference, otp: OTP }).catch(() => undefined); // ends failed
      ref.c4 = c4.reference;
      ref.c5 = (await lc.createCharge({ amount: 5000, phone: '58000000', provider: 'opc_bf' })).reference; // pending
    });

    const all = { page: 1, pageSize: 50 };
    it('reference', async () => {
      expect(refs((await c().listCharges({ reference: ref.c3! }, all)).items)).toEqual(want('c3'));
    });
    it('status', async () => {
      expect(refs((await c().listCharges({ status: 'success' }, all)).items)).toEqual(want('c1', 'c3'));
      expect(refs((await c().listCharges({ status: 'pending' }, all)).items)).toEqual(want('c2', 'c5'));
      expect(refs((await c().listCharges({ status: 'failed' }, all)).items)).toEqual(want('c4'));
    });
    it('provider', async () => {
      expect(refs((await c().listCharges({ provider: 'opa_bf' }, all)).items)).toEqual(want('c1', 'c4'));
    });
    it('phone', async () => {
      expect(refs((await c().listCharges({ phone: '68000000' }, all)).items)).toEqual(want('c3'));
    });
    it('date_from and date_to', async () => {
      expect(refs((await c().listCharges({ dateFrom: ref.day2! }, all)).items)).toEqual(want('c3', 'c4', 'c5'));
      expect(refs((await c().listCharges({ dateTo: ref.day1! }, all)).items)).toEqual(want('c1', 'c2'));
    });
    it('amount_min and amount_max', async () => {
      expect(refs((await c().listCharges({ amountMin: 3000 }, all)).items)).toEqual(want('c3', 'c4', 'c5'));
      expect(refs((await c().listCharges({ amountMax: 2000 }, all)).items)).toEqual(want('c1', 'c2'));
      expect(refs((await c().listCharges({ amountMin: 2000, amountMax: 4000, provider: 'opa_bf' }, all)).items)).toEqual(want('c4'));
    });
    it('paging', async () => {
      const p1 = await c().listCharges({}, { page: 1, pageSize: 2 });
      const p2 = await c().listCharges({}, { page: 2, pageSize: 2 });
      const p3 = await c().listCharges({}, { page: 3, pageSize: 2 });
      expect([p1.items.length, p2.items.length, p3.items.length]).toEqual([2, 2, 1]);
      expect(p1.pagination).toEqual({ totalRecords: 5, currentPage: 1, totalPages: 3, hasNext: true, hasPrevious: false });
      expect(p2.pagination).toMatchObject({ currentPage: 2, hasNext: true, hasPrevious: true });
      expect(p3.pagination).toMatchObject({ currentPage: 3, hasNext: false, hasPrevious: true });
      expect(refs([...p1.items, ...p2.items, ...p3.items])).toEqual(want('c1', 'c2', 'c3', 'c4', 'c5'));
      for (const item of p1.items) {
        expect(item.createdAt).toMatch(UTC_Z);
        expect(typeof item.feePercent).toBe('number');
      }
    });
  });
});

describe('balance', () => {
  it('has the collection balance and one entry per wallet', async () => {
    const c = client();
    await paidCharge(c, 10_000); // 2.5 % fee -> 9,750 collected
    const b = await c.fetchBalance();
    expect(b.currency).toBe('XOF');
    expect(b.collection).toEqual({ available: 9750, pending: 0 });
    expect(b.wallets.map((w) => w.wallet)).toEqual(['opa_bf', 'opb_bf', 'opd_bf', 'ope_bj', 'opf_bj']);
    for (const w of b.wallets) expect(w).toMatchObject({ available: 100_000, pending: 0 });
    expect(b.transferTotal.available).toBe(500_000);
  });
});

describe('transfers', () => {
  it('create, fetch, list; fees from number and from string; settles on the clock', async () => {
    const c = client();
    const t = await c.createTransfer({ amount: 1000, recipientPhone: '76000000', recipientWallet: 'opa_bf', extId: 'pay-1' });
    expect(t).toMatchObject({ amount: 1000, recipientPhone: '76000000', recipientWallet: 'opa_bf', status: 'pending', extId: 'pay-1' });
    expect(t.reference).toMatch(/^tr_/);
    expect(t.feePercent).toBe(1); // number in the create response
    expect(t.createdAt).toMatch(UTC_Z);

    const failing = await c.createTransfer({ amount: 500, recipientPhone: '76000009' });
    expect(failing.recipientWallet).toBe('opa_bf'); // chosen from the phone

    const fetched = await c.fetchTransfer(t.reference);
    expect(fetched.feePercent).toBe(1); // "1.00" in fetch
    expect(fetched).toEqual(t);
    expect((await c.listTransfers()).map((x) => x.reference).sort()).toEqual([t.reference, failing.reference].sort());

    await clock.advance(DELAYS.transferMs);
    expect((await c.fetchTransfer(t.reference)).status).toBe('success');
    expect((await c.fetchTransfer(failing.reference)).status).toBe('failed');
  });
  it('low balance is INSUFFICIENT_FUNDS and the message names the wallet', async () => {
    const e = await failure(client().createTransfer({ amount: 100_000, recipientPhone: '70000000', recipientWallet: 'opb_bf' }));
    expect(e.code).toBe('INSUFFICIENT_FUNDS');
    expect(e.message).toContain('opb_bf');
  });
  it('an unknown transfer is a not-found code', async () => {
    const e = await failure(client().fetchTransfer('tr_doesnotexist'));
    expect(['NOT_FOUND', 'TRANSACTION_NOT_FOUND']).toContain(e.code);
  });
  it('bulk: queued count, failures matched back to their positions', async () => {
    const c = client();
    const items = [
      { amount: 1000, recipientPhone: '76000000', recipientWallet: 'opa_bf' as const },
      { amount: 1000, recipientPhone: '123' }, // invalid phone
      { amount: 150_000, recipientPhone: '70000000', recipientWallet: 'opb_bf' as const, extId: 'big' }, // balance too low
      { amount: 2000, recipientPhone: '68000000', extId: 'ok-2' },
    ];
    const res = await c.createBulkTransfer(items);
    expect(res.queuedCount).toBe(2);
    expect(res.failures.map((f) => f.index).sort()).toEqual([1, 2]);
    const bad = res.failures.find((f) => f.index === 1)!;
    expect(bad.fieldErrors.map((f) => f.path)).toContainEqual(['recipient_phone']);
    expect(bad.item).toMatchObject({ amount: 1000, recipientPhone: '123', recipientWallet: null, extId: null });
    const poor = res.failures.find((f) => f.index === 2)!;
    expect(poor.nonFieldErrors.join(' ')).toContain('opb_bf');
    expect(poor.item.extId).toBe('big');
    expect((await c.listTransfers()).length).toBe(2);
  });
  it('lists an account of 1,300 transfers, a body read in slices (longer than LONG_BODY), as a short list', async () => {
    const apiKey = `sk_test_${randomUUID().replace(/-/g, '')}`;
    sb.topUp(apiKey, 'opa_bf', 10_000_000);
    const c = client(apiKey);
    for (let page = 0; page < 13; page++) {
      const items = Array.from({ length: 100 }, (_, i) => ({ amount: 100, recipientPhone: '76000000', extId: `long-${page * 100 + i}` }));
      expect((await c.createBulkTransfer(items)).queuedCount).toBe(100);
      await clock.advance(1_000); // the service's bulk calls per second
    }
    const raw = await fetch(`${sb.url}/v1/payment/transfers`, { headers: { 'X-API-KEY': apiKey } }).then((res) => res.text());
    expect(raw.length).toBeGreaterThan(LONG_BODY);
    const listed = await c.listTransfers();
    expect(listed).toHaveLength(1_300);
    expect(new Set(listed.map((t) => t.extId))).toEqual(new Set(Array.from({ length: 1_300 }, (_, i) => `long-${i}`)));
    expect(listed.every((t) => t.amount === 100 && t.recipientWallet === 'opa_bf' && UTC_Z.test(t.createdAt))).toBe(true);
  });
  it('bulk over 100 items is BATCH_SIZE_LIMIT_EXCEEDED', async () => {
    const items = Array.from({ length: 101 }, () => ({ amount: 100, recipientPhone: '76000000' }));
    const e = await failure(client().createBulkTransfer(items));
    expect(e.code).toBe('BATCH_SIZE_LIMIT_EXCEEDED');
  });
});

describe('settlements', () => {
  it('create, fetch, list, cancel in processing; not cancellable afterwards', async () => {
    const c = client();
    await paidCharge(c, 20_000);
    const s = await c.createSettlement({ amount: 10_000 });
    expect(s).toMatchObject({ amount: 10_000, currency: 'XOF', status: 'processing', accountType: 'bank', liveMode: false });
    expect(s.account.iban).not.toBeNull();
    expect(s.account.usdtWalletAddress).toBeNull();
    expect(Number.isInteger(s.settlementFees)).toBe(true);
    expect(s.createdAt).toMatch(UTC_Z);
    expect(s.updatedAt).toMatch(UTC_Z);

    expect(await c.fetchSettlement(s.reference)).toEqual(s);
    expect((await c.listSettlements()).map((x) => x.reference)).toEqual([s.reference]);

    await clock.advance(1_000);
    const cancelled = await c.cancelSettlement(s.reference);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.updatedAt > s.updatedAt).toBe(true);
    expect(sb.requests.count({ method: 'GET', path: `/v1/payment/settlements/${s.reference}/cancel/` })).toBe(1);

    const again = await failure(c.cancelSettlement(s.reference));
    expect(again.code).toBe('SETTLEMENT_NOT_CANCELLABLE');
  });
  it('in_transit is not cancellable', async () => {
    const c = client();
    await paidCharge(c, 20_000);
    const s = await c.createSettlement({ amount: 5_000 });
    await clock.advance(DELAYS.settlementInTransitMs);
    expect((await c.fetchSettlement(s.reference)).status).toBe('in_transit');
    expect((await failure(c.cancelSettlement(s.reference))).code).toBe('SETTLEMENT_NOT_CANCELLABLE');
  });
  it('no payment account is PAYMENT_ACCOUNT_MISSING', async () => {
    const e = await failure(client(`sk_test_nopayout_${randomUUID()}`).createSettlement({ amount: 1_000 }));
    expect(e.code).toBe('PAYMENT_ACCOUNT_MISSING');
  });
  it('an unknown settlement is NOT_FOUND', async () => {
    const e = await failure(client().fetchSettlement(randomUUID()));
    expect(e.code).toBe('NOT_FOUND');
  });
});

describe('sandbox-injected faults', () => {
  it('an HTML 502 on a GET is retried and the call succeeds', async () => {
    const c = client();
    sb.faults.add({ path: '/v1/payment/balances', kind: 'html', httpStatus: 502 });
    const before = sb.requests.count({ path: '/v1/payment/balances' });
    const b = await c.fetchBalance();
    expect(b.wallets).toHaveLength(5);
    expect(sb.requests.count({ path: '/v1/payment/balances' }) - before).toBe(2);
  });
  it('a reset after processing a POST: outcome unknown, and the transfer really exists', async () => {
    const c = client();
    sb.faults.add({ method: 'POST', path: '/v1/payment/transfers/', kind: 'reset', afterProcessing: true });
    const e = await failure(c.createTransfer({ amount: 1000, recipientPhone: '76000000' }));
    expect(e.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(e.fault).toBe('reset');
    expect(e.outcomeUnknown).toBe(true);
    expect(await c.listTransfers()).toHaveLength(1);
  });
  it('wrong types in data are a bad_body, not a crash', async () => {
    const c = client();
    sb.faults.add({ path: '/v1/payment/balances', kind: 'wrong_types' });
    const e = await failure(c.fetchBalance());
    expect(e.fault).toBe('bad_body');
  });
});
