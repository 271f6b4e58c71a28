// Node's HTTP server deadlines: a client that sends its headers or its body
// slowly is dropped (Node's defaults keep such a connection 300 s), so a
// hundred slow senders cannot hold the gateway's sockets.
import type { ServerOptions } from 'node:http';
import type { LimitsConfig } from '../config.js';

export function serverTimeouts(limits: Pick<LimitsConfig, 'headersTimeoutMs' | 'requestTimeoutMs'>): ServerOptions {
  const requestTimeout = limits.requestTimeoutMs;
  // Node requires headersTimeout <= requestTimeout.
  const headersTimeout = Math.min(limits.headersTimeoutMs, requestTimeout);
  return {
    headersTimeout,
    requestTimeout,
    // How often Node looks for expired requests (default 30 s, which would let a 10 s deadline run to 40 s).
    connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(headersTimeout / 2))),
  };
}
