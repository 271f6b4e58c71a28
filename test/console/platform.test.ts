// The back office in platform mode (MERCHANT_MODE=platform), in Chromium against a gateway in sandbox mode on the
// shared Redis (a namespace of its own), in French and in English. Two merchants, each an account of the sandbox,
// each with a charge of its own:
// - the platform operator (the sandbox's first persona, a token without a merchant) is asked to choose a merchant,
//   sees only that merchant's payments and which merchant it works on, switches to the other and sees only its
//   own, and opens a merchant by its id (a malformed id is refused in the page's language);
// - a merchant's own staff token is told its merchant and offered no switch, and sees its own payments only;
// - the sandbox's staff personas (Awa, Moussa, Fatou) work for the first demo merchant, made before they are minted;
// - the choice page passes axe-core (0 serious, 0 critical).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintStaffToken } from '../../src/auth/index.js';
import { connectRedis } from '../../src/redis/index.js';
import { CreateChargeDocument, CreateMerchantDocument } from '../../client/generated/graphql.js';
import { deleteByPrefix, uniqueNamespace } from '../events/redis-helpers.js';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { REDIS_URL } from '../helpers/platform.js';
import { newKey } from '../helpers/sandbox-api.js';
import { openAs, type Language } from './journey.js';
import { startConsoleStack, type ConsoleStack } from './stack.js';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const namespace = uniqueNamespace('console-platform');
const JWT_SECRET = randomBytes(32).toString('hex');

interface Merchant {
  name: string;
  merchantId: string;
  reference: string;
}

let stack: ConsoleStack;
let browser: Browser;
let a: Merchant;
let b: Merchant;

/** A merchant made by the operator through GraphQL. */
async function createdMerchant(name: string): Promise<string> {
  const created = await stack.graphql(CreateMerchantDocument, {
    create: { name, apiKey: newKey('platform'), webhookSecret: randomBytes(16).toString('hex'), idempotencyKey: `${name}-${Date.now()}` },
  });
  const payload = created.data?.createMerchant;
  if (payload?.__typename !== 'CreateMerchantPayload') throw new Error(`createMerchant: ${JSON.stringify(created)}`);
  return payload.merchant.merchantId;
}

async function withCharge(name: string, merchantId: string, amount: number): Promise<Merchant> {
  const charge = await stack.graphql(
    CreateChargeDocument,
    { input: { amount, phone: '70111111', provider: 'OPC_BF', idempotencyKey: `charge-${merchantId}` } },
    undefined,
    { 'x-merchant-id': merchantId },
  );
  const result = charge.data?.createCharge;
  if (result?.__typename !== 'CreateChargePayload') throw new Error(`createCharge: ${JSON.stringify(charge)}`);
  return { name, merchantId, reference: result.reference };
}

beforeAll(async () => {
  [stack, browser] = await Promise.all([
    startConsoleStack(
      { MERCHANT_MODE: 'platform', MERCHANT_KEYS_KEK: randomBytes(32).toString('base64'), REDIS_URL, AUTH_JWT_SECRET: JWT_SECRET },
      {
        redisNamespace: namespace,
        // As `npm start` makes its demo merchants: before the personas are minted, so that they work for the first.
        demoMerchants: async (registry) => [
          await registry.create({ name: 'École Wend-Kuuni', apiKey: newKey('platform'), webhookSecret: randomBytes(16).toString('hex') }),
        ],
      },
    ),
    hasChromium ? launchChromium() : Promise.resolve(null as never),
  ]);
  // The same phone, amount apart: only the reference tells the two merchants' charges apart.
  a = await withCharge('École Wend-Kuuni', stack.gateway.demoMerchants[0]!.id, 2500);
  b = await withCharge('Boutique Yennenga', await createdMerchant('Boutique Yennenga'), 3700);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  const redis = await connectRedis({ url: REDIS_URL, namespace });
  await deleteByPrefix(redis.commands, namespace);
  await redis.close();
});

/** What the header says of the merchant, on one line. */
const badgeText = async (page: Page) => ((await page.locator('.merchant').textContent()) ?? '').replace(/\s+/g, ' ').trim();

