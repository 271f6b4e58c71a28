// The back office's operator journeys, each in French and in English, in one Chromium against one gateway in sandbox
// mode (TRUSTED_DOCUMENTS=enforce): what journeys.test.ts does not walk. Each language run has its own state: its own
// wallet, phone numbers, endpoint and receiver path, so the two runs never race on a balance or a delivery list.
// - Batches: one awaiting approval is cancelled from its page; one the API paused for want of funds (its wallet
//   drained while its chunk was at the service) is resumed from its page once topped up, and completes.
// - Endpoints: kinds edited, disabled and enabled, the secret rotated (shown once), events replayed since a time (the
//   receiver gets them again), and a payment's page lists the webhook deliveries it caused.
// - A single transfer whose answer is lost on the way back (a network failure) and is sent again from the same form:
//   the same idempotency key, one transfer only.
// - Keyboard only (Tab, Enter, Space and typing): the language switch, the navigation and a transfer.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  AddPayoutBatchItemsDocument,
  ConsoleTransfersDocument,
  CreateChargeDocument,
  CreatePayoutBatchDocument,
  CreateTransferDocument,
  CreateWebhookEndpointDocument,
  StartPayoutBatchDocument,
  SubmitChargeOtpDocument,
} from '../../client/generated/graphql.js';
import type { Wallet } from '../../src/upstream/types.js';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { openAs, TEXTS, type Language } from './journey.js';
import { startConsoleStack, watchPage, type ConsoleStack } from './stack.js';

let stack: ConsoleStack;
let browser: Browser;
let receiver: Server;
let receiverUrl = '';
/** Bodies the receiver got, per path (one path per language). */
const received = new Map<string, string[]>();

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.set(req.url ?? '', [...(received.get(req.url ?? '') ?? []), Buffer.concat(chunks).toString('utf8')]);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  [stack, browser] = await Promise.all([startConsoleStack(), hasChromium ? launchChromium() : Promise.resolve(null as never)]);
  // Every chunk of a batch waits 3 s at the service before it is carried out: time to drain its wallet after the
  // gateway's own check (how a batch gets paused for want of funds).
  stack.sandbox.faults.add({ method: 'POST', path: '/v1/payment/transfers/bulk', kind: 'delay', ms: 3_000, times: 'unlimited' });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** A value of a typed payload, or a failure naming what came instead. */
function payloadOf<T extends { __typename: string }, N extends T['__typename']>(
  value: T | undefined,
  name: N,
): Extract<T, { __typename: N }> {
  if (value?.__typename !== name) throw new Error(`expected ${name}, got ${JSON.stringify(value)}`);
  return value as Extract<T, { __typename: N }>;
}

/** The references of the transfers the API knows to `phone` (each journey pays numbers of its own). */
async function transfersTo(phone: string): Promise<string[]> {
  const transfers = await stack.graphql(ConsoleTransfersDocument, { filter: { phone: phone.replace(/\s/g, '') }, first: 10 });
  return transfers.data!.transfers.edges.map((e) => e.node.reference);
}

/** A batch of three payouts of 1 000 F CFA from `wallet` to Benin numbers, made as a merchant's program would. */
async function batchOf(language: Language, wallet: Wallet, label: string, requireApproval: boolean): Promise<string> {
  const create = { idempotencyKey: `${label}-${Date.now()}`, label, requireApproval };
  const created = payloadOf(
    (await stack.graphql(CreatePayoutBatchDocument, { create })).data?.createPayoutBatch,
    'CreatePayoutBatchPayload',
  );
  const prefix = wallet === 'ope_bj' ? '0196' : '0195';
  const items = [1, 2, 3].map((n) => ({ amount: 1000, recipientPhone: `${prefix}${language === 'fr' ? 1 : 2}0000${n}` }));
  const added = await stack.graphql(AddPayoutBatchItemsDocument, { add: { batchId: created.batch.batchId, page: 1, items } });
  payloadOf(added.data?.addPayoutBatchItems, 'AddPayoutBatchItemsPayload');
  return created.batch.batchId;
}

