// What a client may see of a failure: the one entry point every error passes on its way out (toClientError),
// whether it comes from a field's execution, a document that does not parse or validate, a subscription's stream,
// or anything yoga catches outside execution (its maskError is maskUnexpected, below). Expected failures of
// mutations are union members and never get here. Failures of queries reach the client as GraphQL errors with a
// stable extensions.code; anything unexpected is replaced by "Unexpected error." and the request id
// (src/execution/traceable-errors.ts), and only the server log has the detail. No API key, upstream URL, stack
// trace or upstream internals cross this line.
//
// It is also where every error gets its French: each GraphQL error a client receives carries
// `extensions.messageFr`, whether we raised it (the catalogue of src/errors/top-level.ts gives both languages)
// or a library did (graphql-js's parse, validation and variable errors, yoga's request errors, graphql-armor's
// limits: each sentence has its entry, code and French in src/errors/library-errors.ts), over HTTP, SSE and
// WebSocket alike.
import { GraphQLError } from 'graphql';
import { handleStreamOrSingleExecutionResult, isAsyncIterable, type Plugin } from 'graphql-yoga';
import { frenchOf, libraryText } from './library-errors.js';
import { PaymentError } from './payment-errors.js';
import { topLevelError, typedErrorAtTopLevel, upstreamFailureError, withCodeAndFrench } from './top-level.js';
import type { Logger } from '../logger.js';
import { UpstreamCallError } from '../upstream/call-error.js';
import { currentRequestId, maskedError } from './traceable-errors.js';

/**
 * Where an error was met. `request`: outside execution (yoga's maskError), the error is the whole answer (HTTP
 * 500 when unexpected). `parse` and `validate`: the document's own errors. `execution`: an error of a result.
 */
export type ErrorStage = 'request' | 'parse' | 'validate' | 'execution';

interface ClientErrorContext {
  log: Logger;
  /** The request's id; the one of the HTTP request being handled when not given. */
  requestId?: string;
  stage: ErrorStage;
}

/** The one way out for an error: what the client receives in its place. */
export function toClientError(error: unknown, context: ClientErrorContext): GraphQLError {
  const { log, stage } = context;
  const requestId = context.requestId ?? currentRequestId();
  if (!(error instanceof GraphQLError)) return maskedError(error, log, requestId);
  const original = error.originalError;
  const where = { path: error.path, nodes: error.nodes, source: error.source, positions: error.positions };
  if (original instanceof UpstreamCallError) {
    if (original.code === 'UNAUTHENTICATED') {
      log.error('payment service rejected the API key', { requestId, status: original.httpStatus });
      return topLevelError('UPSTREAM_UNAUTHENTICATED', undefined, { ...where, extensions: { requestId } });
    }
    log.warn('payment service call failed', { requestId, code: original.code, fault: original.fault, status: original.httpStatus });
    return upstreamFailureError(original.code, original.retryable, { ...where, requestId });
  }
  // A typed error where a field's union has no place for it (Redis unreachable under the payout-batch fields and
  // the lists): the same typed, coded refusal a payment gets in its union, never an internal error.
  if (original instanceof PaymentError) {
    log.warn('typed error outside a union', { requestId, code: original.code, path: error.path });
    return typedErrorAtTopLevel(original, { ...where, extensions: { requestId } });
  }
  // Errors of the request itself (syntax, validation, variables: no path) and the GraphQLErrors raised on purpose
  // (always with a code) carry messages written for the client. A GraphQLError of a field without a code is not
  // ours: a library's (Pothos's own errors extend GraphQLError) or graphql's about the schema, i.e. unexpected.
  if (original === undefined || original instanceof GraphQLError) {
    const code = error.extensions?.code ?? original?.extensions?.code;
    if (error.path === undefined || typeof code === 'string') return withoutEcho(withFrench(error, stage));
  }
  // The one shape of an unexpected error, in place of this field (or as the whole answer, outside execution).
  return maskedError(original ?? error, log, requestId, stage === 'request' ? undefined : where);
}

/**
 * The code of a library's error that came without one (graphql-js gives none to a document that does not parse, to
 * its validation errors, or to a variable whose value does not fit its type): its catalogue entry's, else the stage's.
 */
