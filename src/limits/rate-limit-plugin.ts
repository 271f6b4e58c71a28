// Counts every operation (HTTP, SSE and WebSocket alike: all go through yoga's
// envelop) against the caller's general rate limit. Over the limit, a query or
// subscription ends at once with RATE_LIMITED (HTTP 429 and Retry-After); a
// mutation still runs its fields, which answer the typed RateLimitedError
// (src/schema/mutation.ts), as the schema promises mutation callers.
import { getOperationAST, type DocumentNode, type GraphQLError } from 'graphql';
import { topLevelError } from '../errors/top-level.js';
import type { Plugin } from 'graphql-yoga';
import type { Principal } from '../auth/index.js';
import { rateLimitKey, type OperationLimits, type RateLimits } from './operation-limits.js';

interface LimitedContext {
  principal: Principal | null;
  clientIp: string | null;
  limits: OperationLimits;
}

export function rateLimitedError(retryAfterMs: number): GraphQLError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return topLevelError(
    'RATE_LIMITED',
    { retryAfterSeconds: seconds },
    { extensions: { retryAfterMs, http: { headers: { 'Retry-After': String(seconds) } } } },
  );
}

export function useRateLimits(rateLimits: RateLimits): Plugin<LimitedContext> {
  const check = async (
    ctx: LimitedContext,
    document: DocumentNode,
    operationName: string | null | undefined,
    stop: (result: { errors: GraphQLError[] }) => void,
  ) => {
    const admission = await rateLimits.general.consume(rateLimitKey(ctx.principal, ctx.clientIp));
    if (admission.allowed) return;
    if (getOperationAST(document, operationName)?.operation === 'mutation') ctx.limits.generalLimitRetryAfterMs = admission.retryAfterMs;
    else stop({ errors: [rateLimitedError(admission.retryAfterMs)] });
  };
  return {
    onExecute: ({ args, setResultAndStopExecution }) =>
      check(args.contextValue, args.document, args.operationName, (r) => setResultAndStopExecution(r)),
    onSubscribe: ({ args, setResultAndStopExecution }) =>
      check(args.contextValue, args.document, args.operationName, (r) => setResultAndStopExecution(r)),
  };
}
