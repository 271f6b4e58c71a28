// Identity: who may call the gateway (staff tokens with scopes, client tokens bound to one payment).
export { AuthError, type AuthFailureReason } from './errors.js';
export { bearerFrom, hasSeveralAuthorizations, isCredentialList } from './bearer.js';
export { withGeneratedSecrets, deriveClientTokenSecret, type CompletedAuth } from './keys.js';
export {
  clientSubject,
  grantKey,
  hasScope,
  type ClientPrincipal,
  type ClientResource,
  type ClientResourceKind,
  type Principal,
  type StaffPrincipal,
} from './principal.js';
export { SCOPES, SCOPE_TABLE, isScope, parseScopeClaim, requiredScopeFor, type RootType, type Scope, type ScopeGrant } from './scopes.js';
export { mintStaffToken, type MintedToken, type StaffTokenRequest } from './staff-token.js';
export { createTokenVerifier, type TokenVerifier, type TokenVerifierOptions } from './verify.js';
export { parseDurationSeconds } from './duration.js';
