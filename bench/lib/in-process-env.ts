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
