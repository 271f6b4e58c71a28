// The one error verification throws. Its message is safe to show a caller: it
// never quotes the token, its claims or the key material.
import { InternalError } from '../errors/internal-error.js';
import { TOKEN_PROBLEMS, type TokenProblem } from '../errors/token-problems.js';

/** Why a token was refused, for audit lines and metrics (not shown to callers beyond `message`). */
export type AuthFailureReason =
  | 'missing' // no Authorization header / connection_init authorization
  | 'malformed' // not `Bearer <jwt>`, or not a JWT at all
  | 'algorithm' // alg not allowed for this kind of token (alg: none, algorithm confusion, …)
  | 'signature' // no key verifies it
  | 'expired'
  | 'claims' // issuer, audience, typ, sub, exp or the bound resource wrong or missing
  | 'kind' // a client token where a staff token is required, or the reverse
  | 'keys_unavailable'; // the JWKS endpoint could not be read

/** What a caller is told of each reason: the reasons that would reveal something of the key material are merged. */
const TOLD: Record<AuthFailureReason, TokenProblem> = {
  missing: 'missing',
  malformed: 'malformed',
  algorithm: 'invalid',
  signature: 'invalid',
  claims: 'invalid',
  expired: 'expired',
  kind: 'kind',
  keys_unavailable: 'keys_unavailable',
};

/** The catalogue's problem (UNAUTHENTICATED's variant in src/errors/top-level.ts) a refusal for `reason` is told as. */
export function tokenProblemOf(reason: AuthFailureReason): TokenProblem {
  return TOLD[reason];
}

/**
 * Thrown by token verification for any refused token; `reason` says why (for logs and metrics), `message` is the
 * catalogue's English and never quotes the token.
 */
export class AuthError extends InternalError {
  override readonly name = 'AuthError';
  readonly code = 'UNAUTHENTICATED' as const;

  constructor(readonly reason: AuthFailureReason) {
    // The catalogue's English for what the caller is told (src/errors/token-problems.ts), never a sentence of its own.
    super(TOKEN_PROBLEMS[TOLD[reason]].en);
  }
}
