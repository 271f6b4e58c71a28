// The back office's speed bar (issue 35): time from the first request to a usable first page (Payments, with its
// list of charges shown and the search box taking input), in a cold browser context each time (no cache), against a
// gateway in sandbox mode on this machine. Prints each load, the median and the best beside the bar (1.5 s) and the
// machine's load; asserts nothing (test/console/quality.test.ts checks it generously inside the suite).
//
//   npx tsx bench/console.ts            BENCH_CONSOLE_LOADS=10 npx tsx bench/console.ts
import { loadavg } from 'node:os';
import { CreateChargeDocument } from '../client/generated/graphql.js';
import { buildConsole } from '../scripts/build-console.mjs';
import { launchChromium } from '../test/helpers/browser.js';
import { startConsoleStack } from '../test/console/stack.js';

const LOADS = Number(process.env.BENCH_CONSOLE_LOADS ?? 7);

await buildConsole();
const stack = await startConsoleStack();
const browser = await launchChromium();
try {
  for (let i = 0; i < 20; i++) {
    await stack.graphql(CreateChargeDocument, {
      input: { amount: 1000 + i, phone: '58000000', provider: 'OPC_BF', idempotencyKey: `bench-${i}` },
    });
  }
  const times: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const started = performance.now();
    await page.goto(`${stack.consoleUrl}/payments`);
    await page.getByRole('link', { name: /^ch_/ }).first().waitFor();
    await page.getByRole('searchbox', { name: 'Recherche' }).fill('58');
    times.push(Math.round(performance.now() - started));
    await context.close();
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`first usable page (ms): ${times.join(', ')}`);
  console.log(
    `median ${sorted[Math.floor(sorted.length / 2)]} ms, best ${sorted[0]} ms (bar: 1500 ms); load average ${loadavg()[0]!.toFixed(1)}`,
  );
} finally {
  await browser.close();
  await stack.close();
}
