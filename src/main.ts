// `npm start`: validate the environment once, start the gateway (with the
// sandbox when no payment service is configured), and stop cleanly on signals.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { deriveClientTokenSecret, mintStaffToken, SCOPES, type Scope } from './auth/index.js';
import type { MerchantRegistry, MerchantView } from './merchants/index.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { startGateway } from './gateway.js';
import { EVENT_LOG_FILE } from './events/log-file.js';
import { EXT_ID_INDEX_FILE } from './ext-id-index/index.js';
import { OUTBOUND_WEBHOOKS_FILE } from './outbound-webhooks/state-file.js';
import { MERCHANTS_FILE } from './merchants/index.js';
import { createLogger, type Logger } from './logger.js';
import type { DevelopmentIdentity, Sandbox } from './sandbox/index.js';

/**
 * Sandbox mode: the payment service runs in this process. Its accounts, the account's key and the
 * development secrets live in the data folder (SANDBOX_DATA_DIR), so a restart (or `npm run dev`'s reload)
 * finds the same charges and the development tokens handed out before still verify.
 */
async function startEmbeddedSandbox(config: Config, log: Logger) {
  // Loaded only here: live mode never loads the simulator (its modules are not the production path).
  const { STATE_FILE, developmentIdentity, startSandbox } = await import('./sandbox/index.js');
  const identity = developmentIdentity(config.sandboxDataDir);
  const sandbox = await startSandbox({
    port: config.sandboxPort,
    host: config.host,
    log: (line) => log.debug(line),
    dataFile: path.join(config.sandboxDataDir, STATE_FILE),
  });
  const webhookSecret = config.webhook.secret ?? identity.webhookSecret;
  return { sandbox, apiKey: identity.apiKey, webhookSecret, identity };
}

/** The development secret signs staff tokens unless the environment names a key of its own. */
function withDevelopmentSecret(config: Config, identity: DevelopmentIdentity): Config {
  if (config.auth.jwtSecret !== null || config.auth.jwksUrl !== null) return config;
  const jwtSecret = identity.authJwtSecret;
  return {
    ...config,
    auth: { ...config.auth, jwtSecret, clientTokenSecret: config.auth.clientTokenSecret ?? deriveClientTokenSecret(jwtSecret) },
  };
}

/** The sandbox's two demo merchants of platform mode: two accounts of the sandbox (one per API key). */
const DEMO_MERCHANTS = ['Demo school (frais de scolarité)', 'Demo shop (boutique en ligne)'];
/** What a demo merchant's staff token may do: everything platform mode serves for one merchant. */
const DEMO_STAFF_SCOPES: Scope[] = ['payments:read', 'payments:collect', 'payouts:write', 'settlements:write'];
const DEMO_TOKEN_TTL_SECONDS = 12 * 60 * 60;

/** Platform mode in the sandbox: the two demo merchants, made at the first start and kept in SANDBOX_DATA_DIR or Redis after. */
async function demoMerchants(registry: MerchantRegistry): Promise<MerchantView[]> {
  const merchants = [...(await registry.list(DEMO_MERCHANTS.length, null)).merchants];
  for (const name of DEMO_MERCHANTS.slice(merchants.length)) {
    const secret = () => randomBytes(12).toString('hex');
    merchants.push(await registry.create({ name, apiKey: `sk_test_demo_${secret()}`, webhookSecret: `whsec_${secret()}` }));
  }
  return merchants;
}

/** Platform mode in the sandbox: an operator token and one staff token per demo merchant, as lines to print. */
async function platformDemo(merchants: MerchantView[], config: Config): Promise<string[]> {
  const mint = (scopes: Iterable<Scope>, subject: string, merchantId?: string) =>
    mintStaffToken({
      secret: config.auth.jwtSecret!,
      scopes,
      subject,
      ttlSeconds: DEMO_TOKEN_TTL_SECONDS,
      issuer: config.auth.issuer,
      audience: config.auth.audience,
      merchantId,
    }).then((minted) => minted.token);
  const lines = [
    'Platform mode (MERCHANT_MODE=platform): the development token is the platform operator; it acts for a merchant with the header X-Merchant-Id: <merchant id>',
    `Operator token (platform:manage and every scope): Authorization: Bearer ${await mint(SCOPES, 'sandbox-operator')}`,
  ];
  for (const merchant of merchants) {
    const token = await mint(DEMO_STAFF_SCOPES, `sandbox-staff-${merchant.id}`, merchant.id);
    lines.push(`Merchant ${merchant.id} "${merchant.name}": staff token (${DEMO_STAFF_SCOPES.join(' ')}): Authorization: Bearer ${token}`);
  }
  return lines;
}

