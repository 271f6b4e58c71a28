// Who is calling. Staff tokens (the merchant's back office and servers) carry
// scopes; client tokens (a customer's browser) are bound to one payment.
import type { Scope } from './scopes.js';

export interface StaffPrincipal {
  kind: 'staff';
  /** The token's `sub`. */
  subject: string;
  scopes: ReadonlySet<Scope>;
  expiresAt: Date;
}

export type ClientResourceKind = 'checkout' | 'charge';

/** The one charge or checkout a client token is bound to: the only resource its holder may read or act on. */
export interface ClientResource {
  kind: ClientResourceKind;
  reference: string;
}

export interface ClientPrincipal {
  kind: 'client';
  /** `client:<kind>:<reference>`, e.g. `client:charge:ch_123`. */
  subject: string;
  resource: ClientResource;
  expiresAt: Date;
}

/**
 * Who is calling, once the token is verified: a staff or server token (with its scopes), or a customer's client
 * token (bound to one payment).
 */
export type Principal = StaffPrincipal | ClientPrincipal;

export function clientSubject(resource: ClientResource): string {
  return `client:${resource.kind}:${resource.reference}`;
}

export function hasScope(principal: Principal, scope: Scope): boolean {
  return principal.kind === 'staff' && principal.scopes.has(scope);
}

/**
 * What a principal may see, without who it is: two principals with the same grant get the same answer to the
 * same operation (the subject and the expiry only say who asked and until when).
 */
export function grantKey(principal: Principal): string {
  return principal.kind === 'staff'
    ? `staff:${[...principal.scopes].sort().join(',')}`
    : `client:${principal.resource.kind}:${principal.resource.reference}`;
}
