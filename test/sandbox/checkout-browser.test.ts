// One end-to-end run of the payment page in a real browser (Debian's chromium
// driven by playwright-core), under the page's own Content-Security-Policy (its inline script polls, nothing else
// runs), and no other site can frame it. Skipped, visibly, where chromium is not installed.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { Api, newKey } from './helpers.js';

describe.skipIf(!hasChromium)('checkout page in a browser', () => {
  let sandbox: Sandbox;
  let browser: Browser;
  let shop: ReturnType<typeof createServer>;
  let shopUrl: string;
  let api: Api;

  beforeAll(async () => {
    // pay_offline charges complete quickly: the waiting page's polling script is what takes the browser onward.
    sandbox = await startSandbox({ delays: { payOfflineMs: 1_500 } });
    api = new Api(sandbox.url, newKey('browser'));
    // The merchant's site: where success_url and cancel_url lead.
    shop = createServer((req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><title>Shop</title><h1 id="landed">${req.url?.startsWith('/paid') ? 'paid' : 'cancelled'}</h1>`);
    });
    await new Promise<void>((r) => shop.listen(0, '127.0.0.1', r));
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await sandbox?.close();
    await new Promise<void>((r) => (shop ? shop.close(() => r()) : r()));
  });

  it('pays with opa_bf 76000000 and OTP 123456, landing on success_url', async () => {
    const init = await api.post('/v1/payment/checkouts/initialize/', {
      amount: 2500,
      email: 'awa@example.com',
      success_url: `${shopUrl}/paid?order=7`,
      cancel_url: `${shopUrl}/cancelled`,
    });
    const { reference, authorization_url } = init.body.data;

    const page = await browser.newPage({ viewport: { width: 480, height: 900 } });
    await page.goto(authorization_url);
    expect(await page.title()).toContain('2');
    await page.check('input[name="provider"][value="opa_bf"]');
    await page.fill('#phone', '76000000');
    await page.screenshot({ path: '/tmp/sandbox-checkout.png', fullPage: true });
    await page.click('#pay');

    await page.waitForSelector('#otp');
    expect(await page.textContent('.instructions')).toContain('*144*4*6*2500#');
    await page.fill('#otp', '000000');
    await page.click('#confirm');
    await page.waitForSelector('.error');
    expect(await page.textContent('.error')).toContain('Code OTP invalide');

    await page.fill('#otp', '123456');
    await page.click('#confirm');
    await page.waitForURL(/\/paid\?/);
    const landed = new URL(page.url());
    expect(await page.textContent('#landed')).toBe('paid');
    expect(landed.searchParams.get('order')).toBe('7');

    const checkout = (await api.get(`/v1/payment/checkouts/${reference}`)).body.data;
    expect(checkout).toMatchObject({ status: 'success', provider: 'opa_bf', phone: '76000000' });
    expect(landed.searchParams.get('reference')).toBe(checkout.reference);
    const charge = (await api.get(`/v1/payment/charges/${checkout.charge_reference}`)).body.data;
    expect(charge).toMatchObject({ status: 'success', amount: 2500 });
    await page.close();
  });

  /** Console messages of a page that report a refused load, script or frame. */
  const refusalsOf = (page: import('playwright-core').Page) => {
    const refusals: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to|X-Frame-Options/i.test(message.text())) refusals.push(message.text());
    });
    return refusals;
  };

  it('waits for a confirmation on the phone (ope_bj) with its polling script allowed by the policy, then lands on success_url', async () => {
    const init = await api.post('/v1/payment/checkouts/initialize/', {
      amount: 1200,
      email: 'kofi@example.com',
      success_url: `${shopUrl}/paid?order=8`,
      cancel_url: `${shopUrl}/cancelled`,
    });
    const page = await browser.newPage({ viewport: { width: 480, height: 900 } });
    const refusals = refusalsOf(page);
    const response = await page.goto(init.body.data.authorization_url);
    const headers = response!.headers();
    expect(headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' });
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).not.toContain('unsafe-inline');
    await page.check('input[name="provider"][value="ope_bj"]');
    await page.fill('#phone', '0196000000');
    await page.click('#pay');
    await page.waitForSelector('.waiting');
    await page.waitForURL(/\/paid\?/, { timeout: 15_000 });
    expect(await page.textContent('#landed')).toBe('paid');
    expect(refusals).toEqual([]);
    await page.close();
  });

  it('cannot be framed by another site', async () => {
    const init = await api.post('/v1/payment/checkouts/initialize/', {
      amount: 1000,
      email: 'ada@example.com',
      success_url: `${shopUrl}/paid`,
      cancel_url: `${shopUrl}/cancelled`,
    });
    const framing = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><title>elsewhere</title><iframe src="${init.body.data.authorization_url}" width="480" height="800"></iframe>`,
      );
    });
    await new Promise<void>((r) => framing.listen(0, '127.0.0.1', r));
    try {
      const page = await browser.newPage();
      const refusals = refusalsOf(page);
      await page.goto(`http://127.0.0.1:${(framing.address() as AddressInfo).port}/`, { waitUntil: 'load' });
      const framed = page.frames().find((frame) => frame !== page.mainFrame());
      const formInFrame = framed ? await framed.evaluate(() => document.querySelector('#phone') !== null).catch(() => false) : false;
      expect(formInFrame).toBe(false);
      expect(refusals.join('\n')).toMatch(/frame-ancestors 'none'/);
      await page.close();
    } finally {
      await new Promise<void>((r) => framing.close(() => r()));
    }
  });
});
