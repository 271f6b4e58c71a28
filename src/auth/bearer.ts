// `Authorization: Bearer <token>` (RFC 6750; the scheme is case-insensitive).
const BEARER = /^\s*bearer +([A-Za-z0-9\-._~+/]+=*)\s*$/i;

/** The token of a Bearer authorization value, or null when absent or not of that form. */
export function bearerFrom(headerValue: string | null | undefined): string | null {
  if (typeof headerValue !== 'string') return null;
  return BEARER.exec(headerValue)?.[1] ?? null;
}

/**
 * Whether a request carries more than one credential: two `Authorization` headers (Node keeps the first and drops
 * the others, while a proxy may read the last: two parties would see two callers), or one value holding a
 * comma-separated list (what a proxy that merges repeated headers makes of them; no Bearer token has a comma).
 * `rawHeaders` is Node's flat [name, value, name, value, ...] list.
 */
export function hasSeveralAuthorizations(rawHeaders: readonly string[]): boolean {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() !== 'authorization') continue;
    seen += 1;
    if (seen > 1 || isCredentialList(rawHeaders[i + 1])) return true;
  }
  return false;
}

/** A value naming several credentials (`Bearer a, Bearer b`): refused whole rather than choosing one. */
export function isCredentialList(value: string | null | undefined): boolean {
  return typeof value === 'string' && value.includes(',');
}
