// GraphiQL's live panel in a real browser (Debian's chromium), in one window:
// a charge created in the CreateCharge tab, its OTP submitted in another tab,
// and the charge.success event appears in the panel, which kept its
// subscription while the tabs changed. Sandbox mode as `npm start` runs it: the
// development token, the sandbox's webhooks delivered to the gateway.
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startGateway, type RunningGateway } from '../../src/gateway.js';
import { withLivePanel } from '../../src/graphiql/live-panel.js';
import { silentLogger } from '../../src/logger.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { newKey } from '../helpers/sandbox-api.js';

describe('the live panel', () => {
  it('is on the page only with a development token, which it carries as a script string', () => {
    const page = '<html><body><div id="graphiql"></div></body></html>';
    expect(withLivePanel(page, null)).toBe(page);
    const withPanel = withLivePanel(page, 'aaa.bbb.ccc');
    expect(withPanel).toContain('const token = "aaa.bbb.ccc";');
    expect(withPanel.indexOf('<script>')).toBeLessThan(withPanel.indexOf('</body>'));
  });
});

describe.skipIf(!hasChromium)('the live panel in Chromium', () => {
  let sandbox: Sandbox;
  let gateway: RunningGateway;
  let browser: Browser;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const webhookSecret = randomBytes(24).toString('base64url');
    gateway = await startGateway(loadConfig({ PORT: '0', HOST: '127.0.0.1', SUBSCRIPTION_POLL_MS: '0' }), silentLogger, {
      upstream: { baseUrl: sandbox.url, apiKey: newKey('live-panel') },
      webhookSecret,
    });
    sandbox.setWebhook({ url: gateway.webhookUrl!, secret: webhookSecret, scheme: 'hmac-sha256-hex' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await sandbox?.close();
  });

  /** Runs the active tab's operation `name` (GraphiQL asks which one when the document has several). */
  async function run(page: Page, name: string): Promise<void> {
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

  it('shows the charge.success of a charge whose OTP was submitted in another tab', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(gateway.graphqlUrl, { waitUntil: 'load' });
    await page.waitForSelector('.graphiql-tab', { timeout: 15_000 });
    await page.waitForFunction(() => document.querySelector('#live-events-status')?.textContent === 'live: paymentEvents', undefined, {
      timeout: 15_000,
    });

    // Tab "CreateCharge": its variables are the sandbox's (OPA_BF 76000000).
    await page.locator('.graphiql-tab-button', { hasText: 'CreateCharge' }).dispatchEvent('click');
    await page.waitForSelector('.graphiql-tab-active >> text=CreateCharge', { timeout: 15_000 });
    await run(page, 'CreateCharge');
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
    await run(page, 'Pay');
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
  }, 90_000);
});
