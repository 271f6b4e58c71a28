// GET /metrics, Prometheus text format. With METRICS_TOKEN set it answers only
// `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time); without
// one it is open in sandbox mode and off in live mode (the metrics name the
// service's routes and error rates: not for anyone on the network).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';

/** The HTTP handler of the metrics endpoint: Prometheus text, behind its own token. */
export type MetricsEndpoint = (req: IncomingMessage, res: ServerResponse) => void;

interface MetricsEndpointOptions {
  registry: Registry;
  token: string | null;
  mode: 'sandbox' | 'live';
}

/** The handler of GET /metrics, or null when it is off. */
export function createMetricsEndpoint({ registry, token, mode }: MetricsEndpointOptions): MetricsEndpoint | null {
  if (!token && mode === 'live') return null;
  const expected = token ? digest(token) : null;

  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method Not Allowed\n');
      return;
    }
    if (expected && !authorized(req.headers.authorization, expected)) {
      res.writeHead(401, { 'www-authenticate': 'Bearer realm="metrics"', 'content-type': 'text/plain' }).end('Unauthorized\n');
      return;
    }
    registry.metrics().then(
      (text) =>
        res
          .writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' })
          .end(req.method === 'HEAD' ? undefined : text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  };
}

/** Digests of equal length, so timingSafeEqual compares them whatever the length of what was sent. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

function authorized(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return timingSafeEqual(digest(match?.[1] ?? ''), expected);
}
