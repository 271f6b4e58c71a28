// Client tokens: minted by the gateway for one charge or checkout, verified
// back into a client principal, and never interchangeable with staff tokens.
import { base64url, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokenVerifier, mintStaffToken } from '../../src/auth/index.js';
import { authConfig, CLIENT_SECRET, inOneHour, refusal, SECRET } from './helpers.js';

const charge = { kind: 'charge', reference: 'ch_123' } as const;
const decode = (part: string) => JSON.parse(new TextDecoder().decode(base64url.decode(part))) as Record<string, unknown>;

describe('client tokens', () => {
  const verifier = createTokenVerifier(authConfig({ clientTokenTtlSeconds: 900 }));

  it('verify into a client principal bound to the resource they were minted for', async () => {
    const minted = await verifier.mintClientToken(charge);
    await expect(verifier.verify(minted.token)).resolves.toEqual({
      kind: 'client',
      subject: 'client:charge:ch_123',
      resource: charge,
      expiresAt: minted.expiresAt,
    });
    const checkout = await verifier.mintClientToken({ kind: 'checkout', reference: 'co_9' });
    await expect(verifier.verifyAuthorization(`Bearer ${checkout.token}`)).resolves.toMatchObject({
      kind: 'client',
      resource: { kind: 'checkout', reference: 'co_9' },
    });
  });

  it('last CLIENT_TOKEN_TTL by default, or the ttl asked for', async () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const fixed = createTokenVerifier(authConfig({ clientTokenTtlSeconds: 900 }), { now: () => now });
    expect((await fixed.mintClientToken(charge)).expiresAt).toEqual(new Date('2030-01-01T00:15:00Z'));
    expect((await fixed.mintClientToken(charge, 60)).expiresAt).toEqual(new Date('2030-01-01T00:01:00Z'));
  });

  it('are refused one second after exp, with no clock tolerance (the gateway mints and checks them on one clock)', async () => {
    const mintedAt = new Date('2030-01-01T00:00:00Z');
    const { token } = await createTokenVerifier(authConfig(), { now: () => mintedAt }).mintClientToken(charge, 60);
    const at = (seconds: number) => createTokenVerifier(authConfig(), { now: () => new Date(mintedAt.getTime() + seconds * 1000) });
    await expect(at(59).verify(token)).resolves.toMatchObject({ kind: 'client' });
    expect((await refusal(at(60).verify(token), token)).reason).toBe('expired');
    expect((await refusal(at(61).verify(token), token)).reason).toBe('expired');
  });

  it('are never kept by the verified-token cache past exp', async () => {
    const mintedAt = new Date('2030-01-01T00:00:00Z');
    let clock = mintedAt;
    const verifier = createTokenVerifier(authConfig(), { now: () => clock });
    const { token } = await verifier.mintClientToken(charge, 60);
    clock = new Date(mintedAt.getTime() + 59_000); // verified (and cached) one second before exp
    await expect(verifier.verifyAuthorization(`Bearer ${token}`)).resolves.toMatchObject({ kind: 'client' });
    clock = new Date(mintedAt.getTime() + 61_000);
    expect((await refusal(verifier.verifyAuthorization(`Bearer ${token}`), token)).reason).toBe('expired');
  });

  it('staff tokens of other issuers keep their 30 s clock tolerance', async () => {
    const mintedAt = new Date('2030-01-01T00:00:00Z');
    const { token } = await mintStaffToken({ secret: SECRET, scopes: ['payments:read'], subject: 'ops', ttlSeconds: 60, now: mintedAt });
    const at = (seconds: number) => createTokenVerifier(authConfig(), { now: () => new Date(mintedAt.getTime() + seconds * 1000) });
    await expect(at(61).verify(token)).resolves.toMatchObject({ kind: 'staff' });
    expect((await refusal(at(91).verify(token), token)).reason).toBe('expired');
  });

  it('are refused when signed by another key or when the bound resource is changed', async () => {
    const other = createTokenVerifier(authConfig({ clientTokenSecret: 'some-other-gateway-client-secret-0123456789' }));
    const foreign = (await other.mintClientToken(charge)).token;
    expect((await refusal(verifier.verify(foreign), foreign)).reason).toBe('signature');

    const [header, payload, signature] = (await verifier.mintClientToken(charge)).token.split('.');
    const retargeted = [
      header,
      base64url.encode(JSON.stringify({ ...decode(payload!), rsc: { k: 'charge', r: 'ch_456' }, sub: 'client:charge:ch_456' })),
      signature,
    ].join('.');
    expect((await refusal(verifier.verify(retargeted), retargeted)).reason).toBe('signature');
  });

  it('carry the client typ, audience and bound resource', async () => {
    const [header, payload] = (await verifier.mintClientToken(charge)).token.split('.');
    expect(decode(header!)).toEqual({ alg: 'HS256', typ: 'client+jwt' });
    expect(decode(payload!)).toMatchObject({ aud: 'momo-gateway:client', sub: 'client:charge:ch_123', rsc: { k: 'charge', r: 'ch_123' } });
  });

  it('are refused where only staff tokens are accepted, and staff tokens where only client tokens are', async () => {
    const client = (await verifier.mintClientToken(charge)).token;
    expect((await refusal(verifier.verifyStaff(client), client)).reason).toBe('kind');
    const staff = (await mintStaffToken({ secret: SECRET, scopes: ['payments:read'], subject: 'ops', ttlSeconds: 60 })).token;
    expect((await refusal(verifier.verifyClient(staff), staff)).reason).toBe('kind');
  });

  describe('even when the client-token key is the staff secret', () => {
    const shared = createTokenVerifier(authConfig({ clientTokenSecret: SECRET }));
    const key = new TextEncoder().encode(SECRET);

    it('a client token does not pass as a staff token', async () => {
      const client = (await shared.mintClientToken(charge)).token;
      await expect(shared.verify(client)).resolves.toMatchObject({ kind: 'client' });
      expect((await refusal(shared.verifyStaff(client), client)).reason).toBe('kind');
    });

    it('nor does one relabelled as a staff JWT while keeping the client audience or resource claim', async () => {
      const staffLike = (extra: Record<string, unknown>) =>
        new SignJWT({ scope: 'payouts:write', ...extra })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .setSubject('client:charge:ch_123')
          .setExpirationTime(inOneHour())
          .sign(key);
      await expect(shared.verifyStaff(await staffLike({}))).resolves.toMatchObject({ kind: 'staff' });
      for (const token of [await staffLike({ aud: 'momo-gateway:client' }), await staffLike({ rsc: { k: 'charge', r: 'ch_123' } })]) {
        expect((await refusal(shared.verify(token), token)).reason).toBe('kind');
      }
    });

    it('a staff token relabelled with the client typ does not pass as a client token', async () => {
      const relabelled = await new SignJWT({ scope: 'payments:read' })
        .setProtectedHeader({ alg: 'HS256', typ: 'client+jwt' })
        .setSubject('ops')
        .setExpirationTime(inOneHour())
        .sign(key);
      expect((await refusal(shared.verify(relabelled), relabelled)).reason).toBe('claims');
    });
  });

  it('are verified with the client-token key, not the staff secret', async () => {
    // A staff-secret holder cannot mint client tokens when the keys differ.
    const forged = await new SignJWT({ rsc: { k: 'charge', r: 'ch_123' } })
      .setProtectedHeader({ alg: 'HS256', typ: 'client+jwt' })
      .setIssuer('momo-gateway')
      .setAudience('momo-gateway:client')
      .setSubject('client:charge:ch_123')
      .setExpirationTime(inOneHour())
      .sign(new TextEncoder().encode(SECRET));
    expect((await refusal(verifier.verify(forged), forged)).reason).toBe('signature');
    const genuine = await new SignJWT({ rsc: { k: 'charge', r: 'ch_123' } })
      .setProtectedHeader({ alg: 'HS256', typ: 'client+jwt' })
      .setIssuer('momo-gateway')
      .setAudience('momo-gateway:client')
      .setSubject('client:charge:ch_123')
      .setExpirationTime(inOneHour())
      .sign(new TextEncoder().encode(CLIENT_SECRET));
    await expect(verifier.verify(genuine)).resolves.toMatchObject({ kind: 'client', resource: charge });
  });

  it('are refused when the subject does not name the bound resource (a genuine signature notwithstanding)', async () => {
    const signed = (subject: string) =>
      new SignJWT({ rsc: { k: 'charge', r: 'ch_123' } })
        .setProtectedHeader({ alg: 'HS256', typ: 'client+jwt' })
        .setIssuer('momo-gateway')
        .setAudience('momo-gateway:client')
        .setSubject(subject)
        .setExpirationTime(inOneHour())
        .sign(new TextEncoder().encode(CLIENT_SECRET));
    await expect(verifier.verify(await signed('client:charge:ch_123'))).resolves.toMatchObject({ kind: 'client', resource: charge });
    for (const subject of ['client:charge:ch_999', 'client:checkout:ch_123', 'ops']) {
      const mismatched = await signed(subject);
      expect((await refusal(verifier.verify(mismatched), mismatched)).reason, subject).toBe('claims');
    }
  });

  it('refuse to be minted for anything but one charge or checkout', async () => {
    await expect(verifier.mintClientToken({ kind: 'charge', reference: '' })).rejects.toThrow();
    await expect(verifier.mintClientToken({ kind: 'transfer' as 'charge', reference: 'tr_1' })).rejects.toThrow();
  });
});
