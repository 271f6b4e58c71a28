// Who is calling. Staff tokens (the merchant's back office and servers) carry
// scopes; client tokens (a customer's browser) are bound to one payment.
import type { Scope } from './scopes.js';

/** A member of the merchant's staff or one of its servers, with the scopes its token grants. */
export interface StaffPrincipal {
  kind: 'staff';
  /** The token's `sub`. */
  subject: string;
  scopes: ReadonlySet<Scope>;
  expiresAt: Date;
}

/** The kinds of resource a client token may be bound to. */
export type ClientResourceKind = 'checkout' | 'charge';

/** The one charge or checkout a client token is bound to: the only resource its holder may read or act on. */
export interface ClientResource {
  kind: ClientResourceKind;
  reference: string;
}

/** A customer's browser, holding a client token bound to its one charge or checkout: it may touch nothing else. */
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

/** The subject of a client principal, naming the resource it is bound to. */
export function clientSubject(resource: ClientResource): string {
  return `client:${resource.kind}:${resource.reference}`;
}

/** Whether a principal holds a scope: only staff do; a client principal never holds any. */
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
