// One end-to-end run of the payment page in a real browser (Debian's chromium
// driven by playwright-core). Skipped, visibly, where chromium is not installed.
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
    sandbox = await startSandbox();
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
});
