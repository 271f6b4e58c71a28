// The back office (console/, its own Vite build in dist/console/) served at /console on the gateway's own origin,
// so it calls /graphql with no CORS. Files are read once at start and kept compressed in memory. Hashed assets
// (assets/<name>-<hash>.js) are cached for a year as immutable; index.html is revalidated on every visit, so a new
// build reaches people at once. Every path under /console that is not a file is the app's own route (bookmarkable
// pages): it answers index.html, which carries the console's settings as a JSON data block (not executed, so the
// policy below needs no 'unsafe-inline'; in sandbox mode the personas' test tokens, never in live mode).
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

// On libuv's thread pool, and only once the console is first asked for: most gateways (every test's, an API-only
// deployment's) never serve it, and must not pay for compressing it at start.
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

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
  /** MERCHANT_MODE: in platform mode a token without a merchant (an operator's) picks the merchant it acts for. */
  merchantMode: 'single' | 'platform';
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

async function compressFile(raw: Buffer, type: string, immutable: boolean): Promise<StaticFile> {
  const [br, gz] = await Promise.all([
    // Quality 9 (of 11): within a few percent of the best for a fraction of its time.
    brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
    gzipAsync(raw, { level: 9 }),
  ]);
  return { type, raw, br, gzip: gz, etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}"`, immutable };
}

/** Reads and compresses the build; null when there is none (the caller says how to make it). */
export async function loadConsoleFiles(dir: string, settings: ConsoleSettings): Promise<Map<string, StaticFile> | null> {
  if (!existsSync(path.join(dir, 'index.html'))) return null;
  const names = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
  const files = new Map<string, StaticFile>();
  await Promise.all(
    names.map(async (name) => {
      const type = TYPES[path.extname(name)] ?? 'application/octet-stream';
      let raw = await readFile(path.join(dir, name));
      if (name === 'index.html') raw = Buffer.from(raw.toString('utf8').replace('</head>', `${settingsBlock(settings)}</head>`));
      // Vite names what it builds <name>-<hash>.<ext> under assets/: the name changes whenever the content does.
      files.set(name, await compressFile(raw, type, name.startsWith('assets/')));
    }),
  );
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
  let loading: Promise<Map<string, StaticFile> | null> | null = null;
  const csp = consoleCsp(settings);
  const serve = (req: IncomingMessage, res: ServerResponse, files: Map<string, StaticFile> | null) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    } catch {
      return void res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Bad path\n');
    }
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
  return (req, res) => {
    loading ??= loadConsoleFiles(dir, settings);
    loading.then(
      (files) => serve(req, res, files),
      () => {
        loading = null; // a build being replaced under us: read it again on the next request
        if (!res.headersSent)
          res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end('Try again\n');
      },
    );
  };
}
