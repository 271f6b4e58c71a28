// Every error the gateway masks is traceable: the client gets "Unexpected
// error." with `extensions.requestId`, and the server log gets the detail once,
// under that id. maskedError below is the one shape of an unexpected error, wherever
// it happens: src/execution/error-masking.ts uses it for a field's error, and yoga's maskError
// (maskUnexpected, here) for what src/execution/error-masking.ts cannot see because it
// happens outside execution (a crash while reading the request, in a plugin,
// in validation, in a subscription's stream), where yoga calls `maskError`
// with no request at hand: the request id travels in an AsyncLocalStorage set
// around each HTTP request (src/http/request-handler.ts). Yoga's own request errors keep
// their message but never the client's body (malformed JSON is not echoed).
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { GraphQLError } from 'graphql';
import { topLevelError, type TopLevelOptions } from '../errors/top-level.js';
import type { Logger } from '../logger.js';

const scope = new AsyncLocalStorage<string>();

/** Runs `fn` (one HTTP request's handling) with `requestId` as the id of any error masked meanwhile. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return scope.run(requestId, fn);
}

/**
 * The masked form of an unexpected error, the same wherever it happened: "Unexpected error." with
 * INTERNAL_SERVER_ERROR, its French and the request id (never absent); logged once with its detail.
 * `at`: the field it replaces (path and location), for an error of one field in an otherwise answered
 * operation; without it the error is the whole answer's, and HTTP says 500.
 */
export function maskedError(
  error: unknown,
  log: Logger,
  requestId: string = scope.getStore() ?? randomUUID(),
  at?: Pick<TopLevelOptions, 'path' | 'nodes' | 'source' | 'positions'>,
): GraphQLError {
  log.error('unexpected error', { requestId, error });
  return topLevelError('INTERNAL_SERVER_ERROR', undefined, {
    ...at,
    extensions: at ? { requestId } : { requestId, http: { status: 500 } },
  });
}

/** Yoga's `maskedErrors.maskError`. */
export function maskUnexpected(log: Logger) {
  return (error: unknown): Error => {
    if (error instanceof GraphQLError) {
      const original = error.originalError;
      // A GraphQLError raised because of something else (a bug, a library's exception) is unexpected.
      if (original && !(original instanceof GraphQLError)) return maskedError(original, log);
      return withoutEcho(error);
    }
    return maskedError(error, log);
  };
}

/**
 * Yoga attaches the JSON parser's message, which quotes the body, to its "invalid JSON" error. The message goes;
 * the entry stays (yoga answers 400 rather than 200 because of it).
 */
function withoutEcho(error: GraphQLError): GraphQLError {
  const echoed = error.extensions?.originalError as { name?: unknown } | undefined;
  if (!echoed) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, originalError: { name: String(echoed.name ?? 'Error'), message: error.message } },
  });
}
