// The two keep-alive pools to the payment service (reads; calls that change state, so a payment never waits
// for a connection behind reads) and one request on them, told when it is written to a socket.
import { Pool } from 'undici';
import type { HttpCall, HttpResponse, TransportOptions } from './transport-types.js';

const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

interface Pools {
  read: Pool;
  write: Pool;
}

export function openPools(origin: string, options: TransportOptions, timeoutMs: number): Pools {
  const poolOf = (connections: number) =>
    new Pool(origin, {
      connections,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 4_000,
      keepAliveMaxTimeout: 60_000,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connect: { timeout: Math.min(timeoutMs, 10_000) },
      maxResponseSize: MAX_RESPONSE_BYTES,
    });
  return { read: poolOf(options.connections ?? 16), write: poolOf(options.writeConnections ?? 32) };
}

/** The pool for `call`, told when the request is written to a socket (undici calls onConnect just before). */
function dispatcherFor(pools: Pools, call: HttpCall, onWritten: () => void) {
  const pool = call.idempotent ? pools.read : pools.write;
  return pool.compose((dispatch) => (opts, handler) => dispatch(opts, noticeWrite(handler, onWritten)));
}

/** One attempt of a call: its headers, its body read to the end (or destroyed). */
export async function attempt(
  pools: Pools,
  target: { prefix: string; options: TransportOptions },
  call: HttpCall,
  signal: AbortSignal,
  onWritten: () => void,
): Promise<HttpResponse> {
  const { prefix, options } = target;
  const headers: Record<string, string> = { ...options.traceHeaders?.(), 'X-API-KEY': options.apiKey, Accept: 'application/json' };
  let body: string | undefined;
  if (call.body !== undefined) {
    body = JSON.stringify(call.body);
    headers['Content-Type'] = 'application/json';
  }
  const qs = call.query?.toString();
  const path = `${prefix}${call.path}${qs ? `?${qs}` : ''}`;
  const res = await dispatcherFor(pools, call, onWritten).request({ method: call.method, path, headers, body, signal });
  try {
    const text = await res.body.text();
    return { statusCode: res.statusCode, text };
  } catch (err) {
    res.body.destroy();
    throw err;
  }
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
