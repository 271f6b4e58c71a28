// `npm run token` as a person runs it: the script in a child process (compiled once per
// test run: ../helpers/compiled.ts), the secret in its environment, the token on stdout;
// the token then verifies with that secret.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { base64url } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokenVerifier } from '../../src/auth/index.js';
import { compiled } from '../helpers/compiled.js';
import { authConfig } from './helpers.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const SECRET = 'token-script-test-secret-0123456789abcdef';

function runScript(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [compiled('scripts/token.ts'), ...args], { cwd: repoRoot, env }, (err, stdout, stderr) => {
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('npm run token', () => {
  it('prints an HS256 staff token with the scopes, subject and TTL asked for', async () => {
    const run = await runScript(['--scope', 'payments:read payouts:write', '--sub', 'back-office', '--ttl', '1h'], {
      AUTH_JWT_SECRET: SECRET,
    });
    expect(run.code).toBe(0);
    const token = run.stdout.trim();
    // The token alone on stdout (what `TOKEN=$(npm run -s token -- …)` captures); the rest goes to stderr.
    expect(run.stdout).toBe(`${token}\n`);
    expect(token.split('.')).toHaveLength(3);
    const principal = await createTokenVerifier(authConfig({ jwtSecret: SECRET })).verifyStaff(token);
    expect(principal).toMatchObject({ kind: 'staff', subject: 'back-office', scopes: new Set(['payments:read', 'payouts:write']) });
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(token.split('.')[1]!))) as { iat: number; exp: number };
    expect(claims.exp - claims.iat).toBe(3600);
  });

  it('--merchant makes a token of that merchant’s staff (its merchant_id claim), and refuses what is not a merchant id', async () => {
    const merchantId = 'mer_0123456789abcdef0123';
    const run = await runScript(['--scope', 'payments:read', '--sub', 'awa', '--merchant', merchantId], { AUTH_JWT_SECRET: SECRET });
    expect(run.code).toBe(0);
    const principal = await createTokenVerifier(authConfig({ jwtSecret: SECRET })).verifyStaff(run.stdout.trim());
    expect(principal).toMatchObject({ kind: 'staff', subject: 'awa', merchantId });
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(run.stdout.trim().split('.')[1]!))) as Record<string, unknown>;
    expect(claims.merchant_id).toBe(merchantId);
    const bad = await runScript(['--scope', 'payments:read', '--sub', 'awa', '--merchant', 'shop-b'], { AUTH_JWT_SECRET: SECRET });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--merchant must be a merchant id/);
  });

  it('carries AUTH_ISSUER and AUTH_AUDIENCE when they are configured', async () => {
    const env = { AUTH_JWT_SECRET: SECRET, AUTH_ISSUER: 'https://gw.example/', AUTH_AUDIENCE: 'momo-gateway' };
    const run = await runScript(['--scope', 'events:read', '--sub', 'watcher'], env);
    expect(run.code).toBe(0);
    const strict = createTokenVerifier(authConfig({ jwtSecret: SECRET, issuer: env.AUTH_ISSUER, audience: env.AUTH_AUDIENCE }));
    await expect(strict.verifyStaff(run.stdout.trim())).resolves.toMatchObject({ subject: 'watcher', scopes: new Set(['events:read']) });
  });

  it('fails with one line naming AUTH_JWT_SECRET when it is not set, and on an unknown scope', async () => {
    // Live mode with only a JWKS: nothing to sign with (sandbox mode signs with its development secret: test/sandbox-data.test.ts).
    const live = {
      PAYMENT_BASE_URL: 'https://api.example/',
      PAYMENT_API_KEY: 'sk_live_x',
      AUTH_JWKS_URL: 'https://id.example/jwks.json',
      CLIENT_TOKEN_SECRET: SECRET,
    };
    const unset = await runScript(['--scope', 'payments:read', '--sub', 'x'], live);
    expect(unset.code).toBe(1);
    expect(unset.stdout).toBe('');
    expect(unset.stderr.trim().split('\n')).toHaveLength(1);
    expect(unset.stderr).toMatch(/AUTH_JWT_SECRET is not set/);

    const typo = await runScript(['--scope', 'payouts:wirte', '--sub', 'x'], { AUTH_JWT_SECRET: SECRET });
    expect(typo.code).toBe(1);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toMatch(/unknown scope payouts:wirte/);
  });
});
