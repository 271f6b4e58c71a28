// `Authorization: Bearer <token>` (RFC 6750; the scheme is case-insensitive).
const BEARER = /^\s*bearer +([A-Za-z0-9\-._~+/]+=*)\s*$/i;

/** The token of a Bearer authorization value, or null when absent or not of that form. */
export function bearerFrom(headerValue: string | null | undefined): string | null {
  if (typeof headerValue !== 'string') return null;
  return BEARER.exec(headerValue)?.[1] ?? null;
}
