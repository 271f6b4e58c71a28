// Node's HTTP server deadlines: a client that sends its headers or its body
// slowly is dropped (Node's defaults keep such a connection 300 s), so a
// hundred slow senders cannot hold the gateway's sockets. An idle keep-alive
// connection stays open longer than any proxy in front keeps its own idle
// connections (HTTP_KEEP_ALIVE_TIMEOUT_MS, 75 s; the recipe's Caddy: 60 s), so
// the proxy, never the gateway, closes an idle one: a proxy that reuses a
// connection the gateway is closing at that instant gets a reset (a 502).
import type { ServerOptions } from 'node:http';
import type { LimitsConfig } from '../config.js';

/** Node's server options for slow senders (headers, whole request) and idle keep-alive connections. */
export function serverTimeouts(limits: Pick<LimitsConfig, 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs'>): ServerOptions {
  const requestTimeout = limits.requestTimeoutMs;
  // Node requires headersTimeout <= requestTimeout.
  const headersTimeout = Math.min(limits.headersTimeoutMs, requestTimeout);
  return {
    headersTimeout,
    requestTimeout,
    // Why headersTimeout stays below keepAliveTimeout, against the old advice to raise it above: since Node 18.2 it
    // counts from a request's first byte, not from the end of the previous response, so an idle connection reused
    // after 60 s is answered (test/http/keep-alive.test.ts), and raising it would widen the slow-headers window.
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // How often Node looks for expired requests (default 30 s, which would let a 10 s deadline run to 40 s).
    connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(headersTimeout / 2))),
  };
}
