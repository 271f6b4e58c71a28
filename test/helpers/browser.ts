// Browser tests drive Debian's chromium through playwright-core, with the flags
// CI's machines need. Where chromium is not installed they are skipped, visibly.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { loadConfig } from '../../src/config.js';
import { startGateway, type RunningGateway } from '../../src/gateway.js';
import { silentLogger } from '../../src/logger.js';
import { startTestSandbox } from './sandbox.js';
import { newKey } from './sandbox-api.js';
import type { Sandbox } from '../../src/sandbox/index.js';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** A gateway in sandbox mode, as `npm start` runs it (no PAYMENT_BASE_URL: a development token in GraphiQL), with its sandbox. */
export async function startSandboxModeGateway(
  label: string,
): Promise<{ gateway: RunningGateway; sandbox: Sandbox; close(): Promise<void> }> {
  const sandbox = await startTestSandbox();
  const gateway = await startGateway(loadConfig({ PORT: '0', HOST: '127.0.0.1' }), silentLogger, {
    upstream: { baseUrl: sandbox.url, apiKey: newKey(label) },
  });
  return {
    gateway,
    sandbox,
    close: async () => {
      await gateway.close();
      await sandbox.close();
    },
  };
}
