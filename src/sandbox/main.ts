// `npm run sandbox`: the sandbox alone, for integrators and manual testing.
import { ConfigError, loadSandboxConfig } from '../config.js';
import { PROVIDERS } from './contract.js';
import { NO_PAYOUT_KEY_PREFIX, TEST_OTP, TEST_PHONES, startSandbox } from './sandbox.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadSandboxConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exitCode = 1;
      return;
    }
    throw error;
  }
  const verbose = config.logLevel === 'debug' || config.logLevel === 'info';
  const sandbox = await startSandbox({
    port: config.port,
    host: config.host,
    webhook: config.webhook,
    log: verbose ? (line) => console.log(`[sandbox] ${line}`) : undefined,
  });

  const rows = PROVIDERS.map((p) => {
    const t = TEST_PHONES[p];
    return `  ${p.padEnd(8)} ${t.succeeds.padEnd(12)} ${t.rejected.padEnd(12)} ${t.endsFailed}`;
  });
  console.log(
    [
      `Payment service sandbox (test mode) at ${sandbox.url}`,
      `  API key: any X-API-KEY starting with sk_test_ (e.g. sk_test_demo); ${NO_PAYOUT_KEY_PREFIX}... has no payout account`,
      `  Webhooks: ${config.webhook ? `${safeUrl(config.webhook.url)} (${config.webhook.scheme})` : 'off (set SANDBOX_WEBHOOK_URL and WEBHOOK_SECRET)'}`,
      `  Test OTP: ${TEST_OTP}; transfers to numbers ending in 9 fail; every wallet starts with 100000 XOF`,
      '  Test numbers:',
      `  ${'provider'.padEnd(8)} ${'succeeds'.padEnd(12)} ${'rejected'.padEnd(12)} ends failed`,
      ...rows,
      'Ctrl+C to stop.',
    ].join('\n'),
  );

  const stop = (signal: string) => {
    console.log(`\n${signal}: stopping the sandbox`);
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    sandbox.close().then(
      () => console.log('stopped'),
      (error: unknown) => {
        console.error(error);
        process.exitCode = 1;
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

function safeUrl(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

void main();
