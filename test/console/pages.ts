// Every page of the back office, each with what shows it is ready: what the quality suite walks (axe, 390 px) and
// the screenshots are taken of. A page added to the console is added here.
import type { Page } from 'playwright-core';
import type { ConsoleStack } from './stack.js';

export interface ConsolePage {
  name: string;
  path: string;
  ready(page: Page): Promise<void>;
}

const heading = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { level: 1, name }).waitFor();

export async function consolePages(_stack: ConsoleStack, chargeReference: string): Promise<ConsolePage[]> {
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
        await heading(/Encaissement/)(page);
        await page.getByRole('heading', { name: 'Chronologie' }).waitFor();
      },
    },
  ];
}