describe.skipIf(!hasChromium).concurrent.each([
  ['fr', 'ope_bj'],
  ['en', 'opf_bj'],
] as const)('Batches (%s)', (language, wallet) => {
  it('cancels a batch awaiting approval, and resumes one the API paused for want of funds once its wallet is topped up', async ({
    expect,
  }) => {
    const L = TEXTS[language];
    // Cancel: a batch awaiting its second person, cancelled from its page.
    const waiting = await batchOf(language, wallet, `${language}-annuler`, true);
    payloadOf(
      (await stack.graphql(StartPayoutBatchDocument, { start: { batchId: waiting } })).data?.startPayoutBatch,
      'StartPayoutBatchPayload',
    );
    const visit = await openAs(browser, stack, { language, path: `/payouts/batches/${encodeURIComponent(waiting)}` });
    const { page } = visit;
    await page.getByText(L.batch.awaiting).waitFor();
    await page.getByRole('button', { name: L.batch.cancel }).click();
    await page.getByText(L.status.CANCELLED, { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: L.batch.cancel }).count()).toBe(0);

    // Paused: the wallet covers the batch when it starts, and is drained while its chunk waits at the service.
    stack.sandbox.topUp(stack.apiKey, wallet, 10_000);
    const short = await batchOf(language, wallet, `${language}-pause`, false);
    payloadOf(
      (await stack.graphql(StartPayoutBatchDocument, { start: { batchId: short } })).data?.startPayoutBatch,
      'StartPayoutBatchPayload',
    );
    stack.sandbox.setBalance(stack.apiKey, { wallets: { [wallet]: { available: 0 } } });
    await page.goto(`${stack.consoleUrl}/payouts/batches/${encodeURIComponent(short)}`);
    await page.getByText(L.batch.paused).waitFor();
    await page.getByText(L.status.PAUSED, { exact: true }).waitFor();

    stack.sandbox.topUp(stack.apiKey, wallet, 10_000);
    await page.getByRole('button', { name: L.batch.resume }).click();
    await page.getByText(L.status.COMPLETED, { exact: true }).waitFor();
    expect(await page.getByTestId('count-succeeded').innerText()).toBe('3');
    expect(visit.problems).toEqual([]);
    await visit.close();
  }, 120_000);
});

describe.skipIf(!hasChromium).concurrent.each([
  ['fr', '01 61 00 00 11', 'OPE_BJ'],
  ['en', '01 63 00 00 11', 'OPF_BJ'],
] as const)('Endpoints (%s)', (language, phone, provider) => {
  it('edits an endpoint’s events, disables and enables it, rotates its secret, replays since a time; a payment lists its deliveries', async ({
    expect,
  }) => {
    const L = TEXTS[language];
    const path = `/endpoint-${language}`;
    const url = `${receiverUrl}${path}`;
    const create = { url, kinds: ['webhook.test'], idempotencyKey: `endpoint-${language}-${Date.now()}` };
    const created = payloadOf(
      (await stack.graphql(CreateWebhookEndpointDocument, { create })).data?.createWebhookEndpoint,
      'CreateWebhookEndpointPayload',
    );
    const visit = await openAs(browser, stack, { language, path: `/developers?endpoint=${encodeURIComponent(created.endpoint.id)}` });
    const { page } = visit;
    const manage = page.getByRole('region', { name: new RegExp(url.replace(/[.]/g, '\\.')) });
    await manage.waitFor();

    // Its events: charge.success too, saved; the list of endpoints says so.
    await manage.getByRole('checkbox', { name: 'charge.success' }).check();
    await manage.getByRole('button', { name: L.developers.saveKinds }).click();
    const row = page.getByRole('row').filter({ hasText: url });
    await row.getByText(/charge\.success/).waitFor();

    // Disabled, then enabled again.
    await manage.getByRole('button', { name: L.developers.disable }).click();
    await row.getByText(L.developers.disabled, { exact: true }).waitFor();
    await manage.getByRole('button', { name: L.developers.enable }).click();
    await manage.getByRole('button', { name: L.developers.disable }).waitFor();
    expect(await row.getByText(L.developers.disabled, { exact: true }).count()).toBe(0);

    // A new secret, shown once.
    await manage.getByRole('button', { name: L.developers.rotate }).click();
    const secret = page.getByLabel(L.developers.secretLabel);
    await expect.poll(() => secret.innerText()).toMatch(/^whsec_\S+$/);
    expect(await secret.innerText()).not.toBe(created.secret);

    // A payment of this language's customer, confirmed: the receiver gets its charge.success once.
    const charge = payloadOf(
      (await stack.graphql(CreateChargeDocument, { input: { amount: 3000, phone, provider, idempotencyKey: `endpoint-${language}` } })).data
        ?.createCharge,
      'CreateChargePayload',
    );
    await stack.graphql(SubmitChargeOtpDocument, { reference: charge.reference, otp: '123456' });
    const ours = () => (received.get(path) ?? []).filter((body) => body.includes(charge.reference));
    await expect.poll(ours, { timeout: 30_000 }).toHaveLength(1);

    // Replayed since the start of the day: the receiver gets it again, the page says how many were queued.
    await manage.getByRole('button', { name: L.developers.replay }).click();
    const queued = [L.developers.replayed_one, L.developers.replayed_other].map((form) => form.replace('{{count}}', '\\d+'));
    await manage
      .getByRole('status')
      .filter({ hasText: new RegExp(queued.join('|')) })
      .waitFor();
    await expect.poll(ours, { timeout: 30_000 }).toHaveLength(2);

    // The payment's page lists the deliveries it caused: this endpoint, charge.success, delivered.
    await page.goto(`${stack.consoleUrl}/payments/charges/${charge.reference}`);
    const deliveries = page.getByRole('region', { name: L.detail.deliveries });
    const ofEndpoint = deliveries.getByRole('listitem').filter({ hasText: url });
    await ofEndpoint.getByText(L.event['charge.success']).waitFor();
    await ofEndpoint.getByText(L.status.SUCCEEDED, { exact: true }).first().waitFor();
    expect(visit.problems).toEqual([]);
    await visit.close();
  }, 120_000);
});

