// GET /health/ready: may this replica take traffic? It is ready when the payment
// service answers with the gateway's key and, when configured, Redis answers and
// takes writes without evicting keys (src/redis/write-health.ts): a Redis that is
// full, read-only or evicting refuses every payment, so the balancer should stop
// sending them here.
// A background probe runs every interval, each check bounded by that interval, so
// the answer is never more than one interval stale and a hung dependency reads as
// not ready instead of holding the probe. (GET /health/live only says the process answers.)
import type { Logger } from '../logger.js';
import type { UpstreamClient } from '../upstream/types.js';

interface ReadinessReport {
  ready: boolean;
  checkedAt: string;
  upstream: 'ok' | 'unreachable' | 'unauthenticated' | 'timeout';
  /** `refuses_writes`: out of memory, read-only or failing to persist; `evicting`: keys may be or were evicted. */
  redis: 'ok' | 'unreachable' | 'timeout' | 'not_configured' | 'refuses_writes' | 'evicting';
}

/** What `GET /health/ready` answers: ready or not, from a background probe never older than HEALTH_PROBE_MS. */
export interface ReadinessProbe {
  current(): ReadinessReport;
  /** Resolves once the first check has finished (whatever it found). */
  readonly firstCheck: Promise<void>;
  stop(): void;
}

interface ReadinessOptions {
  upstream: Pick<UpstreamClient, 'fetchBalance'>;
  /** Checks Redis (src/redis/write-health.ts; a bare PING is enough where writes need no check), or null without Redis. */
  redis: { check(): Promise<'ok' | 'refuses_writes' | 'evicting'> } | null;
  intervalMs: number;
  log: Logger;
}

const TIMEOUT = Symbol('timeout');

/**
 * Starts the background probe of the service and Redis (writes and evictions) behind readiness; `firstCheck`
 * resolves after its first round.
 */
export function startReadinessProbe({ upstream, redis, intervalMs, log }: ReadinessOptions): ReadinessProbe {
  let report: ReadinessReport = {
    ready: false,
    checkedAt: new Date().toISOString(),
    upstream: 'timeout',
    redis: redis ? 'timeout' : 'not_configured',
  };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const within = async <T>(check: () => Promise<T>): Promise<T | typeof TIMEOUT> => {
    let bound: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        check(),
        new Promise<typeof TIMEOUT>((resolve) => (bound = setTimeout(() => resolve(TIMEOUT), intervalMs))),
      ]);
    } finally {
      clearTimeout(bound);
    }
  };

  const checkUpstream = async (): Promise<ReadinessReport['upstream']> => {
    try {
      return (await within(() => upstream.fetchBalance())) === TIMEOUT ? 'timeout' : 'ok';
    } catch (err) {
      return (err as { code?: string }).code === 'UNAUTHENTICATED' ? 'unauthenticated' : 'unreachable';
    }
  };
  const checkRedis = async (): Promise<ReadinessReport['redis']> => {
    if (!redis) return 'not_configured';
    try {
      const state = await within(() => redis.check());
      return state === TIMEOUT ? 'timeout' : state;
    } catch {
      return 'unreachable';
    }
  };

  const probe = async () => {
    const [upstreamState, redisState] = await Promise.all([checkUpstream(), checkRedis()]);
    const next: ReadinessReport = {
      ready: upstreamState === 'ok' && (redisState === 'ok' || redisState === 'not_configured'),
      checkedAt: new Date().toISOString(),
      upstream: upstreamState,
      redis: redisState,
    };
    if (next.ready !== report.ready || next.redis !== report.redis) {
      log.info('readiness changed', { ready: next.ready, upstream: next.upstream, redis: next.redis });
    }
    report = next;
    if (!stopped) timer = setTimeout(() => void probe(), intervalMs).unref();
  };
  const firstCheck = probe();

  return {
    current: () => report,
    firstCheck,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
