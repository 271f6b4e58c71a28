// Client tokens: what the customer's browser holds, like Stripe's
// client_secret. Signed by the gateway with its own key, bound to one charge
// or checkout. Three marks keep them apart from staff tokens even if both
// keys were the same: the `typ` header, the audience, and the `rsc` claim
// (staff verification refuses a token carrying any of them).
import { SignJWT } from 'jose';
import { clientSubject, MERCHANT_CLAIM, type ClientResource, type ClientResourceKind } from './principal.js';
import type { MintedToken } from './staff-token.js';
import { InvalidArgumentError } from '../errors/internal-error.js';

/** The `typ` header of a client token, checked on every client token: a token without it is not taken for one. */
export const CLIENT_TOKEN_TYP = 'client+jwt';
/** The issuer of client tokens: the gateway itself, which alone mints them. */
export const CLIENT_TOKEN_ISSUER = 'momo-gateway';
/** The audience of client tokens, distinct from any staff audience. */
export const CLIENT_TOKEN_AUDIENCE = 'momo-gateway:client';
/** Claim holding the bound resource: `{ k: 'charge' | 'checkout', r: '<reference>' }`. */
export const RESOURCE_CLAIM = 'rsc';

const KINDS: readonly ClientResourceKind[] = ['checkout', 'charge'];

/**
 * Mints a client token bound to one charge or checkout, valid `ttlSeconds` from `now`, signed HS256 with the gateway's client-token key.
 * Throws InvalidArgumentError for a resource without a kind or reference, or a ttl that is not a positive integer.
 */
export async function signClientToken(
  key: Uint8Array,
  resource: ClientResource,
  ttlSeconds: number,
  now: Date,
  merchantId: string | null = null,
): Promise<MintedToken> {
  if (!KINDS.includes(resource.kind) || !resource.reference)
    throw new InvalidArgumentError('a client token is bound to one charge or checkout reference');
  if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds <= 0) throw new InvalidArgumentError('ttlSeconds must be a positive integer');
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = issuedAt + ttlSeconds;
  const token = await new SignJWT({
    [RESOURCE_CLAIM]: { k: resource.kind, r: resource.reference },
    ...(merchantId ? { [MERCHANT_CLAIM]: merchantId } : {}),
  })
    .setProtectedHeader({ alg: 'HS256', typ: CLIENT_TOKEN_TYP })
    .setIssuer(CLIENT_TOKEN_ISSUER)
    .setAudience(CLIENT_TOKEN_AUDIENCE)
    .setSubject(clientSubject(resource))
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(key);
  return { token, expiresAt: new Date(expiresAt * 1000) };
}

/** The resource of a verified client token's claims, or null when the claims do not name one consistently. */
export function boundResource(payload: Record<string, unknown>): ClientResource | null {
  const claim = payload[RESOURCE_CLAIM];
  if (typeof claim !== 'object' || claim === null) return null;
  const { k, r } = claim as Record<string, unknown>;
  if (typeof r !== 'string' || r === '' || !KINDS.includes(k as ClientResourceKind)) return null;
  const resource: ClientResource = { kind: k as ClientResourceKind, reference: r };
  return payload.sub === clientSubject(resource) ? resource : null;
}

/** Whether a header carries the client-token `typ` (compared as RFC 7515 §4.1.9 says: case-insensitive, `application/` optional). */
export function isClientTyp(typ: unknown): boolean {
  return typeof typ === 'string' && typ.toLowerCase().replace(/^application\//, '') === CLIENT_TOKEN_TYP;
}
