// `npm start`: validate the environment once, start the gateway (with the
// sandbox when no payment service is configured), and stop cleanly on signals.
import { ConfigError, loadConfig } from './config.js';
import { startGateway } from './gateway.js';
import { createLogger } from './logger.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  const gateway = await startGateway(config, log);

  const lines = [
    `GraphQL gateway ready: ${gateway.graphqlUrl} (GraphiQL in a browser)`,
    `WebSocket subscriptions: ${gateway.graphqlUrl.replace(/^http/, 'ws')}`,
    `Health: ${gateway.url}/health`,
  ];
  if (gateway.sandbox) {
    lines.push(
      `Payment service: embedded sandbox at ${gateway.sandbox.url} (test mode; webhooks delivered to ${gateway.webhookUrl})`,
      'Test numbers: OPA_BF 76000000, OPB_BF 70000000, OPC_BF 58000000, OPD_BF 68000000, OPE_BJ 0196000000, OPF_BJ 0195000000; OTP 123456',
    );
  } else {
    lines.push(`Payment service: ${new URL(config.upstream.baseUrl!).origin}`);
  }
  process.stdout.write(lines.join('\n') + '\n');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping', { signal });
    gateway.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
