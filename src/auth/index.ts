// Identity: who may call the gateway (staff tokens with scopes, client tokens bound to one payment).
export { AuthError, tokenProblemOf, type AuthFailureReason } from './auth-error.js';
export { bearerFrom, hasSeveralAuthorizations, isCredentialList } from './bearer.js';
export { withGeneratedSecrets, deriveClientTokenSecret, type CompletedAuth } from './keys.js';
export {
  clientSubject,
  grantKey,
  hasScope,
  MERCHANT_CLAIM,
  type ClientPrincipal,
  type ClientResource,
  type ClientResourceKind,
  type Principal,
  type StaffPrincipal,
} from './principal.js';
export { SCOPES, isScope, parseScopeClaim, type Scope } from './scopes.js';
export { mintStaffToken, type MintedToken, type StaffTokenRequest } from './staff-token.js';
export { createTokenVerifier, type TokenVerifier, type TokenVerifierOptions } from './verify.js';
export { parseDurationSeconds } from '../config-values/duration.js';
