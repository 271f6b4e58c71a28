// One HTTP server: GraphQL over HTTP and SSE (yoga), GraphQL over WebSocket
// (graphql-ws, same path, through yoga's envelop so both transports share
// plugins, context and validation), the webhook receiver, and /health.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo } from 'node:net';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { GraphQLError, getArgumentValues, type ExecutionArgs } from 'graphql';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { schema } from './schema/index.js';
import { createContext, type GatewayContext, type GatewayServices } from './schema/context.js';
import { useClientSafeErrors } from './error-masking.js';
import { maskUnexpected, maskedError, withRequestId } from './traceable-errors.js';
import { topLevelError, topLevelErrorBody } from './errors/top-level.js';
import { callerFromHttp, principalFrom, requestIdFrom, useAuthentication } from './caller.js';
import { grantKey, hasSeveralAuthorizations, isCredentialList, type Principal } from './auth/index.js';
import { MONEY_MOVING_MUTATIONS, audit } from './schema/audit.js';
import type { HealthProbe } from './health.js';
import type { LimitsConfig } from './config.js';
import {
  admitBody,
  connectionSlots,
  corsOptions,
  headerOf,
  limitPlugins,
  originPolicy,
  serverTimeouts,
  setSecurityHeaders,
  useBrowserSafety,
  useCompressedHtml,
  useGraphiqlPolicy,
  useNoIntrospection,
} from './limits/index.js';
import type { ReadinessProbe } from './readiness.js';
import { createDrain } from './drain.js';
import { clientAddressing, type ClientAddressing } from './client-address.js';
import { useSharedEventExecution } from './shared-execution.js';
import { withLivePanel } from './graphiql-live-panel.js';
import { graphiqlTabs } from './graphiql-tabs.js';
import { useTrustedDocuments, type TrustedDocuments } from './trusted-documents.js';
import type { Observability } from './observability/index.js';

export interface GatewayServerOptions {
  services: GatewayServices;
  webhook: { path: string; handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> } | null;
  health: HealthProbe;
  readiness: ReadinessProbe;
  /** TRUSTED_DOCUMENTS=allow|enforce: the manifest (src/trusted-documents.ts); null or absent: off. */
  trustedDocuments?: TrustedDocuments | null;
  /** A token GraphiQL puts in its Authorization header (sandbox mode's development token). */
  graphiqlToken?: string | null;
  /** Most subscriptions one WebSocket connection may hold at once. */
  maxSubscriptionsPerConnection?: number;
  /** Largest WebSocket frame accepted, in bytes. */
  maxFrameBytes?: number;
  /** Bounded cost per request, browser safety, live-mode hardening (src/limits/, README "Limits"). */
  limits: LimitsConfig;
  /** Benchmarks only: no armor, upstream budget, rate limits, body or connection caps (browser safety stays). */
  limitsOff?: boolean;
  /** How long close() waits for operations in flight (a payment call's own deadline plus a margin). */
  drainTimeoutMs?: number;
  /** Client address and scheme through TRUST_PROXY (src/client-address.ts); default: the socket's peer. */
  clientAddressing?: ClientAddressing;
  /** GET /metrics, the per-operation plugin (log line, metrics, span) and connection counts (src/observability/). */
  observability?: Pick<Observability, 'metricsEndpoint' | 'plugins' | 'observeConnection'>;
}

export interface GatewayServer {
  server: Server;
  yoga: YogaServerInstance<Record<string, unknown>, GatewayContext>;
  listen(port: number, host: string): Promise<string>;
  /** Readiness 503 for graceMs while serving, then the drain (src/drain.ts); graceMs defaults to 0. */
  close(options?: { graceMs?: number }): Promise<void>;
  /** True from the moment shutdown begins (readiness 503, the readiness gauge). */
  readonly leaving: boolean;
}

export const GRAPHQL_PATH = '/graphql';

