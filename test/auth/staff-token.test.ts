// HS256 staff tokens against the real jose verifier. Every refusal has a
// twin that differs in the one tested aspect and is accepted, so a refusal
// for some other reason cannot pass unnoticed.
import { base64url, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokenVerifier, mintStaffToken } from '../../src/auth/index.js';
import { authConfig, inOneHour, OTHER_SECRET, refusal, SECRET } from './helpers.js';

const key = (secret: string) => new TextEncoder().encode(secret);

describe('staff tokens (HS256)', () => {
  const verifier = createTokenVerifier(authConfig());

  it('verifies into a staff principal with its scopes, subject and expiry', async () => {
    const minted = await mintStaffToken({
      secret: SECRET,
      scopes: ['payments:read', 'payouts:write'],
      subject: 'back-office',
      ttlSeconds: 600,
    });
    const principal = await verifier.verify(minted.token);
    expect(principal).toEqual({
      kind: 'staff',
      subject: 'back-office',
      scopes: new Set(['payments:read', 'payouts:write']),
      expiresAt: minted.expiresAt,
    });
    await expect(verifier.verifyStaff(minted.token)).resolves.toEqual(principal);
  });

  it('keeps the known scopes of the claim and ignores the others', async () => {
    const token = await new SignJWT({ scope: 'openid payments:collect admin:all' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('svc')
      .setExpirationTime(inOneHour())
      .sign(key(SECRET));
    const principal = await verifier.verifyStaff(token);
    expect([...principal.scopes]).toEqual(['payments:collect']);
  });

  it('accepts a token expired less than 30 s ago and refuses one expired longer ago', async () => {
    const mintedAgo = (seconds: number) =>
      mintStaffToken({
        secret: SECRET,
        scopes: ['payments:read'],
        subject: 'ops',
        ttlSeconds: 60,
        now: new Date(Date.now() - seconds * 1000),
      });
    await expect(verifier.verify((await mintedAgo(60 + 20)).token)).resolves.toMatchObject({ kind: 'staff' });
    const late = (await mintedAgo(60 + 45)).token;
    expect((await refusal(verifier.verify(late), late)).reason).toBe('expired');
  });

  it('a token verified once stays subject to its expiry (the verified-token cache never outlives it)', async () => {
    // A 10 s token: its exp + 30 s tolerance (40 s) ends before the cache's own 60 s lifetime, so a cache
    // entry kept for the longer of the two would still admit it at 45 s.
    let clock = new Date();
    const moving = createTokenVerifier(authConfig(), { now: () => clock });
    const minted = await mintStaffToken({ secret: SECRET, scopes: ['payments:read'], subject: 'ops', ttlSeconds: 10, now: clock });
    const mintedAt = clock.getTime();
    await expect(moving.verify(minted.token)).resolves.toMatchObject({ subject: 'ops' });
    clock = new Date(mintedAt + 35_000); // within the 30 s tolerance: still admitted, from the cache or not
    await expect(moving.verify(minted.token)).resolves.toMatchObject({ subject: 'ops' });
    clock = new Date(mintedAt + 45_000); // past exp + tolerance, within a minute of the first verification
    expect((await refusal(moving.verify(minted.token), minted.token)).reason).toBe('expired');
  });

  it('refuses a token without exp', async () => {
    const build = () => new SignJWT({ scope: 'payments:read' }).setProtectedHeader({ alg: 'HS256' }).setSubject('ops');
    await expect(verifier.verify(await build().setExpirationTime(inOneHour()).sign(key(SECRET)))).resolves.toBeTruthy();
    const endless = await build().sign(key(SECRET));
    expect((await refusal(verifier.verify(endless), endless)).reason).toBe('claims');
  });

  it('refuses a token without a subject', async () => {
    const token = await new SignJWT({ scope: 'payments:read' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(inOneHour())
      .sign(key(SECRET));
    expect((await refusal(verifier.verify(token), token)).reason).toBe('claims');
  });

  it('refuses a wrong signature: another secret, or a payload changed after signing', async () => {
    const foreign = (await mintStaffToken({ secret: OTHER_SECRET, scopes: ['payouts:write'], subject: 'ops', ttlSeconds: 60 })).token;
    expect((await refusal(verifier.verify(foreign), foreign)).reason).toBe('signature');

    const [header, payload, signature] = (
      await mintStaffToken({ secret: SECRET, scopes: ['payments:read'], subject: 'ops', ttlSeconds: 60 })
    ).token.split('.');
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload!)));
    const escalated = [header, base64url.encode(JSON.stringify({ ...claims, scope: 'payments:read payouts:write' })), signature].join('.');
    expect((await refusal(verifier.verify(escalated), escalated)).reason).toBe('signature');
  });

  it('refuses alg: none', async () => {
    const unsigned = new UnsecuredJWT({ scope: 'payouts:write' }).setSubject('ops').setExpirationTime(inOneHour()).encode();
    expect(JSON.parse(new TextDecoder().decode(base64url.decode(unsigned.split('.')[0]!)))).toEqual({ alg: 'none' });
    expect((await refusal(verifier.verify(unsigned), unsigned)).reason).toBe('algorithm');
    // The same claims with a signature HS256-signed by the secret (the only difference) pass.
    const signed = await new SignJWT({ scope: 'payouts:write' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('ops')
      .setExpirationTime(inOneHour())
      .sign(key(SECRET));
    await expect(verifier.verify(signed)).resolves.toBeTruthy();
  });

  it('refuses other HMAC algorithms, even with the right secret', async () => {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('ops')
      .setExpirationTime(inOneHour())
      .sign(key(SECRET));
    expect((await refusal(verifier.verify(token), token)).reason).toBe('algorithm');
  });

  it('refuses garbage', async () => {
    for (const token of ['', 'abc', 'a.b.c', '..']) expect((await refusal(verifier.verify(token), token)).reason).toBe('malformed');
    // A well-formed HS256 header with nothing behind it fails at the signature.
    expect((await refusal(verifier.verify('eyJhbGciOiJIUzI1NiJ9..'), '')).reason).toBe('signature');
  });

  describe('with AUTH_ISSUER and AUTH_AUDIENCE', () => {
    const strict = createTokenVerifier(authConfig({ issuer: 'https://idp.example/', audience: 'momo-gateway' }));
    const mint = (issuer: string | null, audience: string | null) =>
      mintStaffToken({ secret: SECRET, scopes: ['payments:read'], subject: 'ops', ttlSeconds: 60, issuer, audience }).then((m) => m.token);

    it('accepts the configured issuer and audience', async () => {
      await expect(strict.verify(await mint('https://idp.example/', 'momo-gateway'))).resolves.toMatchObject({ subject: 'ops' });
    });

    it('refuses a wrong or missing issuer', async () => {
      for (const token of [await mint('https://evil.example/', 'momo-gateway'), await mint(null, 'momo-gateway')]) {
        expect((await refusal(strict.verify(token), token)).reason).toBe('claims');
      }
    });

    it('refuses a wrong or missing audience', async () => {
      for (const token of [await mint('https://idp.example/', 'another-api'), await mint('https://idp.example/', null)]) {
        expect((await refusal(strict.verify(token), token)).reason).toBe('claims');
      }
    });
  });
});
