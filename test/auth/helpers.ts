// Shared by the auth tests: a real JWKS endpoint over node:http, and a way to
// catch a refusal that checks it is the safe, typed error.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { expect } from 'vitest';
import { AuthError } from '../../src/auth/index.js';
import type { AuthConfig } from '../../src/config.js';

export const SECRET = 'test-secret-that-is-long-enough-0123456789';
export const OTHER_SECRET = 'another-secret-that-is-long-enough-987654321';
export const CLIENT_SECRET = 'client-token-secret-long-enough-abcdefghij';

export function authConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    jwtSecret: SECRET,
    jwksUrl: null,
    issuer: null,
    audience: null,
    clientTokenTtlSeconds: 3600,
    clientTokenSecret: CLIENT_SECRET,
    ...overrides,
  };
}

/** Awaits a refusal: an AuthError with code UNAUTHENTICATED whose message quotes no part of the token. */
export async function refusal(attempt: Promise<unknown>, token: string): Promise<AuthError> {
  const err = await attempt.then(
    () => expect.fail('the token was accepted'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AuthError);
  const authError = err as AuthError;
  expect(authError.code).toBe('UNAUTHENTICATED');
  for (const part of token.split('.').filter((p) => p.length > 8)) expect(authError.message).not.toContain(part);
  return authError;
}

export interface SigningKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function signingKey(kid: string, alg: 'RS256' | 'ES256' = 'RS256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

export function signWith(key: SigningKey, claims: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...header }).sign(key.privateKey);
}

/** An identity provider's JWKS endpoint; `serve` swaps the published keys (a rotation). */
export interface JwksServer {
  url: string;
  fetches: number;
  serve(keys: SigningKey[]): void;
  close(): Promise<void>;
}

export async function startJwksServer(keys: SigningKey[]): Promise<JwksServer> {
  let published = keys;
  const state = {
    url: '',
    fetches: 0,
    serve: (next: SigningKey[]) => void (published = next),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    if (req.url !== '/.well-known/jwks.json') {
      res.writeHead(404).end();
      return;
    }
    state.fetches += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: published.map((k) => k.publicJwk) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  return state;
}

export const inOneHour = () => Math.floor(Date.now() / 1000) + 3600;
