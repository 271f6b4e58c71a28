// The Webhooks journey (issue 35), in French and in English side by side, in one Chromium against a gateway in
// sandbox mode and a receiver of our own over real HTTP: an endpoint is created and its whsec_ secret is shown once
// (with a copy button), then is absent from the page after navigating away and after a reload; while the receiver
// answers 500 the console shows failing attempts and the endpoint failing; once it answers 2xx, a redelivery is
// delivered.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { openAs } from './journey.js';
import { startConsoleStack, type ConsoleStack } from './stack.js';

let stack: ConsoleStack;
let browser: Browser;
let receiver: Server;
let receiverUrl = '';
/** What the receiver answers, per path (one path per language). */
const answers = new Map<string, number>();

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const status = answers.get(req.url ?? '') ?? 404;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 300 ? `receiver down (${status})` : 'ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  [stack, browser] = await Promise.all([startConsoleStack(), hasChromium ? launchChromium() : Promise.resolve(null as never)]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe.skipIf(!hasChromium).concurrent.each(['fr', 'en'] as const)('Webhooks (%s)', (language) => {
  it('shows the secret once, shows failing attempts, and a redelivery is delivered once the receiver answers 2xx', async () => {
    const path = `/hooks-${language}`;
    answers.set(path, 500);
    const { page, texts: L, problems, close } = await openAs(browser, stack, { language, path: '/developers' });
    await page.getByRole('heading', { level: 1, name: L.developers.title }).waitFor();
    await page.getByLabel(L.developers.url, { exact: true }).fill(`${receiverUrl}${path}`);
    await page.getByRole('button', { name: L.developers.create }).click();
    const secret = page.getByLabel(L.developers.secretLabel);
    await expect.poll(() => secret.innerText()).toMatch(/^whsec_\S+$/);
    const shown = await secret.innerText();
    await page.getByRole('button', { name: L.common.copy }).waitFor();

    // Away and back: gone. Reloaded: gone. The page never holds it again.
    await page.getByRole('link', { name: L.nav.payments }).click();
    await page.getByRole('heading', { level: 1, name: L.nav.payments }).waitFor();
    await page.getByRole('link', { name: L.nav.developers }).click();
    await page.getByRole('link', { name: `${L.developers.manage} ${receiverUrl}${path}` }).waitFor();
    expect(await page.content()).not.toContain(shown);
    expect(await page.content()).not.toContain('whsec_');
    await page.reload();
    await page.getByRole('link', { name: `${L.developers.manage} ${receiverUrl}${path}` }).click();
    expect(await page.content()).not.toContain('whsec_');

    // A test event to a receiver answering 500: failing attempts, the endpoint failing.
    await page.getByRole('button', { name: L.developers.test }).click();
    const delivery = page.getByRole('listitem').filter({ hasText: 'webhook.test' }).first();
    await delivery.getByRole('cell', { name: '500' }).first().waitFor({ timeout: 15_000 });
    await page.getByRole('heading', { name: new RegExp(L.developers.failing) }).waitFor({ timeout: 10_000 });
    expect(await delivery.innerText()).toContain(`receiver down (500)`);

    // The receiver is back: a redelivery is delivered.
    answers.set(path, 204);
    await delivery.getByRole('button', { name: L.developers.redeliver }).click();
    await delivery.getByText(L.status.SUCCEEDED, { exact: true }).waitFor({ timeout: 15_000 });
    // Its attempts: the failures, then the 204.
    await delivery.getByRole('cell', { name: '204' }).waitFor();
    expect(await delivery.getByRole('cell', { name: '500' }).count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await close();
  }, 90_000);
});
