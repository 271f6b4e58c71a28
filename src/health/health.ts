// GET /health: is the gateway up, can it reach the payment service with its
// key, and does Redis (when configured) answer? The probe is cached briefly so a busy load balancer cannot turn
// health checks into a flood of upstream calls.
import type { UpstreamClient } from '../upstream/types.js';
import { UpstreamCallError } from '../upstream/call-error.js';

interface HealthReport {
  status: 'ok' | 'degraded';
  mode: 'sandbox' | 'live';
  upstream: { reachable: boolean; authenticated: boolean | null; latencyMs: number | null; checkedAt: string };
  /** not_configured: no REDIS_URL (one replica, in-process state). */
  redis: { status: 'ok' | 'unreachable' | 'not_configured'; latencyMs: number | null };
}

/** `GET /health`: a cached report of the gateway, the payment service and Redis, for people. */
export interface HealthProbe {
  check(): Promise<HealthReport>;
}

/** The probe behind `GET /health`, its answer cached for a moment. */
export function createHealthProbe(
  upstream: UpstreamClient,
  mode: 'sandbox' | 'live',
  cacheMs = 5_000,
  /** Answers PING (the Redis owner's command connection, which fails fast when Redis is away), or null without Redis. */
  redis: { ping(): Promise<unknown> } | null = null,
): HealthProbe {
  let last: { at: number; report: Promise<HealthReport> } | null = null;
  const checkRedis = async (): Promise<HealthReport['redis']> => {
    if (!redis) return { status: 'not_configured', latencyMs: null };
    const started = performance.now();
    try {
      await redis.ping();
      return { status: 'ok', latencyMs: Math.round(performance.now() - started) };
    } catch {
      return { status: 'unreachable', latencyMs: null };
    }
  };
  const probe = async (): Promise<HealthReport> => {
    const [report, redisReport] = await Promise.all([probeUpstream(), checkRedis()]);
    return { ...report, status: report.status === 'ok' && redisReport.status !== 'unreachable' ? 'ok' : 'degraded', redis: redisReport };
  };
  const probeUpstream = async (): Promise<Omit<HealthReport, 'redis'>> => {
    const started = performance.now();
    const checkedAt = new Date().toISOString();
    try {
      await upstream.fetchBalance();
      return {
        status: 'ok',
        mode,
        upstream: { reachable: true, authenticated: true, latencyMs: Math.round(performance.now() - started), checkedAt },
      };
    } catch (err) {
      const answered = err instanceof UpstreamCallError && err.code !== 'UPSTREAM_UNAVAILABLE';
      return {
        status: 'degraded',
        mode,
        upstream: {
          reachable: answered,
          authenticated: answered ? !(err instanceof UpstreamCallError && err.code === 'UNAUTHENTICATED') : null,
          latencyMs: answered ? Math.round(performance.now() - started) : null,
          checkedAt,
        },
      };
    }
  };
  return {
    check() {
      if (!last || Date.now() - last.at > cacheMs) last = { at: Date.now(), report: probe() };
      return last.report;
    },
  };
}
