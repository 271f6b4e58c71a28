// GraphiQL in a real browser (Debian's chromium): the page must work offline
// (every asset served by the gateway itself) and run a query against the API
// with the development token that sandbox mode puts in its headers.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../src/gateway.js';
import { hasChromium, launchChromium, startSandboxModeGateway } from '../helpers/browser.js';

describe.skipIf(!hasChromium)('GraphiQL', () => {
  let stack: Awaited<ReturnType<typeof startSandboxModeGateway>>;
  let gateway: RunningGateway;
  let browser: Browser;

  beforeAll(async () => {
    // Sandbox mode, as `npm start` runs it: no PAYMENT_BASE_URL and no auth configured.
    stack = await startSandboxModeGateway('graphiql');
    gateway = stack.gateway;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('loads with no request leaving the gateway and runs the default query', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const origin = new URL(gateway.graphqlUrl).origin;
    const foreign: string[] = [];
    page.on('request', (req) => {
      const url = req.url();
      if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
    });
    await page.goto(gateway.graphqlUrl, { waitUntil: 'load' });
    await page.waitForSelector('.graphiql-container', { timeout: 15_000 });
    await page.waitForSelector('.graphiql-execute-button', { timeout: 15_000 });
    await page.click('.graphiql-execute-button');
    // The result pane shows the sandbox account's balance.
    // Monaco renders spaces as non-breaking ones: compare with white space folded.
    await page.waitForFunction(() => /"currency":\s*"XOF"/.test(document.body.innerText), undefined, { timeout: 15_000 });
    await page.screenshot({ path: '/tmp/graphiql.png' });
    expect(foreign).toEqual([]);
    expect(gateway.developmentToken).not.toBeNull();
  });
});
