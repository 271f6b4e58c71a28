// GraphiQL's tabs: one per flow of the client kit, in a real browser (Debian's
// chromium) against a gateway in sandbox mode, as `npm start` runs it.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../src/gateway.js';
import { FLOWS, graphiqlTabs } from '../../src/graphiql/tabs.js';
import { hasChromium, launchChromium, startSandboxModeGateway } from '../helpers/browser.js';

const operationsDir = path.resolve(fileURLToPath(new URL('../../client/operations', import.meta.url)));
/** The first operation's name: GraphiQL's title for the tab. */
const titleOf = (query: string) => /^(?:query|mutation|subscription) (\w+)/m.exec(query)?.[1];

describe('GraphiQL tabs', () => {
  it('offer every document of the client kit, once each', () => {
    const files = readdirSync(operationsDir).filter((name) => name.endsWith('.graphql'));
    expect(FLOWS.map((flow) => flow.file).sort()).toEqual(files.sort());
  });

  it('carry the token in every tab when there is one, and no headers otherwise', () => {
    for (const tab of graphiqlTabs('abc.def.ghi')) expect(JSON.parse(tab.headers!)).toEqual({ Authorization: 'Bearer abc.def.ghi' });
    for (const tab of graphiqlTabs(null)) expect(tab.headers).toBeNull();
  });

  it('have variables for every variable their operations declare', () => {
    for (const tab of graphiqlTabs(null)) {
      const declared = [...tab.query.matchAll(/\$(\w+):/g)].map((m) => m[1]!);
      const given = Object.keys(tab.variables ? (JSON.parse(tab.variables) as object) : {});
      expect(given.sort(), titleOf(tab.query)).toEqual([...new Set(declared)].sort());
    }
  });

  // On a 1366-pixel-wide screen GraphiQL's editor shows 55 characters of a line.
  it('fit a laptop-width editor without scrolling sideways (54 characters a line)', () => {
    const long = graphiqlTabs(null).flatMap((tab) => tab.query.split('\n').filter((line) => line.length > 54));
    expect(long).toEqual([]);
  });
});

describe.skipIf(!hasChromium)('GraphiQL tabs in Chromium', () => {
  let stack: Awaited<ReturnType<typeof startSandboxModeGateway>>;
  let gateway: RunningGateway;
  let browser: Browser;

  beforeAll(async () => {
    // Sandbox mode, as `npm start` runs it: no PAYMENT_BASE_URL, a development token in GraphiQL.
    stack = await startSandboxModeGateway('graphiql-tabs');
    gateway = stack.gateway;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('shows one tab per flow and runs one with the development token', async () => {
    // A laptop's screen.
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await page.goto(gateway.graphqlUrl, { waitUntil: 'load' });
    await page.waitForSelector('.graphiql-tab', { timeout: 15_000 });

    const titles = (await page.locator('.graphiql-tab-button').allInnerTexts()).map((text) => text.trim());
    expect(titles).toEqual(graphiqlTabs(null).map((tab) => titleOf(tab.query)));

    // "Pay out many": one mutation, its variables, and the token in its headers. The tabs slide
    // into place as the page starts (a pointer click may land mid-move): the click event is sent to the tab itself.
    await page.locator('.graphiql-tab-button', { hasText: 'CreateBulkTransfer' }).dispatchEvent('click');
    await page.waitForSelector('.graphiql-tab-active >> text=CreateBulkTransfer', { timeout: 15_000 });
    await page.waitForFunction(() => /Pay\s+out\s+many/.test(document.body.innerText), undefined, { timeout: 15_000 });
    await page.click('.graphiql-execute-button');
    // Monaco renders spaces as non-breaking ones: compare with white space folded.
    await page.waitForFunction(() => /"queuedCount":\s*3/.test(document.body.innerText), undefined, { timeout: 15_000 });
    await page.screenshot({ path: '/tmp/graphiql-tabs.png' });
    expect(stack.sandbox.requests.count({ method: 'POST', path: /bulk/ })).toBe(1);
  }, 60_000);
});
