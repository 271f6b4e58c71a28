// Every page of the back office, each with what shows it is ready: what the quality suite walks (axe, 390 px) and
// the screenshots are taken of. A page added to the console is added here.
import type { Page } from 'playwright-core';
import { AddPayoutBatchItemsDocument, CreatePayoutBatchDocument, StartPayoutBatchDocument } from '../../client/generated/graphql.js';
import { fr } from '../../console/src/locales/fr.js';
import type { ConsoleStack } from './stack.js';

export interface ConsolePage {
  name: string;
  path: string;
  ready(page: Page): Promise<void>;
}

const heading = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { level: 1, name }).waitFor();

/** A small batch awaiting approval (it asks for a second person), for the batch's page. */
async function batchAwaitingApproval(stack: ConsoleStack): Promise<string> {
  const key = `pages-${Date.now()}`;
  const created = await stack.graphql(CreatePayoutBatchDocument, {
    create: { idempotencyKey: key, label: 'Paie de test', requireApproval: true },
  });
  const batch = created.data!.createPayoutBatch;
  if (batch.__typename !== 'CreatePayoutBatchPayload') throw new Error(`createPayoutBatch: ${batch.__typename}`);
  const items = [
    { amount: 1500, recipientPhone: '70000000' },
    { amount: 2500, recipientPhone: '76000000' },
  ];
  await stack.graphql(AddPayoutBatchItemsDocument, { add: { batchId: batch.batch.batchId, page: 1, items } });
  await stack.graphql(StartPayoutBatchDocument, { start: { batchId: batch.batch.batchId } });
  return batch.batch.batchId;
}

export async function consolePages(stack: ConsoleStack, chargeReference: string): Promise<ConsolePage[]> {
  const batchId = await batchAwaitingApproval(stack);
  return [
    {
      name: 'payments',
      path: '/payments',
      ready: async (page) => void (await page.getByRole('link', { name: chargeReference }).waitFor()),
    },
    {
      name: 'payment',
      path: `/payments/charges/${chargeReference}`,
      ready: async (page) => {
        await heading(new RegExp(fr.detail.chargeTitle))(page);
        await page.getByRole('heading', { name: fr.detail.timeline }).waitFor();
      },
    },
    { name: 'payouts', path: '/payouts', ready: async (page) => void (await page.getByRole('link', { name: 'Paie de test' }).waitFor()) },
    { name: 'payroll', path: '/payouts/payroll', ready: heading(fr.payroll.title) },
    {
      name: 'approvals',
      path: '/payouts/approvals',
      ready: async (page) => void (await page.getByRole('link', { name: 'Paie de test' }).waitFor()),
    },
    {
      name: 'batch',
      path: `/payouts/batches/${batchId}`,
      ready: async (page) => void (await page.getByText(fr.batch.awaiting).waitFor()),
    },
    { name: 'developers', path: '/developers', ready: heading(fr.developers.title) },
    {
      name: 'balances',
      path: '/balances',
      ready: async (page) => {
        await heading(fr.balances.title)(page);
        await page.locator('.uplot').waitFor();
      },
    },
    { name: 'settlements', path: '/settlements', ready: heading(fr.settlements.title) },
  ];
}
