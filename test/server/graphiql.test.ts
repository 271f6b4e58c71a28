// GraphiQL in a real browser (Debian's chromium): the page must work offline
// (every asset served by the gateway itself) and run a query against the API.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../helpers/gateway.js';

const CHROMIUM = '/usr/bin/chromium';

describe.skipIf(!existsSync(CHROMIUM))('GraphiQL', () => {
  let stack: TestStack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('loads with no request leaving the gateway and runs the default query', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const origin = new URL(stack.gateway.graphqlUrl).origin;
    const foreign: string[] = [];
    page.on('request', (req) => {
      const url = req.url();
      if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
    });
    await page.goto(stack.gateway.graphqlUrl, { waitUntil: 'load' });
    await page.waitForSelector('.graphiql-container', { timeout: 15_000 });
    await page.waitForSelector('.graphiql-execute-button', { timeout: 15_000 });
    await page.click('.graphiql-execute-button');
    // The result pane shows the sandbox account's balance.
    // Monaco renders spaces as non-breaking ones: compare with white space folded.
    await page.waitForFunction(() => /"currency":\s*"XOF"/.test(document.body.innerText), undefined, { timeout: 15_000 });
    await page.screenshot({ path: '/tmp/graphiql.png' });
    expect(foreign).toEqual([]);
  });
});
