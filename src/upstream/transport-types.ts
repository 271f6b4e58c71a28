// The shapes the transport's parts share (http.ts, transport-pools.ts, transport-retries.ts): a leaf, so they import no part.

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
