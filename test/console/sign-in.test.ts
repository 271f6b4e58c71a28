// The Sign-in journey (issue 35) against a live-mode gateway (CONSOLE=true, AUTH_JWKS_URL) and a real OpenID provider
// this test starts (oidc-provider): OpenID Connect sign-in (authorization code with PKCE, in a popup) gives the page a
// JWT access token the gateway verifies through the provider's keys, with the scopes in the claim it reads; a token
// without payouts:approve is offered no approvals page; when the token expires the page asks to sign in again and the
// half-filled form is still there afterwards; "sign in with a token" works for any staff token; sign-out.
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startGateway, type RunningGateway } from '../../src/gateway.js';
import { silentLogger } from '../../src/logger.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { newKey } from '../helpers/sandbox-api.js';
import { AUDIENCE, startIdentityProvider, type IdentityProvider } from './identity-provider.js';
import { TEXTS, type Texts } from './journey.js';
import { watchPage } from './stack.js';

/** Awa prepares payouts; her access tokens live 2 minutes, which the page's clock is moved past to see one expire. */
const ACCOUNTS = {
  awa: { scopes: ['payments:read', 'payouts:write', 'events:read'], ttl: 120 },
  moussa: { scopes: ['payments:read', 'payouts:approve', 'events:read'], ttl: 600 },
};

let idp: IdentityProvider;
let sandbox: Sandbox;
let gateway: RunningGateway;
let browser: Browser;

beforeAll(async () => {
  [idp, sandbox] = await Promise.all([startIdentityProvider(ACCOUNTS), startTestSandbox()]);
  gateway = await startGateway(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      PAYMENT_BASE_URL: sandbox.url,
      PAYMENT_API_KEY: newKey('console-live'),
      AUTH_JWKS_URL: idp.jwksUrl,
      AUTH_ISSUER: idp.issuer,
      AUTH_AUDIENCE: AUDIENCE,
      CLIENT_TOKEN_SECRET: randomBytes(32).toString('hex'),
      CONSOLE: 'true',
      CONSOLE_OIDC_ISSUER: idp.issuer,
      CONSOLE_OIDC_CLIENT_ID: 'back-office',
      TRUSTED_DOCUMENTS: 'enforce',
      LOG_LEVEL: 'silent',
    }),
    silentLogger,
  );
  idp.register(`${gateway.url}/console/callback`);
  browser = hasChromium ? await launchChromium() : (null as never);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  await sandbox?.close();
  await idp?.close();
});

/** Signs in through the provider's popup: its login form when it has no session yet, its consent, then back to the console. */
async function signInWithProvider(page: Page, L: Texts, login: string): Promise<void> {
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: L.signIn.oidc }).click()]);
  const form = popup.getByPlaceholder('Enter any login');
  const closed = popup.waitForEvent('close');
  // The provider asks for a login unless it already has a session (then the popup comes back at once).
  const asked = await Promise.race([form.waitFor({ timeout: 10_000 }).then(() => true), closed.then(() => false)]).catch(() => false);
  if (asked) {
    await form.fill(login);
    await popup.getByPlaceholder('and password').fill('any');
    await popup.getByRole('button', { name: 'Sign-in' }).click();
  }
  // Its consent screen, the first time this person signs in to the console.
  const consent = popup.getByRole('button', { name: 'Continue' });
  if (await Promise.race([consent.waitFor({ timeout: 10_000 }).then(() => true), closed.then(() => false)]).catch(() => false))
    await consent.click();
  await closed;
}

/** In-page navigation (a reload would forget the token: it lives in memory only). */
const goTo = (page: Page, path: string) =>
  page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, `/console${path}`);

describe.skipIf(!hasChromium).concurrent.each(['fr', 'en'] as const)('Sign-in (live mode, OpenID Connect, %s)', (language) => {
  it('signs in with the provider, hides what the scopes do not allow, asks again at expiry and keeps the form', async ({ expect }) => {
    const L = TEXTS[language];
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    // The page's own clock, so that the token's expiry comes when the test says, whatever the machine's load.
    await page.clock.install();
    // The page reaches the gateway and the configured issuer (discovery, token endpoint), nothing else.
    const { problems } = watchPage(page, gateway.url, [`${idp.issuer}/`]);
    await page.goto(`${gateway.url}/console/payouts`);
    if (language === 'en') await page.getByRole('button', { name: TEXTS.fr.language.switchTo }).click();
    await page.getByRole('heading', { level: 1, name: L.signIn.title }).waitFor();
    // Live mode: no sandbox persona, no token in the page.
    expect(await page.getByText(L.signIn.personas).count()).toBe(0);
    expect(await page.content()).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);

    await signInWithProvider(page, L, 'awa');
    const nav = page.getByRole('navigation', { name: L.nav.label });
    await nav.getByRole('link', { name: L.nav.payouts }).waitFor();
    expect(await page.getByTitle(L.session.subject).innerText()).toBe('awa');
    // The gateway accepted the provider's JWT with its scopes: the transfers list loads (payments:read).
    // (The list itself, or its empty sentence: the other language's run may have sent its transfer already.)
    await page.getByRole('heading', { name: L.payouts.transfers }).waitFor();
    await page.getByRole('table', { name: L.payouts.transfers }).or(page.getByText(L.payouts.noTransfers)).waitFor();
    // Without payouts:approve: no approvals page in the navigation, and its URL says it is not allowed.
    expect(await nav.getByRole('link').allInnerTexts()).not.toContain(L.nav.approvals);
    await goTo(page, '/payouts/approvals');
    await page.getByRole('alert').filter({ hasText: L.session.notAllowed }).waitFor();

    // A form half filled when the token expires.
    await goTo(page, '/payouts');
    await page.getByLabel(L.payouts.recipient).fill('70 00 00 00');
    await page.getByLabel(L.payments.amount).fill('1500');
    const dialog = page.getByRole('dialog', { name: L.signIn.expiredTitle });
    expect(await dialog.count()).toBe(0);
    await page.clock.fastForward('02:05');
    await dialog.waitFor();
    // Sign in again, here with a token (always offered: break-glass access) of the same person.
    await dialog.getByLabel(L.signIn.tokenLabel).fill(await idp.mint('awa', ACCOUNTS.awa.scopes, 600));
    await dialog.getByRole('button', { name: L.signIn.withToken }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByLabel(L.payouts.recipient).inputValue()).toBe('70 00 00 00');
    expect(await page.getByLabel(L.payments.amount).inputValue()).toBe('1500');
    await page.getByRole('button', { name: L.payouts.send }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /tr_|\w+/ })
      .first()
      .waitFor();

    // Sign-out, then the approver through the provider: the approvals page is offered.
    await page.getByRole('button', { name: L.session.signOut }).click();
    await page.getByRole('heading', { level: 1, name: L.signIn.title }).waitFor();
    await signInWithProvider(page, L, 'moussa');
    await nav.getByRole('link', { name: L.nav.approvals }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});
