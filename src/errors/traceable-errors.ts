// Every error the gateway masks is traceable: the client gets "Unexpected
// error." with `extensions.requestId`, and the server log gets the detail once,
// under that id. maskedError below is the one shape of an unexpected error, wherever
// it happens; src/execution/error-masking.ts (the one entry point of every error on its
// way out) decides when. Outside execution (a crash while reading the request, in a
// plugin, in a subscription's stream) yoga calls its `maskError` with no request at
// hand: the request id travels in an AsyncLocalStorage set around each HTTP request
// (src/http/request-handler.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { GraphQLError } from 'graphql';
import { topLevelError, type TopLevelOptions } from './top-level.js';
import type { Logger } from '../logger.js';

const scope = new AsyncLocalStorage<string>();

/** Runs `fn` (one HTTP request's handling) with `requestId` as the id of any error masked meanwhile. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return scope.run(requestId, fn);
}

/** The id of the HTTP request being handled (one made up when none is at hand). */
export function currentRequestId(): string {
  return scope.getStore() ?? randomUUID();
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
  requestId: string = currentRequestId(),
  at?: Pick<TopLevelOptions, 'path' | 'nodes' | 'source' | 'positions'>,
): GraphQLError {
  log.error('unexpected error', { requestId, error });
  return topLevelError('INTERNAL_SERVER_ERROR', undefined, {
    ...at,
    extensions: at ? { requestId } : { requestId, http: { status: 500 } },
  });
}
