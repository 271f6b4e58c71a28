// What a handler returns: a complete HTTP answer as a value, so faults can
// rewrite it (truncate it, retype it) before it goes out.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface HttpResult {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A field-errors object as Django REST Framework shapes it: arrays of messages, nested objects for nested fields. */
export interface FieldErrors {
  [field: string]: string[] | FieldErrors;
}

export interface EnvelopeExtras {
  data?: unknown;
  error_code?: string;
  errors?: FieldErrors;
  pagination?: unknown;
  failed_transfers?: unknown;
}

export function json(status: number, payload: unknown, headers: Record<string, string> = {}): HttpResult {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(payload) };
}

export function envelope(status: number, ok: boolean, message: string, extras: EnvelopeExtras = {}): HttpResult {
  // Key order as in the spec's samples: status, message, data, then the rest.
  const body: Record<string, unknown> = { status: ok, message };
  for (const key of ['data', 'pagination', 'failed_transfers', 'error_code', 'errors'] as const) {
    if (extras[key] !== undefined) body[key] = extras[key];
  }
  return json(status, body);
}

/** Headers of every sandbox answer: no MIME sniffing, no Referer (the page's URL names a checkout), no framing. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
};

/**
 * The policy of a page: its own inline scripts and styles, each allowed by its SHA-256 (never 'unsafe-inline'),
 * fetches to this origin (the status poll), and no framing: the page takes phones and OTPs, so no other site may
 * put it under a disguise (clickjacking). Forms are not restricted: paying or cancelling redirects to the
 * merchant's success_url or cancel_url, which form-action would block.
 */
export function pagePolicy(page: string): string {
  const hashes = (tag: 'script' | 'style') =>
    [...page.matchAll(new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, 'gi'))]
      .map((m) => `'sha256-${createHash('sha256').update(m[1]!, 'utf8').digest('base64')}'`)
      .join(' ');
  return [
    "default-src 'none'",
    `script-src ${hashes('script') || "'none'"}`,
    `style-src ${hashes('style') || "'none'"}`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export function html(status: number, page: string): HttpResult {
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      ...SECURITY_HEADERS,
      'content-security-policy': pagePolicy(page),
    },
    body: page,
  };
}

export function redirect(location: string): HttpResult {
  return { status: 303, headers: { location, 'cache-control': 'no-store' }, body: '' };
}

/** A failure a handler throws; the server turns it into the envelope. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly httpStatus: number,
    message: string,
    readonly extras: { errorCode?: string; errors?: FieldErrors; data?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }

  toResult(): HttpResult {
    const result = envelope(this.httpStatus, false, this.message, {
      data: this.extras.data,
      error_code: this.extras.errorCode,
      errors: this.extras.errors,
    });
    Object.assign(result.headers, this.extras.headers ?? {});
    return result;
  }
}

export const INVALID_DATA_MESSAGE = 'Invalid data supplied. Check the input.';

export function invalidData(errors: FieldErrors, message = INVALID_DATA_MESSAGE): ApiError {
  return new ApiError(400, message, { errorCode: 'INVALID_DATA', errors });
}

export const MAX_BODY_BYTES = 1024 * 1024;

export class BodyTooLarge extends Error {}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

export function writeResult(res: ServerResponse, result: HttpResult): void {
  const body = Buffer.from(result.body, 'utf8');
  res.writeHead(result.status, { ...SECURITY_HEADERS, ...result.headers, 'content-length': String(body.length) });
  res.end(body);
}

/** The client's address as the service would log it (IPv4-mapped IPv6 shown as IPv4). */
export function clientIp(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}
