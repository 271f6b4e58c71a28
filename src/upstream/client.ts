// The typed client: one function per REST operation of the payment service, each
// made from its declaration (./operations.ts: endpoint, request, normalizer).
// Responses: the envelope decides success by `status`; failures go through
// mapFailure (./failure.ts); `data` goes through the operation's normalizer; a
// `data` of the wrong shape is a `bad_body` fault.
// A body that is not an envelope is a `bad_body` fault whatever the HTTP status
// (an HTML 502 page included, after the GET retries); `http_status` is a 5xx
// with an empty body. Both are UPSTREAM_UNAVAILABLE with `httpStatus` set.

import type { UpstreamConfig } from '../config.js';
import { readEnvelopeInTurns, type Envelope } from './envelope.js';
import { mapFailure } from './failure.js';
import { createTransport, type HttpCall, type Transport } from './http.js';
import { BadBodyError } from './normalize.js';
import { callOutcome, type UpstreamObserver } from './observation.js';
import { OPERATION_NAMES, PAYMENT_PATH, declarationOf, endpointOf, type Operation, type OperationDeclaration } from './operations.js';
import { segment } from './request-fields.js';
import type { UpstreamClient } from './types.js';

export interface UpstreamClientOptions {
  /** Retries of idempotent GETs (default 2). */
  maxRetries?: number;
  /** First backoff step in ms (default 100). */
  retryBaseMs?: number;
  /** Maximum sockets to the service for reads (default 16). */
  connections?: number;
  /** Maximum sockets for calls that change state, a pool of their own (default 32). */
  writeConnections?: number;
  /** Told of every call once it ends (metrics, traces); what it throws is ignored. */
  observe?: UpstreamObserver;
  /** Trace context headers sent with each call (the higher layer's tracing; none by default). */
  traceHeaders?: () => Record<string, string>;
}

/** One call's exchange: the answer read as an envelope, its failure mapped, its data normalized. */
async function exchange<T>(
  http: Transport,
  operation: Operation,
  req: HttpCall,
  read: (env: Envelope) => T | Promise<T>,
  /** A failure envelope that still carries a result (bulk transfers). */
  readFailure?: (env: Envelope) => boolean,
): Promise<T> {
  const res = await http.send(req);
  const reading = await readEnvelopeInTurns(res.text);
  if (!reading.ok) {
    const kind = reading.reason === 'empty' && res.statusCode >= 500 ? 'http_status' : 'bad_body';
    throw http.fault(kind, {
      idempotent: req.idempotent,
      httpStatus: res.statusCode,
      detail: kind === 'bad_body' ? `HTTP ${res.statusCode}, ${READING_DETAIL[reading.reason]}` : undefined,
    });
  }
  const env = reading.envelope;
  if (!env.status && !(readFailure?.(env) ?? false)) {
    throw mapFailure(env, { operation, httpStatus: res.statusCode, redact: http.redact });
  }
  try {
    return await read(env);
  } catch (err) {
    throw http.fault('bad_body', {
      idempotent: req.idempotent,
      httpStatus: res.statusCode,
      detail: err instanceof BadBodyError ? err.message : 'unexpected response shape',
    });
  }
}

function httpCall<K extends Operation>(
  config: UpstreamConfig,
  declaration: OperationDeclaration<K>,
  args: Parameters<UpstreamClient[K]>,
): HttpCall {
  const { reference, query, body } = declaration.request?.(args, config) ?? {};
  const path = declaration.path.replace('{reference}', () => segment(reference as string));
  // Only a read is safe to send twice (cancelSettlement is a GET that changes state).
  const idempotent = declaration.method === 'GET' && !declaration.movesMoney;
  return { method: declaration.method, path: `${PAYMENT_PATH}${path}`, query, body, idempotent };
}

/**
 * The typed client of the payment service, made from the operations' declarations (undici, separate pools for
 * money moves).
 */
export function createUpstreamClient(config: UpstreamConfig, options: UpstreamClientOptions = {}): UpstreamClient {
  const { observe, ...transportOptions } = options;
  const http = createTransport({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    timeoutMs: config.timeoutMs,
    ...transportOptions,
  });

  async function call<T>(
    operation: Operation,
    req: HttpCall,
    read: (env: Envelope) => T,
    readFailure?: (env: Envelope) => boolean,
  ): Promise<T> {
    if (!observe) return exchange(http, operation, req, read, readFailure);
    const startedAt = Date.now();
    const started = performance.now();
    const report = (outcome: string) => {
      try {
        observe({ operation, endpoint: endpointOf(operation), outcome, startedAt, durationMs: performance.now() - started });
      } catch {
        // Bookkeeping must never change how a payment call ends.
      }
    };
    try {
      const result = await exchange(http, operation, req, read, readFailure);
      report('success');
      return result;
    } catch (err) {
      report(callOutcome(err));
      throw err;
    }
  }

  /**
   * One client method, as its declaration says. Async, so a value the service must not see rejects (never
   * throws) like any failed call, and before anything is observed.
   */
  function operation<K extends Operation>(name: K) {
    const declaration: OperationDeclaration<K> = declarationOf(name);
    return async (...args: Parameters<UpstreamClient[K]>) => {
      const req = httpCall(config, declaration, args);
      return call(name, req, (env) => declaration.read(env, args), declaration.readsFailure);
    };
  }

  // TypeScript cannot relate each name to its own method in a loop over a union: the declarations' types are checked above.
  const methods = Object.fromEntries(OPERATION_NAMES.map((name) => [name, operation(name)])) as unknown as Omit<UpstreamClient, 'close'>;

  return {
    ...methods,
    close() {
      return http.close();
    },
  };
}

const READING_DETAIL = { empty: 'empty body', not_json: 'not JSON', not_envelope: 'not a response envelope' } as const;
