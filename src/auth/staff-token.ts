// Minting HS256 staff tokens: `npm run token`, the sandbox's development token
// and the tests. Tokens from an identity provider (JWKS) are minted there.
import { SignJWT } from 'jose';
import { secretBytes } from './keys.js';
import type { Scope } from './scopes.js';
import { MERCHANT_CLAIM } from './principal.js';
import { InvalidArgumentError } from '../errors/internal-error.js';

/** A staff token just signed, and when it expires. */
export interface MintedToken {
  token: string;
  expiresAt: Date;
}

/** What a staff token is minted with: the key, its scopes, its subject, its lifetime, and the issuer and audience to check it against. */
export interface StaffTokenRequest {
  secret: string;
  scopes: Iterable<Scope>;
  subject: string;
  ttlSeconds: number;
  issuer?: string | null;
  audience?: string | null;
  /** Issue time; defaults to now. */
  now?: Date;
  /** Platform mode: the merchant whose staff this is (`merchant_id` claim); absent: none (an operator, or single mode). */
  merchantId?: string | null;
}

/**
 * Signs a staff token (HS256) for `subject` with `scopes`, valid `ttlSeconds`, carrying the issuer and audience
 * when given. Throws InvalidArgumentError on an empty subject or a bad lifetime.
 */
export async function mintStaffToken(request: StaffTokenRequest): Promise<MintedToken> {
  if (!request.subject) throw new InvalidArgumentError('a staff token needs a subject');
  if (!Number.isSafeInteger(request.ttlSeconds) || request.ttlSeconds <= 0)
    throw new InvalidArgumentError('ttlSeconds must be a positive integer');
  const issuedAt = Math.floor((request.now ?? new Date()).getTime() / 1000);
  const expiresAt = issuedAt + request.ttlSeconds;
  const claims = { scope: [...new Set(request.scopes)].join(' '), ...(request.merchantId ? { [MERCHANT_CLAIM]: request.merchantId } : {}) };
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(request.subject)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt);
  if (request.issuer) jwt.setIssuer(request.issuer);
  if (request.audience) jwt.setAudience(request.audience);
  return { token: await jwt.sign(secretBytes(request.secret)), expiresAt: new Date(expiresAt * 1000) };
}
