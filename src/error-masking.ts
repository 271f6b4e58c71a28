// What a client may see of a failure. Expected failures of mutations are union
// members and never get here. Failures of queries reach the client as GraphQL
// errors with a stable extensions.code; anything unexpected is replaced by a
// generic message and the request id, and only the server log has the detail.
// No API key, upstream URL, stack trace or upstream internals cross this line.
import { GraphQLError } from 'graphql';
import { handleStreamOrSingleExecutionResult, type Plugin } from 'graphql-yoga';
import type { Logger } from './logger.js';
import { UpstreamError } from './upstream/errors.js';

export function toClientError(error: GraphQLError, requestId: string, log: Logger): GraphQLError {
  const original = error.originalError;
  const where = { path: error.path, locations: error.locations };
  if (original instanceof UpstreamError) {
    if (original.code === 'UNAUTHENTICATED' || original.code === 'FORBIDDEN') {
      log.error('payment service rejected the API key', { requestId, status: original.httpStatus });
      return new GraphQLError('The gateway could not authenticate with the payment service. The operator must check its API key.', {
        ...where,
        extensions: { code: 'UPSTREAM_UNAUTHENTICATED', requestId },
      });
    }
    log.warn('payment service call failed', { requestId, code: original.code, fault: original.fault, status: original.httpStatus });
    return new GraphQLError(
      original.retryable ? 'The payment service is unavailable right now. Try again in a moment.' : 'The payment service could not complete this request.',
      { ...where, extensions: { code: original.code, retryable: original.retryable, requestId } },
    );
  }
  // Errors graphql-js raises itself (no original) and the GraphQLErrors our
  // resolvers raise on purpose carry messages written for the client.
  if (original === undefined || original instanceof GraphQLError) return error;
  log.error('unexpected error while resolving', { requestId, error: original ?? error });
  return new GraphQLError('Unexpected error.', { ...where, extensions: { code: 'INTERNAL_SERVER_ERROR', requestId } });
}

export function useClientSafeErrors(log: Logger): Plugin<{ requestId?: string }> {
  const rewrite = (requestId: string) => ({ result, setResult }: { result: { errors?: readonly GraphQLError[] }; setResult: (r: never) => void }) => {
    if (!result.errors?.length) return;
    setResult({ ...result, errors: result.errors.map((e) => toClientError(e, requestId, log)) } as never);
  };
  return {
    onExecute: ({ args }) => ({
      onExecuteDone: (payload) => handleStreamOrSingleExecutionResult(payload, rewrite(args.contextValue.requestId ?? 'unknown') as never),
    }),
    onSubscribe: ({ args }) => ({
      onSubscribeResult: (payload) => handleStreamOrSingleExecutionResult(payload, rewrite(args.contextValue.requestId ?? 'unknown') as never),
    }),
  };
}
