import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_OTP, manualClock, startSandbox, type ManualClock, type Sandbox } from '../../src/sandbox/index.js';
import { Api, newKey } from './helpers.js';
import type { Json } from '../helpers/sandbox-api.js';

const DAY = 86_400_000;
let clock: ManualClock;
let sandbox: Sandbox;
let api: Api;
/** reference -> what we made it, to compute expected filter results independently. */
const made: Array<{ ref: string; provider: string; phone: string; amount: number; day: string; status: string }> = [];

// Fixture over three UTC days (the clock starts 2025-01-15T09:00Z):
// per day: opa success, opb failed, opc left in send_otp, ope pay_offline completed.
beforeAll(async () => {
  clock = manualClock(Date.UTC(2025, 0, 15, 9, 0, 0));
  sandbox = await startSandbox({ clock });
  api = new Api(sandbox.url, newKey('list'));
  for (let d = 0; d < 3; d++) {
    const day = new Date(clock.now()).toISOString().slice(0, 10);
    const mk = async (provider: string, phone: string, amount: number, finish: 'otp' | 'none') => {
      const ref = (await api.createCharge(provider, phone, amount)).body.data.reference as string;
      if (finish === 'otp') await api.submitOtp(ref, TEST_OTP);
      made.push({ ref, provider, phone, amount, day, status: '' });
    };
    await mk('opa_bf', '76000000', 1000 + d, 'otp');
    await mk('opb_bf', '70000002', 2000 + d, 'otp');
    await mk('opc_bf', '58000000', 3000 + d, 'none');
    await mk('ope_bj', '0196000000', 4000 + d, 'none');
    await clock.advance(DAY);
  }
  // The ope_bj charges completed during the advances; read final statuses from the service.
  for (const m of made) m.status = (await api.get(`/v1/payment/charges/${m.ref}`)).body.data.status;
});
afterAll(async () => {
  await api.close();
  await sandbox.close();
});

async function list(query: string) {
  const res = await api.get(`/v1/payment/charges${query}`);
  expect(res.status).toBe(200);
  return res.body;
}

const refsOf = (body: Json) => body.data.map((c: Json) => c.reference).sort();
const expected = (pred: (m: (typeof made)[number]) => boolean) =>
  made
    .filter(pred)
    .map((m) => m.ref)
    .sort();

