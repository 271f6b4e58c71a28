// Counts every operation (HTTP, SSE and WebSocket alike: all go through yoga's
// envelop) against the caller's general rate limit. Over the limit, a query or
// subscription ends at once with RATE_LIMITED (HTTP 429 and Retry-After); a
// mutation still runs its fields, which answer the typed RateLimitedError
// (src/schema/mutation.ts), as the schema promises mutation callers. A
// money-moving mutation spends its money point here too, with the general one
// in one round trip; the resolver takes that point (operation-limits.ts).
import { getOperationAST, type DocumentNode, type GraphQLError, type OperationDefinitionNode } from 'graphql';
import { topLevelError, topLevelErrorBody } from '../errors/top-level.js';
import type { Plugin } from 'graphql-yoga';
import type { Principal } from '../auth/index.js';
import { selectsMoneyField } from './money-mutations.js';
import { merchantLimitKey, rateLimitKey, type OperationLimits, type RateLimits } from './operation-limits.js';
import type { Admission } from './rate-limiter.js';

interface LimitedContext {
  principal: Principal | null;
  clientIp: string | null;
  limits: OperationLimits;
  /** Platform mode: the merchant the operation acts for (its budget is spent too). */
  merchant?: { id: string } | null;
}

/** The RATE_LIMITED error, with when to try again in seconds (at least one) and as a `Retry-After` header. */
export function rateLimitedError(retryAfterMs: number): GraphQLError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  // Made without a stack: a flood gets one per request, and no one reads it (a client never sees a stack; this
  // error is expected, not logged as a failure). About a third of the error's own cost, measured.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return topLevelError(
      'RATE_LIMITED',
      { retryAfterSeconds: seconds },
      { extensions: { retryAfterMs, http: { headers: { 'Retry-After': String(seconds) } } } },
    );
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/** Per whole seconds to wait, the answer's body up to its last extension (made once: a flood is refused many times a second). */
const answerHeads = new Map<number, string>();

/**
 * The whole answer yoga makes of rateLimitedError for a client accepting JSON, for a refusal written before yoga
 * (src/http/early-refusal.ts): 429, Retry-After, and the body without the error's internal `http` extension
 * (`retryAfterMs` last, as yoga writes it).
 */
export function rateLimitedAnswer(retryAfterMs: number): { status: number; retryAfter: string; body: string } {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  let head = answerHeads.get(seconds);
  if (head === undefined) {
    const { message, extensions } = topLevelErrorBody('RATE_LIMITED', { retryAfterSeconds: seconds });
    head = JSON.stringify({ errors: [{ message, extensions }] }).slice(0, -'}}]}'.length);
    if (answerHeads.size < 3_600) answerHeads.set(seconds, head);
  }
  return { status: 429, retryAfter: String(seconds), body: `${head},"retryAfterMs":${JSON.stringify(retryAfterMs)}}}]}` };
}

/**
 * The yoga plugin that counts each operation against the caller's limit, and each money-moving mutation against the money limit too,
 * before it runs. Refuses with RATE_LIMITED once a limit is spent; a money point nothing used is given back.
 */
export function useRateLimits(rateLimits: RateLimits, moneyMoving: ReadonlySet<string> = new Set()): Plugin<LimitedContext> {
  /** The general point; for a money-moving mutation, its money point too, in the same round trip. */
  const admit = async (
    ctx: LimitedContext,
    operation: OperationDefinitionNode | null | undefined,
    document: DocumentNode,
  ): Promise<Admission> => {
    const key = rateLimitKey(ctx.principal, ctx.clientIp);
    if (!operation || !selectsMoneyField(document, operation, moneyMoving)) return rateLimits.general.consume(key);
    const { general, money } = await rateLimits.generalAndMoney(key);
    ctx.limits.prepaidMoney = money;
    return general;
  };
  const check = async (
    ctx: LimitedContext,
    document: DocumentNode,
    operationName: string | null | undefined,
    stop: (result: { errors: GraphQLError[] }) => void,
  ) => {
    const operation = getOperationAST(document, operationName);
    const admission = await admitWithMerchant(ctx, await admit(ctx, operation, document));
    if (admission.allowed) return;
    if (operation?.operation === 'mutation') ctx.limits.generalLimitRetryAfterMs = admission.retryAfterMs;
    else stop({ errors: [rateLimitedError(admission.retryAfterMs)] });
  };
  /** Platform mode: the merchant's own budget too, once the caller's admitted it (a refusal gives the money point back). */
  const admitWithMerchant = async (ctx: LimitedContext, callers: Admission): Promise<Admission> => {
    if (!callers.allowed || !ctx.merchant) return callers;
    const merchant = await rateLimits.merchant.consume(merchantLimitKey(ctx.merchant.id));
    if (!merchant.allowed) await refundUnused(ctx);
    return merchant;
  };
  /** A money point spent up front that no money-moving field took (skipped by @skip, an earlier field failed): given back. */
  const refundUnused = async (ctx: LimitedContext) => {
    const unused = ctx.limits.prepaidMoney;
    ctx.limits.prepaidMoney = null;
    if (unused?.allowed) await rateLimits.money.refund(rateLimitKey(ctx.principal, ctx.clientIp));
  };
  return {
    onExecute: async ({ args, setResultAndStopExecution }) => {
      await check(args.contextValue, args.document, args.operationName, (r) => setResultAndStopExecution(r));
      return { onExecuteDone: () => refundUnused(args.contextValue) };
    },
    onSubscribe: ({ args, setResultAndStopExecution }) =>
      check(args.contextValue, args.document, args.operationName, (r) => setResultAndStopExecution(r)),
  };
}
