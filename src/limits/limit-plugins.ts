// Bounded cost per request and browser safety: what src/http/server.ts and
// src/gateway.ts wire in. See docs/limits.md.
import type { Plugin } from 'graphql-yoga';
import type { LimitsConfig } from '../config.js';
import type { Logger } from '../logger.js';
import type { GatewayRedis } from '../redis/index.js';
import { armorPlugin, useNoIntrospection, useNoSuggestions } from './armor.js';
import { oneMoneyMutationRule } from './money-mutations.js';
import { isSubjectKey, type RateLimits } from './operation-limits.js';
import { memoryRateLimiter, redisRateLimiter, type Admission, type RateLimiter } from './rate-limiter.js';
import { useRateLimits } from './rate-limit-plugin.js';
import { useSseStreamLimit } from './sse-streams.js';
import { subscriptionCaps } from './subscription-caps.js';

export { admitBody } from './body-size.js';
export { CSRF_HEADERS, useBrowserSafety } from './browser-safety.js';
export { serverTimeouts } from './http-server.js';
export { SECURITY_HEADERS, STRICT_CSP, graphiqlCsp, setSecurityHeaders, useGraphiqlPolicy } from './security-headers.js';
export { connectionSlots, type ConnectionSlots } from './ws-connections.js';
export { subscriptionCaps, type SubscriptionCaps } from './subscription-caps.js';
export { corsOptions, headerOf, originPolicy, type OriginPolicy } from './origins.js';
export { operationLimits, rateLimitKey, type LimitsServices, type OperationLimits, type RateLimits } from './operation-limits.js';
export { UpstreamBudgetExceededError } from './upstream-budget.js';
export { earlyRefusalWait, refusableEarly, useEarlyRefusals, type EarlyCaller } from './early-refusals.js';
export { rateLimitedAnswer } from './rate-limit-plugin.js';

const MINUTE_MS = 60_000;

/** The per-principal limiters: shared by every replica through Redis when there is one. */
export function createRateLimits(
  limits: LimitsConfig,
  redis: GatewayRedis | null,
  log: Logger,
  /** Told of each refusal (the metrics count them by kind). */
  onRefused: (kind: 'general' | 'money') => void = () => {},
): RateLimits {
  const window = (name: string, points: number): RateLimiter =>
    redis ? redisRateLimiter(redis, name, { points, windowMs: MINUTE_MS }, log) : memoryRateLimiter({ points, windowMs: MINUTE_MS });
  // Two budgets per limiter, by kind of caller (rateLimitKey): a staff or server token's subject may be a
  // merchant's checkout server acting for every customer at once; a client address is one customer.
  const make = (name: 'general' | 'money', addressPoints: number, staffPoints: number): RateLimiter => {
    const perAddress = window(name, addressPoints);
    const perSubject = window(`staff-${name}`, staffPoints);
    const of = (key: string) => (isSubjectKey(key) ? perSubject : perAddress);
    return { consume: (key) => of(key).consume(key), refund: (key) => of(key).refund(key), blockedFor: (key) => of(key).blockedFor(key) };
  };
  // Until when a refusal of this replica may still hold (its key blocked in memory): the early refusals' gate.
  let refusingUntil = 0;
  const refused = (kind: 'general' | 'money', admission: Admission & { allowed: false }) => {
    if (kind === 'general') refusingUntil = Math.max(refusingUntil, Date.now() + admission.retryAfterMs);
    onRefused(kind);
  };
  const counted = (limiter: RateLimiter, kind: 'general' | 'money'): RateLimiter => ({
    consume: async (key) => {
      const admission = await limiter.consume(key);
      if (!admission.allowed) refused(kind, admission);
      return admission;
    },
    refund: (key) => limiter.refund(key),
    blockedFor: (key) => limiter.blockedFor(key),
  });
  // Made on first use: single mode never spends a merchant's budget.
  let perMerchant: RateLimiter | null = null;
  const merchantLimiter = () => (perMerchant ??= counted(window('merchant', limits.rateLimitMerchantPerMinute), 'general'));
  const general = make('general', limits.rateLimitPerMinute, limits.rateLimitStaffPerMinute);
  const money = make('money', limits.rateLimitMoneyPerMinute, limits.rateLimitStaffMoneyPerMinute);
  return {
    general: counted(general, 'general'),
    money: counted(money, 'money'),
    merchant: {
      consume: (key) => merchantLimiter().consume(key),
      refund: (key) => merchantLimiter().refund(key),
      blockedFor: (key) => perMerchant?.blockedFor(key) ?? 0,
    },
    refusedEarly: () => onRefused('general'),
    refusing: () => refusingUntil > Date.now(),
    async generalAndMoney(key) {
      // Issued in the same tick: ioredis's auto-pipelining sends both scripts in one write (one round trip).
      const [generalAdmission, moneyAdmission] = await Promise.all([general.consume(key), money.consume(key)]);
      if (!generalAdmission.allowed) {
        refused('general', generalAdmission);
        // Over the general limit the money budget is not consulted (as when it was counted after): its point goes back.
        if (moneyAdmission.allowed) await money.refund(key);
        return { general: generalAdmission, money: null };
      }
      if (!moneyAdmission.allowed) refused('money', moneyAdmission);
      return { general: generalAdmission, money: moneyAdmission };
    },
  };
}

interface LimitPluginOptions {
  limits: LimitsConfig;
  rateLimits: RateLimits | null;
  /** The mutation fields that move money (at most one per operation). */
  moneyMoving: ReadonlySet<string>;
  /** WS_MAX_SUBSCRIPTIONS: also the most SSE streams one caller may hold. */
  maxSubscriptions: number;
}

/** The document and operation limits, as yoga plugins (HTTP, SSE and WebSocket alike). */
export function limitPlugins(options: LimitPluginOptions): Plugin[] {
  const plugins: Plugin[] = [
    armorPlugin(options.limits.armor),
    ...(options.limits.armor.fieldSuggestions ? [] : [useNoSuggestions()]),
    { onValidate: ({ addValidationRule }) => addValidationRule(oneMoneyMutationRule(options.moneyMoving)) },
    useSseStreamLimit(options.maxSubscriptions) as Plugin,
    subscriptionCaps(options.limits.maxSubscriptionsPerSubject, options.limits.maxSubscriptions).plugin as Plugin,
  ];
  if (options.rateLimits) plugins.push(useRateLimits(options.rateLimits, options.moneyMoving) as Plugin);
  return plugins;
}

export { useNoIntrospection };
