// GraphiQL in a real browser (Debian's chromium): the page must work offline
// (every asset served by the gateway itself) and run a query against the API
// with the development token that sandbox mode puts in its headers.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startGateway, type RunningGateway } from '../../src/gateway.js';
import { silentLogger } from '../../src/logger.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { newKey } from '../helpers/sandbox-api.js';

const CHROMIUM = '/usr/bin/chromium';

describe.skipIf(!existsSync(CHROMIUM))('GraphiQL', () => {
  let sandbox: Sandbox;
  let gateway: RunningGateway;
  let browser: Browser;

  beforeAll(async () => {
    // Sandbox mode, as `npm start` runs it: no PAYMENT_BASE_URL and no auth configured.
    sandbox = await startTestSandbox();
    gateway = await startGateway(loadConfig({ PORT: '0', HOST: '127.0.0.1' }), silentLogger, {
      upstream: { baseUrl: sandbox.url, apiKey: newKey('graphiql') },
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await sandbox?.close();
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
