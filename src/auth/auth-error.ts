// The one error verification throws. Its message is safe to show a caller: it
// never quotes the token, its claims or the key material.

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

const MESSAGES: Record<AuthFailureReason, string> = {
  missing: 'Authentication required: send Authorization: Bearer <token>',
  malformed: 'The bearer token is malformed',
  algorithm: 'The token is invalid',
  signature: 'The token is invalid',
  expired: 'The token has expired',
  claims: 'The token is invalid',
  kind: 'This kind of token is not accepted here',
  keys_unavailable: 'The token could not be verified right now',
};

export class AuthError extends Error {
  override readonly name = 'AuthError';
  readonly code = 'UNAUTHENTICATED' as const;

  constructor(readonly reason: AuthFailureReason) {
    super(MESSAGES[reason]);
  }
}
