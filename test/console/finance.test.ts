// The Finance journey (issue 35), in French and in English side by side, in one Chromium against a gateway in sandbox
// mode with PAYOUT_BATCH_APPROVAL=required: a 250-row payroll with 3 bad rows is refused row by row with reasons and
// nothing is sent; fixed, it is submitted by the preparer, who is offered no approve button; the approver persona
// approves it; progress reaches COMPLETED live; the results CSV downloaded matches what the API says of each item.
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConsolePayoutBatchesDocument,
  ConsolePayoutBatchItemsDocument,
  type ConsolePayoutBatchItemsQuery,
} from '../../client/generated/graphql.js';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { openAs, plural, type Language } from './journey.js';
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
  it('refuses 3 bad rows with reasons, then a second person approves, progress completes live, and the results match the API', async () => {
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
    await page.getByRole('heading', { level: 1, name: new RegExp(L.batch.title) }).waitFor({ timeout: 20_000 });
    await page.getByText(L.batch.awaiting).waitFor();
    const batchPath = new URL(page.url()).pathname.replace(/^\/console/, '');
    const batchId = decodeURIComponent(batchPath.split('/').at(-1)!);
    // The preparer is offered no approve button (the API would refuse: SelfApprovalError).
    expect(await page.getByRole('button', { name: L.batch.approve }).count()).toBe(0);

    const approver = await openAs(browser, stack, { language, persona: 'approver', path: '/payouts/approvals' });
    await approver.page.getByRole('link', { name: `${language}-salaires` }).click();
    await approver.page.getByRole('button', { name: L.batch.approve }).click();

    // The preparer's page, untouched since, follows the batch live to its end.
    await page.getByText(L.status.COMPLETED, { exact: true }).waitFor({ timeout: 45_000 });
    await expect.poll(() => page.getByTestId('count-succeeded').innerText(), { timeout: 10_000 }).toBe('250');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: L.batch.results }).click()]);
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
  }, 120_000);
});
