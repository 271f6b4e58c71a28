// The Support journey (issue 35), in French and in English side by side, in one Chromium against a gateway in
// sandbox mode: a support agent (read-only persona) finds a charge by the customer's phone, opens it and reads its
// timeline from the event history; a charge made through the API meanwhile appears in the list without a reload.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateChargeDocument, SubmitChargeOtpDocument } from '../../client/generated/graphql.js';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { openAs } from './journey.js';
import { startConsoleStack, type ConsoleStack } from './stack.js';

let stack: ConsoleStack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startConsoleStack(), hasChromium ? launchChromium() : Promise.resolve(null as never)]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function charge(phone: string, provider: 'OPC_BF' | 'OPF_BJ', key: string): Promise<string> {
  const created = await stack.graphql(CreateChargeDocument, { input: { amount: 2500, phone, provider, idempotencyKey: key } });
  const payload = created.data!.createCharge;
  if (payload.__typename !== 'CreateChargePayload') throw new Error(`createCharge: ${payload.__typename}`);
  return payload.reference;
}

describe.skipIf(!hasChromium).concurrent.each([
  ['fr', '58 00 00 00', 'OPC_BF'],
  ['en', '01 95 00 00 00', 'OPF_BJ'],
] as const)('Support (%s)', (language, phone, provider) => {
  it('finds a charge by phone, opens its timeline, and sees a new charge appear live', async () => {
    // A customer paid: the charge is confirmed with the OTP, so its history holds charge.success.
    const paid = await charge(phone, provider, `support-${language}-paid`);
    await stack.graphql(SubmitChargeOtpDocument, { reference: paid, otp: '123456' });

    const { page, texts: L, problems, close } = await openAs(browser, stack, { language, persona: 'support' });
    // Read-only: no payout, approval, settlement or developer page is offered.
    const nav = page.getByRole('navigation', { name: L.nav.label });
    expect(await nav.getByRole('link').allInnerTexts()).toEqual([L.nav.payments, L.nav.payouts, L.nav.balances, L.nav.settlements]);

    await page.getByRole('searchbox', { name: L.payments.search }).fill(phone);
    await page.getByRole('button', { name: L.payments.apply, exact: true }).click();
    await page.getByRole('link', { name: paid }).click();
    await page.getByRole('heading', { level: 1, name: new RegExp(paid) }).waitFor();
    const timeline = page.getByRole('list').filter({ hasText: L.detail.created });
    await timeline.getByText(L.event['charge.success']).waitFor({ timeout: 10_000 });
    // The amount as the merchants write it (Intl, fr-FR, in both languages): 2 500 F CFA.
    await page
      .getByRole('definition')
      .filter({ hasText: /^2\s500\sF\sCFA$/ })
      .first()
      .waitFor();

    await page.goBack();
    await page.getByRole('link', { name: paid }).waitFor();
    const started = Date.now();
    const fresh = await charge(phone, provider, `support-${language}-fresh`);
    await page.getByRole('link', { name: fresh }).waitFor({ timeout: 3_000 });
    console.log(
      `[console] ${language}: a charge made through the API appeared in the list after ${Date.now() - started} ms, without a reload`,
    );
    expect(problems).toEqual([]);
    await close();
  }, 60_000);
});