function libraryCode(error: GraphQLError, stage: ErrorStage): string {
  const known = libraryText(error)?.code;
  if (known) return known;
  if (stage === 'parse') return 'GRAPHQL_PARSE_FAILED';
  if (stage === 'validate') return 'GRAPHQL_VALIDATION_FAILED';
  return error.path === undefined ? 'BAD_REQUEST' : 'INTERNAL_SERVER_ERROR';
}

/** The error with `extensions.code` and `extensions.messageFr` (itself when it has both). */
function withFrench(error: GraphQLError, stage: ErrorStage): GraphQLError {
  const hasCode = typeof error.extensions?.code === 'string';
  if (typeof error.extensions?.messageFr === 'string' && hasCode) return error;
  const code = hasCode ? (error.extensions.code as string) : libraryCode(error, stage);
  return withCodeAndFrench(error, code, frenchOf(error));
}

/**
 * Yoga attaches the JSON parser's message, which quotes the body, to its "invalid JSON" error. The message goes;
 * the entry stays (yoga answers 400 rather than 200 because of it).
 */
function withoutEcho(error: GraphQLError): GraphQLError {
  const echoed = error.extensions?.originalError as { name?: unknown; message?: unknown } | undefined;
  if (!echoed || echoed.message === error.message) return error;
  const safe = withCodeAndFrench(error, error.extensions.code as string, error.extensions.messageFr as string);
  safe.extensions.originalError = { name: String(echoed.name ?? 'Error'), message: error.message };
  return safe;
}

/** Yoga's `maskedErrors.maskError`: what escapes execution goes out through the same entry point. */
export function maskUnexpected(log: Logger) {
  return (error: unknown): Error => toClientError(error, { log, stage: 'request' });
}

type MaybeErrors = { errors?: readonly GraphQLError[] };
/** Called with each result of an execution (one, or each of a stream's). */
type OnEachResult = Parameters<typeof handleStreamOrSingleExecutionResult>[1];

function clientResult<T>(result: T, context: ClientErrorContext): T {
  if (Array.isArray(result)) return result.map((r) => clientResult(r, context)) as T;
  const errors = (result as MaybeErrors | null)?.errors;
  if (!errors?.length || isAsyncIterable(result)) return result;
  return { ...(result as object), errors: errors.map((e) => toClientError(e, context)) } as T;
}

/**
 * The yoga plugin that turns every error a client would see into one of the catalogue (stable code, English and
 * French), masking anything unexpected behind a request id.
 */
export function useClientSafeErrors(log: Logger): Plugin<{ requestId?: string }> {
  const rewrite =
    (requestId: string): OnEachResult =>
    ({ result, setResult }) => {
      if (!result.errors?.length) return;
      setResult({ ...result, errors: result.errors.map((e) => toClientError(e, { log, requestId, stage: 'execution' })) });
    };
  return {
    // Request errors: a document that does not parse or validate (over WebSocket these never reach onResultProcess).
    onParse:
      () =>
      ({ result, replaceParseResult }) => {
        if (result instanceof GraphQLError) replaceParseResult(toClientError(result, { log, stage: 'parse' }));
      },
    onValidate:
      () =>
      ({ result, setResult }) => {
        if (result.length > 0) setResult(result.map((e) => toClientError(e, { log, stage: 'validate' })));
      },
    // The last word over HTTP: whatever yoga answers without executing (a bad token in the context, a
    // request that is not GraphQL, a masked error) gets its French too.
    onResultProcess: ({ result, setResult }) => {
      if (!isAsyncIterable(result)) setResult(clientResult(result, { log, stage: 'request' }));
    },
    onExecute: ({ args }) => ({
      onExecuteDone: (payload) => handleStreamOrSingleExecutionResult(payload, rewrite(args.contextValue.requestId ?? 'unknown')),
    }),
    onSubscribe: ({ args }) => ({
      onSubscribeResult: (payload) => handleStreamOrSingleExecutionResult(payload, rewrite(args.contextValue.requestId ?? 'unknown')),
    }),
  };
}
