// One HTTP server: GraphQL over HTTP and SSE (yoga), GraphQL over WebSocket
// (graphql-ws, same path, through yoga's envelop so both transports share
// plugins, context and validation), the webhook receiver, and /health.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
// GraphiQL with its assets inlined: the page works offline (the default one loads them from a CDN).
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { GraphQLError, getArgumentValues, type ExecutionArgs } from 'graphql';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { schema } from './schema/index.js';
import { createContext, type GatewayContext, type GatewayServices } from './schema/context.js';
import { useClientSafeErrors } from './error-masking.js';
import { callerFromHttp, clientIpOf, principalFrom, requestIdFrom, useAuthentication } from './caller.js';
import type { Principal } from './auth/index.js';
import { MONEY_MOVING_MUTATIONS, audit } from './schema/audit.js';
import type { HealthProbe } from './health.js';

export interface GatewayServerOptions {
  services: GatewayServices;
  webhook: { path: string; handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> } | null;
  health: HealthProbe;
  /** A token GraphiQL puts in its Authorization header (sandbox mode's development token). */
  graphiqlToken?: string | null;
  /** Most subscriptions one WebSocket connection may hold at once. */
  maxSubscriptionsPerConnection?: number;
  /** Largest WebSocket frame accepted, in bytes. */
  maxFrameBytes?: number;
}

export interface GatewayServer {
  server: Server;
  yoga: YogaServerInstance<Record<string, unknown>, GatewayContext>;
  listen(port: number, host: string): Promise<string>;
  close(): Promise<void>;
}

export const GRAPHQL_PATH = '/graphql';

const GRAPHIQL_DEFAULT_QUERY = `# Mobile-money payments gateway. Sandbox test numbers: OPA_BF 76000000, OPB_BF 70000000; OTP 123456.
# Try: createCharge, then submitChargeOtp; subscribe to chargeUpdated in another tab.
query Balance {
  balance {
    currency
    collection { available pending }
    wallets { wallet available pending }
  }
}
`;

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

  const yoga = createYoga<Record<string, unknown>, GatewayContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    // useClientSafeErrors (a user plugin, so it runs first) turns upstream failures into coded
    // errors and masks the unexpected with a request id; yoga's masking stays on behind it as a
    // net for anything raised outside execution. isDev is pinned off: NODE_ENV=development must
    // never put stack traces in responses.
    maskedErrors: { isDev: false },
    logging: false,
    landingPage: false,
    renderGraphiQL,
    graphiql: {
      title: 'Mobile-money payments gateway',
      subscriptionsProtocol: 'WS',
      defaultQuery: GRAPHIQL_DEFAULT_QUERY,
      ...(options.graphiqlToken
        ? {
            headers: JSON.stringify({ Authorization: `Bearer ${options.graphiqlToken}` }),
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
              clientIp: clientIpOf(initial.req),
              requestId: requestIdFrom(initial.req?.headers['x-request-id'] as string | undefined),
            }
          : await callerFromHttp(services.tokens, initial.request!, initial.req),
      ),
    plugins: [useClientSafeErrors(services.log), useAuthentication(auditAnonymousMoneyMoves)],
  });

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (options.webhook && path === options.webhook.path) {
      options.webhook.handle(req, res).catch((err: unknown) => {
        services.log.error('webhook handler failed', { error: err });
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end('{"ok":false}');
      });
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
    void yoga(req, res);
  });

  const wsServer = new WebSocketServer({ server, path: GRAPHQL_PATH, maxPayload: options.maxFrameBytes ?? 64 * 1024 });
  // The ids of the operations each socket holds. A set of ids, not a counter: graphql-ws runs the
  // subscribe messages of one socket concurrently (so a slot is taken before the first await, or a
  // burst would pass the check together), and it calls onError for an operation refused here and
  // onError then onComplete for one that fails while running: releasing by id frees a slot once,
  // and only a slot that was taken.
  const operationsBySocket = new WeakMap<object, Set<string>>();
  const operationsOf = (socket: object) => {
    let ids = operationsBySocket.get(socket);
    if (!ids) operationsBySocket.set(socket, (ids = new Set()));
    return ids;
  };
  const release = (socket: object, id: string) => operationsBySocket.get(socket)?.delete(id);

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
        const principal = await principalFrom(services.tokens, authorization).catch(() => null);
        if (!principal) return false;
        principalsBySocket.set(ctx.extra.socket, principal);
        operationsBySocket.set(ctx.extra.socket, new Set());
        closeWhenExpired(ctx.extra.socket, principal.expiresAt);
        return true;
      },
      execute: (args) => (args.rootValue as { execute: (a: ExecutionArgs) => unknown }).execute(args) as never,
      subscribe: (args) => (args.rootValue as { subscribe: (a: ExecutionArgs) => unknown }).subscribe(args) as never,
      onSubscribe: async (ctx, id, params) => {
        const operations = operationsOf(ctx.extra.socket);
        if (operations.size >= maxSubscriptions) {
          return [
            new GraphQLError(`At most ${maxSubscriptions} operations may run at once on one connection.`, {
              extensions: { code: 'TOO_MANY_SUBSCRIPTIONS' },
            }),
          ];
        }
        operations.add(id);
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
          if (errors.length) operations.delete(id);
          return errors.length ? errors : args;
        } catch (err) {
          operations.delete(id);
          // A query that does not parse is this operation's error; thrown, graphql-ws would close the
          // socket (4500) and end every other operation on it.
          if (err instanceof GraphQLError) return [err];
          throw err;
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
    close: async () => {
      await wsDisposer.dispose();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await yoga.dispose();
    },
  };
}
