// What one operation may still spend, carried in its context: upstream calls
// (the budget) and, for mutations, the caller's rate-limit standing.
import type { Principal } from '../auth/index.js';
import type { UpstreamClient } from '../upstream/types.js';
import type { Admission, RateLimiter } from './rate-limiter.js';
import { budgetedUpstream, type UpstreamBudget } from './upstream-budget.js';
import { merchantTag } from '../redis/index.js';

/** The gateway-wide limiters (one set per process, shared through Redis when configured). */
export interface RateLimits {
  /** Every operation (RATE_LIMIT_PER_MINUTE per client address, RATE_LIMIT_STAFF_PER_MINUTE per staff subject). */
  general: RateLimiter;
  /** Money-moving mutation fields (RATE_LIMIT_MONEY_PER_MINUTE, RATE_LIMIT_STAFF_MONEY_PER_MINUTE). */
  money: RateLimiter;
  /**
   * A money-moving operation's two points in one round trip. Over the general limit (`money` null), the money
   * budget is left as it was: the money point is not spent, and its refusal not counted.
   */
  generalAndMoney(key: string): Promise<{ general: Admission; money: Admission | null }>;
  /** Platform mode: every operation of a merchant, whoever calls (merchantLimitKey). */
  merchant: RateLimiter;
  /** Counts a refusal made before the operation was parsed (useEarlyRefusals), as a general limit's refusal. */
  refusedEarly(): void;
  /**
   * Whether a general or merchant refusal of this replica may still hold (one within the last window): when not,
   * no request is refused early, and none needs to be asked who it is before yoga.
   */
  refusing(): boolean;
}

/** What every operation's limits share: the most calls to the service one operation may make, and the rate limiter. */
export interface LimitsServices {
  maxUpstreamCallsPerOperation: number;
  /** Null: no rate limits (benchmarks compare with and without). */
  rateLimits: RateLimits | null;
}

/** One operation's limit state: its upstream budget, and what the rate-limit plugin decided for it. */
export interface OperationLimits {
  readonly upstreamBudget: UpstreamBudget;
  /** Set by the rate-limit plugin on a mutation over the general limit: its fields answer RateLimitedError. */
  generalLimitRetryAfterMs: number | null;
  /**
   * The money point the rate-limit plugin already spent with the general one (one round trip): taken by the
   * money-moving field; one still here when the operation ends is given back (that field did not run).
   */
  prepaidMoney: Admission | null;
  /** Spends one money-moving point of the caller (or takes the prepaid one); the wait in ms when refused, null when admitted. */
  admitMoneyMove(): Promise<number | null>;
}

/**
 * Whose budget an operation spends: a staff token's subject; otherwise (client tokens, one per payment, cheap to
 * obtain for whoever can start payments; and anonymous callers) the client IP.
 */
export function rateLimitKey(principal: Principal | null, clientIp: string | null): string {
  // Platform mode: two merchants' callers never share a budget (a subject or an address is counted per merchant),
  // and the counter carries the merchant's hash tag (its slot; listed in its key index, the purge removes it).
  const merchant = principal?.merchantId ? `{${merchantTag(principal.merchantId)}}/` : '';
  return principal?.kind === 'staff' ? `sub:${merchant}${principal.subject}` : `ip:${merchant}${clientIp ?? 'unknown'}`;
}

/** The key of a merchant's own budget (platform mode: RATE_LIMIT_MERCHANT_PER_MINUTE, every caller of it together). */
export const merchantLimitKey = (merchantId: string): string => `{${merchantTag(merchantId)}}`;

/** A staff or server token's key (RATE_LIMIT_STAFF_*), not a client address's (RATE_LIMIT_*). */
export function isSubjectKey(key: string): boolean {
  return key.startsWith('sub:');
}

/**
 * One operation's limits for `caller`: its state, and the service's client it must use (which counts its calls
 * against MAX_UPSTREAM_CALLS_PER_OPERATION).
 */
export function operationLimits(
  services: LimitsServices,
  upstream: UpstreamClient,
  caller: { principal: Principal | null; clientIp: string | null },
): { limits: OperationLimits; upstream: UpstreamClient } {
  const { client, budget } = budgetedUpstream(upstream, services.maxUpstreamCallsPerOperation);
  const limits: OperationLimits = {
    upstreamBudget: budget,
    generalLimitRetryAfterMs: null,
    prepaidMoney: null,
    admitMoneyMove: async () => {
      if (limits.generalLimitRetryAfterMs !== null) return limits.generalLimitRetryAfterMs;
      if (!services.rateLimits) return null;
      const prepaid = limits.prepaidMoney;
      limits.prepaidMoney = null;
      const admission = prepaid ?? (await services.rateLimits.money.consume(rateLimitKey(caller.principal, caller.clientIp)));
      return admission.allowed ? null : admission.retryAfterMs;
    },
  };
  return { limits, upstream: client };
}