const sandboxScheme = (config: Config) => (config.webhook.scheme === 'sha256-base64' ? 'sha256-base64' : 'hmac-sha256-hex');

function connectSandboxWebhooks(sandbox: Sandbox, config: Config, webhookUrl: string, secret: string): void {
  sandbox.setWebhook({ url: webhookUrl, secret, scheme: sandboxScheme(config) });
}

/** Platform mode: each demo merchant's account of the sandbox sends its webhooks to that merchant's own route. */
async function connectMerchantAccounts(sandbox: Sandbox, merchants: MerchantRegistry, config: Config, webhookUrl: string): Promise<void> {
  const { connectMerchantWebhooks } = await import('./sandbox/index.js');
  await connectMerchantWebhooks(sandbox, merchants, { webhookUrl, scheme: sandboxScheme(config) });
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
  if (embedded) config = withDevelopmentSecret(config, embedded.identity);
  let gateway;
  try {
    gateway = await startGateway(
      config,
      log,
      embedded
        ? {
            upstream: { baseUrl: embedded.sandbox.url, apiKey: embedded.apiKey },
            webhookSecret: embedded.webhookSecret,
            eventLogFile: path.join(config.sandboxDataDir, EVENT_LOG_FILE),
            outboundWebhooksFile: path.join(config.sandboxDataDir, OUTBOUND_WEBHOOKS_FILE),
            extIdIndexFile: path.join(config.sandboxDataDir, EXT_ID_INDEX_FILE),
            merchantsFile: path.join(config.sandboxDataDir, MERCHANTS_FILE),
            demoMerchants,
          }
        : {},
    );
  } catch (err) {
    await embedded?.sandbox.close();
    throw err;
  }
  // Platform mode: each merchant has its own webhook URL (its account of the sandbox is connected below, once it exists).
  if (embedded && gateway.webhookUrl && !gateway.merchants)
    connectSandboxWebhooks(embedded.sandbox, config, gateway.webhookUrl, embedded.webhookSecret);

  const lines = [
    `GraphQL gateway ready: ${gateway.graphqlUrl} (GraphiQL in a browser)`,
    ...(gateway.consoleUrl ? [`Back office: ${gateway.consoleUrl}`] : []),
    `WebSocket subscriptions: ${gateway.graphqlUrl.replace(/^http/, 'ws')}`,
    `Health: ${gateway.url}/health`,
  ];
  if (embedded) {
    lines.push(
      `Payment service: embedded sandbox at ${embedded.sandbox.url} (test mode; webhooks delivered to ${gateway.webhookUrl})`,
      'Test numbers: OPA_BF 76000000, OPB_BF 70000000, OPC_BF 58000000, OPD_BF 68000000, OPE_BJ 0196000000, OPF_BJ 0195000000; OTP 123456',
      `Sandbox data: ${config.sandboxDataDir} (${embedded.identity.created ? 'new' : 'kept from the last run'}; npm run sandbox:reset starts fresh)`,
      // The sandbox's own token (test money only): GraphiQL already sends it; scripts and frontends in development may too.
      ...(gateway.developmentToken
        ? [
            `Development token (every scope, until ${gateway.developmentToken.expiresAt.toISOString()}): Authorization: Bearer ${gateway.developmentToken.token}`,
          ]
        : []),
      ...(gateway.merchants && config.auth.jwtSecret ? await platformDemo(gateway.demoMerchants, config) : []),
    );
    if (gateway.merchants && gateway.webhookUrl)
      await connectMerchantAccounts(embedded.sandbox, gateway.merchants, config, gateway.webhookUrl);
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
