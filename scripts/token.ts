// `npm run -s token -- --scope "payments:read payouts:write" --sub back-office --ttl 1h [--merchant mer_…]`
// prints a staff token signed with the configured AUTH_JWT_SECRET (and carrying
// AUTH_ISSUER / AUTH_AUDIENCE when set), for curl, scripts and GraphiQL. In
// sandbox mode without one, it signs with the development secret `npm start`
// keeps in SANDBOX_DATA_DIR (made there if nothing started yet), and says so.
// In platform mode, `--merchant <id>` makes it a token of that merchant's staff (its `merchant_id` claim);
// without it, a platform operator's. Only the token goes to stdout, so `TOKEN=$(npm run -s token -- …)` works.
import { parseArgs } from 'node:util';
import { mintStaffToken, parseDurationSeconds, SCOPES, isScope } from '../src/auth/index.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { developmentIdentity } from '../src/sandbox/index.js';
import { isMerchantId } from '../src/merchants/index.js';

const USAGE = `usage: npm run -s token -- --scope "<scopes>" --sub <subject> [--ttl 1h] [--merchant mer_…]   (scopes: ${SCOPES.join(' ')})`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { scope: { type: 'string' }, sub: { type: 'string' }, ttl: { type: 'string', default: '1h' }, merchant: { type: 'string' } },
    strict: true,
  });
  if (!values.scope || !values.sub) fail(USAGE);
  const scopes = values.scope.split(/\s+/).filter(Boolean);
  const unknown = scopes.filter((s) => !isScope(s));
  if (scopes.length === 0 || unknown.length > 0) fail(`unknown scope ${unknown.join(', ') || '(none given)'}; known: ${SCOPES.join(' ')}`);
  const ttlSeconds = parseDurationSeconds(values.ttl);
  if (ttlSeconds === null) fail(`--ttl must be seconds or a duration such as 90s, 15m, 1h, 1d (got ${JSON.stringify(values.ttl)})`);
  if (values.merchant !== undefined && !isMerchantId(values.merchant)) fail(`--merchant must be a merchant id (mer_ and 20 hex digits)`);

  const config = loadConfig();
  const { auth } = config;
  // Sandbox mode with no secret of its own: the development secret `npm start` keeps in the data folder.
  const development = !auth.jwtSecret && !auth.jwksUrl && config.mode === 'sandbox' ? developmentIdentity(config.sandboxDataDir) : null;
  const secret = auth.jwtSecret ?? development?.authJwtSecret;
  if (!secret) fail('AUTH_JWT_SECRET is not set: npm run token signs with the same secret as the gateway');
  const { token, expiresAt } = await mintStaffToken({
    secret,
    scopes: scopes.filter(isScope),
    subject: values.sub,
    ttlSeconds,
    issuer: auth.issuer,
    audience: auth.audience,
    merchantId: values.merchant ?? null,
  });
  process.stdout.write(`${token}\n`);
  if (development) {
    process.stderr.write(
      `signed with the sandbox's development secret (${config.sandboxDataDir}), the one npm start uses in sandbox mode\n`,
    );
  }
  process.stderr.write(`expires ${expiresAt.toISOString()}\n`);
}

function fail(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

main().catch((err: unknown) => {
  fail(err instanceof ConfigError ? `Configuration error: ${err.message}` : err instanceof Error ? err.message : String(err));
});
