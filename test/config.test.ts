import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadSandboxConfig } from '../src/config.js';

function errorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('defaults to sandbox mode on 127.0.0.1:4000 with nothing set', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ mode: 'sandbox', port: 4000, host: '127.0.0.1', sandboxPort: 4010, redisUrl: null, logLevel: 'info' });
    expect(c.upstream).toMatchObject({ baseUrl: null, apiKey: null, timeoutMs: 15_000, pageParam: 'page', pageSizeParam: 'page_size' });
    expect(c.webhook).toEqual({ secret: null, scheme: 'auto', path: '/webhooks/payment' });
  });

  it('uses the real service when both its URL and key are set', () => {
    const c = loadConfig({
      PAYMENT_BASE_URL: 'https://pay.example/',
      PAYMENT_API_KEY: 'sk_live_abc',
      PAYMENT_TIMEOUT_MS: '5000',
      AUTH_JWT_SECRET: 'k'.repeat(32),
    });
    expect(c.mode).toBe('live');
    expect(c.upstream).toMatchObject({ baseUrl: 'https://pay.example/', apiKey: 'sk_live_abc', timeoutMs: 5000 });
  });

  it('refuses an idempotency pending time no longer than a payment call may take', () => {
    expect(loadConfig({}).idempotencyPendingTtlMs).toBe(300_000);
    expect(loadConfig({ PAYMENT_TIMEOUT_MS: '1000', IDEMPOTENCY_PENDING_TTL_MS: '1001' }).idempotencyPendingTtlMs).toBe(1001);
    expect(errorOf(() => loadConfig({ PAYMENT_TIMEOUT_MS: '1000', IDEMPOTENCY_PENDING_TTL_MS: '1000' })).message).toBe(
      'IDEMPOTENCY_PENDING_TTL_MS must be longer than PAYMENT_TIMEOUT_MS',
    );
  });

  it('treats blank values as unset', () => {
    expect(loadConfig({ PORT: '', REDIS_URL: '  ' })).toMatchObject({ port: 4000, redisUrl: null });
  });

  it('names the variable in a one-line message', () => {
    const e = errorOf(() => loadConfig({ PORT: 'eighty' }));
    expect(e.message).toMatch(/^PORT is invalid/);
    expect(e.message).not.toContain('\n');
    expect(errorOf(() => loadConfig({ WEBHOOK_SIGNATURE_SCHEME: 'md5' })).message).toMatch(/^WEBHOOK_SIGNATURE_SCHEME is invalid/);
    expect(errorOf(() => loadConfig({ PAYMENT_BASE_URL: 'ftp://x', PAYMENT_API_KEY: 'sk_test_1' })).message).toMatch(
      /^PAYMENT_BASE_URL is invalid/,
    );
    expect(errorOf(() => loadConfig({ PAYMENT_BASE_URL: 'https://pay.example' })).message).toMatch(/^PAYMENT_API_KEY is required/);
    expect(errorOf(() => loadConfig({ PAYMENT_API_KEY: 'sk_test_1' })).message).toMatch(/^PAYMENT_BASE_URL is required/);
  });

  it('never shows a secret value in its messages', () => {
    const secret = 'pk_oops_this_is_secret_123';
    const e = errorOf(() => loadConfig({ PAYMENT_BASE_URL: 'https://pay.example', PAYMENT_API_KEY: secret }));
    expect(e.message).toMatch(/^PAYMENT_API_KEY is invalid/);
    expect(e.message).not.toContain(secret);
    const r = errorOf(() => loadConfig({ REDIS_URL: 'http://user:hunter2@redis' }));
    expect(r.message).toMatch(/^REDIS_URL is invalid/);
    expect(r.message).not.toContain('hunter2');
  });
});

describe('loadSandboxConfig', () => {
  it('needs a secret to sign webhooks', () => {
    expect(loadSandboxConfig({}).webhook).toBeNull();
    expect(errorOf(() => loadSandboxConfig({ SANDBOX_WEBHOOK_URL: 'http://127.0.0.1:9/hook' })).message).toMatch(
      /^WEBHOOK_SECRET is required/,
    );
    expect(loadSandboxConfig({ SANDBOX_WEBHOOK_URL: 'http://127.0.0.1:9/hook', WEBHOOK_SECRET: 's' }).webhook).toEqual({
      url: 'http://127.0.0.1:9/hook',
      secret: 's',
      scheme: 'hmac-sha256-hex',
    });
  });
});

describe('loadConfig: Redis topology, prefix and replicas', () => {
  it('takes one node, a Sentinel-managed primary or a Cluster, with the defaults of a single node', () => {
    expect(loadConfig({}).redis).toBeNull();
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redis).toEqual({
      url: 'redis://127.0.0.1:6379',
      sentinels: null,
      sentinelName: 'mymaster',
      clusterNodes: null,
      keyPrefix: 'momo-gateway',
      minReplicas: 0,
      replicaTimeoutMs: 500,
    });
    expect(
      loadConfig({ REDIS_SENTINELS: 's1:26379, [::1]:26380', REDIS_SENTINEL_NAME: 'payments', REDIS_MIN_REPLICAS: '1' }).redis,
    ).toMatchObject({
      url: null,
      sentinels: [
        { host: 's1', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      sentinelName: 'payments',
      minReplicas: 1,
    });
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'n1:7000,n2:7001', REDIS_KEY_PREFIX: 'staging' }).redis).toMatchObject({
      clusterNodes: [
        { host: 'n1', port: 7000 },
        { host: 'n2', port: 7001 },
      ],
      keyPrefix: 'staging',
    });
  });

  it('refuses what cannot work, naming the variable', () => {
    expect(errorOf(() => loadConfig({ REDIS_SENTINELS: 's1' })).message).toMatch(/^REDIS_SENTINELS is invalid: "s1" is not host:port/);
    expect(errorOf(() => loadConfig({ REDIS_CLUSTER_NODES: 'n1:99999' })).message).toMatch(/^REDIS_CLUSTER_NODES is invalid/);
    expect(errorOf(() => loadConfig({ REDIS_SENTINELS: 's1:1', REDIS_CLUSTER_NODES: 'n1:2' })).message).toMatch(/are exclusive/);
    // Braces would make the prefix a hash tag of its own on a Cluster; a space is no key at all.
    expect(errorOf(() => loadConfig({ REDIS_KEY_PREFIX: 'a{b}' })).message).toMatch(/^REDIS_KEY_PREFIX is invalid/);
    expect(errorOf(() => loadConfig({ REDIS_KEY_PREFIX: 'a b' })).message).toMatch(/^REDIS_KEY_PREFIX is invalid/);
    expect(errorOf(() => loadConfig({ REDIS_MIN_REPLICAS: '-1' })).message).toMatch(/^REDIS_MIN_REPLICAS is invalid/);
  });
});

