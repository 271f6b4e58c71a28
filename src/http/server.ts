// One HTTP server: GraphQL over HTTP and SSE (yoga, src/http/yoga.ts), GraphQL over WebSocket
// (graphql-ws, same path, src/http/websocket.ts), and the paths it answers itself (src/http/routes.ts:
// the webhook receiver, /health, /health/live, /health/ready, /metrics).
import { createServer, type Server } from 'node:http';
import { Server as NetServer, type AddressInfo } from 'node:net';
import { originPolicy, serverTimeouts } from '../limits/index.js';
import { clientAddressing } from './client-address.js';
import { createDrain, type Drain } from './drain.js';
import type { GatewayServerOptions } from './options.js';
import { refuseEarlyBeforeYoga } from './early-refusal.js';
import { httpCallers } from './http-callers.js';
import { handleRequests } from './request-handler.js';
import { operatorRoutes } from './routes.js';
import { serveGraphqlOverWebSocket, type GraphqlWebSocket } from './websocket.js';
import { createGatewayYoga, GRAPHQL_PATH, type GatewayYoga } from './yoga.js';

export { GRAPHQL_PATH };
export type { GatewayServerOptions };

/** The gateway's one HTTP server (yoga and graphql-ws) and its graceful close. */
export interface GatewayServer {
  server: Server;
  yoga: GatewayYoga;
  listen(port: number, host: string): Promise<string>;
  /** Readiness 503 for graceMs while serving, then the drain (src/http/drain.ts); graceMs defaults to 0. */
  close(options?: { graceMs?: number }): Promise<void>;
  /** True from the moment shutdown begins (readiness 503, the readiness gauge). */
  readonly leaving: boolean;
}

function listenOn(server: Server, port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      resolve(`http://${host.includes(':') ? `[${host}]` : host}:${address.port}`);
    });
  });
}

/**
 * Readiness 503 and still serving for the grace period; then stop accepting, end subscriptions, let
 * every operation in flight finish and record its result and every subscription get its `complete`,
 * then close the WebSockets (1001) and what is left.
 */
async function shutDown(
  parts: { server: Server; yoga: GatewayYoga; webSocket: GraphqlWebSocket; drain: Drain },
  options: GatewayServerOptions,
  graceMs: number,
): Promise<void> {
  const { server, yoga, webSocket, drain } = parts;
  drain.leave();
  if (graceMs > 0) await new Promise((resolve) => setTimeout(resolve, graceMs));
  // net's close, not http's: http's also destroys the connections that are idle at that instant, and
  // one just accepted whose request is still on the wire would be reset. Those get their answer
  // (503 shutting_down, or their result); closeAllConnections() below ends what is left.
  const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
  const drained = await drain.drain(options.drainTimeoutMs ?? 20_000);
  if (!drained) options.services.log.warn('shutdown deadline reached with operations still in flight');
  // graphql-ws writes an operation's last frame right after its onComplete/onError (which released it):
  // one turn of the event loop and every `complete` is queued ahead of the close frames.
  await new Promise((resolve) => setImmediate(resolve));
  await webSocket.close();
  server.closeAllConnections();
  await closed;
  await yoga.dispose();
}

/** Builds the server (not listening yet): routes, yoga with its plugins in order, the WebSocket server, the drain. */
export function createGatewayServer(options: GatewayServerOptions): GatewayServer {
  const drain = createDrain();
  const addressing = options.clientAddressing ?? clientAddressing(null);
  const around = {
    drain,
    addressing,
    origins: originPolicy(options.limits.corsOrigins),
    maxSubscriptions: options.maxSubscriptionsPerConnection ?? 50,
    callerOf: httpCallers(options, addressing),
  };
  const rateLimits = options.limitsOff ? null : (options.services.limitServices?.rateLimits ?? null);
  const refuseEarly = rateLimits ? refuseEarlyBeforeYoga(rateLimits, around.callerOf) : null;
  const leaving = () => drain.phase !== 'serving';
  const yoga = createGatewayYoga(options, around);
  const routes = operatorRoutes(options, leaving, GRAPHQL_PATH);
  const server = createServer(serverTimeouts(options.limits), handleRequests(options, drain, routes, yoga, refuseEarly));
  const observeConnection = options.observability?.observeConnection;
  if (observeConnection) server.on('connection', (socket) => observeConnection('http', socket));
  const webSocket = serveGraphqlOverWebSocket(server, yoga, options, around);

  return {
    server,
    yoga,
    listen: (port, host) => listenOn(server, port, host),
    get leaving() {
      return leaving();
    },
    close: ({ graceMs = 0 } = {}) => shutDown({ server, yoga, webSocket, drain }, options, graceMs),
  };
}
