// Transport to the payment service: one keep-alive undici Pool per base URL.
//
// - Headers: `X-API-KEY`, `Accept: application/json`, and `Content-Type: application/json` on bodies.
// - Deadline: one per call (`timeoutMs`, default 15 s), covering connect, headers and the
//   whole body, and all attempts of a retried GET together; a silent service never hangs a call.
// - Retries: only calls marked idempotent (plain GETs), at most `maxRetries` (2) times, with
//   jittered exponential backoff, on network faults that are safe to repeat (refused,
//   connect timeout, reset) and on HTTP 502/503/504; only while the deadline leaves room.
//   POSTs and the cancel-settlement GET (it changes state) are never retried here.
// - Faults become UpstreamCallError UPSTREAM_UNAVAILABLE with `fault` set. For non-idempotent calls,
//   every fault that may have happened after the request left (timeout, reset, bad body,
//   HTTP status) sets `outcomeUnknown`; only faults where the request provably never left
//   (connection refused, DNS failure, connect timeout, closed client) leave it false.
// - Calls that change state (POSTs, the cancel GET: non-idempotent) have a pool of their own, so a
//   payment never waits for a connection behind reads. Each call knows whether its request was
//   written to a socket: one still waiting for a connection at its deadline provably never left
//   (`neverSent`, not `outcomeUnknown`), so its idempotency key is released.
// - Bodies are always read to the end (or destroyed); the size is capped.
// - Nothing is logged here; error messages never contain the API key or the base URL.

import { Pool } from 'undici';
import { UpstreamCallError, type TransportFault } from './call-error.js';

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  /** Retries of an idempotent call (default 2, i.e. at most 3 attempts). */
  maxRetries?: number;
  /** First backoff step in ms (default 100; then 200, 400...), each jittered to 50-100 %. */
  retryBaseMs?: number;
  /** Maximum sockets to the service for reads (default 16). */
  connections?: number;
  /** Maximum sockets for calls that change state (default 32; a pool of their own). */
  writeConnections?: number;
  /**
   * Idle time before a kept-alive socket is closed (default 4 s, below the 5 s of common servers, so a
   * POST is not written to a socket the server is closing; `Keep-Alive` hints of the server are honoured).
   */
  keepAliveTimeoutMs?: number;
  /** Headers naming the trace a call belongs to (W3C traceparent/tracestate), asked for at each attempt. */
  traceHeaders?: () => Record<string, string>;
}

export interface HttpCall {
  method: 'GET' | 'POST';
  /** Path below the base URL, starting with `/`, path segments already encoded. */
  path: string;
  query?: URLSearchParams;
  body?: unknown;
  /** Safe to send twice: only then are faults retried; faults never leave its outcome unknown. */
  idempotent: boolean;
}

export interface HttpResponse {
  statusCode: number;
  text: string;
}

export interface FaultDetails {
  idempotent: boolean;
  httpStatus?: number | null;
  detail?: string;
  /** Whether the request may have reached the service (default true). */
  sent?: boolean;
}

export interface Transport {
  send(call: HttpCall): Promise<HttpResponse>;
  /** Builds the UPSTREAM_UNAVAILABLE error for a fault (also used by the client for bad bodies). */
  fault(kind: TransportFault, details: FaultDetails): UpstreamCallError;
  /** Replaces the API key and the base URL in text that will end up in an error. */
  redact(text: string): string;
  close(): Promise<void>;
}

const RETRY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

interface Classified {
  fault: TransportFault;
  /** The request may have reached the service. */
  sent: boolean;
  /** Safe to repeat for an idempotent call. */
  retryable: boolean;
  detail: string;
}

