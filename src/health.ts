// GET /health: is the gateway up, and can it reach the payment service with
// its key? The probe is cached briefly so a busy load balancer cannot turn
// health checks into a flood of upstream calls.
import type { UpstreamClient } from './upstream/types.js';
import { UpstreamCallError } from './upstream/errors.js';

export interface HealthReport {
  status: 'ok' | 'degraded';
  mode: 'sandbox' | 'live';
  upstream: { reachable: boolean; authenticated: boolean | null; latencyMs: number | null; checkedAt: string };
}

export interface HealthProbe {
  check(): Promise<HealthReport>;
}

export function createHealthProbe(upstream: UpstreamClient, mode: 'sandbox' | 'live', cacheMs = 5_000): HealthProbe {
  let last: { at: number; report: Promise<HealthReport> } | null = null;
  const probe = async (): Promise<HealthReport> => {
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
