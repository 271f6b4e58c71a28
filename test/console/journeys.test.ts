// The back office's journeys (issue 35), each in French and in English side by side, in one Chromium against one
// gateway in sandbox mode (TRUSTED_DOCUMENTS=enforce, PAYOUT_BATCH_APPROVAL at its default: the console asks for the
// second approver itself), with the sandbox's webhooks
// delivered to it and a webhook receiver of the test's own over real HTTP. One file for the three, so the suite pays
// for one browser and one gateway:
// - Support: a read-only agent finds a charge by the customer's phone, opens it and reads its timeline from the event
//   history; a charge made through the API meanwhile appears in the list without a reload; a charge is found by the
//   ext_id the merchant's server sent.
// - Finance: a 250-row payroll with 3 bad rows is refused row by row with reasons and nothing is sent; fixed, it is
//   submitted by the preparer, who is offered no approve button; the approver persona approves it; progress reaches
//   COMPLETED live; the results CSV downloaded matches what the API says of each item.
// - Settlements: one requested and cancelled while processing; a refusal shows the API's own sentence.
// - Webhooks: an endpoint's whsec_ secret is shown once (with a copy button), then is absent after navigating away and
//   after a reload; while the receiver answers 500 the console shows failing attempts and the endpoint failing; once
//   it answers 2xx, a redelivery is delivered.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Papa from 'papaparse';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  ConsolePayoutBatchesDocument,
  ConsolePayoutBatchItemsDocument,
  CreateChargeDocument,
  CreateSettlementDocument,
  SubmitChargeOtpDocument,
  type ConsolePayoutBatchItemsQuery,
} from '../../client/generated/graphql.js';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { openAs, plural, type Language } from './journey.js';
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

async function charge(phone: string, provider: 'OPC_BF' | 'OPF_BJ', key: string, extId?: string): Promise<string> {
  const created = await stack.graphql(CreateChargeDocument, { input: { amount: 2500, phone, provider, idempotencyKey: key, extId } });
  const payload = created.data!.createCharge;
  if (payload.__typename !== 'CreateChargePayload') throw new Error(`createCharge: ${payload.__typename}`);
  return payload.reference;
}

describe.skipIf(!hasChromium).concurrent.each([
  ['fr', '58 00 00 00', 'OPC_BF'],
  ['en', '01 95 00 00 00', 'OPF_BJ'],
] as const)('Support (%s)', (language, phone, provider) => {
  it('finds a charge by phone, opens its timeline, sees a new charge appear live, and finds one by ext_id', async ({ expect }) => {
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
    await timeline.getByText(L.event['charge.success']).waitFor();
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
    // The bar is 2 s (a read of the first page each second); printed, and asserted generously: the suite shares two cores.
    await page.getByRole('link', { name: fresh }).waitFor({ timeout: 20_000 });
    console.log(
      `[console] ${language}: a charge made through the API appeared in the list after ${Date.now() - started} ms, without a reload`,
    );

    // The customer quotes the order number the merchant's server sent as ext_id: digits and dashes, which the search
    // would take for a phone, so the agent says where to search; the view's URL says it too.
    const extId = `2026-${language}-0042`;
    const ordered = await charge(phone, provider, `support-${language}-order`, extId);
    await page.getByRole('searchbox', { name: L.payments.search }).fill(extId);
    await page.getByRole('combobox', { name: L.payments.searchIn }).selectOption({ label: L.payments.searchBy.extId });
    await page.getByRole('button', { name: L.payments.apply, exact: true }).click();
    await page.getByRole('link', { name: ordered }).waitFor();
    expect(await page.getByRole('link', { name: fresh }).count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('in')).toBe('extId');
    expect(problems).toEqual([]);
    await close();
  }, 120_000);
});

/** 250 rows over three wallets (no number ends in 9: the sandbox fails those), 500 F CFA each. */
function payroll(language: Language, broken: boolean): string {
  const rows = ['ext_id,telephone,montant,portefeuille,nom'];
  for (let i = 0; i < 250; i++) {
    const prefix = ['76', '70', '68'][i % 3]!;
    rows.push(`${language}-paie-${i},${prefix} 0${String(i).padStart(3, '0')} ${i % 2 ? 1 : 3}1,500,,Salarié ${i}`);
  }
  if (broken) {
    rows[11] = `${language}-paie-10,70 00 01 01,500,OPA_BF,wrong operator`; // line 12: OPA_BF does not serve 70…
    rows[51] = `${language}-paie-50,76 00 05 01,50,,too little`; // line 52: below 100
    rows[101] = `${language}-paie-3,68 00 10 01,500,,duplicate`; // line 102: ext_id of line 5
  }
  return rows.join('\n') + '\n';
}

