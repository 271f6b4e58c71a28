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
  /**
   * The token's `merchant_id` claim (platform mode): the merchant whose staff it is; null: no claim (single mode's
   * tokens, and a platform operator's, which acts for a merchant only by naming it).
   */
  merchantId?: string | null;
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
  /** The merchant whose payment it is (platform mode's `merchant_id` claim); null in single mode. */
  merchantId?: string | null;
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
  // Two merchants' staff with the same scopes see different data: the merchant is part of the grant.
  const merchant = principal.merchantId == null ? '' : `@${principal.merchantId}`;
  return principal.kind === 'staff'
    ? `staff:${[...principal.scopes].sort().join(',')}${merchant}`
    : `client:${principal.resource.kind}:${principal.resource.reference}${merchant}`;
}

/** The `merchant_id` claim of platform mode's tokens: staff, client and development tokens carry it. */
export const MERCHANT_CLAIM = 'merchant_id';

/** The merchant id a token's claims carry; null when it carries none; undefined when the claim is there but not a string. */
export function merchantClaimOf(payload: Record<string, unknown>): string | null | undefined {
  const claim = payload[MERCHANT_CLAIM];
  if (claim === undefined) return null;
  return typeof claim === 'string' && claim !== '' ? claim : undefined;
}
