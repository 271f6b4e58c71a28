// What a client may see of a failure. Expected failures of mutations are union
// members and never get here. Failures of queries reach the client as GraphQL
// errors with a stable extensions.code; anything unexpected is replaced by a
// generic message and the request id, and only the server log has the detail.
// No API key, upstream URL, stack trace or upstream internals cross this line.
//
// It is also where every error gets its French: each GraphQL error a client
// receives carries `extensions.messageFr`, whether we raised it (the catalogue
// of src/errors/top-level.ts gives both languages) or a library did
// (graphql-js's validation and variable errors, yoga's request errors: see
// src/errors/graphql-fr.ts), over HTTP, SSE and WebSocket alike.
import { GraphQLError } from 'graphql';
import { handleStreamOrSingleExecutionResult, isAsyncIterable, type Plugin } from 'graphql-yoga';
import { frenchOf } from '../errors/graphql-fr.js';
import { PaymentError } from '../errors/payment-errors.js';
import { topLevelError, upstreamFailureText } from '../errors/top-level.js';
import type { Logger } from '../logger.js';
import { maskedError } from './traceable-errors.js';
import { UpstreamCallError } from '../upstream/call-error.js';

export function toClientError(error: GraphQLError, requestId: string, log: Logger): GraphQLError {
  const original = error.originalError;
  const where = { path: error.path, locations: error.locations };
  if (original instanceof UpstreamCallError) {
    if (original.code === 'UNAUTHENTICATED' || original.code === 'FORBIDDEN') {
      log.error('payment service rejected the API key', { requestId, status: original.httpStatus });
      return topLevelError('UPSTREAM_UNAUTHENTICATED', undefined, { ...where, extensions: { requestId } });
    }
    log.warn('payment service call failed', { requestId, code: original.code, fault: original.fault, status: original.httpStatus });
    const text = upstreamFailureText(original.code, original.retryable);
    return new GraphQLError(text.en, {
      ...where,
      extensions: { code: original.code, messageFr: text.fr, retryable: original.retryable, requestId },
    });
  }
  // Redis unreachable or behind its replicas where a field's union has no place for it (the payout-batch fields, the
  // lists): the same typed, retryable refusal a payment gets in its union, never an internal error.
  if (original instanceof PaymentError && original.code === 'SERVICE_UNAVAILABLE') {
    log.warn('refused: Redis unavailable', { requestId, path: error.path });
    return new GraphQLError(original.message, {
      ...where,
      extensions: { code: original.code, messageFr: original.messageFr, retryable: original.retryable, requestId },
    });
  }
  // Errors of the request itself (syntax, validation, variables: no path) and
  // the GraphQLErrors our resolvers raise on purpose (always with a code) carry
  // messages written for the client. A GraphQLError raised while executing a
  // field without a code is not ours: a library's (Pothos's own errors extend
  // GraphQLError) or graphql's about the schema ("Abstract type ... must
  // resolve"), i.e. unexpected.
  if (original === undefined || original instanceof GraphQLError) {
    const code = error.extensions?.code ?? original?.extensions?.code;
    if (error.path === undefined || typeof code === 'string') return withFrench(error);
  }
  // The one shape of an unexpected error (src/execution/traceable-errors.ts), in place of this field.
  return maskedError(original ?? error, log, requestId, {
    path: error.path,
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
  });
}

/**
 * The code of a library's error that came without one: graphql-js gives none to a document that does not
 * parse, to its validation errors, or to a variable whose value does not fit its type.
 */
function libraryCode(error: GraphQLError, stage?: 'parse' | 'validate'): string {
  if (stage === 'parse' || /^Syntax Error: /.test(error.message)) return 'GRAPHQL_PARSE_FAILED';
  if (stage === 'validate') return 'GRAPHQL_VALIDATION_FAILED';
  if (/^Variable "\$\w+" (got invalid value|of required type|of non-null type)/.test(error.message)) return 'BAD_USER_INPUT';
  return error.path === undefined ? 'BAD_REQUEST' : 'INTERNAL_SERVER_ERROR';
}

/** The error with `extensions.code` and `extensions.messageFr` (itself when it has both). */
export function withFrench(error: GraphQLError, stage?: 'parse' | 'validate'): GraphQLError {
  const hasCode = typeof error.extensions?.code === 'string';
  if (typeof error.extensions?.messageFr === 'string' && hasCode) return error;
  const code = hasCode ? error.extensions.code : libraryCode(error, stage);
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    // Only a GraphQLError may stay behind it: yoga masks an error whose origin is anything else.
    originalError: error.originalError instanceof GraphQLError ? error.originalError : undefined,
    extensions: { ...error.extensions, code, messageFr: frenchOf(error) },
  });
}

type MaybeErrors = { errors?: readonly GraphQLError[] };
/** Called with each result of an execution (one, or each of a stream's). */
type OnEachResult = Parameters<typeof handleStreamOrSingleExecutionResult>[1];

function frenchResult<T>(result: T): T {
  if (Array.isArray(result)) return result.map(frenchResult) as T;
  const errors = (result as MaybeErrors | null)?.errors;
  if (!errors?.length || isAsyncIterable(result)) return result;
  return { ...(result as object), errors: errors.map((e) => (e instanceof GraphQLError ? withFrench(e) : e)) } as T;
}

export function useClientSafeErrors(log: Logger): Plugin<{ requestId?: string }> {
  const rewrite =
    (requestId: string): OnEachResult =>
    ({ result, setResult }) => {
      if (!result.errors?.length) return;
      setResult({ ...result, errors: result.errors.map((e) => toClientError(e, requestId, log)) });
    };
  return {
    // Request errors: a document that does not parse or validate (over WebSocket these never reach onResultProcess).
    onParse:
      () =>
      ({ result, replaceParseResult }) => {
        if (result instanceof GraphQLError) replaceParseResult(withFrench(result, 'parse'));
      },
    onValidate:
      () =>
      ({ result, setResult }) => {
        if (result.length > 0) setResult(result.map((e) => (e instanceof GraphQLError ? withFrench(e, 'validate') : e)) as GraphQLError[]);
      },
    // The last word over HTTP: whatever yoga answers without executing (a bad token in the context, a
    // request that is not GraphQL, a masked error) gets its French too.
    onResultProcess: ({ result, setResult }) => {
      if (!isAsyncIterable(result)) setResult(frenchResult(result));
    },
    onExecute: ({ args }) => ({
      onExecuteDone: (payload) => handleStreamOrSingleExecutionResult(payload, rewrite(args.contextValue.requestId ?? 'unknown')),
    }),
    onSubscribe: ({ args }) => ({
      onSubscribeResult: (payload) => handleStreamOrSingleExecutionResult(payload, rewrite(args.contextValue.requestId ?? 'unknown')),
    }),
  };
}
