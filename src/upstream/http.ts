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
// Parts: the pools and one attempt (transport-pools.ts), the deadline and retries (transport-retries.ts), faults
// (transport-faults.ts).
// - Nothing is logged here; error messages never contain the API key or the base URL.

import type { TransportFault, UpstreamCallError } from './call-error.js';
import { redactor, transportFault, type FaultDetails } from './transport-faults.js';
import { attempt, openPools } from './transport-pools.js';
import { sendWithRetries } from './transport-retries.js';
import type { HttpCall, HttpResponse, TransportOptions } from './transport-types.js';

export type { HttpCall, HttpResponse, TransportOptions };

export type { FaultDetails };

export interface Transport {
  send(call: HttpCall): Promise<HttpResponse>;
  /** Builds the UPSTREAM_UNAVAILABLE error for a fault (also used by the client for bad bodies). */
  fault(kind: TransportFault, details: FaultDetails): UpstreamCallError;
  /** Replaces the API key and the base URL in text that will end up in an error. */
  redact(text: string): string;
  close(): Promise<void>;
}

export function createTransport(options: TransportOptions): Transport {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new TypeError('Invalid payment service base URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('Invalid payment service base URL');
  const timeoutMs = options.timeoutMs > 0 ? options.timeoutMs : 15_000;
  const pools = openPools(url.origin, options, timeoutMs);
  const target = { prefix: url.pathname.replace(/\/+$/, ''), options };
  const redact = redactor(options.apiKey, options.baseUrl, url);
  const fault = (kind: TransportFault, details: FaultDetails) => transportFault(kind, details, { timeoutMs, redact });
  const retries = { timeoutMs, maxRetries: options.maxRetries ?? 2, retryBaseMs: options.retryBaseMs ?? 100 };
  let closing: Promise<void> | null = null;
  return {
    send: (call) => sendWithRetries(call, retries, (signal, onWritten) => attempt(pools, target, call, signal, onWritten), redact),
    fault,
    redact,
    close() {
      closing ??= Promise.all([pools.read.close(), pools.write.close()]).then(
        () => undefined,
        () => undefined,
      );
      return closing;
    },
  };
}