/** The charges list shows this merchant's charge, and not the other's. */
async function showsOnly(page: Page, own: Merchant, other: Merchant) {
  await page.getByRole('link', { name: own.reference }).waitFor();
  expect(await page.getByRole('link', { name: other.reference }).count()).toBe(0);
}

// As long as the other console suites give theirs: the pages share two cores with every other file.
describe.skipIf(!hasChromium)('the back office in platform mode', { timeout: 90_000 }, () => {
  describe.concurrent.each(['fr', 'en'] as Language[])('%s', (language) => {
    it('asks the operator for a merchant, shows that merchant’s payments only, and switches to another', async () => {
      const { page, texts, problems, close } = await openAs(browser, stack, { language, path: '/payments' });
      try {
        await page.getByRole('heading', { level: 1, name: texts.merchant.title }).waitFor();
        await page.getByRole('button', { name: a.name }).click();
        await showsOnly(page, a, b);
        expect(await badgeText(page)).toContain(`${texts.merchant.label} ${a.name}`);

        await page.getByRole('button', { name: texts.merchant.change }).click();
        await page.getByRole('button', { name: b.name }).click();
        await showsOnly(page, b, a);
        expect(await badgeText(page)).toContain(`${texts.merchant.label} ${b.name}`);

        // By its id: a malformed one is refused in the page's language, a good one opens that merchant.
        await page.getByRole('button', { name: texts.merchant.change }).click();
        await page.getByLabel(texts.merchant.byId).fill('ecole');
        await page.getByRole('button', { name: texts.merchant.open, exact: true }).click();
        expect(await page.getByRole('alert').innerText()).toBe(texts.merchant.badId);
        await page.getByLabel(texts.merchant.byId).fill(a.merchantId);
        await page.getByRole('button', { name: texts.merchant.open, exact: true }).click();
        await showsOnly(page, a, b);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });

    it('tells a merchant’s own staff its merchant, offers no switch, and shows its payments only', async () => {
      const { page, texts, problems, close } = await openAs(browser, stack, { language, path: '/payments' });
      try {
        const staff = await mintStaffToken({
          secret: JWT_SECRET,
          scopes: ['payments:read', 'events:read'],
          subject: `staff-${language}`,
          ttlSeconds: 600,
          merchantId: b.merchantId,
        });
        await page.getByRole('button', { name: texts.session.signOut }).click();
        await page.getByLabel(texts.signIn.tokenLabel).fill(staff.token);
        await page.getByRole('button', { name: texts.signIn.withToken }).click();
        await showsOnly(page, b, a);
        expect(await badgeText(page)).toContain(`${texts.merchant.label} ${b.merchantId}`);
        expect(await page.getByRole('button', { name: texts.merchant.change }).count()).toBe(0);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  });

  it('lets the sandbox’s staff personas work for the first demo merchant: Awa is told it, offered no switch, and sees its payments only', async () => {
    const { page, texts, problems, close } = await openAs(browser, stack, { language: 'fr', path: '/payments', persona: 'preparer' });
    try {
      await showsOnly(page, a, b);
      expect(await badgeText(page)).toContain(`${texts.merchant.label} ${a.merchantId}`);
      expect(await page.getByRole('button', { name: texts.merchant.change }).count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('passes axe-core on the choice of a merchant and on a merchant’s page (0 serious, 0 critical), with no horizontal scroll at 390 px', async () => {
    const { page, texts, close } = await openAs(browser, stack, { language: 'fr', path: '/payments' });
    await page.evaluate(AXE);
    const serious = () =>
      page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string }[] }> } }).axe;
        return (await axe.run()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
      });
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    try {
      await page.getByRole('button', { name: a.name }).waitFor();
      expect(await page.getByRole('heading', { level: 1, name: texts.merchant.title }).count()).toBe(1);
      expect(await serious()).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await overflow()).toBe(0);
      // A merchant chosen: the header names it, still within a phone's width.
      await page.getByRole('button', { name: a.name }).click();
      await showsOnly(page, a, b);
      expect(await overflow()).toBe(0);
      await page.setViewportSize({ width: 1280, height: 900 });
      expect(await serious()).toEqual([]);
    } finally {
      await close();
    }
  });
});
