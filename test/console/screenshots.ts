// Screenshots of the back office for docs/back-office.md, taken by the tests' own Chromium (Debian's, driven by
// playwright-core) against a gateway in sandbox mode with a little data: `npm run console:screenshots` rewrites
// docs/images/console-*.png. Run it after a visible change to the console, and commit the PNGs. A program, not a test
// file (npm test would rewrite committed images on every run); it lives beside the console's suites it borrows from.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AddPayoutBatchItemsDocument,
  CreateChargeDocument,
  CreatePayoutBatchDocument,
  CreateWebhookEndpointDocument,
  StartPayoutBatchDocument,
  SubmitChargeOtpDocument,
} from '../../client/generated/graphql.js';
import { fr } from '../../console/src/locales/fr.js';
import { launchChromium } from '../helpers/browser.js';
import { startConsoleStack } from './stack.js';
import { buildConsole } from '../../scripts/build-console.mjs';

const images = fileURLToPath(new URL('../../docs/images/', import.meta.url));

await buildConsole();
const stack = await startConsoleStack();
const browser = await launchChromium();
try {
  // A few payments: confirmed, failed, waiting.
  const charges: string[] = [];
  for (const [i, phone, provider] of [
    [1, '58000000', 'OPC_BF'],
    [2, '70000000', 'OPB_BF'],
    [3, '58000002', 'OPC_BF'],
    [4, '0195000000', 'OPF_BJ'],
    [5, '68000000', 'OPD_BF'],
  ] as const) {
    const created = await stack.graphql(CreateChargeDocument, {
      input: { amount: 2500 * i, phone, provider, idempotencyKey: `shot-${i}` },
    });
    const payload = created.data!.createCharge;
    if (payload.__typename !== 'CreateChargePayload') throw new Error(payload.__typename);
    charges.push(payload.reference);
    if (i !== 4) await stack.graphql(SubmitChargeOtpDocument, { reference: payload.reference, otp: '123456' });
  }
  const batch = await stack.graphql(
    CreatePayoutBatchDocument,
    { create: { idempotencyKey: 'shot-batch', label: 'Salaires novembre', requireApproval: true } },
    stack.personas[1]!.token,
  );
  const batchPayload = batch.data!.createPayoutBatch;
  if (batchPayload.__typename !== 'CreatePayoutBatchPayload') throw new Error(batchPayload.__typename);
  const batchId = batchPayload.batch.batchId;
  const items = Array.from({ length: 12 }, (_, i) => ({
    amount: 7_500 + 500 * i,
    recipientPhone: ['70', '76', '68'][i % 3]! + `00${String(i).padStart(2, '0')}01`,
  }));
  await stack.graphql(AddPayoutBatchItemsDocument, { add: { batchId, page: 1, items } }, stack.personas[1]!.token);
  await stack.graphql(StartPayoutBatchDocument, { start: { batchId } }, stack.personas[1]!.token);
  await stack.graphql(CreateWebhookEndpointDocument, {
    create: { url: 'http://127.0.0.1:9/hooks', kinds: ['charge.success', 'charge.failed'], idempotencyKey: 'shot-hook' },
  });
  await new Promise((resolve) => setTimeout(resolve, 1_500)); // the charges' events

  const shoot = async (name: string, route: string, ready: (page: import('playwright-core').Page) => Promise<unknown>, width = 1280) => {
    const context = await browser.newContext({ viewport: { width, height: 820 }, timezoneId: 'Africa/Ouagadougou', deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(`${stack.consoleUrl}${route}`);
    await ready(page);
    await page.waitForTimeout(300);
    writeFileSync(path.join(images, `console-${name}.png`), await page.screenshot({ fullPage: true }));
    await context.close();
    process.stdout.write(`docs/images/console-${name}.png\n`);
  };
  await shoot('payments', '/payments', (p) => p.getByRole('link', { name: charges[0] }).waitFor());
  await shoot('payment', `/payments/charges/${charges[0]}`, (p) => p.getByText(fr.event['charge.success']).first().waitFor());
  await shoot('payroll', '/payouts/payroll', async (p) => {
    const csv = [
      'ext_id,telephone,montant,portefeuille,nom',
      'nov-001,70 12 34 56,75000,,Awa',
      'nov-002,70 00 01 01,62500,OPA_BF,Moussa',
      'nov-003,76 00 00 00,50,,Fatou',
      'nov-001,68 00 00 00,80000,,Ali',
    ].join('\n');
    await p.getByLabel(fr.payroll.file).setInputFiles({ name: 'paie-novembre.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await p.getByRole('heading', { name: fr.payroll.totals }).waitFor();
  });
  await shoot('batch', `/payouts/batches/${batchId}`, (p) => p.getByText(fr.batch.awaiting).waitFor());
  await shoot('balances', '/balances', (p) => p.locator('.uplot').waitFor());
  await shoot('developers', '/developers', (p) => p.getByRole('heading', { level: 1, name: fr.developers.title }).waitFor());
  await shoot('phone', '/payments', (p) => p.getByRole('link', { name: charges[0] }).waitFor(), 390);
} finally {
  await browser.close();
  await stack.close();
}