async function apiItems(batchId: string) {
  const items: { index: number; status: string; transferReference: string | null; reference: string | null }[] = [];
  let after: string | null = null;
  do {
    const page: Awaited<ReturnType<typeof stack.graphql<ConsolePayoutBatchItemsQuery, unknown>>> = await stack.graphql(
      ConsolePayoutBatchItemsDocument,
      { id: batchId, first: 100, after },
    );
    const connection = page.data!.payoutBatch!.items;
    items.push(...connection.edges.map((e) => e.node));
    after = connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor! : null;
  } while (after);
  return items;
}

describe.skipIf(!hasChromium).concurrent.each(['fr', 'en'] as const)('Finance (%s)', (language) => {
  it('refuses 3 bad rows with reasons, then a second person approves, progress completes live, and the results match the API', async ({
    expect,
  }) => {
    const preparer = await openAs(browser, stack, { language, persona: 'preparer', path: '/payouts/payroll' });
    const { page, texts: L } = preparer;
    await page.getByRole('heading', { level: 1, name: L.payroll.title }).waitFor();
    const file = page.getByLabel(L.payroll.file);

    await file.setInputFiles({ name: 'paie.csv', mimeType: 'text/csv', buffer: Buffer.from(payroll(language, true)) });
    await page.getByRole('heading', { name: plural(L.payroll, 'badRows', 3) }).waitFor();
    const bad = page.getByRole('table', { name: plural(L.payroll, 'badRows', 3) }).getByRole('row');
    await expect.poll(() => bad.count()).toBe(4); // the header and 3 rows
    const rowText = (await bad.allInnerTexts()).slice(1).join('\n');
    expect(rowText).toMatch(/12\b[\s\S]*70 00 01 01/);
    expect(rowText).toContain(L.payroll.reasons.phone_rule.split('{{')[0]!.trim());
    expect(rowText).toContain(L.payroll.reasons.amount_min);
    expect(rowText).toContain(L.payroll.reasons.ext_id_duplicate.replace('{{line}}', '5'));
    expect(await page.getByRole('button', { name: L.payroll.submit }).isDisabled()).toBe(true);
    // Nothing was sent: the API knows no batch of this preparer yet.
    const before = await stack.graphql(ConsolePayoutBatchesDocument, { first: 100 });
    expect(before.data!.payoutBatches.edges.filter((e) => e.node.label.startsWith(`${language}-`))).toEqual([]);

    await file.setInputFiles({ name: `${language}-paie.csv`, mimeType: 'text/csv', buffer: Buffer.from(payroll(language, false)) });
    await page.getByText(plural(L.payroll, 'goodRows', 250)).waitFor();
    await page.getByLabel(L.payroll.label).fill(`${language}-salaires`);
    await page.getByRole('button', { name: L.payroll.submit }).click();
    await page.getByRole('heading', { level: 1, name: new RegExp(L.batch.title) }).waitFor();
    await page.getByText(L.batch.awaiting).waitFor();
    const batchPath = new URL(page.url()).pathname.replace(/^\/console/, '');
    const batchId = decodeURIComponent(batchPath.split('/').at(-1)!);
    // The preparer is offered no approve button (the API would refuse: SelfApprovalError).
    expect(await page.getByRole('button', { name: L.batch.approve }).count()).toBe(0);

    const approver = await openAs(browser, stack, { language, persona: 'approver', path: '/payouts/approvals' });
    await approver.page.getByRole('link', { name: `${language}-salaires` }).click();
    await approver.page.getByRole('button', { name: L.batch.approve }).click();

    // The preparer's page, untouched since, follows the batch live to its end.
    await page.getByText(L.status.COMPLETED, { exact: true }).waitFor({ timeout: 90_000 });
    await expect.poll(() => page.getByTestId('count-succeeded').innerText(), { timeout: 30_000 }).toBe('250');

    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.getByRole('button', { name: L.batch.results }).click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
    const rows = Papa.parse<string[]>(csv.trim()).data;
    expect(rows[0]).toEqual(
      language === 'fr'
        ? ['ligne', 'ext_id', 'telephone', 'montant', 'statut', 'reference_transfert', 'motif']
        : ['row', 'ext_id', 'phone', 'amount', 'status', 'transfer_reference', 'reason'],
    );
    const api = await apiItems(batchId);
    expect(api).toHaveLength(250);
    expect(rows.slice(1).map((r) => [r[1], r[4], r[5]])).toEqual(api.map((item) => [item.reference, item.status, item.transferReference]));
    expect(api.every((item) => item.status === 'SUCCEEDED' && item.transferReference)).toBe(true);

    expect([...preparer.problems, ...approver.problems]).toEqual([]);
    await approver.close();
    await preparer.close();
  }, 180_000);
});