export function createTransport(options: TransportOptions): Transport {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new TypeError('Invalid payment service base URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('Invalid payment service base URL');
  const prefix = url.pathname.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs > 0 ? options.timeoutMs : 15_000;
  const maxRetries = options.maxRetries ?? 2;
  const retryBaseMs = options.retryBaseMs ?? 100;

  const poolOf = (connections: number) =>
    new Pool(url.origin, {
      connections,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 4_000,
      keepAliveMaxTimeout: 60_000,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connect: { timeout: Math.min(timeoutMs, 10_000) },
      maxResponseSize: MAX_RESPONSE_BYTES,
    });
  const readPool = poolOf(options.connections ?? 16);
  const writePool = poolOf(options.writeConnections ?? 32);
  let closing: Promise<void> | null = null;

  const secrets = [options.apiKey, options.baseUrl, options.baseUrl.replace(/\/+$/, ''), url.origin, url.host]
    .filter((s) => s.length >= 4)
    .sort((a, b) => b.length - a.length);
  const redact = (text: string): string => secrets.reduce((t, s) => t.split(s).join('[redacted]'), text);

  function fault(kind: TransportFault, details: FaultDetails): UpstreamCallError {
    const neverSent = details.sent === false;
    const outcomeUnknown = !details.idempotent && !neverSent;
    const base = FAULT_MESSAGES[kind](timeoutMs, details.httpStatus ?? null);
    const detail = details.detail ? ` (${redact(details.detail)})` : '';
    const suffix = outcomeUnknown ? '; the request may have been carried out' : neverSent ? '; the request was not sent' : '';
    return new UpstreamCallError({
      code: 'UPSTREAM_UNAVAILABLE',
      message: `${base}${detail}${suffix}`,
      httpStatus: details.httpStatus ?? null,
      fault: kind,
      outcomeUnknown,
      neverSent,
    });
  }

  /** The pool for `call`, told when the request is written to a socket (undici calls onConnect just before). */
  function dispatcherFor(call: HttpCall, onWritten: () => void) {
    const pool = call.idempotent ? readPool : writePool;
    return pool.compose((dispatch) => (opts, handler) => dispatch(opts, noticeWrite(handler, onWritten)));
  }

  async function attempt(call: HttpCall, signal: AbortSignal, onWritten: () => void): Promise<HttpResponse> {
    const headers: Record<string, string> = { ...options.traceHeaders?.(), 'X-API-KEY': options.apiKey, Accept: 'application/json' };
    let body: string | undefined;
    if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      headers['Content-Type'] = 'application/json';
    }
    const qs = call.query?.toString();
    const path = `${prefix}${call.path}${qs ? `?${qs}` : ''}`;
    const res = await dispatcherFor(call, onWritten).request({ method: call.method, path, headers, body, signal });
    try {
      const text = await res.body.text();
      return { statusCode: res.statusCode, text };
    } catch (err) {
      res.body.destroy();
      throw err;
    }
  }

  async function send(call: HttpCall): Promise<HttpResponse> {
    const deadline = Date.now() + timeoutMs;
    const controller = new AbortController();
    let timedOut = false;
    let written = false;
    // undici also calls onConnect for a request aborted while queued (then does not write it): not written.
    const onWritten = () => {
      if (!controller.signal.aborted) written = true;
    };
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('deadline exceeded'));
    }, timeoutMs);
    try {
      for (let n = 0; ; n++) {
        const mayRetry = call.idempotent && n < maxRetries;
        let res: HttpResponse;
        try {
          res = await attempt(call, controller.signal, onWritten);
        } catch (err) {
          const c = timedOut
            ? written
              ? { fault: 'timeout' as const, sent: true, retryable: false, detail: '' }
              : { fault: 'timeout' as const, sent: false, retryable: false, detail: 'no connection was free' }
            : classify(err);
          if (mayRetry && c.retryable && (await backoff(n, deadline, controller.signal))) continue;
          throw fault(c.fault, { idempotent: call.idempotent, sent: c.sent, detail: c.detail });
        }
        if (mayRetry && RETRY_STATUSES.has(res.statusCode) && (await backoff(n, deadline, controller.signal))) continue;
        return res;
      }
    } finally {
      clearTimeout(timer);
    }
  }

  function backoff(n: number, deadline: number, signal: AbortSignal): Promise<boolean> {
    const ms = retryBaseMs * 2 ** n * (0.5 + Math.random() * 0.5);
    if (Date.now() + ms >= deadline || signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = () => {
        clearTimeout(t);
        resolve(false);
      };
      const t = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve(true);
      }, ms);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  return {
    send,
    fault,
    redact,
    close() {
      closing ??= Promise.all([readPool.close(), writePool.close()]).then(
        () => undefined,
        () => undefined,
      );
      return closing;
    },
  };
}

/** The same handler, calling `onWritten` when undici is about to write its request (old and new handler APIs). */
function noticeWrite<H extends object>(handler: H, onWritten: () => void): H {
  return new Proxy(handler, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      if (prop === 'onConnect' || prop === 'onRequestStart') {
        return (...args: unknown[]) => {
          onWritten();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

const FAULT_MESSAGES: Record<TransportFault, (timeoutMs: number, status: number | null) => string> = {
  refused: () => 'Payment service unreachable',
  timeout: (ms) => `Payment service did not answer within ${ms} ms`,
  reset: () => 'Connection to the payment service was lost',
  bad_body: () => 'Payment service sent an unreadable response',
  http_status: (_ms, status) => `Payment service answered HTTP ${status ?? '?'} without a response body`,
};

/** Every `code` found on an error, its cause chain and AggregateError members. */
function errorCodes(err: unknown, depth = 0): string[] {
  if (depth > 4 || typeof err !== 'object' || err === null) return [];
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  const own = typeof e.code === 'string' ? [e.code] : [];
  const members = Array.isArray(e.errors) ? e.errors.flatMap((x) => errorCodes(x, depth + 1)) : [];
  return [...own, ...members, ...errorCodes(e.cause, depth + 1)];
}

const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
const CLOSED = new Set(['UND_ERR_CLOSED', 'UND_ERR_DESTROYED']);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'UND_ERR_ABORTED']);

function classify(err: unknown): Classified {
  const codes = errorCodes(err);
  const has = (set: ReadonlySet<string>) => codes.find((c) => set.has(c));
  let code: string | undefined;
  if ((code = has(NOT_SENT))) return { fault: 'refused', sent: false, retryable: true, detail: code };
  if ((code = has(CLOSED))) return { fault: 'refused', sent: false, retryable: false, detail: 'client closed' };
  if (codes.includes('UND_ERR_CONNECT_TIMEOUT')) return { fault: 'timeout', sent: false, retryable: true, detail: 'connect' };
  if (codes.includes('UND_ERR_HEADERS_TIMEOUT') || codes.includes('UND_ERR_BODY_TIMEOUT') || codes.includes('ETIMEDOUT')) {
    return { fault: 'timeout', sent: true, retryable: false, detail: '' };
  }
  if ((code = has(RESET))) return { fault: 'reset', sent: true, retryable: true, detail: code };
  if (codes.includes('UND_ERR_RES_EXCEEDED_MAX_SIZE'))
    return { fault: 'bad_body', sent: true, retryable: false, detail: 'response too large' };
  if ((code = codes.find((c) => c.startsWith('HPE_'))))
    return { fault: 'bad_body', sent: true, retryable: false, detail: 'malformed HTTP response' };
  // Unknown: assume the worst (it may have been sent) and do not repeat it.
  return { fault: 'reset', sent: true, retryable: false, detail: codes[0] ?? 'unexpected transport error' };
}