describe.skipIf(!hasChromium).concurrent.each([
  ['fr', '76 12 34 01'],
  ['en', '70 12 34 02'],
] as const)('Transfer after a lost answer (%s)', (language, phone) => {
  it('sends the same form again with the same idempotency key: one transfer only', async ({ expect }) => {
    const L = TEXTS[language];
    const visit = await openAs(browser, stack, { language, path: '/payouts' });
    const { page } = visit;
    // The first createTransfer reaches the gateway (the transfer is made), and its answer is lost on the way back.
    const hash = (CreateTransferDocument as { __meta__?: { hash: string } }).__meta__!.hash;
    let lost: string | null = null;
    await page.route('**/graphql', async (route) => {
      if (lost !== null || !(route.request().postData() ?? '').includes(hash)) return route.fallback();
      lost = await (await route.fetch()).text();
      await route.abort('failed');
    });
    await page.getByLabel(L.payouts.recipient).fill(phone);
    await page.getByLabel(L.payments.amount, { exact: true }).fill('1500');
    await page.getByRole('button', { name: L.payouts.send }).click();
    await page.getByRole('alert').first().waitFor();
    expect(lost).toContain('CreateTransferPayload');
    const first = /"reference":"([^"]+)"/.exec(lost!)![1]!;

    // Sent again from the very same form: the gateway answers with the same transfer.
    await page.getByRole('button', { name: L.payouts.send }).click();
    const notice = page.getByRole('status').filter({ hasText: first });
    await notice.waitFor();
    expect(await transfersTo(phone)).toEqual([first]);
    expect(visit.problems).toEqual([]);
    await visit.close();
  }, 90_000);
});

/** Presses Tab until `target` has the focus (a keyboard user's way to a control); fails after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let presses = 0; presses <= max; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${String(target)}`);
}

describe.skipIf(!hasChromium).concurrent.each([
  ['fr', '58 12 34 03'],
  ['en', '76 12 34 04'],
] as const)('Keyboard only (%s)', (language, phone) => {
  it('switches the language, moves between pages and sends a transfer with Tab, Enter, Space and typing alone', async ({ expect }) => {
    const L = TEXTS[language];
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'Africa/Porto-Novo' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    const { problems } = watchPage(page, stack.gateway.url);
    await page.goto(`${stack.consoleUrl}/payments`);
    await page.getByRole('navigation', { name: TEXTS.fr.nav.label }).waitFor();
    if (language === 'en') {
      await tabTo(page, page.getByRole('button', { name: TEXTS.fr.language.switchTo }));
      await page.keyboard.press('Enter');
      await page.getByRole('navigation', { name: L.nav.label }).waitFor();
    }
    await tabTo(page, page.getByRole('navigation', { name: L.nav.label }).getByRole('link', { name: L.nav.payouts, exact: true }));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: L.nav.payouts }).waitFor();

    await tabTo(page, page.getByLabel(L.payouts.recipient));
    await page.keyboard.type(phone);
    await tabTo(page, page.getByLabel(L.payments.amount, { exact: true }));
    await page.keyboard.type('1200');
    await tabTo(page, page.getByRole('button', { name: L.payouts.send }));
    await page.keyboard.press('Space');
    const notice = page.getByRole('status').filter({ hasText: L.payouts.sent.split('{{reference}}')[0]!.trim() });
    await notice.waitFor();
    // One transfer to this number, the one the page names.
    const references = await transfersTo(phone);
    expect(references).toHaveLength(1);
    expect(await notice.innerText()).toContain(references[0]);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});