describe.skipIf(!hasChromium).concurrent.each(['fr', 'en'] as const)('Webhooks (%s)', (language) => {
  it('shows the secret once, shows failing attempts, and a redelivery is delivered once the receiver answers 2xx', async ({ expect }) => {
    const path = `/hooks-${language}`;
    answers.set(path, 500);
    const { page, texts: L, problems, close } = await openAs(browser, stack, { language, path: '/developers' });
    await page.getByRole('heading', { level: 1, name: L.developers.title }).waitFor();
    await page.getByLabel(L.developers.url, { exact: true }).fill(`${receiverUrl}${path}`);
    // Test events only: the payments the other journeys make meanwhile (500 payouts) are not this endpoint's.
    await page.getByRole('region', { name: L.developers.create }).getByRole('checkbox', { name: 'webhook.test' }).check();
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
    await delivery.getByRole('cell', { name: '500' }).first().waitFor();
    await page.getByRole('heading', { name: new RegExp(L.developers.failing) }).waitFor();
    expect(await delivery.innerText()).toContain(`receiver down (500)`);

    // The receiver is back: a redelivery is delivered.
    answers.set(path, 204);
    await delivery.getByRole('button', { name: L.developers.redeliver }).click();
    await delivery.getByText(L.status.SUCCEEDED, { exact: true }).waitFor();
    // Its attempts: the failures, then a 204 (two, when the scheduled retry came just before the redelivery was asked
    // for: a redelivery of a delivered event sends it again, as Stripe's and Svix's do; never two at once).
    await delivery.getByRole('cell', { name: '204' }).first().waitFor();
    expect(await delivery.getByRole('cell', { name: '500' }).count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await close();
  }, 150_000);
});

describe.skipIf(!hasChromium).concurrent.each(['fr', 'en'] as const)('Settlements (%s)', (language) => {
  it('requests a settlement and cancels it while processing; a refusal shows the API’s own sentence', async ({ expect }) => {
    // Money to settle: a confirmed charge credits the collection balance.
    const created = await stack.graphql(CreateChargeDocument, {
      input: { amount: 5000, phone: '70000000', provider: 'OPB_BF', idempotencyKey: `settle-${language}` },
    });
    const charge = created.data!.createCharge;
    if (charge.__typename !== 'CreateChargePayload') throw new Error(charge.__typename);
    await stack.graphql(SubmitChargeOtpDocument, { reference: charge.reference, otp: '123456' });

    const { page, texts: L, problems, close } = await openAs(browser, stack, { language, path: '/settlements' });
    const amount = page.getByLabel(L.settlements.amount);
    // More than the balance: refused, in the API's own words in the page's language (never a bare code).
    await amount.fill('900000000');
    await page.getByRole('button', { name: L.settlements.create }).click();
    const refusal = await stack.graphql(CreateSettlementDocument, { input: { amount: 900000000, idempotencyKey: `refused-${language}` } });
    const error = refusal.data!.createSettlement;
    if (!('messageFr' in error)) throw new Error(`expected a refusal, got ${error.__typename}`);
    await page
      .getByRole('alert')
      .filter({ hasText: language === 'fr' ? error.messageFr : error.message })
      .waitFor();

    await amount.fill('1000');
    await page.getByRole('button', { name: L.settlements.create }).click();
    const notice = page.getByRole('status').filter({ hasText: /st_|\w{6,}/ });
    await notice.first().waitFor();
    const reference = /(\S+_\S+|[0-9a-f-]{36})/.exec(await notice.first().innerText())![1]!;
    await page.getByRole('button', { name: `${L.settlements.cancel} ${reference}` }).click();
    await page.getByText(L.settlements.cancelled.replace('{{reference}}', reference)).waitFor();
    const row = page.getByRole('row').filter({ hasText: reference });
    await row.getByText(L.status.CANCELLED, { exact: true }).waitFor();
    expect(problems).toEqual([]);
    await close();
  }, 120_000);
});
