// The answers of the probes a load balancer or an operator calls: GET /health/live, /health/ready
// and /health. They are plain node handlers in front of yoga, not yoga's useReadinessCheck: that
// plugin answers inside yoga (after the body admission and the duplicate-credential check, for any
// method and any path ending in its endpoint) and runs its check per request, while ours reports the
// background probe's last result (src/health/readiness.ts) and must say 503 with the report as soon
// as this replica is leaving, without touching anything a request to /graphql goes through.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HealthProbe } from '../health/health.js';
import type { ReadinessProbe } from '../health/readiness.js';

/** A plain Node HTTP handler, for the routes outside GraphQL. */
export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const PROBE_HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store' };

/** GET /health/live: the process answers. */
export const answerLive: Handler = (_req, res) => {
  res.writeHead(200, PROBE_HEADERS).end('{"live":true}');
};

/** GET /health/ready: the last readiness report, turned 503 while the replica is leaving. */
export function answerReady(readiness: ReadinessProbe, leaving: () => boolean): Handler {
  return (_req, res) => {
    // Leaving (SIGTERM, the grace period): not ready, so the balancer stops routing here while we still serve.
    const report = leaving() ? { ...readiness.current(), ready: false, draining: true } : readiness.current();
    res.writeHead(report.ready ? 200 : 503, PROBE_HEADERS).end(JSON.stringify(report));
  };
}

/** GET /health: the cached probe of the payment service and Redis (src/health/health.ts); always 200. */
export function answerHealth(health: HealthProbe): Handler {
  return (_req, res) => {
    void health.check().then((report) => {
      res.writeHead(200, PROBE_HEADERS).end(JSON.stringify(report));
    });
  };
}