describe('charge list filters', () => {
  it('fixture sanity: 12 charges with the expected final statuses', () => {
    expect(made).toHaveLength(12);
    expect(made.map((m) => m.status)).toEqual(Array(3).fill(['success', 'failed', 'send_otp', 'success']).flat());
  });

  it.each([
    ['?status=success', (m: Json) => m.status === 'success'],
    ['?status=failed', (m: Json) => m.status === 'failed'],
    ['?status=pending', (m: Json) => m.status === 'send_otp' || m.status === 'pay_offline'],
    ['?provider=opb_bf', (m: Json) => m.provider === 'opb_bf'],
    ['?phone=58000000', (m: Json) => m.phone === '58000000'],
    ['?date_from=2025-01-16', (m: Json) => m.day >= '2025-01-16'],
    ['?date_to=2025-01-16', (m: Json) => m.day <= '2025-01-16'],
    ['?date_from=2025-01-16&date_to=2025-01-16', (m: Json) => m.day === '2025-01-16'],
    ['?amount_min=2001&amount_max=3001', (m: Json) => m.amount >= 2001 && m.amount <= 3001],
    ['?amount_min=4002', (m: Json) => m.amount >= 4002],
    ['?provider=opa_bf&status=success&date_to=2025-01-15', (m: Json) => m.provider === 'opa_bf' && m.day === '2025-01-15'],
  ])('%s', async (query, pred) => {
    const body = await list(`${query}&page_size=100`);
    expect(refsOf(body)).toEqual(expected(pred));
    expect(body.pagination.total_records).toBe(expected(pred).length);
  });

  it('reference filter', async () => {
    const body = await list(`?reference=${made[5]!.ref}`);
    expect(refsOf(body)).toEqual([made[5]!.ref]);
  });

  it('a pending charge shows up under status=pending while pay_offline, then under success', async () => {
    const ref = (await api.createCharge('ope_bj', '0196000000', 777)).body.data.reference;
    expect(refsOf(await list('?status=pending&amount_min=777&amount_max=777'))).toEqual([ref]);
    await clock.advance(sandbox.delays.payOfflineMs);
    expect(refsOf(await list('?status=success&amount_min=777&amount_max=777'))).toEqual([ref]);
    expect(refsOf(await list('?status=pending&amount_min=777&amount_max=777'))).toEqual([]);
  });

  it.each([
    ['status=canceled', 'status'],
    ['status=send_otp', 'status'],
    ['provider=xyz', 'provider'],
    ['date_from=2025-13-01', 'date_from'],
    ['date_to=15/01/2025', 'date_to'],
    ['date_from=2025-02-30', 'date_from'],
    ['amount_min=abc', 'amount_min'],
    ['amount_max=-5', 'amount_max'],
    ['page=0', 'page'],
    ['page=x', 'page'],
    ['page_size=0', 'page_size'],
  ])('bad value %s -> 400 INVALID_DATA naming %s', async (query, field) => {
    const res = await api.get(`/v1/payment/charges?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, error_code: 'INVALID_DATA' });
    expect(Object.keys(res.body.errors)).toEqual([field]);
  });
});

describe('charge list order and paging', () => {
  it('newest first, ties broken by creation order (newest first)', async () => {
    const body = await list('?page_size=100&amount_min=1000&amount_max=4002');
    // made[] is in creation order; the 4 charges of each day share one clock instant.
    expect(body.data.map((c: Json) => c.reference)).toEqual(made.map((m) => m.ref).reverse());
  });

  it('default page size 20, page_size above 100 is capped', async () => {
    const extra = await Promise.all(Array.from({ length: 110 }, (_, i) => api.createCharge('opd_bf', '68000000', 10_000 + i)));
    expect(extra.every((r) => r.status === 201)).toBe(true);
    const first = await list('?amount_min=10000');
    expect(first.data).toHaveLength(20);
    expect(first.pagination).toEqual({ total_records: 110, current_page: 1, total_pages: 6, has_next: true, has_previous: false });
    const capped = await list('?amount_min=10000&page_size=500');
    expect(capped.data).toHaveLength(100);
    expect(capped.pagination.total_pages).toBe(2);
  });

  it('walking the pages sees every charge exactly once', async () => {
    const seen: string[] = [];
    let page = 1;
    for (;;) {
      const body = await list(`?page=${page}&page_size=7`);
      seen.push(...body.data.map((c: Json) => c.reference));
      expect(body.pagination.current_page).toBe(page);
      expect(body.pagination.has_previous).toBe(page > 1);
      if (!body.pagination.has_next) break;
      page++;
    }
    const total = (await list('?page_size=1')).pagination.total_records;
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
  });

  it('the last partial page and a page beyond the end', async () => {
    const last = await list('?provider=opa_bf&page=2&page_size=2');
    expect(last.data).toHaveLength(1);
    expect(last.pagination).toEqual({ total_records: 3, current_page: 2, total_pages: 2, has_next: false, has_previous: true });
    const beyond = await list('?provider=opa_bf&page=9&page_size=2');
    expect(beyond.data).toEqual([]);
    expect(beyond.pagination).toEqual({ total_records: 3, current_page: 9, total_pages: 2, has_next: false, has_previous: true });
    const none = await list('?phone=76999999');
    expect(none.data).toEqual([]);
    expect(none.pagination).toEqual({ total_records: 0, current_page: 1, total_pages: 0, has_next: false, has_previous: false });
  });
});
