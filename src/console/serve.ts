// The back office (console/, its own Vite build in dist/console/) served at /console on the gateway's own origin,
// so it calls /graphql with no CORS. Files are read once at start and kept compressed in memory. Hashed assets
// (assets/<name>-<hash>.js) are cached for a year as immutable; index.html is revalidated on every visit, so a new
// build reaches people at once. Every path under /console that is not a file is the app's own route (bookmarkable
// pages): it answers index.html, which carries the console's settings as a JSON data block (not executed, so the
// policy below needs no 'unsafe-inline'; in sandbox mode the personas' test tokens, never in live mode).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

export const CONSOLE_PATH = '/console';

/** A staff token the page may offer in sandbox mode (test money only). */
export interface ConsolePersona {
  id: string;
  name: { fr: string; en: string };
  token: string;
}

/** What index.html tells the app about this gateway. */
export interface ConsoleSettings {
  mode: 'sandbox' | 'live';
  /** Sandbox mode only: the personas, the first being the one signed in at once. */
  personas: ConsolePersona[];
  /** OpenID Connect sign-in (CONSOLE_OIDC_ISSUER, CONSOLE_OIDC_CLIENT_ID); null: token sign-in only. */
  oidc: { issuer: string; clientId: string; scope: string; resource: string | null } | null;
  /** PAYOUT_FEE_BPS: the fee rate a payroll's preview assumes before the batch exists (its own totals then say). */
  payoutFeeBps: number;
}

interface StaticFile {
  type: string;
  raw: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
  immutable: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.csv': 'text/csv; charset=utf-8',
  '.woff2': 'font/woff2',
};

/**
 * The console's policy: its own scripts only (no inline script, no eval), inline style attributes (React Aria and
 * uPlot position elements with them), data: images (the chart's canvas export), this origin for HTTP and
 * WebSocket (CSP3's 'self' covers ws: of the same host) plus the OpenID issuer the browser must reach, no framing.
 */
export function consoleCsp(settings: ConsoleSettings): string {
  const issuer = settings.oidc ? ` ${new URL(settings.oidc.issuer).origin}` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${issuer}`,
    "manifest-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** The settings as a JSON data block; `<` escaped so no value can close the script element. */
export function settingsBlock(settings: ConsoleSettings): string {
  const json = JSON.stringify(settings).replace(/</g, '\\u003c');
  return `<script type="application/json" id="console-settings">${json}</script>`;
}

function compressFile(raw: Buffer, type: string, immutable: boolean): StaticFile {
  return {
    type,
    raw,
    br: brotliCompressSync(raw),
    gzip: gzipSync(raw, { level: 9 }),
    etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}"`,
    immutable,
  };
}

function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file, base) : [path.relative(base, file).split(path.sep).join('/')];
  });
}

/** Reads the build once; null when there is none (the caller says how to make it). */
export function loadConsoleFiles(dir: string, settings: ConsoleSettings): Map<string, StaticFile> | null {
  if (!existsSync(path.join(dir, 'index.html'))) return null;
  const files = new Map<string, StaticFile>();
  for (const name of filesUnder(dir)) {
    const type = TYPES[path.extname(name)] ?? 'application/octet-stream';
    let raw = readFileSync(path.join(dir, name));
    if (name === 'index.html') raw = Buffer.from(raw.toString('utf8').replace('</head>', `${settingsBlock(settings)}</head>`));
    // Vite names what it builds <name>-<hash>.<ext> under assets/: the name changes whenever the content does.
    files.set(name, compressFile(raw, type, name.startsWith('assets/')));
  }
  return files;
}

function encodingOf(req: IncomingMessage): 'br' | 'gzip' | null {
  const accepted = String(req.headers['accept-encoding'] ?? '').toLowerCase();
  if (/\bbr\b/.test(accepted)) return 'br';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return null;
}

function send(req: IncomingMessage, res: ServerResponse, file: StaticFile, csp: string): void {
  const encoding = encodingOf(req);
  const headers: Record<string, string> = {
    'content-type': file.type,
    'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    etag: file.etag,
    vary: 'Accept-Encoding',
    'content-security-policy': csp,
    'cross-origin-opener-policy': 'same-origin-allow-popups',
  };
  if (req.headers['if-none-match'] === file.etag) return void res.writeHead(304, headers).end();
  const body = encoding ? file[encoding] : file.raw;
  if (encoding) headers['content-encoding'] = encoding;
  headers['content-length'] = String(body.length);
  res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : body);
}

/** The /console handler: a file of the build, or index.html for the app's own routes. */
export function consoleHandler(dir: string, settings: ConsoleSettings): (req: IncomingMessage, res: ServerResponse) => void {
  const files = loadConsoleFiles(dir, settings);
  const csp = consoleCsp(settings);
  return (req, res) => {
    const pathname = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    if (pathname === CONSOLE_PATH) return void res.writeHead(301, { location: `${CONSOLE_PATH}/` }).end();
    if (!files) {
      return void res
        .writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
        .end('The console is not built: run `npm run build` (npm start builds it).\n');
    }
    const name = pathname.slice(CONSOLE_PATH.length + 1);
    const file = files.get(name);
    if (file) return send(req, res, file, csp);
    // A missing asset is a 404 (a stale page asking for an old chunk must fail, not get HTML); a page path is the app's.
    if (name.startsWith('assets/') || path.extname(name) !== '') {
      return void res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end('Not found\n');
    }
    send(req, res, files.get('index.html')!, csp);
  };
}
