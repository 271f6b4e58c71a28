import { describe, expect, it } from 'vitest';
import { bearerFrom, createTokenVerifier, mintStaffToken } from '../../src/auth/index.js';
import { authConfig, refusal, SECRET } from './helpers.js';

describe('bearerFrom', () => {
  it('takes the token of a Bearer value, whatever the case of the scheme', () => {
    expect(bearerFrom('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerFrom('bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerFrom('BEARER abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerFrom('  Bearer   abc.def-_ghi~+/==  ')).toBe('abc.def-_ghi~+/==');
  });

  it('returns null for anything else', () => {
    for (const value of [
      undefined,
      null,
      '',
      '   ',
      'Bearer',
      'Bearer ',
      'Bearerabc',
      'Basic dXNlcjpwYXNz',
      'Token abc',
      'Bearer a b',
      'Bearer a,b',
      'abc.def.ghi',
    ]) {
      expect(bearerFrom(value), String(value)).toBeNull();
    }
  });
});

describe('verifyAuthorization', () => {
  const verifier = createTokenVerifier(authConfig());

  it('verifies the token of a Bearer header value', async () => {
    const { token } = await mintStaffToken({ secret: SECRET, scopes: ['payments:read'], subject: 'ops', ttlSeconds: 60 });
    await expect(verifier.verifyAuthorization(`bearer ${token}`)).resolves.toMatchObject({ kind: 'staff', subject: 'ops' });
  });

  it('tells a missing credential from a malformed one', async () => {
    for (const value of [undefined, null, '', ' ']) expect((await refusal(verifier.verifyAuthorization(value), '')).reason).toBe('missing');
    expect((await refusal(verifier.verifyAuthorization('Basic dXNlcjpwYXNz'), '')).reason).toBe('malformed');
    expect((await refusal(verifier.verifyAuthorization('Bearer not-a-jwt'), 'not-a-jwt')).reason).toBe('malformed');
  });
});
