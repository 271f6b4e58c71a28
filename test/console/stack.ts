// The back office's browser suites start what `npm start` starts: a gateway in sandbox mode (in this process, on a
// real port, since the browser needs one) in front of a sandbox over real HTTP, with the sandbox's webhooks
// delivered to it, serving the console built once per run (test/compile-once.ts). Trusted documents are enforced,
// so every operation the console sends must be in the manifest. PAYOUT_BATCH_APPROVAL is left at its default (none):
// a payroll submitted in the console awaits a second person because the console asks for one (requireApproval).
import { randomBytes } from 'node:crypto';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { loadConfig } from '../../src/config.js';
import type { ConsolePersona } from '../../src/console/serve.js';
import { startGateway, type RunningGateway, type StartGatewayOptions } from '../../src/gateway.js';
import { silentLogger } from '../../src/logger.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { newKey } from '../helpers/sandbox-api.js';

/** A typed document of the client kit, which carries its manifest hash. */
type Kit<T, V> = TypedDocumentNode<T, V> & { __meta__?: { hash: string } };

export interface ConsoleStack {
  sandbox: Sandbox;
  gateway: RunningGateway;
  apiKey: string;
  /** http://127.0.0.1:<port>/console */
  consoleUrl: string;
  personas: ConsolePersona[];
  /** A GraphQL call with a token (the development token by default), as a program would make it. */
  graphql<T, V>(
    document: Kit<T, V>,
    variables?: V,
    token?: string,
    headers?: Record<string, string>,
  ): Promise<{ data?: T; errors?: { message: string }[] }>;
  close(): Promise<void>;
}

export async function startConsoleStack(
  env: Record<string, string> = {},
  gatewayOptions: Pick<StartGatewayOptions, 'redisNamespace' | 'demoMerchants'> = {},
): Promise<ConsoleStack> {
  const sandbox = await startTestSandbox();
  const webhookSecret = randomBytes(24).toString('base64url');
  const apiKey = newKey('console');
  const gateway = await startGateway(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      TRUSTED_DOCUMENTS: 'enforce',
      LOG_LEVEL: 'silent',
      ...env,
    }),
    silentLogger,
    { upstream: { baseUrl: sandbox.url, apiKey }, webhookSecret, ...gatewayOptions },
  );
  sandbox.setWebhook({ url: gateway.webhookUrl!, secret: webhookSecret, scheme: 'hmac-sha256-hex' });
  const html = await (await fetch(`${gateway.url}/console/`)).text();
  const settings = JSON.parse(/<script type="application\/json" id="console-settings">(.*?)<\/script>/.exec(html)![1]!) as {
    personas: ConsolePersona[];
  };
  const devToken = gateway.developmentToken!.token;
  return {
    sandbox,
    gateway,
    apiKey,
    consoleUrl: `${gateway.url}/console`,
    personas: settings.personas,
    // Under TRUSTED_DOCUMENTS=enforce the gateway runs the manifest's documents only: the tests' own calls, as a
    // merchant's server would make them, send the client kit's typed documents by hash.
    async graphql(document, variables, token = devToken, headers = {}) {
      const res = await fetch(gateway.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
        body: JSON.stringify({
          variables: variables ?? {},
          extensions: { persistedQuery: { version: 1, sha256Hash: document.__meta__!.hash } },
        }),
      });
      return (await res.json()) as never;
    },
    async close() {
      await gateway.close();
      await sandbox.close();
    },
  };
}

/** Collects what must never happen on a console page: a CSP violation, a request to another origin, an uncaught error. */
export function watchPage(page: Page, origin: string, alsoAllowed: string[] = []): { problems: string[] } {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(`csp: ${m.text()}`);
  });
  page.on('request', (r) => {
    const url = r.url();
    const ours = [origin, `ws://${new URL(origin).host}`, ...alsoAllowed].some((allowed) => url.startsWith(allowed));
    if (!ours && !/^(data|blob):/.test(url)) problems.push(`foreign: ${url}`);
  });
  page.on('pageerror', (e) => problems.push(`error: ${e.message}`));
  return { problems };
}

/** A context of its own (no shared cache or storage), French unless told, in a laptop's or a phone's viewport. */
export function newContext(browser: Browser, options: { width?: number; language?: 'fr' | 'en' } = {}): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: options.width ?? 1280, height: 800 },
    locale: options.language === 'en' ? 'en-GB' : 'fr-FR',
    timezoneId: 'Africa/Porto-Novo',
    acceptDownloads: true,
  });
}

/** Switches the page to English through the console's own switch (remembered in localStorage). */
export async function useEnglish(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Switch to English' }).click();
  await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
}
