import { createHash } from 'node:crypto';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_OTP, manualClock, startSandbox, type ManualClock, type Sandbox } from '../../src/sandbox/index.js';
import { Api, OFFSET, UUID, Z, newKey, startReceiver } from './helpers.js';
import type { Json } from '../helpers/sandbox-api.js';

let clock: ManualClock;
let sandbox: Sandbox;
let api: Api;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  clock = manualClock();
  receiver = await startReceiver();
  sandbox = await startSandbox({ clock, webhook: { url: receiver.url, secret: 'whsec_test', scheme: 'hmac-sha256-hex' } });
});
beforeEach(() => {
  api = new Api(sandbox.url, newKey('checkouts'));
  receiver.received.length = 0;
});
afterEach(() => api.close());
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

async function initialize(extra: Record<string, unknown> = {}) {
  const res = await api.post('/v1/payment/checkouts/initialize/', {
    amount: 2500,
    success_url: 'https://shop.example/paid?order=7',
    cancel_url: 'https://shop.example/cancelled',
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.data as { reference: string; authorization_url: string; live_mode: boolean };
}

/** Posts the payment page's forms the way a browser would (no redirect following). */
async function form(url: string, fields: Record<string, string>) {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    dispatcher: api.agent,
  });
  return { status: res.statusCode, location: res.headers.location as string | undefined, text: await res.body.text() };
}

async function page(url: string) {
  const res = await request(url, { dispatcher: api.agent });
  return { status: res.statusCode, type: String(res.headers['content-type']), headers: res.headers, text: await res.body.text() };
}