/** A socket whose token expires is closed (4403): the client refreshes its token and reconnects. */
function closeWhenExpired(
  socket: { close(code: number, reason: string): void; once(event: 'close', listener: () => void): unknown },
  expiresAt: Date,
): void {
  // setTimeout takes at most 2^31-1 ms; a token valid longer is checked again when that first timer fires.
  const delay = Math.min(Math.max(0, expiresAt.getTime() - Date.now()), 2 ** 31 - 1);
  const timer = setTimeout(() => {
    if (Date.now() >= expiresAt.getTime()) socket.close(4403, 'Forbidden: token expired');
    else closeWhenExpired(socket, expiresAt);
  }, delay);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/** Two credentials where one is expected (src/auth/bearer.ts): 400 before anything reads either of them. */
function refuseSeveralAuthorizations(res: ServerResponse): void {
  res
    .writeHead(400, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    .end(JSON.stringify({ errors: [topLevelErrorBody('DUPLICATE_AUTHORIZATION', undefined)] }));
}

export function createGatewayServer(options: GatewayServerOptions): GatewayServer {
  const { services } = options;
  // A refused attempt at moving money leaves an audit line, as a run one does.
  const auditAnonymousMoneyMoves: Parameters<typeof useAuthentication>[0] = (ctx, operation, variables) => {
    if (operation?.operation !== 'mutation') return;
    const fields = schema.getMutationType()?.getFields() ?? {};
    for (const selection of operation.selectionSet.selections) {
      if (selection.kind !== 'Field' || !MONEY_MOVING_MUTATIONS.has(selection.name.value)) continue;
      const field = fields[selection.name.value];
      let arg: unknown;
      try {
        arg = field ? Object.values(getArgumentValues(field, selection, variables))[0] : undefined;
      } catch {
        arg = undefined; // arguments that do not even validate: the line still says who tried what
      }
      audit(ctx, selection.name.value, { arg, outcome: 'UNAUTHENTICATED' });
    }
  };
  const maxSubscriptions = options.maxSubscriptionsPerConnection ?? 50;
  const { limits } = options;
  const origins = originPolicy(limits.corsOrigins);
  const addressing = options.clientAddressing ?? clientAddressing(null);
  const wsSlots = connectionSlots(limits.wsMaxConnectionsPerIp);
  const limitsPlugins = [
    ...useBrowserSafety(),
    ...(limits.introspection ? [] : [useNoIntrospection()]),
    // The page's own policy first: compression then works on the page as it will be sent.
    ...(limits.graphiql ? [useGraphiqlPolicy(), useCompressedHtml()] : []),
    ...(options.limitsOff
      ? []
      : limitPlugins({
          limits,
          rateLimits: services.limitServices?.rateLimits ?? null,
          moneyMoving: MONEY_MOVING_MUTATIONS,
          maxSubscriptions,
        })),
  ];
  // A page of an unlisted site may not open a socket; a client without Origin (a server) may. Then the per-IP cap.
  const verifyUpgrade = (req: IncomingMessage, done: (ok: boolean, code?: number, message?: string) => void) => {
    // The gateway's own origin is what the client reached: behind a trusted proxy, its scheme (X-Forwarded-Proto).
    const own = { proto: addressing.protoOf(req), host: req.headers.host };
    if (!origins.allows(headerOf(req.headers, 'origin'), own.host, own.proto)) return done(false, 403, 'Origin not allowed');
    if (hasSeveralAuthorizations(req.rawHeaders)) return done(false, 400, 'More than one Authorization header');
    if (!options.limitsOff && !wsSlots.acquire(addressing.ipOf(req) ?? 'unknown', req.socket))
      return done(false, 429, 'Too many connections from this address');
    done(true);
  };
  const drain = createDrain();

  const yoga = createYoga<Record<string, unknown>, GatewayContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    // useClientSafeErrors (a user plugin, so it runs first) turns upstream failures into coded
    // errors and masks the unexpected with a request id; yoga's masking stays on behind it as a
    // net for anything raised outside execution. isDev is pinned off: NODE_ENV=development must
    // never put stack traces in responses.
    maskedErrors: { isDev: false, maskError: maskUnexpected(services.log) },
    logging: false,
    landingPage: false,
    // Browser safety (src/limits/origins.ts): CORS for CORS_ORIGINS only, never with credentials; no uploads.
    cors: corsOptions(origins),
    multipart: false,
    // admitBody (src/limits/body-size.ts) has already read and bounded every body before yoga sees it;
    // yoga's own limit would pipe it again through a stream per request (a measurable share of each request).
    maxRequestBodySize: false,
    // GraphiQL with its assets inlined, so the page works offline (yoga's default loads them from a CDN).
    // The page is a 9 MB module: it is loaded on the first visit, not at start (live mode usually has it off).
    // In sandbox mode it carries a live panel of paymentEvents (src/graphiql-live-panel.ts).
    renderGraphiQL: async (graphiqlOptions) =>
      withLivePanel((await import('@graphql-yoga/render-graphiql')).renderGraphiQL(graphiqlOptions), options.graphiqlToken ?? null),
    graphiql: limits.graphiql && {
      title: 'Mobile-money payments gateway',
      subscriptionsProtocol: 'WS',
      // One tab per flow, from the client kit's documents (src/graphiql-tabs.ts).
      defaultTabs: graphiqlTabs(options.graphiqlToken ?? null),
      ...(options.graphiqlToken
        ? {
            headers: JSON.stringify({ Authorization: `Bearer ${options.graphiqlToken}` }),
            // Tabs the user opens get the token too.
            defaultHeaders: JSON.stringify({ Authorization: `Bearer ${options.graphiqlToken}` }),
            // graphql-ws carries the token in connection_init, not in a header.
            connectionParams: { authorization: `Bearer ${options.graphiqlToken}` },
          }
        : {}),
    },
    // Over HTTP yoga passes the Fetch `request` (and the Node `req`); over WebSocket (getEnveloped below)
    // the principal established when the socket connected, and the upgrade `req`.
    context: async (initial: { request?: Request; req?: IncomingMessage; principal?: Principal }) =>
      createContext(
        services,
        initial.principal
          ? {
              principal: initial.principal,
              clientIp: addressing.ipOf(initial.req),
              requestId: requestIdFrom(initial.req?.headers['x-request-id'] as string | undefined),
            }
          : await callerFromHttp(services.tokens, initial.request!, initial.req, addressing),
      ),
    // Observability right after the masking, so it records what the client got, and before anything
    // that may stop an operation (a plugin that stops one skips the hooks of those after it).
    plugins: [
      useClientSafeErrors(services.log),
      ...(options.observability?.plugins ?? []),
      drain.plugin,
      ...limitsPlugins,
      useAuthentication(auditAnonymousMoneyMoves),
      // Last: every plugin above still sees each subscriber's subscription; only event execution is shared.
      useSharedEventExecution((context) => {
        const principal = (context as Partial<GatewayContext>).principal;
        return principal ? grantKey(principal) : null;
      }),
      ...(options.trustedDocuments ? useTrustedDocuments(options.trustedDocuments) : []),
    ],
  });

  const server = createServer(serverTimeouts(limits), (req, res) => {
    setSecurityHeaders(res);
    // A request reaching a closing server (on a kept-alive connection) is turned away before it can
    // start anything; the client retries on another replica.
    if (drain.draining) {
      res
        .writeHead(503, { 'content-type': 'application/json', connection: 'close', 'retry-after': '1' })
        .end(JSON.stringify({ errors: [topLevelErrorBody('SERVICE_UNAVAILABLE', 'shutting_down')] }));
      return;
    }
    drain.trackResponse(res);
    // Leaving: no connection is kept alive past its response, so none is idle (and closed under a
    // request the client is just sending) when the listener closes at the end of the grace period.
    if (drain.phase === 'leaving') res.setHeader('connection', 'close');
    const path = (req.url ?? '/').split('?')[0];
    if (options.webhook && path === options.webhook.path) {
      options.webhook.handle(req, res).catch((err: unknown) => {
        services.log.error('webhook handler failed', { error: err });
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end('{"ok":false}');
      });
      return;
    }
    if (path === '/health/live' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end('{"live":true}');
      return;
    }
    if (path === '/health/ready' && req.method === 'GET') {
      // Leaving (SIGTERM, the grace period): not ready, so the balancer stops routing here while we still serve.
      const leaving = drain.phase !== 'serving';
      const report = leaving ? { ...options.readiness.current(), ready: false, draining: true } : options.readiness.current();
      res
        .writeHead(report.ready ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify(report));
      return;
    }
    if (path === '/metrics' && options.observability?.metricsEndpoint) {
      options.observability.metricsEndpoint(req, res);
      return;
    }
    if (path === '/health' && req.method === 'GET') {
      options.health.check().then((report) => {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(report));
      });
      return;
    }
    if (path === '/') {
      res.writeHead(302, { location: GRAPHQL_PATH }).end();
      return;
    }
    // One id per request: its context and log lines, and any error masked outside execution (src/traceable-errors.ts).
    const requestId = requestIdFrom(headerOf(req.headers, 'x-request-id'));
    req.headers['x-request-id'] = requestId;
    withRequestId(requestId, () => {
      if (hasSeveralAuthorizations(req.rawHeaders)) return refuseSeveralAuthorizations(res);
      if (options.limitsOff) return void yoga(req, res);
      // 413 above MAX_BODY_BYTES before yoga parses anything.
      admitBody(req, res, limits.maxBodyBytes).then(
        (admitted) => {
          if (admitted) void yoga(req, res);
        },
        () => req.destroy(), // the client went away while sending
      );
    });
  });

  const wsServer = new WebSocketServer({
    server,
    path: GRAPHQL_PATH,
    maxPayload: options.maxFrameBytes ?? 64 * 1024,
    verifyClient: (info, done) => verifyUpgrade(info.req, done),
  });
  if (options.observability) {
    const { observeConnection } = options.observability;
    server.on('connection', (socket) => observeConnection('http', socket));
    wsServer.on('connection', (socket) => observeConnection('ws', socket));
  }
  // The ids of the operations each socket holds. A set of ids, not a counter: graphql-ws runs the
  // subscribe messages of one socket concurrently (so a slot is taken before the first await, or a
  // burst would pass the check together), and it calls onError for an operation refused here and
  // onError then onComplete for one that fails while running: releasing by id frees a slot once,
  // and only a slot that was taken.
  // Each id maps to its hold on the drain: shutdown waits until graphql-ws has sent the operation's
  // last message (a result, an error or `complete`), so no socket closes before it.
  const operationsBySocket = new WeakMap<object, Map<string, () => void>>();
  const operationsOf = (socket: object) => {
    let ids = operationsBySocket.get(socket);
    if (!ids) operationsBySocket.set(socket, (ids = new Map()));
    return ids;
  };
  const release = (socket: object, id: string) => {
    const operations = operationsBySocket.get(socket);
    const done = operations?.get(id);
    if (!done) return;
    operations!.delete(id);
    done();
  };

  // The principal each socket authenticated with in connection_init.
  const principalsBySocket = new WeakMap<object, Principal>();

  const wsDisposer = useServer<Record<string, unknown>, { requestId?: string }>(
    {
      // Otherwise (NODE_ENV not "production") graphql-ws puts internal error messages in close reasons.
      isProd: true,
      // The token travels in connection_init as { authorization: "Bearer <token>" }. No token, a bad one,
      // or parameters that are not an object: the socket is closed with 4403 before any operation runs.
      onConnect: async (ctx) => {
        const params = ctx.connectionParams;
        if (params === undefined || params === null || typeof params !== 'object' || Array.isArray(params)) return false;
        const authorization = (params as Record<string, unknown>).authorization;
        if (typeof authorization !== 'string') return false;
        // Several credentials in one value: refused whole, as over HTTP (a close code of its own, so the client can tell).
        if (isCredentialList(authorization)) {
          ctx.extra.socket.close(4400, 'Bad request: send one authorization');
          return false;
        }
        const principal = await principalFrom(services.tokens, authorization).catch(() => null);
        if (!principal) return false;
        principalsBySocket.set(ctx.extra.socket, principal);
        operationsBySocket.set(ctx.extra.socket, new Map());
        closeWhenExpired(ctx.extra.socket, principal.expiresAt);
        return true;
      },
      execute: (args) => (args.rootValue as { execute: (a: ExecutionArgs) => unknown }).execute(args) as never,
      subscribe: (args) => (args.rootValue as { subscribe: (a: ExecutionArgs) => unknown }).subscribe(args) as never,
      onSubscribe: async (ctx, id, params) => {
        const operations = operationsOf(ctx.extra.socket);
        if (operations.size >= maxSubscriptions) {
          return [topLevelError('TOO_MANY_SUBSCRIPTIONS', { max: maxSubscriptions, over: 'connection' })];
        }
        operations.set(id, drain.trackOperation());
        try {
          const {
            schema: envelopedSchema,
            execute,
            subscribe,
            contextFactory,
            parse,
            validate,
          } = yoga.getEnveloped({
            ...ctx,
            principal: principalsBySocket.get(ctx.extra.socket),
            req: ctx.extra.request,
            socket: ctx.extra.socket,
            params,
          });
          const args: ExecutionArgs = {
            schema: envelopedSchema,
            operationName: params.operationName,
            document: parse(params.query),
            variableValues: params.variables,
            contextValue: await contextFactory(),
            rootValue: { execute, subscribe },
          };
          const errors = validate(args.schema, args.document);
          if (errors.length) release(ctx.extra.socket, id);
          return errors.length ? errors : args;
        } catch (err) {
          release(ctx.extra.socket, id);
          // A query that does not parse is this operation's error; thrown, graphql-ws would close the
          // socket (4500) and end every other operation on it.
          if (err instanceof GraphQLError) return [err];
          // Thrown, it would close the socket (4500) with nothing logged: masked, logged, this operation only.
          return [maskedError(err, services.log)];
        }
      },
      onComplete: (ctx, id) => {
        release(ctx.extra.socket, id);
      },
      onError: (ctx, id) => {
        release(ctx.extra.socket, id);
      },
    },
    wsServer,
  );
  // graphql-ws's ws adapter answers a socket's 'error' with a multi-line console.error of its stack (14 lines in the
  // JSON log for each oversized frame an anonymous client sends). Those errors are the peer's protocol faults
  // (a frame over maxPayload, an invalid frame) and ws has already closed the socket with the right code (1009,
  // 1002): this listener, added after the adapter's, puts one log line in its place. No other 'error' listener is
  // on a new socket at this point (ws itself listens on the TCP socket, not on the WebSocket).
  wsServer.on('connection', (socket) => {
    for (const listener of socket.rawListeners('error')) socket.removeListener('error', listener as (err: Error) => void);
    socket.on('error', (err: Error & { code?: string }) => {
      services.log.warn('websocket closed on a protocol error', { code: err.code ?? null, reason: err.message.slice(0, 200) });
    });
  });

  return {
    server,
    yoga,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          resolve(`http://${host.includes(':') ? `[${host}]` : host}:${address.port}`);
        });
      }),
    get leaving() {
      return drain.phase !== 'serving';
    },
    // Readiness 503 and still serving for the grace period; then stop accepting, end subscriptions, let
    // every operation in flight finish and record its result and every subscription get its `complete`,
    // then close the WebSockets (1001) and what is left.
    close: async ({ graceMs = 0 } = {}) => {
      drain.leave();
      if (graceMs > 0) await new Promise((resolve) => setTimeout(resolve, graceMs));
      // net's close, not http's: http's also destroys the connections that are idle at that instant, and
      // one just accepted whose request is still on the wire would be reset. Those get their answer
      // (503 shutting_down, or their result); closeAllConnections() below ends what is left.
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      const drained = await drain.drain(options.drainTimeoutMs ?? 20_000);
      if (!drained) services.log.warn('shutdown deadline reached with operations still in flight');
      // graphql-ws writes an operation's last frame right after its onComplete/onError (which released it
      // above): one turn of the event loop and every `complete` is queued ahead of the close frames.
      await new Promise((resolve) => setImmediate(resolve));
      await wsDisposer.dispose();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await yoga.dispose();
    },
  };
}
