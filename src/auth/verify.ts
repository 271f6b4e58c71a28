// Verifies bearer tokens into principals. Every failure becomes one AuthError
// (code UNAUTHENTICATED) whose message never quotes the token or its claims.
//
// Algorithms are chosen per key, never from the token: HS256 only with the
// configured secret, RS256/ES256 only with JWKS keys. An HS256 token "signed"
// with the identity provider's public key therefore meets the HMAC secret and
// fails, and `alg: none` matches no list at all.
import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { ConfigError, type AuthConfig } from '../config.js';
import {
  boundResource,
  CLIENT_TOKEN_AUDIENCE,
  CLIENT_TOKEN_ISSUER,
  CLIENT_TOKEN_TYP,
  isClientTyp,
  RESOURCE_CLAIM,
  signClientToken,
} from './client-token.js';
import { bearerFrom } from './bearer.js';
import { AuthError, type AuthFailureReason } from './auth-error.js';
import { secretBytes } from './keys.js';
import { merchantClaimOf, type ClientPrincipal, type ClientResource, type Principal, type StaffPrincipal } from './principal.js';
import { parseScopeClaim } from './scopes.js';
import type { MintedToken } from './staff-token.js';

const SECRET_ALGORITHMS = ['HS256'];
const JWKS_ALGORITHMS = ['RS256', 'ES256'];
/**
 * Tokens of other issuers (staff tokens from an identity provider, or minted on another machine) get a little
 * clock tolerance: their `exp` was computed on a clock that is not ours. Client tokens are minted and checked by
 * this gateway's own clock, so they get none: one rule on HTTP, SSE and WebSocket, which closes at `exp`.
 */
const STAFF_CLOCK_TOLERANCE_SECONDS = 30;
/**
 * A token verified with one of the gateway's own secrets (HS256 staff tokens, client tokens) is taken
 * from memory for up to a minute, never past its expiry: a frontend sends the same token with every
 * operation, and verifying it each time is a large part of an operation's own cost. Those keys only
 * change with a restart. Tokens of JWKS keys are verified every time, so that a key the identity
 * provider retires stops working at once.
 */
const VERIFIED_CACHE_TTL_MS = 60_000;
const VERIFIED_CACHE_MAX = 10_000;

/** How tokens signed by an identity provider's keys (JWKS) are fetched and cached; every field has a default. */
export interface TokenVerifierOptions {
  /** After a JWKS fetch, how long an unknown `kid` waits before it may trigger another (jose's cooldownDuration). Default 30 s. */
  jwksCooldownMs?: number;
  /** Longest time JWKS keys are used without refetching. Default 10 min. */
  jwksCacheMaxAgeMs?: number;
  /** Deadline of one JWKS fetch. Default 5 s. */
  jwksTimeoutMs?: number;
  /** The clock for expiry checks and minted tokens; tests move it instead of waiting. */
  now?: () => Date;
}

/** Turns a bearer token into a Principal, or throws AuthError; verified tokens are cached, never past their `exp`. */
export interface TokenVerifier {
  /** A staff or a client token, told apart by its `typ` header. */
  verify(token: string): Promise<Principal>;
  /** An `Authorization` header value (or graphql-ws `connection_init` `authorization`): missing or not Bearer → AuthError. */
  verifyAuthorization(headerValue: string | null | undefined): Promise<Principal>;
  verifyStaff(token: string): Promise<StaffPrincipal>;
  verifyClient(token: string): Promise<ClientPrincipal>;
  /** A client token bound to one charge or checkout (of `merchantId`'s, in platform mode); ttl defaults to CLIENT_TOKEN_TTL. */
  mintClientToken(resource: ClientResource, ttlSeconds?: number, merchantId?: string | null): Promise<MintedToken>;
}

/**
 * The verifier of a configuration's keys (HS256 secret or JWKS, and the client-token key). Throws ConfigError when
 * no staff-token key or no client-token key is configured.
 */
