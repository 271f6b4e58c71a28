// Which web pages may drive the gateway: CORS answers, and the Origin of a
// WebSocket upgrade, follow one list (CORS_ORIGINS). Tokens travel in the
// Authorization header, never in cookies, so CORS never allows credentials.
// The gateway's own pages (GraphiQL) are always allowed.
import type { IncomingHttpHeaders } from 'node:http';

/** Which origins CORS and the WebSocket upgrade accept (CORS_ORIGINS, with `:*` ports), besides the gateway's own. */
export interface OriginPolicy {
  /** True for a listed origin (exact, or `scheme://host:*` for any port of that host). */
  listed(origin: string): boolean;
  /** A WebSocket upgrade or HTTP request from a browser page at `origin` to the gateway reached as `proto://host`. */
  allows(origin: string | undefined | null, host: string | undefined | null, proto?: 'http' | 'https'): boolean;
}

/** Parses CORS_ORIGINS into a policy. */
export function originPolicy(patterns: readonly string[]): OriginPolicy {
  const exact = new Set(patterns.filter((p) => !p.endsWith(':*')));
  const anyPort = patterns.filter((p) => p.endsWith(':*')).map((p) => p.slice(0, -2));
  const listed = (origin: string) => {
    if (exact.has(origin)) return true;
    const url = safeUrl(origin);
    return url !== null && anyPort.includes(`${url.protocol}//${url.hostname}`);
  };
  return {
    listed,
    // No Origin header: not a browser (a server, a script); the token decides.
    allows: (origin, host, proto) => origin === undefined || origin === null || listed(origin) || isSameOrigin(origin, host, proto),
  };
}

/**
 * The page was served by this gateway: its origin's host is the Host the request was sent to, and, when the
 * scheme the client used is known (a trusted proxy's X-Forwarded-Proto, src/http/client-address.ts), its scheme too.
 */
function isSameOrigin(origin: string, host: string | undefined | null, proto: 'http' | 'https' | undefined): boolean {
  const url = safeUrl(origin);
  if (url === null || !host || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false;
  if (proto && url.protocol !== `${proto}:`) return false;
  return url.host === host.toLowerCase();
}

function safeUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

const CORS_ALLOWED_HEADERS = ['authorization', 'content-type', 'accept', 'x-request-id', 'x-graphql-yoga-csrf'];

/** Yoga's `cors` option: headers for a listed origin only, never credentials; nothing for any other. */
export function corsOptions(policy: OriginPolicy) {
  return (request: Request) => {
    const origin = request.headers.get('origin');
    if (origin === null || !policy.listed(origin)) return false as const;
    return {
      origin,
      credentials: false,
      methods: ['GET', 'POST', 'OPTIONS'],
      allowedHeaders: CORS_ALLOWED_HEADERS,
      exposedHeaders: ['retry-after'],
      maxAge: 600,
    };
  };
}

/** A request header's single value (the first of a repeated one), or undefined. */
export function headerOf(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
