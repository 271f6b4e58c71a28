// Every HTTP request's way in: security headers, the drain's gate, the server's own routes, then
// /graphql behind the request id, the duplicate-credential check and the body limit.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hasSeveralAuthorizations } from '../auth/index.js';
import { topLevelErrorBody } from '../errors/top-level.js';
import { withRequestId } from '../errors/traceable-errors.js';
import { admitBody, headerOf, setSecurityHeaders } from '../limits/index.js';
import { requestIdFrom } from './caller.js';
import type { Drain } from './drain.js';
import type { GatewayServerOptions } from './options.js';
import { routeOf, type Route } from './routes.js';
import type { GatewayYoga } from './yoga.js';

/** Two credentials where one is expected (src/auth/bearer.ts): 400 before anything reads either of them. */
function refuseSeveralAuthorizations(res: ServerResponse): void {
  res
    .writeHead(400, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    .end(JSON.stringify({ errors: [topLevelErrorBody('DUPLICATE_AUTHORIZATION', undefined)] }));
}

/** A request reaching a closing server (on a kept-alive connection): the client retries on another replica. */
function refuseWhileDraining(res: ServerResponse): void {
  res
    .writeHead(503, { 'content-type': 'application/json', connection: 'close', 'retry-after': '1' })
    .end(JSON.stringify({ errors: [topLevelErrorBody('SERVICE_UNAVAILABLE', 'shutting_down')] }));
}

/** The refusal before yoga of a caller already over its budget (src/http/early-refusal.ts); true when it answered. */
export type EarlyRefusal = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

/**
 * /graphql (and anything no route claims): yoga, once the request is identified, its body admitted, and it is not
 * a flood's request refused early.
 */
function serveGraphql(
  req: IncomingMessage,
  res: ServerResponse,
  yoga: GatewayYoga,
  options: GatewayServerOptions,
  refuseEarly: EarlyRefusal | null,
): void {
  // One id per request: its context and log lines, and any error masked outside execution (src/errors/traceable-errors.ts).
  const requestId = requestIdFrom(headerOf(req.headers, 'x-request-id'));
  req.headers['x-request-id'] = requestId;
  withRequestId(requestId, () => {
    if (hasSeveralAuthorizations(req.rawHeaders)) return refuseSeveralAuthorizations(res);
    if (options.limitsOff) return void yoga(req, res);
    // 413 above MAX_BODY_BYTES before yoga parses anything.
    admitBody(req, res, options.limits.maxBodyBytes).then(
      async (admitted) => {
        if (admitted && !(refuseEarly && (await refuseEarly(req, res)))) void yoga(req, res);
      },
      () => req.destroy(), // the client went away while sending
    );
  });
}

/**
 * The server's request handler: sets the security headers, turns new requests away while draining (and keeps no connection alive while
 * leaving), answers the operator routes (webhooks, health, metrics), refuses a flood early, and hands the rest to yoga, counting each until
 * its response closes.
 */
export function handleRequests(
  options: GatewayServerOptions,
  drain: Drain,
  routes: readonly Route[],
  yoga: GatewayYoga,
  refuseEarly: EarlyRefusal | null = null,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    setSecurityHeaders(res);
    // Turned away before it can start anything.
    if (drain.draining) return refuseWhileDraining(res);
    drain.trackResponse(res);
    // Leaving: no connection is kept alive past its response, so none is idle (and closed under a
    // request the client is just sending) when the listener closes at the end of the grace period.
    if (drain.phase === 'leaving') res.setHeader('connection', 'close');
    const route = routeOf(routes, req);
    if (route) return route.handle(req, res);
    serveGraphql(req, res, yoga, options, refuseEarly);
  };
}
