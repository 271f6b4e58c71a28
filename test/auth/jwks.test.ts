// Staff tokens signed by an identity provider whose keys a real HTTP server
// publishes as a JWKS, including a key rotation and algorithm confusion.
import { exportSPKI, importJWK, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTokenVerifier, mintStaffToken } from '../../src/auth/index.js';
import {
  authConfig,
  inOneHour,
  refusal,
  SECRET,
  signingKey,
  signWith,
  startJwksServer,
  type JwksServer,
  type SigningKey,
} from './helpers.js';

let idp: JwksServer;
let rsa: SigningKey;
let ec: SigningKey;

beforeAll(async () => {
  rsa = await signingKey('rsa-1', 'RS256');
  ec = await signingKey('ec-1', 'ES256');
  idp = await startJwksServer([rsa, ec]);
});
afterAll(() => idp.close());
afterEach(() => {
  idp.serve([rsa, ec]);
  vi.useRealTimers();
});

const claims = { sub: 'merchant-server', scope: 'payments:collect events:read', exp: inOneHour() };
const jwksOnly = () => authConfig({ jwtSecret: null, jwksUrl: idp.url });

describe('staff tokens from a JWKS endpoint', () => {
  it('verifies RS256 and ES256 tokens with the published keys, fetching the set once', async () => {
    const verifier = createTokenVerifier(jwksOnly());
    const before = idp.fetches;
    for (const key of [rsa, ec]) {
      await expect(verifier.verify(await signWith(key, claims))).resolves.toMatchObject({
        kind: 'staff',
        subject: 'merchant-server',
        scopes: new Set(['payments:collect', 'events:read']),
      });
    }
    expect(idp.fetches - before).toBe(1);
  });

  it('checks issuer and audience on JWKS tokens too', async () => {
    const verifier = createTokenVerifier(authConfig({ jwtSecret: null, jwksUrl: idp.url, issuer: 'https://idp.example/', audience: 'gw' }));
    await expect(verifier.verify(await signWith(rsa, { ...claims, iss: 'https://idp.example/', aud: 'gw' }))).resolves.toBeTruthy();
    const wrongAudience = await signWith(rsa, { ...claims, iss: 'https://idp.example/', aud: 'other' });
    expect((await refusal(verifier.verify(wrongAudience), wrongAudience)).reason).toBe('claims');
  });

  it('refuses a token signed by a key the endpoint does not publish', async () => {
    const verifier = createTokenVerifier(jwksOnly());
    const stranger = await signingKey('rsa-1', 'RS256'); // same kid, other key
    const token = await signWith(stranger, claims);
    expect((await refusal(verifier.verify(token), token)).reason).toBe('signature');
  });

  it('follows a key rotation: a new kid triggers a refetch, and the retired key stops working', async () => {
    const verifier = createTokenVerifier(jwksOnly(), { jwksCooldownMs: 0 });
    const oldToken = await signWith(rsa, claims);
    await expect(verifier.verify(oldToken)).resolves.toBeTruthy();

    const rotated = await signingKey('rsa-2', 'RS256');
    idp.serve([rotated]);
    const fetchesBefore = idp.fetches;
    await expect(verifier.verify(await signWith(rotated, claims))).resolves.toMatchObject({ subject: 'merchant-server' });
    expect(idp.fetches).toBe(fetchesBefore + 1);
    expect((await refusal(verifier.verify(oldToken), oldToken)).reason).toBe('signature');
  });

  it('refetches for an unknown kid only once the cooldown after the last fetch is over', async () => {
    vi.useFakeTimers({ toFake: ['Date'] }); // jose's cooldown reads Date.now(); sockets keep real timers
    const verifier = createTokenVerifier(jwksOnly()); // default cooldown: 30 s
    await expect(verifier.verify(await signWith(rsa, claims))).resolves.toBeTruthy();
    const rotated = await signingKey('rsa-3', 'RS256');
    idp.serve([rotated]);
    const newToken = await signWith(rotated, claims);
    const fetchesBefore = idp.fetches;

    expect((await refusal(verifier.verify(newToken), newToken)).reason).toBe('signature');
    expect(idp.fetches).toBe(fetchesBefore);

    vi.setSystemTime(Date.now() + 31_000);
    await expect(verifier.verify(newToken)).resolves.toBeTruthy();
    expect(idp.fetches).toBe(fetchesBefore + 1);
  });

  it('refuses every token while the endpoint cannot be read, with its own reason', async () => {
    const verifier = createTokenVerifier(authConfig({ jwtSecret: null, jwksUrl: idp.url.replace('jwks.json', 'missing.json') }));
    const token = await signWith(rsa, claims);
    expect((await refusal(verifier.verify(token), token)).reason).toBe('keys_unavailable');
  });

  it('refuses an RS256 token when only an HS256 secret is configured', async () => {
    const verifier = createTokenVerifier(authConfig());
    const token = await signWith(rsa, claims);
    expect((await refusal(verifier.verify(token), token)).reason).toBe('algorithm');
  });

  describe('algorithm confusion: an HS256 token whose HMAC secret is the public key', () => {
    async function confusedTokens(): Promise<string[]> {
      const publicKey = await importJWK(rsa.publicJwk, 'RS256', { extractable: true });
      const secrets = [await exportSPKI(publicKey as CryptoKey), JSON.stringify(rsa.publicJwk)];
      return Promise.all(
        secrets.map((secret) =>
          new SignJWT({ scope: 'payouts:write' })
            .setProtectedHeader({ alg: 'HS256', kid: rsa.kid })
            .setSubject('attacker')
            .setExpirationTime(inOneHour())
            .sign(new TextEncoder().encode(secret)),
        ),
      );
    }

    it('is refused with only a JWKS configured (HS256 is not among its algorithms)', async () => {
      const verifier = createTokenVerifier(jwksOnly());
      for (const token of await confusedTokens()) expect((await refusal(verifier.verify(token), token)).reason).toBe('algorithm');
    });

    it('is refused with both a secret and a JWKS configured (HS256 meets only the secret)', async () => {
      const verifier = createTokenVerifier(authConfig({ jwksUrl: idp.url }));
      for (const token of await confusedTokens()) expect((await refusal(verifier.verify(token), token)).reason).toBe('signature');
      // Both kinds of genuine token still pass with that configuration.
      await expect(verifier.verify(await signWith(rsa, claims))).resolves.toBeTruthy();
      const hs = await mintStaffToken({ secret: SECRET, scopes: ['payouts:write'], subject: 'ops', ttlSeconds: 60 });
      await expect(verifier.verify(hs.token)).resolves.toMatchObject({ subject: 'ops' });
    });
  });
});
