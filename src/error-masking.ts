// What a client may see of a failure. Expected failures of mutations are union
// members and never get here. Failures of queries reach the client as GraphQL
// errors with a stable extensions.code; anything unexpected is replaced by a
// generic message and the request id, and only the server log has the detail.
// No API key, upstream URL, stack trace or upstream internals cross this line.
import { GraphQLError } from 'graphql';
import { handleStreamOrSingleExecutionResult, type Plugin } from 'graphql-yoga';
import type { Logger } from './logger.js';
import { UpstreamCallError } from './upstream/errors.js';

export function toClientError(error: GraphQLError, requestId: string, log: Logger): GraphQLError {
  const original = error.originalError;
  const where = { path: error.path, locations: error.locations };
  if (original instanceof UpstreamCallError) {
    if (original.code === 'UNAUTHENTICATED' || original.code === 'FORBIDDEN') {
      log.error('payment service rejected the API key', { requestId, status: original.httpStatus });
      return new GraphQLError('The gateway could not authenticate with the payment service. The operator must check its API key.', {
        ...where,
        extensions: { code: 'UPSTREAM_UNAUTHENTICATED', requestId },
      });
    }
    log.warn('payment service call failed', { requestId, code: original.code, fault: original.fault, status: original.httpStatus });
    return new GraphQLError(
      original.retryable
        ? 'The payment service is unavailable right now. Try again in a moment.'
        : 'The payment service could not complete this request.',
      { ...where, extensions: { code: original.code, retryable: original.retryable, requestId } },
    );
  }
  // Errors of the request itself (syntax, validation, variables: no path) and
  // the GraphQLErrors our resolvers raise on purpose (always with a code) carry
  // messages written for the client. A GraphQLError raised while executing a
  // field without a code is not ours: a library's (Pothos's own errors extend
  // GraphQLError) or graphql's about the schema ("Abstract type ... must
  // resolve"), i.e. unexpected.
  if (original === undefined || original instanceof GraphQLError) {
    const code = error.extensions?.code ?? original?.extensions?.code;
    if (error.path === undefined || typeof code === 'string') return error;
  }
  log.error('unexpected error while resolving', { requestId, error: original ?? error });
  return new GraphQLError('Unexpected error.', { ...where, extensions: { code: 'INTERNAL_SERVER_ERROR', requestId } });
}

export function useClientSafeErrors(log: Logger): Plugin<{ requestId?: string }> {
  const rewrite =
    (requestId: string) =>
    ({ result, setResult }: { result: { errors?: readonly GraphQLError[] }; setResult: (r: never) => void }) => {
      if (!result.errors?.length) return;
      setResult({ ...result, errors: result.errors.map((e) => toClientError(e, requestId, log)) } as never);
    };
  return {
    onExecute: ({ args }) => ({
      onExecuteDone: (payload) => handleStreamOrSingleExecutionResult(payload, rewrite(args.contextValue.requestId ?? 'unknown') as never),
    }),
    onSubscribe: ({ args }) => ({
      onSubscribeResult: (payload) =>
        handleStreamOrSingleExecutionResult(payload, rewrite(args.contextValue.requestId ?? 'unknown') as never),
    }),
  };
}
