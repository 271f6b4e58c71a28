// GraphiQL in a real browser (Debian's chromium): the page must work offline
// (every asset served by the gateway itself) and run a query against the API
// with the development token that sandbox mode puts in its headers, under its own Content-Security-Policy (no
// violation reported); and no page of another origin can frame it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
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
    expect(violations).toEqual([]);
    expect(gateway.developmentToken).not.toBeNull();
    await page.close();
    // A 9 MB page and its editor on a loaded 2-core machine: more than the default 20 s at times.
  }, 60_000);

  it('cannot be framed by a page of another origin', async () => {
    // Another site (another port: another origin) whose page frames GraphiQL.
    const site: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>elsewhere</title><iframe id="f" src="${gateway.graphqlUrl}" width="800" height="600"></iframe>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const page = await browser.newPage();
      const refusals: string[] = [];
      page.on('console', (message) => {
        if (/frame-ancestors|X-Frame-Options/i.test(message.text())) refusals.push(message.text());
      });
      await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`, { waitUntil: 'load' });
      await page.waitForFunction(() => document.readyState === 'complete');
      const framed = page.frames().find((frame) => frame !== page.mainFrame());
      // The frame exists but shows nothing of GraphiQL: its document never loaded.
      const graphiqlInFrame = framed
        ? await framed
            .evaluate(() => document.querySelector('.graphiql-container') !== null || document.title.includes('gateway'))
            .catch(() => false)
        : false;
      expect(graphiqlInFrame).toBe(false);
      expect(refusals.join('\n')).toMatch(/frame-ancestors 'none'/);
      await page.close();
    } finally {
      await new Promise<void>((resolve) => site.close(() => resolve()));
    }
  });
});
