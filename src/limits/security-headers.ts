// Browser hardening headers on every answer the gateway writes (JSON, event streams, health, errors, GraphiQL):
// no MIME sniffing, no Referer leaving the gateway, and no framing by any page (clickjacking: sandbox mode's
// GraphiQL carries a development token with every scope). Answers other than GraphiQL load nothing, so their
// policy allows nothing; GraphiQL's page gets a policy that lets exactly its own inlined code run.
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Plugin } from 'graphql-yoga';

/** The policy of every answer that is not GraphiQL's page: nothing may load, and no page may frame it. */
export const STRICT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // Framing protection twice: CSP frame-ancestors for current browsers, X-Frame-Options for older ones.
  'x-frame-options': 'DENY',
  'content-security-policy': STRICT_CSP,
};

/** Set before anything else writes: yoga's and every hand-written answer inherit them (writeHead merges). */
export function setSecurityHeaders(res: ServerResponse): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
}

/**
 * GraphiQL's policy. Its scripts are inlined in the page: each is allowed by its SHA-256 rather than by
 * 'unsafe-inline', so an injected script would not run. Styles are set by the editor at run time (inline ones
 * stay allowed); its web workers start from blob: URLs; it talks to this origin only (HTTP, SSE and WebSocket:
 * CSP3's 'self' covers ws: and wss: of the same host).
 */
export function graphiqlCsp(html: string): string {
  const hashes = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)]
    .map((m) => m[1]!)
    .filter((code) => code.trim() !== '')
    .map((code) => `'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`);
  return [
    "default-src 'self'",
    `script-src 'self' ${[...new Set(hashes)].join(' ')}`.trimEnd(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** GraphiQL's page gets graphiqlCsp instead of the strict policy (computed once per distinct page). */
export function useGraphiqlPolicy(): Plugin {
  const policies = new Map<string, string>();
  return {
    onResponse: async ({ response, setResponse, fetchAPI }) => {
      if (!response.headers.get('content-type')?.startsWith('text/html')) return;
      const html = await response.text();
      let policy = policies.get(html);
      if (policy === undefined) {
        policy = graphiqlCsp(html);
        if (policies.size >= 4) policies.delete(policies.keys().next().value!);
        policies.set(html, policy);
      }
      const headers = new fetchAPI.Headers(response.headers);
      headers.set('content-security-policy', policy);
      setResponse(new fetchAPI.Response(html, { status: response.status, headers }));
    },
  };
}
