// A caller or merchant over its budget is refused before its operation costs anything more than reading its
// request: once this replica knows, from memory, that the key stays refused until a time (rate-limiter.ts
// `blockedFor`), the operation is answered RATE_LIMITED from yoga's onParams hook, before its context is built,
// its document parsed and validated, its Redis point counted, its log line written. A flood of refused requests
// then costs the replica little more than HTTP, so that the merchants beside it keep their latency.
//
// Only an operation that cannot be a mutation is refused here. A mutation over the general limit still runs and
// answers the typed RateLimitedError in its payload (rate-limit-plugin.ts), so an early refusal must never reach
// one: a document whose text does not contain `mutation` anywhere cannot hold a mutation operation (the keyword
// is a name token, never escaped or spelled otherwise; the shorthand `{ … }` is a query), so such a query or
// subscription gets exactly the top-level RATE_LIMITED it would get later (HTTP 429 and Retry-After, through
// yoga's own response, CORS and content negotiation). Anything else falls through to the full path: a text
// that mentions `mutation` (even in a comment or a string), a trusted document's id with no text, a token that
// does not verify, a merchant that is not the caller's to act for. A refused request spends no point of its
// caller's own budget either (it used to, before its merchant's refusal), and is counted in
// gateway_rate_limit_refusals_total, not as an operation in the logs: a flood's every refusal is not worth a line.
import type { Plugin } from 'graphql-yoga';
import { merchantLimitKey, rateLimitKey, type RateLimits } from './operation-limits.js';
import { rateLimitedError } from './rate-limit-plugin.js';
import type { Principal } from '../auth/index.js';

/** Whose budgets a request spends, when it can be told cheaply; null when it cannot (the full path decides). */
export interface EarlyCaller {
  principal: Principal | null;
  clientIp: string | null;
  /** Platform mode: the merchant the request acts for; null in single mode or when it names none. */
  merchantId: string | null;
}

/** Whether an operation's text may be refused early: a text that cannot hold a mutation (see above). */
export const refusableEarly = (query: unknown): query is string => typeof query === 'string' && !query.includes('mutation');

/** How long (ms) the caller or its merchant stays refused, from this replica's memory alone; 0: not known to be. */
export function earlyRefusalWait(rateLimits: RateLimits, caller: EarlyCaller): number {
  return Math.max(
    rateLimits.general.blockedFor(rateLimitKey(caller.principal, caller.clientIp)),
    caller.merchantId ? rateLimits.merchant.blockedFor(merchantLimitKey(caller.merchantId)) : 0,
  );
}

/**
 * The yoga plugin that refuses, from memory, a query or subscription whose caller or merchant is over its budget:
 * what the refusal before yoga (src/http/early-refusal.ts) leaves to it (yoga.fetch in process, a GET, an SSE
 * stream, a browser's request with its CORS headers).
 */
export function useEarlyRefusals(
  rateLimits: RateLimits,
  callerOf: (request: Request, serverContext: Record<string, unknown>) => Promise<EarlyCaller | null>,
): Plugin {
  return {
    async onParams({ params, request, context, setResult }) {
      if (!refusableEarly(params.query) || !rateLimits.refusing()) return;
      const caller = await callerOf(request, context as Record<string, unknown>).catch(() => null);
      const waitMs = caller ? earlyRefusalWait(rateLimits, caller) : 0;
      if (waitMs <= 0) return;
      rateLimits.refusedEarly();
      setResult({ errors: [rateLimitedError(waitMs)] });
    },
  };
}
