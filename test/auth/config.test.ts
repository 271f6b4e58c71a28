// The auth variables of src/config.ts, and what sandbox mode fills in.
import { describe, expect, it } from 'vitest';
import { createTokenVerifier, deriveClientTokenSecret, mintStaffToken, SCOPES, withGeneratedSecrets } from '../../src/auth/index.js';
import { ConfigError, loadConfig } from '../../src/config.js';

const SECRET = 'auth-config-test-secret-0123456789abcdef';
const LIVE = { PAYMENT_BASE_URL: 'https://pay.example/', PAYMENT_API_KEY: 'sk_live_abc' };

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('auth configuration', () => {
  it('is all unset in sandbox mode with nothing configured, with a one-hour client-token TTL', () => {
    expect(loadConfig({}).auth).toEqual({
      jwtSecret: null,
      jwksUrl: null,
      issuer: null,
      audience: null,
      clientTokenTtlSeconds: 3600,
      clientTokenSecret: null,
    });
  });

  it('reads every variable', () => {
    const auth = loadConfig({
      AUTH_JWT_SECRET: SECRET,
      AUTH_JWKS_URL: 'https://idp.example/.well-known/jwks.json',
      AUTH_ISSUER: 'https://idp.example/',
      AUTH_AUDIENCE: 'momo-gateway',
      CLIENT_TOKEN_TTL: '15m',
      CLIENT_TOKEN_SECRET: 'x'.repeat(32),
    }).auth;
    expect(auth).toEqual({
      jwtSecret: SECRET,
      jwksUrl: 'https://idp.example/.well-known/jwks.json',
      issuer: 'https://idp.example/',
      audience: 'momo-gateway',
      clientTokenTtlSeconds: 900,
      clientTokenSecret: 'x'.repeat(32),
    });
  });

  it('takes CLIENT_TOKEN_TTL in seconds or as a duration', () => {
    const ttl = (value: string) => loadConfig({ CLIENT_TOKEN_TTL: value }).auth.clientTokenTtlSeconds;
    expect([ttl('90'), ttl('90s'), ttl('15m'), ttl('2h'), ttl('1d')]).toEqual([90, 90, 900, 7200, 86_400]);
    for (const bad of ['0', 'soon', '1w', '-5', '1.5h'])
      expect(configError({ CLIENT_TOKEN_TTL: bad })).toMatch(/^CLIENT_TOKEN_TTL is invalid/);
  });

  it('derives a distinct, stable client-token key from AUTH_JWT_SECRET when none is set', () => {
    const clientKey = (env: Record<string, string>) => {
      const { auth } = loadConfig(env);
      // The configuration leaves it unset; the one derivation is withGeneratedSecrets'.
      expect(auth.clientTokenSecret).toBeNull();
      return withGeneratedSecrets(auth).auth.clientTokenSecret;
    };
    const a = clientKey({ AUTH_JWT_SECRET: SECRET });
    expect(a).not.toBe(SECRET);
    expect(a.length).toBeGreaterThanOrEqual(32);
    expect(clientKey({ AUTH_JWT_SECRET: SECRET })).toBe(a); // replicas agree
    expect(clientKey({ AUTH_JWT_SECRET: `${SECRET}!` })).not.toBe(a);
    expect(clientKey({ ...LIVE, AUTH_JWT_SECRET: SECRET })).toBe(a); // live mode too
    // A configured key is used as it is.
    expect(
      withGeneratedSecrets(loadConfig({ AUTH_JWT_SECRET: SECRET, CLIENT_TOKEN_SECRET: 'y'.repeat(32) }).auth).auth.clientTokenSecret,
    ).toBe('y'.repeat(32));
  });

  it('refuses short secrets and non-HTTP JWKS URLs in one line that shows no secret', () => {
    const short = 'too-short-secret';
    for (const name of ['AUTH_JWT_SECRET', 'CLIENT_TOKEN_SECRET']) {
      const message = configError({ [name]: short });
      expect(message).toBe(`${name} is invalid: must be at least 32 bytes`);
    }
    expect(configError({ AUTH_JWKS_URL: 'ftp://idp.example/jwks' })).toMatch(/^AUTH_JWKS_URL is invalid/);
  });

  describe('live mode (PAYMENT_BASE_URL set)', () => {
    it('refuses to start without AUTH_JWT_SECRET or AUTH_JWKS_URL, naming both', () => {
      const message = configError(LIVE);
      expect(message).toMatch(/AUTH_JWT_SECRET/);
      expect(message).toMatch(/AUTH_JWKS_URL/);
      expect(message).not.toContain('\n');
    });

    it('needs CLIENT_TOKEN_SECRET when a JWKS URL is the only key', () => {
      expect(configError({ ...LIVE, AUTH_JWKS_URL: 'https://idp.example/jwks' })).toMatch(/^CLIENT_TOKEN_SECRET is required/);
      expect(
        loadConfig({ ...LIVE, AUTH_JWKS_URL: 'https://idp.example/jwks', CLIENT_TOKEN_SECRET: 'y'.repeat(40) }).auth.clientTokenSecret,
      ).toBe('y'.repeat(40));
    });

    it('starts with AUTH_JWT_SECRET alone', () => {
      expect(loadConfig({ ...LIVE, AUTH_JWT_SECRET: SECRET }).auth).toMatchObject({ jwtSecret: SECRET, jwksUrl: null });
    });
  });
});

describe('withGeneratedSecrets (sandbox mode)', () => {
  it('generates a staff secret when nothing is configured, and a development token minted with it verifies', async () => {
    const { auth, generatedJwtSecret } = withGeneratedSecrets(loadConfig({}).auth);
    expect(generatedJwtSecret).toBe(true);
    expect(auth.jwtSecret!.length).toBeGreaterThanOrEqual(32);
    expect(auth.clientTokenSecret).not.toBe(auth.jwtSecret);
    expect(withGeneratedSecrets(loadConfig({}).auth).auth.jwtSecret).not.toBe(auth.jwtSecret);

    const verifier = createTokenVerifier(auth);
    const dev = await mintStaffToken({ secret: auth.jwtSecret!, scopes: SCOPES, subject: 'development', ttlSeconds: 12 * 3600 });
    await expect(verifier.verify(dev.token)).resolves.toMatchObject({ kind: 'staff', scopes: new Set(SCOPES) });
    await expect(verifier.verify((await verifier.mintClientToken({ kind: 'charge', reference: 'ch_1' })).token)).resolves.toMatchObject({
      kind: 'client',
    });
  });

  it('keeps a configured secret, and generates only a client-token key next to a JWKS URL', () => {
    const configured = loadConfig({ AUTH_JWT_SECRET: SECRET }).auth;
    expect(withGeneratedSecrets(configured)).toEqual({
      auth: { ...configured, clientTokenSecret: deriveClientTokenSecret(SECRET) },
      generatedJwtSecret: false,
    });

    const { auth, generatedJwtSecret } = withGeneratedSecrets(loadConfig({ AUTH_JWKS_URL: 'https://idp.example/jwks' }).auth);
    expect(generatedJwtSecret).toBe(false);
    expect(auth.jwtSecret).toBeNull();
    expect(auth.clientTokenSecret).toEqual(expect.any(String));
  });
});
