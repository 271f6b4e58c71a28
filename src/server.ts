// One HTTP server: GraphQL over HTTP and SSE (yoga), GraphQL over WebSocket
// (graphql-ws, same path, through yoga's envelop so both transports share
// plugins, context and validation), the webhook receiver, and /health.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
// GraphiQL with its assets inlined: the page works offline (the default one loads them from a CDN).
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { GraphQLError, type ExecutionArgs } from 'graphql';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { schema } from './schema/index.js';
import { createContext, type GatewayContext, type GatewayServices } from './schema/context.js';
import { useClientSafeErrors } from './error-masking.js';
import type { HealthProbe } from './health.js';

export interface GatewayServerOptions {
  services: GatewayServices;
  webhook: { path: string; handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> } | null;
  health: HealthProbe;
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
const REQUEST_ID = /^[\w.:-]{1,100}$/;

function requestIdFrom(header: string | null | undefined): string {
  return header && REQUEST_ID.test(header) ? header : randomUUID();
}

export function createGatewayServer(options: GatewayServerOptions): GatewayServer {
  const { services } = options;
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
    graphiql: { title: 'Mobile-money payments gateway', subscriptionsProtocol: 'WS', defaultQuery: GRAPHIQL_DEFAULT_QUERY },
    // Over HTTP yoga passes the Fetch `request`; over WebSocket (getEnveloped below) the Node upgrade `req`.
    context: (initial: { request?: Request; req?: IncomingMessage }) =>
      createContext(
        services,
        requestIdFrom(initial.request ? initial.request.headers.get('x-request-id') : (initial.req?.headers['x-request-id'] as string | undefined)),
      ),
    plugins: [useClientSafeErrors(services.log)],
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

  const wsDisposer = useServer<Record<string, unknown>, { requestId?: string }>(
    {
      // Otherwise (NODE_ENV not "production") graphql-ws puts internal error messages in close reasons.
      isProd: true,
      // Connection parameters arrive here; authentication will read them. Reject anything but an object.
      onConnect: (ctx) => {
        const params = ctx.connectionParams;
        if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) return false;
        operationsBySocket.set(ctx.extra.socket, new Set());
        return true;
      },
      execute: (args) => (args.rootValue as { execute: (a: ExecutionArgs) => unknown }).execute(args) as never,
      subscribe: (args) => (args.rootValue as { subscribe: (a: ExecutionArgs) => unknown }).subscribe(args) as never,
      onSubscribe: async (ctx, id, params) => {
        const operations = operationsOf(ctx.extra.socket);
        if (operations.size >= maxSubscriptions) {
          return [new GraphQLError(`At most ${maxSubscriptions} operations may run at once on one connection.`, { extensions: { code: 'TOO_MANY_SUBSCRIPTIONS' } })];
        }
        operations.add(id);
        try {
          const { schema: envelopedSchema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
            ...ctx,
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