describe('checkout API', () => {
  it('initialize: chk_<32 hex>, authorization_url on the sandbox, live_mode false; amount as a string', async () => {
    const data = await initialize({ amount: '2500', email: 'awa@example.com' });
    expect(Object.keys(data).sort()).toEqual(['authorization_url', 'live_mode', 'reference']);
    expect(data.reference).toMatch(/^chk_[0-9a-f]{32}$/);
    expect(data.authorization_url).toBe(`${sandbox.url}/checkout/${data.reference}`);
    expect(data.live_mode).toBe(false);
  });

  it('fetch accepts both reference forms and always shows the UUID; fields before Json payment', async () => {
    const { reference } = await initialize();
    const byChk = await api.get(`/v1/payment/checkouts/${reference}`);
    expect(byChk.status).toBe(200);
    const c = byChk.body.data;
    expect(c.reference).toMatch(UUID);
    expect(c).toMatchObject({
      amount: 2500,
      email: null,
      charge_reference: null,
      phone: '',
      provider: '',
      status: 'pending',
      live_mode: false,
      success_url: 'https://shop.example/paid?order=7',
      cancel_url: 'https://shop.example/cancelled',
    });
    expect(c.created_at).toMatch(Z);
    expect(c.updated_at).toMatch(OFFSET);
    const byUuid = await api.get(`/v1/payment/checkouts/${c.reference}/`);
    expect(byUuid.body.data).toEqual(c);
  });

  it('list returns all checkouts newest first', async () => {
    const a = await initialize();
    await clock.advance(1000);
    const b = await initialize();
    const c = await initialize();
    const list = (await api.get('/v1/payment/checkouts')).body.data;
    const uuidOf = async (chk: string) => (await api.get(`/v1/payment/checkouts/${chk}`)).body.data.reference;
    expect(list.map((x: Json) => x.reference)).toEqual([await uuidOf(c.reference), await uuidOf(b.reference), await uuidOf(a.reference)]);
  });

  it('validation: required URLs, integer amount, email shape', async () => {
    const res = await api.post('/v1/payment/checkouts/initialize/', { amount: 'ten', success_url: 'not a url', email: 'nope' });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe('INVALID_DATA');
    expect(res.body.errors).toEqual({
      amount: ['A valid integer is required.'],
      success_url: ['Enter a valid URL.'],
      cancel_url: ['This field is required.'],
      email: ['Enter a valid email address.'],
    });
  });

  it('unknown or foreign reference: 404 "Checkout not found"', async () => {
    const { reference } = await initialize();
    const other = api.withKey(newKey('other'));
    const res = await other.get(`/v1/payment/checkouts/${reference}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: false, message: 'Checkout not found' });
    await other.close();
  });

  it('emits checkout.pending with the fetch form of the checkout', async () => {
    const { reference } = await initialize();
    await clock.advance(0);
    const fetched = (await api.get(`/v1/payment/checkouts/${reference}`)).body.data;
    expect(receiver.received.map((r) => r.json)).toEqual([{ event: 'checkout.pending', data: fetched }]);
  });
});

describe('payment page over HTTP (no browser)', () => {
  it('is HTML, needs no API key, lists the operators, and 404s for an unknown reference', async () => {
    const { authorization_url } = await initialize();
    const p = await page(authorization_url);
    expect(p.status).toBe(200);
    expect(p.type).toMatch(/^text\/html/);
    for (const op of ['opa_bf', 'opb_bf', 'opc_bf', 'opd_bf', 'ope_bj', 'opf_bj']) expect(p.text).toContain(`value="${op}"`);
    expect(p.text).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet/);
    expect((await page(`${sandbox.url}/checkout/chk_unknown`)).status).toBe(404);
  });

  it('carries nosniff, no-referrer and framing protection, and a policy allowing only its own inline code (by hash)', async () => {
    const { authorization_url } = await initialize();
    for (const url of [authorization_url, `${sandbox.url}/checkout/chk_unknown`]) {
      const { headers, text } = await page(url);
      expect(headers, url).toMatchObject({
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'x-frame-options': 'DENY',
      });
      const policy = String(headers['content-security-policy']);
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain("default-src 'none'");
      expect(policy).not.toContain('unsafe-inline');
      // Each inline style of the page is allowed by its own hash.
      const style = /<style>([\s\S]*?)<\/style>/.exec(text)![1]!;
      const hash = createHash('sha256').update(style, 'utf8').digest('base64');
      expect(policy).toContain(`'sha256-${hash}'`);
    }
    // The API's JSON answers are not sniffed either.
    expect(
      (
        await request(`${sandbox.url}/v1/payment/checkouts/`, { dispatcher: api.agent }).then(async (r) => (await r.body.dump(), r.headers))
      )['x-content-type-options'],
    ).toBe('nosniff');
  });

  it('OTP flow: wrong number and wrong OTP shown in French and English; success redirects with ?reference=<uuid>', async () => {
    const { reference, authorization_url } = await initialize();
    const invalid = await form(`${authorization_url}/pay`, { provider: 'opa_bf', phone: '70000000' });
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain('Numéro de téléphone invalide');
    expect(invalid.text).toContain('Invalid phone number');

    const rejected = await form(`${authorization_url}/pay`, { provider: 'opa_bf', phone: '76000001' });
    expect(rejected.text).toContain('n&#39;a pas de compte mobile money');
    expect((await api.get(`/v1/payment/checkouts/${reference}`)).body.data).toMatchObject({
      phone: '',
      provider: '',
      charge_reference: null,
    });

    const paid = await form(`${authorization_url}/pay`, { provider: 'opa_bf', phone: '76000000' });
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(`/checkout/${reference}`);
    const otpStep = await page(authorization_url);
    expect(otpStep.text).toContain('*144*4*6*2500#');
    expect(otpStep.text).toContain('name="otp"');

    const checkout = (await api.get(`/v1/payment/checkouts/${reference}`)).body.data;
    expect(checkout).toMatchObject({
      phone: '76000000',
      provider: 'opa_bf',
      status: 'pending',
      charge_reference: expect.stringMatching(/^ch_/),
    });

    const wrong = await form(`${authorization_url}/otp`, { otp: '999999' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('Code OTP invalide');
    expect(wrong.text).toContain('Invalid OTP');

    const ok = await form(`${authorization_url}/otp`, { otp: TEST_OTP });
    expect(ok.status).toBe(303);
    expect(ok.location).toBe(`https://shop.example/paid?order=7&reference=${checkout.reference}`);
    expect((await api.get(`/v1/payment/checkouts/${reference}`)).body.data.status).toBe('success');
    const charge = (await api.get(`/v1/payment/charges/${checkout.charge_reference}`)).body.data;
    expect(charge).toMatchObject({ status: 'success', amount: 2500, provider: 'opa_bf', ip_address: '127.0.0.1' });
    expect(charge.confirmation_attempts.map((a: Json) => a.confirmation_status)).toEqual(['failed', 'success']);

    await clock.advance(0);
    // Deliveries run concurrently, so arrival order is not asserted (README: no ordering guarantee).
    expect(receiver.events().sort()).toEqual(['charge.success', 'checkout.pending', 'checkout.success']);
    const lastCheckout = receiver.received.find((r) => r.json.event === 'checkout.success')!.json.data;
    expect(lastCheckout).toEqual((await api.get(`/v1/payment/checkouts/${reference}`)).body.data);

    // A second payment for a paid checkout is refused: the page just shows its state.
    const again = await form(`${authorization_url}/pay`, { provider: 'opa_bf', phone: '76000000' });
    expect(again.status).toBe(303);
    expect((await api.get('/v1/payment/charges')).body.pagination.total_records).toBe(1);
  });

  it('a charge that ends failed makes the checkout failed (checkout.failed)', async () => {
    const { reference, authorization_url } = await initialize();
    await form(`${authorization_url}/pay`, { provider: 'opc_bf', phone: '58000002' });
    const res = await form(`${authorization_url}/otp`, { otp: TEST_OTP });
    expect(res.status).toBe(303);
    const p = await page(authorization_url);
    expect(p.text).toContain('Le paiement a échoué');
    expect(p.text).toContain('The payment failed');
    expect((await api.get(`/v1/payment/checkouts/${reference}`)).body.data.status).toBe('failed');
    await clock.advance(0);
    expect(receiver.events().sort()).toEqual(['charge.failed', 'checkout.failed', 'checkout.pending']);
  });

  it('pay_offline: the status endpoint reports pending, then success with the redirect address', async () => {
    const { reference, authorization_url } = await initialize();
    await form(`${authorization_url}/pay`, { provider: 'ope_bj', phone: '0196000000' });
    const waiting = await page(authorization_url);
    expect(waiting.text).toContain('/status');
    const before = JSON.parse((await page(`${authorization_url}/status`)).text);
    expect(before).toEqual({ status: 'pending', charge_status: 'pay_offline', redirect_url: null });
    await clock.advance(sandbox.delays.payOfflineMs);
    const after = JSON.parse((await page(`${authorization_url}/status`)).text);
    const uuid = (await api.get(`/v1/payment/checkouts/${reference}`)).body.data.reference;
    expect(after).toEqual({
      status: 'success',
      charge_status: 'success',
      redirect_url: `https://shop.example/paid?order=7&reference=${uuid}`,
    });
  });

  it('cancel redirects to cancel_url?reference=<uuid> and leaves the checkout pending, unpaid', async () => {
    const { reference, authorization_url } = await initialize();
    const res = await form(`${authorization_url}/cancel`, {});
    const c = (await api.get(`/v1/payment/checkouts/${reference}`)).body.data;
    expect(res.status).toBe(303);
    expect(res.location).toBe(`https://shop.example/cancelled?reference=${c.reference}`);
    expect(c).toMatchObject({ status: 'pending', charge_reference: null });
  });
});
