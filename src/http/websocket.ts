// GraphQL over WebSocket (graphql-ws) on /graphql, through yoga's envelop so both transports share
// plugins, context and validation. The upgrade is checked (origin, one credential, per-IP cap), the
// token travels in connection_init, each socket holds a bounded number of operations, and each
// operation holds the drain until graphql-ws has sent its last message.
import type { IncomingMessage, Server } from 'node:http';
import { GraphQLError, getOperationAST, type ExecutionArgs } from 'graphql';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import type { ConnectionInitMessage, SubscribePayload } from 'graphql-ws';
import { hasSeveralAuthorizations, isCredentialList, type Principal } from '../auth/index.js';
import { topLevelError } from '../errors/top-level.js';
import { toClientError } from '../errors/error-masking.js';
import { maskedError } from '../errors/traceable-errors.js';
import { connectionSlots, headerOf } from '../limits/index.js';
import type { Logger } from '../logger.js';
import { principalFrom } from './caller.js';
import type { GatewayServerOptions } from './options.js';
import { GRAPHQL_PATH, type GatewayYoga, type YogaSurroundings } from './yoga.js';

type Enveloped = ReturnType<GatewayYoga['getEnveloped']>;
/** Handed to graphql-ws as the root value, so it runs the operation through yoga's envelop. */
interface EnvelopedRunners {
  execute: Enveloped['execute'];
  subscribe: Enveloped['subscribe'];
}
type Socket = { close(code: number, reason: string): void; once(event: 'close', listener: () => void): unknown };

/** The GraphQL WebSocket server (graphql-ws) on the gateway's HTTP server. */
export interface GraphqlWebSocket {
  /** Ends graphql-ws (1001 to every socket) and closes the WebSocket server. */
  close(): Promise<void>;
}

