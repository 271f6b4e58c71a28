// `npm start`: validate the environment once, start the gateway (with the
// sandbox when no payment service is configured), and stop cleanly on signals.
import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig, type Config } from './config.js';
import { startGateway } from './gateway.js';
import { createLogger, type Logger } from './logger.js';
import type { Sandbox } from './sandbox/index.js';

/** Sandbox mode: the payment service runs in this process, with a fresh test account per start. */
async function startEmbeddedSandbox(config: Config, log: Logger) {
  // Loaded only here: live mode never loads the simulator (its modules are not the production path).
  const { startSandbox } = await import('./sandbox/index.js');
  const sandbox = await startSandbox({ port: config.sandboxPort, host: config.host, log: (line) => log.debug(line) });
  // The sandbox keeps one account per key: a new key is a new, pre-funded account.
  const apiKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = config.webhook.secret ?? randomBytes(24).toString('base64url');
  return { sandbox, apiKey, webhookSecret };
}

function connectSandboxWebhooks(sandbox: Sandbox, config: Config, webhookUrl: string, secret: string): void {
  sandbox.setWebhook({ url: webhookUrl, secret, scheme: config.webhook.scheme === 'sha256-base64' ? 'sha256-base64' : 'hmac-sha256-hex' });
}

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
  const embedded = config.mode === 'sandbox' ? await startEmbeddedSandbox(config, log) : null;
  let gateway;
  try {
    gateway = await startGateway(
      config,
      log,
      embedded ? { upstream: { baseUrl: embedded.sandbox.url, apiKey: embedded.apiKey }, webhookSecret: embedded.webhookSecret } : {},
    );
  } catch (err) {
    await embedded?.sandbox.close();
    throw err;
  }
  if (embedded && gateway.webhookUrl) connectSandboxWebhooks(embedded.sandbox, config, gateway.webhookUrl, embedded.webhookSecret);

  const lines = [
    `GraphQL gateway ready: ${gateway.graphqlUrl} (GraphiQL in a browser)`,
    `WebSocket subscriptions: ${gateway.graphqlUrl.replace(/^http/, 'ws')}`,
    `Health: ${gateway.url}/health`,
  ];
  if (embedded) {
    lines.push(
      `Payment service: embedded sandbox at ${embedded.sandbox.url} (test mode; webhooks delivered to ${gateway.webhookUrl})`,
      'Test numbers: OPA_BF 76000000, OPB_BF 70000000, OPC_BF 58000000, OPD_BF 68000000, OPE_BJ 0196000000, OPF_BJ 0195000000; OTP 123456',
      // The sandbox's own token (test money only): GraphiQL already sends it; scripts and frontends in development may too.
      ...(gateway.developmentToken
        ? [
            `Development token (every scope, until ${gateway.developmentToken.expiresAt.toISOString()}): Authorization: Bearer ${gateway.developmentToken.token}`,
          ]
        : []),
    );
  } else {
    lines.push(`Payment service: ${new URL(config.upstream.baseUrl!).origin}`);
  }
  process.stdout.write(lines.join('\n') + '\n');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping', { signal, graceMs: config.shutdownGraceMs });
    gateway
      .close({ graceMs: config.shutdownGraceMs })
      .then(() => embedded?.sandbox.close())
      .then(
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