describe('loadConfig: the back office (CONSOLE, CONSOLE_OIDC_*)', () => {
  const live = { PAYMENT_BASE_URL: 'https://pay.example/', PAYMENT_API_KEY: 'sk_live_abc', AUTH_JWT_SECRET: 'x'.repeat(32) };

  it('is on in sandbox mode and off in live mode unless CONSOLE=true; OpenID sign-in needs issuer and client id together', () => {
    expect(loadConfig({}).console).toEqual({ enabled: true, oidc: null });
    expect(loadConfig({ CONSOLE: 'false' }).console.enabled).toBe(false);
    expect(loadConfig(live).console.enabled).toBe(false);
    expect(loadConfig({ ...live, CONSOLE: 'true' }).console.enabled).toBe(true);
    const oidc = { CONSOLE_OIDC_ISSUER: 'https://id.example/', CONSOLE_OIDC_CLIENT_ID: 'back-office' };
    expect(loadConfig({ ...live, CONSOLE: 'true', ...oidc }).console.oidc).toEqual({
      issuer: 'https://id.example/',
      clientId: 'back-office',
    });
    expect(errorOf(() => loadConfig({ CONSOLE_OIDC_ISSUER: 'https://id.example/' })).message).toMatch(
      /CONSOLE_OIDC_ISSUER and CONSOLE_OIDC_CLIENT_ID/,
    );
    expect(errorOf(() => loadConfig({ CONSOLE: 'yes' })).message).toMatch(/CONSOLE/);
    expect(errorOf(() => loadConfig({ CONSOLE_OIDC_ISSUER: 'ftp://id.example/', CONSOLE_OIDC_CLIENT_ID: 'x' })).message).toMatch(
      /CONSOLE_OIDC_ISSUER/,
    );
  });
});

describe('platform mode settings', () => {
  const kek = Buffer.alloc(32, 7).toString('base64');
  const live = { PAYMENT_BASE_URL: 'https://pay.example', PAYMENT_API_KEY: 'sk_live_abc', AUTH_JWT_SECRET: 'k'.repeat(32) };

  it('is single mode by default, with no key-encryption key', () => {
    expect(loadConfig({}).merchants).toEqual({ mode: 'single', kek: null, previousKek: null, offboardGraceMs: 7 * 24 * 3_600_000 });
  });

  it('reads the key-encryption keys as 32 bytes and never shows them', () => {
    const c = loadConfig({ MERCHANT_MODE: 'platform', MERCHANT_KEYS_KEK: kek, MERCHANT_OFFBOARD_GRACE: '1h' });
    expect(c.merchants).toMatchObject({ mode: 'platform', previousKek: null, offboardGraceMs: 3_600_000 });
    expect(c.merchants.kek?.equals(Buffer.alloc(32, 7))).toBe(true);
    const short = Buffer.alloc(16, 1).toString('base64');
    const e = errorOf(() => loadConfig({ MERCHANT_KEYS_KEK: short }));
    expect(e.message).toBe('MERCHANT_KEYS_KEK is invalid: must be 32 bytes in base64 (openssl rand -base64 32)');
    expect(e.message).not.toContain(short);
    expect(errorOf(() => loadConfig({ MERCHANT_KEYS_KEK_PREVIOUS: kek })).message).toMatch(/needs MERCHANT_KEYS_KEK/);
    expect(errorOf(() => loadConfig({ MERCHANT_MODE: 'many' })).message).toMatch(/^MERCHANT_MODE is invalid/);
  });

  it('refuses live platform mode without Redis or without a key-encryption key', () => {
    expect(errorOf(() => loadConfig({ ...live, MERCHANT_MODE: 'platform', MERCHANT_KEYS_KEK: kek })).message).toMatch(/needs Redis/);
    expect(errorOf(() => loadConfig({ ...live, MERCHANT_MODE: 'platform', REDIS_URL: 'redis://r:6379' })).message).toMatch(
      /needs MERCHANT_KEYS_KEK/,
    );
    expect(loadConfig({ ...live, MERCHANT_MODE: 'platform', REDIS_URL: 'redis://r:6379', MERCHANT_KEYS_KEK: kek }).merchants.mode).toBe(
      'platform',
    );
    // Sandbox mode generates its key and keeps merchants in SANDBOX_DATA_DIR without Redis.
    expect(loadConfig({ MERCHANT_MODE: 'platform' }).merchants).toMatchObject({ mode: 'platform', kek: null });
  });
});