export function createTokenVerifier(auth: AuthConfig, options: TokenVerifierOptions = {}): TokenVerifier {
  if (auth.jwtSecret === null && auth.jwksUrl === null)
    throw new ConfigError('no staff token key configured (AUTH_JWT_SECRET or AUTH_JWKS_URL)');
  if (auth.clientTokenSecret === null)
    throw new ConfigError('no client-token key: pass the configuration through withGeneratedSecrets first');
  const now = options.now ?? (() => new Date());
  const staffSecret = auth.jwtSecret === null ? null : secretBytes(auth.jwtSecret);
  const clientKey = secretBytes(auth.clientTokenSecret);
  const jwks = auth.jwksUrl === null ? null : remoteKeys(auth.jwksUrl, options);

  async function verifyStaff(token: string): Promise<StaffPrincipal> {
    const header = protectedHeader(token);
    if (isClientTyp(header.typ)) throw new AuthError('kind');
    const keyed = staffKeyFor(String(header.alg), staffSecret, jwks);
    const options = {
      algorithms: keyed.algorithms,
      clockTolerance: STAFF_CLOCK_TOLERANCE_SECONDS,
      currentDate: now(),
      requiredClaims: ['exp', 'sub'],
      ...(auth.issuer ? { issuer: auth.issuer } : {}),
      ...(auth.audience ? { audience: auth.audience } : {}),
    };
    const payload = await verified(() =>
      keyed.key instanceof Uint8Array ? jwtVerify(token, keyed.key, options) : jwtVerify(token, keyed.key, options),
    );
    return staffPrincipalOf(payload);
  }

  async function verifyClient(token: string): Promise<ClientPrincipal> {
    if (!isClientTyp(protectedHeader(token).typ)) throw new AuthError('kind');
    const payload = await verified(() =>
      jwtVerify(token, clientKey, {
        algorithms: SECRET_ALGORITHMS,
        typ: CLIENT_TOKEN_TYP,
        issuer: CLIENT_TOKEN_ISSUER,
        audience: CLIENT_TOKEN_AUDIENCE,
        currentDate: now(),
        requiredClaims: ['exp', 'sub', RESOURCE_CLAIM],
      }),
    );
    const resource = boundResource(payload);
    const merchantId = merchantClaimOf(payload);
    if (!resource || merchantId === undefined) throw new AuthError('claims');
    const principal: ClientPrincipal = { kind: 'client', subject: payload.sub!, resource, expiresAt: expiryOf(payload) };
    return merchantId === null ? principal : { ...principal, merchantId };
  }

  // Insertion order is recency: a hit moves to the end, the first entry is the least recently used.
  const verifiedTokens = new Map<string, { principal: Principal; validUntilMs: number }>();

  async function verify(token: string): Promise<Principal> {
    const at = now().getTime();
    const hit = verifiedTokens.get(token);
    if (hit) {
      verifiedTokens.delete(token);
      if (at < hit.validUntilMs) {
        verifiedTokens.set(token, hit);
        return hit.principal;
      }
    }
    const header = protectedHeader(token);
    const principal = await (isClientTyp(header.typ) ? verifyClient(token) : verifyStaff(token));
    if (principal.kind === 'staff' && !SECRET_ALGORITHMS.includes(String(header.alg))) return principal;
    // jose accepts a token until its exp (plus the tolerance of its kind): the cache never admits it longer.
    const toleranceMs = principal.kind === 'staff' ? STAFF_CLOCK_TOLERANCE_SECONDS * 1000 : 0;
    const validUntilMs = Math.min(principal.expiresAt.getTime() + toleranceMs, at + VERIFIED_CACHE_TTL_MS);
    verifiedTokens.set(token, { principal, validUntilMs });
    if (verifiedTokens.size > VERIFIED_CACHE_MAX) verifiedTokens.delete(verifiedTokens.keys().next().value!);
    return principal;
  }

  return {
    verify,
    verifyStaff,
    verifyClient,
    async verifyAuthorization(headerValue) {
      if (headerValue === null || headerValue === undefined || headerValue.trim() === '') throw new AuthError('missing');
      const token = bearerFrom(headerValue);
      if (token === null) throw new AuthError('malformed');
      return verify(token);
    },
    mintClientToken: (resource, ttlSeconds = auth.clientTokenTtlSeconds, merchantId = null) =>
      signClientToken(clientKey, resource, ttlSeconds, now(), merchantId),
  };
}

/** The principal of a verified staff token's claims; AuthError when they belong to a client token or lack a subject. */
function staffPrincipalOf(payload: JWTPayload): StaffPrincipal {
  if (RESOURCE_CLAIM in payload || audiences(payload).includes(CLIENT_TOKEN_AUDIENCE)) throw new AuthError('kind');
  if (typeof payload.sub !== 'string' || payload.sub === '') throw new AuthError('claims');
  const merchantId = merchantClaimOf(payload);
  if (merchantId === undefined) throw new AuthError('claims');
  const principal: StaffPrincipal = {
    kind: 'staff',
    subject: payload.sub,
    scopes: parseScopeClaim(payload.scope),
    expiresAt: expiryOf(payload),
  };
  return merchantId === null ? principal : { ...principal, merchantId };
}

/** The key a staff token's algorithm names: the shared secret (HS*) or the key set (RS*, ES*...), as configured. */
function staffKeyFor(alg: string, staffSecret: Uint8Array | null, jwks: JWTVerifyGetKey | null) {
  if (staffSecret && SECRET_ALGORITHMS.includes(alg)) return { key: staffSecret, algorithms: SECRET_ALGORITHMS };
  if (jwks && JWKS_ALGORITHMS.includes(alg)) return { key: jwks, algorithms: JWKS_ALGORITHMS };
  throw new AuthError('algorithm');
}

function remoteKeys(url: string, options: TokenVerifierOptions): JWTVerifyGetKey {
  const keys = createRemoteJWKSet(new URL(url), {
    cooldownDuration: options.jwksCooldownMs ?? 30_000,
    cacheMaxAge: options.jwksCacheMaxAgeMs ?? 600_000,
    timeoutDuration: options.jwksTimeoutMs ?? 5_000,
  });
  // A key that is not there is the token's fault; an endpoint that cannot be read is not.
  return async (header, token) => {
    try {
      return await keys(header, token);
    } catch (err) {
      if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys) throw new AuthError('signature');
      throw new AuthError('keys_unavailable');
    }
  };
}

function protectedHeader(token: string): ReturnType<typeof decodeProtectedHeader> {
  try {
    return decodeProtectedHeader(token);
  } catch {
    throw new AuthError('malformed');
  }
}

async function verified(run: () => Promise<{ payload: JWTPayload }>): Promise<JWTPayload> {
  try {
    return (await run()).payload;
  } catch (err) {
    throw err instanceof AuthError ? err : new AuthError(reasonOf(err));
  }
}

function reasonOf(err: unknown): AuthFailureReason {
  if (err instanceof errors.JWTExpired) return 'expired';
  if (err instanceof errors.JWTClaimValidationFailed) return 'claims';
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'signature';
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) return 'algorithm';
  return 'malformed';
}

function audiences(payload: JWTPayload): string[] {
  return typeof payload.aud === 'string' ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : [];
}

function expiryOf(payload: JWTPayload): Date {
  return new Date(payload.exp! * 1000);
}
