// GraphiQL in a real browser (Debian's chromium), against a gateway in sandbox mode as `npm start` runs it (no
// PAYMENT_BASE_URL and no auth: a development token in the page; the sandbox's webhooks delivered to the gateway).
// One page, loaded once (a 9 MB page and its editor take seconds of a 2-core machine each time), walked as a
// developer would on a laptop's screen: it works offline (every asset served by the gateway itself) under its own
// Content-Security-Policy, shows one tab per flow of the client kit and runs them with the development token, and
// its live panel keeps its paymentEvents subscription while the tabs change. No page of another origin can frame it.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startGateway, type RunningGateway } from '../../src/gateway.js';
import { graphiqlTabs } from '../../src/graphiql/tabs.js';
import { silentLogger } from '../../src/logger.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { newKey } from '../helpers/sandbox-api.js';

/** The first operation's name: GraphiQL's title for the tab. */
const titleOf = (query: string) => /^(?:query|mutation|subscription) (\w+)/m.exec(query)?.[1];

describe.skipIf(!hasChromium)('GraphiQL in Chromium', () => {
  let sandbox: Sandbox;
  let gateway: RunningGateway;
  let browser: Browser;
  let page: Page;
  const foreign: string[] = [];
  const violations: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const webhookSecret = randomBytes(24).toString('base64url');
    gateway = await startGateway(loadConfig({ PORT: '0', HOST: '127.0.0.1', SUBSCRIPTION_POLL_MS: '0' }), silentLogger, {
      upstream: { baseUrl: sandbox.url, apiKey: newKey('graphiql') },
      webhookSecret,
    });
    sandbox.setWebhook({ url: gateway.webhookUrl!, secret: webhookSecret, scheme: 'hmac-sha256-hex' });
    browser = await launchChromium();
    // A laptop's screen: on a 1366-pixel-wide one GraphiQL's editor shows 55 characters of a line.
    page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    const origin = new URL(gateway.graphqlUrl).origin;
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    page.on('request', (req) => {
      const url = req.url();
      if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
    });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(gateway.graphqlUrl, { waitUntil: 'load' });
    // A 9 MB page and its editor on a loaded 2-core machine: more than the default 20 s at times.
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await sandbox?.close();
  });

  /** Runs the active tab's operation `name` (GraphiQL asks which one when the document has several). */
  async function run(name: string): Promise<void> {
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url() === gateway.graphqlUrl, { timeout: 15_000 });
    const menuItem = page.locator('[role="menuitem"]', { hasText: name }).first();
    await page.click('.graphiql-execute-button');
    // The operation menu opens on the click when the document has several; for one, the request goes at once.
    // Whichever happens first decides: no fixed wait for a menu that may never open.
    const menu = menuItem.waitFor({ state: 'visible', timeout: 15_000 }).then(() => 'menu' as const);
    menu.catch(() => undefined);
    if ((await Promise.race([sent.then(() => 'sent' as const), menu])) === 'menu') await menuItem.click();
    await sent;
  }

  /**
   * Waits until GraphiQL has taken in the editor's new document `name` (it does so a moment after a tab switch or
   * an edit, and records it in the address): run before that, it sends the previous tab's operation name with the
   * new document ("Cannot infer operation"), which a person, slower than a test, never sees.
   */
  async function settled(name: string): Promise<void> {
    await page.waitForFunction(
      (op) => new RegExp(`(query|mutation|subscription) ${op}\\b`).test(new URL(location.href).searchParams.get('query') ?? ''),
      name,
      { timeout: 15_000 },
    );
  }

  /** Opens the tab whose operation is `name`. The tabs slide into place as the page starts (a pointer click may land mid-move): the click event is sent to the tab itself. */
  async function openTab(name: string): Promise<void> {
    await page.locator('.graphiql-tab-button', { hasText: name }).dispatchEvent('click');
    await page.waitForSelector(`.graphiql-tab-active >> text=${name}`, { timeout: 15_000 });
    await settled(name);
  }

  it('loads with no request leaving the gateway, one tab per flow, and runs the first with the development token', async () => {
    await page.waitForSelector('.graphiql-container', { timeout: 15_000 });
    await page.waitForSelector('.graphiql-tab', { timeout: 15_000 });
    const titles = (await page.locator('.graphiql-tab-button').allInnerTexts()).map((text) => text.trim());
    expect(titles).toEqual(graphiqlTabs(null).map((tab) => titleOf(tab.query)));
    await page.waitForSelector('.graphiql-execute-button', { timeout: 15_000 });
    await run(titles[0]!);
    // The result pane shows the sandbox account's balance. Monaco renders spaces as non-breaking ones: compare with white space folded.
    await page.waitForFunction(() => /"currency":\s*"XOF"/.test(document.body.innerText), undefined, { timeout: 15_000 });
    await page.screenshot({ path: '/tmp/graphiql.png' });
    expect(foreign).toEqual([]);
    expect(violations).toEqual([]);
    expect(gateway.developmentToken).not.toBeNull();
  }, 60_000);

  it('runs the "Pay out many" tab: one mutation, its variables, the token in its headers', async () => {
    await openTab('CreateBulkTransfer');
    await page.waitForFunction(() => /Pay\s+out\s+many/.test(document.body.innerText), undefined, { timeout: 15_000 });
    await run('CreateBulkTransfer');
    await page.waitForFunction(() => /"queuedCount":\s*3/.test(document.body.innerText), undefined, { timeout: 15_000 });
    await page.screenshot({ path: '/tmp/graphiql-tabs.png' });
    expect(sandbox.requests.count({ method: 'POST', path: /bulk/ })).toBe(1);
  }, 60_000);

  it('its live panel shows the charge.success of a charge whose OTP was submitted in another tab', async () => {
    await page.waitForFunction(() => document.querySelector('#live-events-status')?.textContent === 'live: paymentEvents', undefined, {
      timeout: 15_000,
    });
    // Tab "CreateCharge": its variables are the sandbox's (OPA_BF 76000000).
    await openTab('CreateCharge');
    await run('CreateCharge');
    await page.waitForFunction(() => /"reference":\s*"ch_[0-9a-f]+"/.test(document.body.innerText), undefined, { timeout: 15_000 });
    const reference = /"reference":\s*"(ch_[0-9a-f]+)"/.exec(await page.innerText('body'))![1]!;

    // Another tab: submit the OTP there.
    const tabs = await page.locator('.graphiql-tab').count();
    await page.click('.graphiql-tab-add');
    await page.waitForFunction((n) => document.querySelectorAll('.graphiql-tab').length === n + 1, tabs, { timeout: 15_000 });
    await page.click('.graphiql-query-editor .monaco-editor');
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(
      `mutation Pay { submitChargeOtp(input: { chargeReference: "${reference}", otp: "123456" }) { __typename } }`,
    );
    await settled('Pay');
    await run('Pay');
    await page.waitForFunction(() => /SubmitChargeOtpPayload/.test(document.body.innerText), undefined, { timeout: 15_000 });

    // The panel, untouched by the tab switches, lists the event.
    await page.waitForFunction(
      (ref) =>
        [...document.querySelectorAll('#live-events-list li')].some(
          (li) => /charge\.success/.test(li.textContent ?? '') && li.textContent!.includes(ref),
        ),
      reference,
      { timeout: 15_000 },
    );
    await page.screenshot({ path: '/tmp/graphiql-live-panel.png' });
    const items = await page.locator('#live-events-list li').allInnerTexts();
    expect(items.some((text) => text.includes('charge.success') && text.includes(reference))).toBe(true);
    expect(pageErrors).toEqual([]);
    expect(foreign).toEqual([]);
    expect(violations).toEqual([]);
  }, 90_000);

  it('cannot be framed by a page of another origin', async () => {
    // Another site (another port: another origin) whose page frames GraphiQL.
    const site: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>elsewhere</title><iframe id="f" src="${gateway.graphqlUrl}" width="800" height="600"></iframe>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const other = await browser.newPage();
      const refusals: string[] = [];
      other.on('console', (message) => {
        if (/frame-ancestors|X-Frame-Options/i.test(message.text())) refusals.push(message.text());
      });
      await other.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`, { waitUntil: 'load' });
      await other.waitForFunction(() => document.readyState === 'complete');
      const framed = other.frames().find((frame) => frame !== other.mainFrame());
      // The frame exists but shows nothing of GraphiQL: its document never loaded.
      const graphiqlInFrame = framed
        ? await framed
            .evaluate(() => document.querySelector('.graphiql-container') !== null || document.title.includes('gateway'))
            .catch(() => false)
        : false;
      expect(graphiqlInFrame).toBe(false);
      expect(refusals.join('\n')).toMatch(/frame-ancestors 'none'/);
      await other.close();
    } finally {
      await new Promise<void>((resolve) => site.close(() => resolve()));
    }
  });
});
