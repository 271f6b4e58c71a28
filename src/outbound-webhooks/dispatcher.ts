// Sends one attempt: a POST over undici whose connections are checked where
// they are made. The Agent's `connect.lookup` resolves the name, checks every
// address it got (not only the first) and connects only to a public one; a
// literal address in the URL is checked before the request. Redirects are never
// followed (a 3xx is a failed attempt): a public URL must not bounce the
// gateway to an address inside the network. The answer's first 1 KB is kept.
import dns, { type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import ipaddr from 'ipaddr.js';
import { isPublicAddress } from './target-policy.js';
import type { DeliveryAttempt } from './model.js';
import { InternalError } from '../errors/internal-error.js';

const RESPONSE_EXCERPT_BYTES = 1024;

/** Resolves a name to every address (dns.lookup with all: true by default; tests hand in their own). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

interface DispatcherOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
  resolve?: Resolver;
}

/** Posts a webhook to a merchant's endpoint and says what came of it. */
export interface Dispatcher {
  post(url: string, body: string, headers: Record<string, string>): Promise<DeliveryAttempt>;
  close(): Promise<void>;
}

class AddressNotAllowedError extends InternalError {
  override readonly name = 'AddressNotAllowedError';
  readonly code = 'EADDRNOTALLOWED';
}

const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** net.connect's `lookup`, refusing a name any of whose addresses is not public. */
function checkedLookup(resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
        if (addresses.some((a) => !isPublicAddress(a.address))) return callback(new AddressNotAllowedError('address not allowed'), '', 4);
        if (options.all) return (callback as unknown as (err: null, all: LookupAddress[]) => void)(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: Error) => callback(err as NodeJS.ErrnoException, '', 4),
    );
  };
}

/**
 * A dispatcher on its own connection pool, with `timeoutMs` on connect, headers and body. Unless private targets are allowed, refuses an
 * address that resolves to a private, loopback or link-local network (checked at connect time, so a DNS change cannot get round it). Never
 * throws: every failure is an attempt's outcome.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const guard = !options.allowPrivateTargets;
  const agent = new Agent({
    connect: { timeout: options.timeoutMs, ...(guard ? { lookup: checkedLookup(options.resolve ?? systemResolver) } : {}) },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 30_000,
  });
  return {
    async post(url, body, headers) {
      const started = Date.now();
      const at = new Date(started).toISOString();
      const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
      if (guard && ipaddr.isValid(host) && !isPublicAddress(host)) return failure(at, started, 'address not allowed');
      try {
        const answer = await request(url, {
          method: 'POST',
          dispatcher: agent,
          headers: { 'content-type': 'application/json', 'user-agent': 'momo-gateway-webhooks', ...headers },
          body,
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        const excerpt = await readExcerpt(answer.body);
        const status = answer.statusCode;
        const error = status >= 300 && status < 400 ? 'redirect not followed' : status >= 200 && status < 300 ? null : `HTTP ${status}`;
        return { at, httpStatus: status, durationMs: Date.now() - started, error, responseBodyExcerpt: excerpt };
      } catch (err) {
        return failure(at, started, describeFailure(err, options.timeoutMs));
      }
    },
    // Attempts still open at a stop are cut: their events stay in flight or in the retry set, and are sent again.
    close: () => agent.destroy(),
  };
}

function failure(at: string, started: number, error: string): DeliveryAttempt {
  return { at, httpStatus: null, durationMs: Date.now() - started, error, responseBodyExcerpt: null };
}

/** The first RESPONSE_EXCERPT_BYTES of the answer as text; the rest is not read. */
async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string | null> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    bytes += chunk.length;
    if (bytes >= RESPONSE_EXCERPT_BYTES) break;
  }
  if (bytes === 0) return null;
  return Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
}

/** A short, fixed description of why an attempt got no answer (never the URL or a body). */
function describeFailure(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; cause?: { code?: string; name?: string } };
  const code = e.code ?? e.cause?.code;
  if (code === 'EADDRNOTALLOWED' || e.cause?.name === 'AddressNotAllowedError') return 'address not allowed';
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || /TIMEOUT/.test(code ?? '')) return `timeout after ${timeoutMs} ms`;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'name not resolved';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset';
  if (code && /^(ERR_TLS|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED)/.test(code)) return 'TLS error';
  return 'connection failed';
}