/** A socket whose token expires is closed (4403): the client refreshes its token and reconnects. */
function closeWhenExpired(socket: Socket, expiresAt: Date): void {
  // setTimeout takes at most 2^31-1 ms; a token valid longer is checked again when that first timer fires.
  const delay = Math.min(Math.max(0, expiresAt.getTime() - Date.now()), 2 ** 31 - 1);
  const timer = setTimeout(() => {
    if (Date.now() >= expiresAt.getTime()) socket.close(4403, 'Forbidden: token expired');
    else closeWhenExpired(socket, expiresAt);
  }, delay);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/**
 * The ids of the operations each socket holds. A set of ids, not a counter: graphql-ws runs the
 * subscribe messages of one socket concurrently (so a slot is taken before the first await, or a
 * burst would pass the check together), and it calls onError for an operation refused here and
 * onError then onComplete for one that fails while running: releasing by id frees a slot once,
 * and only a slot that was taken.
 * Each id maps to its hold on the drain: shutdown waits until graphql-ws has sent the operation's
 * last message (a result, an error or `complete`), so no socket closes before it.
 */
function socketOperations() {
  const bySocket = new WeakMap<object, Map<string, () => void>>();
  return {
    of(socket: object): Map<string, () => void> {
      let ids = bySocket.get(socket);
      if (!ids) bySocket.set(socket, (ids = new Map()));
      return ids;
    },
    release(socket: object, id: string): void {
      const operations = bySocket.get(socket);
      const done = operations?.get(id);
      if (!done) return;
      operations!.delete(id);
      done();
    },
  };
}

/** A page of an unlisted site may not open a socket; a client without Origin (a server) may. Then the per-IP cap. */
function upgradeCheck(options: GatewayServerOptions, around: YogaSurroundings) {
  const { addressing, origins } = around;
  const wsSlots = connectionSlots(options.limits.wsMaxConnectionsPerIp);
  return (req: IncomingMessage, done: (ok: boolean, code?: number, message?: string) => void) => {
    // The gateway's own origin is what the client reached: behind a trusted proxy, its scheme (X-Forwarded-Proto).
    const own = { proto: addressing.protoOf(req), host: req.headers.host };
    if (!origins.allows(headerOf(req.headers, 'origin'), own.host, own.proto)) return done(false, 403, 'Origin not allowed');
    if (hasSeveralAuthorizations(req.rawHeaders)) return done(false, 400, 'More than one Authorization header');
    if (!options.limitsOff && !wsSlots.acquire(addressing.ipOf(req) ?? 'unknown', req.socket))
      return done(false, 429, 'Too many connections from this address');
    done(true);
  };
}

/**
 * The token travels in connection_init as { authorization: "Bearer <token>" }. No token, a bad one,
 * or parameters that are not an object: the socket is closed with 4403 before any operation runs.
 * Returns the principal, or null to refuse.
 */
async function authenticateSocket(
  options: GatewayServerOptions,
  params: ConnectionInitMessage['payload'],
  socket: Socket,
): Promise<Principal | null> {
  if (params === undefined || params === null || typeof params !== 'object' || Array.isArray(params)) return null;
  const authorization = (params as Record<string, unknown>).authorization;
  if (typeof authorization !== 'string') return null;
  // Several credentials in one value: refused whole, as over HTTP (a close code of its own, so the client can tell).
  if (isCredentialList(authorization)) {
    socket.close(4400, 'Bad request: send one authorization');
    return null;
  }
  const principal = await principalFrom(options.services.tokens, authorization).catch(() => null);
  if (principal) closeWhenExpired(socket, principal.expiresAt);
  return principal;
}

/** An operation's execution arguments through yoga's envelop, or its errors (this operation only, never the socket). */
async function prepareOperation(
  yoga: GatewayYoga,
  log: Logger,
  context: Record<string, unknown>,
  params: SubscribePayload,
): Promise<ExecutionArgs | readonly GraphQLError[]> {
  try {
    const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({ ...context, params });
    const runners: EnvelopedRunners = { execute, subscribe };
    const args: ExecutionArgs = {
      schema,
      operationName: params.operationName,
      document: parse(params.query),
      variableValues: params.variables,
      contextValue: await contextFactory(),
      rootValue: runners,
    };
    const errors = validate(args.schema, args.document);
    if (errors.length) return errors;
    // graphql-ws would answer its own "Unable to identify operation", without a code or French.
    return getOperationAST(args.document, args.operationName) ? args : [topLevelError('OPERATION_RESOLUTION_FAILURE', undefined)];
  } catch (err) {
    // A query that does not parse, or a document limit graphql-armor throws from inside validation, is this
    // operation's error; thrown, graphql-ws would close the socket (4500) and end every other operation on it.
    // The one way out gives it its code and French (a thrown validation error skips the plugins' onValidate).
    if (err instanceof GraphQLError) return [toClientError(err, { log, stage: 'validate' })];
    // Thrown, it would close the socket (4500) with nothing logged: masked, logged, this operation only.
    return [maskedError(err, log)];
  }
}

/**
 * graphql-ws's ws adapter answers a socket's 'error' with a multi-line console.error of its stack (14 lines in the
 * JSON log for each oversized frame an anonymous client sends). Those errors are the peer's protocol faults
 * (a frame over maxPayload, an invalid frame) and ws has already closed the socket with the right code (1009,
 * 1002): this listener, added after the adapter's, puts one log line in its place. No other 'error' listener is
 * on a new socket at this point (ws itself listens on the TCP socket, not on the WebSocket).
 */
function logProtocolErrorsOnce(wsServer: WebSocketServer, log: Logger): void {
  wsServer.on('connection', (socket) => {
    for (const listener of socket.rawListeners('error')) socket.removeListener('error', listener as (err: Error) => void);
    socket.on('error', (err: Error & { code?: string }) => {
      log.warn('websocket closed on a protocol error', { code: err.code ?? null, reason: err.message.slice(0, 200) });
    });
  });
}

/**
 * Serves graphql-ws on the HTTP server's upgrades of the GraphQL path, with the same context, auth and limits as HTTP, and at most
 * `maxSubscriptions` subscriptions per socket.
 */
export function serveGraphqlOverWebSocket(
  server: Server,
  yoga: GatewayYoga,
  options: GatewayServerOptions,
  around: YogaSurroundings,
): GraphqlWebSocket {
  const { drain, maxSubscriptions } = around;
  const verifyUpgrade = upgradeCheck(options, around);
  const wsServer = new WebSocketServer({
    server,
    path: GRAPHQL_PATH,
    maxPayload: options.maxFrameBytes ?? 64 * 1024,
    verifyClient: (info, done) => verifyUpgrade(info.req, done),
  });
  const observeConnection = options.observability?.observeConnection;
  if (observeConnection) wsServer.on('connection', (socket) => observeConnection('ws', socket));
  const operations = socketOperations();
  // The principal each socket authenticated with in connection_init.
  const principalsBySocket = new WeakMap<object, Principal>();

  const disposer = useServer<Record<string, unknown>, { requestId?: string }>(
    {
      // Otherwise (NODE_ENV not "production") graphql-ws puts internal error messages in close reasons.
      isProd: true,
      onConnect: async (ctx) => {
        const principal = await authenticateSocket(options, ctx.connectionParams, ctx.extra.socket);
        if (!principal) return false;
        principalsBySocket.set(ctx.extra.socket, principal);
        operations.of(ctx.extra.socket);
        return true;
      },
      execute: (args) => (args.rootValue as EnvelopedRunners).execute(args),
      subscribe: (args) => (args.rootValue as EnvelopedRunners).subscribe(args),
      onSubscribe: async (ctx, id, params) => {
        const held = operations.of(ctx.extra.socket);
        if (held.size >= maxSubscriptions) {
          return [topLevelError('TOO_MANY_SUBSCRIPTIONS', { max: maxSubscriptions, over: 'connection' })];
        }
        held.set(id, drain.trackOperation());
        const principal = principalsBySocket.get(ctx.extra.socket);
        const context = { ...ctx, principal, req: ctx.extra.request, socket: ctx.extra.socket };
        const prepared = await prepareOperation(yoga, options.services.log, context, params);
        if (Array.isArray(prepared)) operations.release(ctx.extra.socket, id);
        return prepared;
      },
      onComplete: (ctx, id) => operations.release(ctx.extra.socket, id),
      onError: (ctx, id) => operations.release(ctx.extra.socket, id),
    },
    wsServer,
  );
  logProtocolErrorsOnce(wsServer, options.services.log);

  return {
    close: async () => {
      await disposer.dispose();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
    },
  };
}
