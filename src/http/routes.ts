// The paths the HTTP server answers itself, before yoga: the webhook receiver, the probes, the
// metrics and the root's redirect. First match wins; any other request goes to /graphql's handling.
import type { IncomingMessage } from 'node:http';
import { CONSOLE_PATH, consoleHandler } from '../console/serve.js';
import type { Logger } from '../logger.js';
import type { GatewayServerOptions } from './options.js';
import { answerHealth, answerLive, answerReady, type Handler } from './probe-handlers.js';

/** A route outside GraphQL: an exact path, optionally one method, and its handler. */
export interface Route {
  path: string;
  /** Only these methods; absent: any method. */
  methods?: readonly ('GET' | 'HEAD')[];
  /** Also every path below `path` (`/console/payments`). */
  prefix?: boolean;
  handle: Handler;
}

/** The webhook receiver: a failure it did not answer itself is logged and answered 500. */
function webhookHandler(webhook: NonNullable<GatewayServerOptions['webhook']>, log: Logger): Handler {
  return (req, res) => {
    webhook.handle(req, res).catch((err: unknown) => {
      log.error('webhook handler failed', { error: err });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end('{"ok":false}');
    });
  };
}

const redirectTo =
  (location: string): Handler =>
  (_req, res) =>
    void res.writeHead(302, { location }).end();

/** The routes outside GraphQL: the webhook receiver when configured, liveness and readiness, and the metrics endpoint when it is on. */
export function operatorRoutes(options: GatewayServerOptions, leaving: () => boolean, graphqlPath: string): Route[] {
  const { webhook, observability } = options;
  return [
    ...(webhook ? [{ path: webhook.path, prefix: webhook.prefix, handle: webhookHandler(webhook, options.services.log) }] : []),
    { path: '/health/live', methods: ['GET'], handle: answerLive },
    { path: '/health/ready', methods: ['GET'], handle: answerReady(options.readiness, leaving) },
    ...(observability?.metricsEndpoint ? [{ path: '/metrics', handle: observability.metricsEndpoint }] : []),
    { path: '/health', methods: ['GET'], handle: answerHealth(options.health) },
    ...(options.console
      ? [
          {
            path: CONSOLE_PATH,
            // HEAD as GET without the body (RFC 9110): link checkers and proxies ask before they fetch.
            methods: ['GET', 'HEAD'] as const,
            prefix: true,
            handle: consoleHandler(options.console.dir, options.console.settings),
          },
        ]
      : []),
    { path: '/', handle: redirectTo(graphqlPath) },
  ];
}

/** The route of a request by exact path (query string aside) and method; undefined when none. */
export function routeOf(routes: readonly Route[], req: IncomingMessage): Route | undefined {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  return routes.find(
    (route) =>
      (route.path === path || (route.prefix === true && path.startsWith(`${route.path}/`))) &&
      (!route.methods || route.methods.some((method) => method === req.method)),
  );
}
