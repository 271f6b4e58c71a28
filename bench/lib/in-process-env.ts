// The settings of a gateway a benchmark starts in its own process, in front of the sandbox, on the shared Redis.
import { randomBytes } from 'node:crypto';

/** A quiet gateway on a free local port: the sandbox's URL, a throwaway API key, no health probe, no logs. */
export function inProcessGatewayEnv(sandboxUrl: string, jwtSecret: string, redisUrl: string): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    PAYMENT_BASE_URL: sandboxUrl,
    PAYMENT_API_KEY: `sk_test_bench_${randomBytes(6).toString('hex')}`,
    AUTH_JWT_SECRET: jwtSecret,
    LOG_LEVEL: 'silent',
    HEALTH_PROBE_MS: '3600000',
    REDIS_URL: redisUrl,
  };
}

/**
 * Platform mode for a fairness benchmark: a fresh key-encryption key, local receivers allowed, and no limit on the
 * callers (each merchant's own budget is the benchmark's to set, unlimited unless given).
 */
export function platformBenchEnv(merchantBudgetPerMinute = 1_000_000_000): Record<string, string> {
  return {
    MERCHANT_MODE: 'platform',
    MERCHANT_KEYS_KEK: randomBytes(32).toString('base64'),
    RATE_LIMIT_PER_MINUTE: '1000000000',
    RATE_LIMIT_STAFF_PER_MINUTE: '1000000000',
    RATE_LIMIT_MERCHANT_PER_MINUTE: String(merchantBudgetPerMinute),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  };
}
