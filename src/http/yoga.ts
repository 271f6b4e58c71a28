// The yoga instance behind /graphql (HTTP and SSE; src/http/websocket.ts runs its envelop for
// graphql-ws): the schema, the plugins in the order they must run, GraphiQL and the context.
import type { IncomingMessage } from 'node:http';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { getArgumentValues } from 'graphql';
import { schema } from '../schema/index.js';
import { createContext, type GatewayContext } from '../schema/context.js';
import { merchantOfRequest, namedMerchant } from '../schema/platform.js';
import { auditAttempt, moneyMovingMutations } from '../schema/audit.js';
import { grantKey, type Principal } from '../auth/index.js';
import {
  corsOptions,
  limitPlugins,
  useBrowserSafety,
  useEarlyRefusals,
  useGraphiqlPolicy,
  useNoIntrospection,
  type OriginPolicy,
} from '../limits/index.js';
import { maskUnexpected, useClientSafeErrors } from '../errors/error-masking.js';
import { useSharedEventExecution } from '../execution/shared-event-execution.js';
import { useTrustedDocuments } from '../execution/trusted-documents.js';
import { useCompressedHtml } from '../graphiql/compressed-page.js';
import { withLivePanel } from '../graphiql/live-panel.js';
import { graphiqlTabs } from '../graphiql/tabs.js';
import { requestIdFrom, useAuthentication } from './caller.js';
import { fetchHeaders, type HttpCallerOf } from './http-callers.js';
import type { ClientAddressing } from './client-address.js';
import type { Drain } from './drain.js';
import type { GatewayServerOptions } from './options.js';

/** Where the GraphQL API is served, over HTTP, SSE and WebSocket. */
export const GRAPHQL_PATH = '/graphql';

/** The gateway's yoga server, with its request context. */
export type GatewayYoga = YogaServerInstance<Record<string, unknown>, GatewayContext>;

/** What the yoga instance shares with the HTTP server around it. */
export interface YogaSurroundings {
  drain: Drain;
  addressing: ClientAddressing;
  origins: OriginPolicy;
  maxSubscriptions: number;
  /** Each HTTP request's caller, established once (shared with the refusal before yoga). */
  callerOf: HttpCallerOf;
}

/** A refused attempt at moving money leaves an audit line, as a run one does. */
const auditAnonymousMoneyMoves: Parameters<typeof useAuthentication>[0] = (ctx, operation, variables) => {
  if (operation?.operation !== 'mutation') return;
  const fields = schema.getMutationType()?.getFields() ?? {};
  for (const selection of operation.selectionSet.selections) {
    const field = selection.kind === 'Field' ? fields[selection.name.value] : undefined;
    if (selection.kind !== 'Field' || !field) continue;
    let arg: unknown;
    try {
      arg = field ? Object.values(getArgumentValues(field, selection, variables))[0] : undefined;
    } catch {
      arg = undefined; // arguments that do not even validate: the line still says who tried what
    }
    auditAttempt(ctx, field, { arg, outcome: 'UNAUTHENTICATED' });
  }
};

function limitsPlugins(options: GatewayServerOptions, maxSubscriptions: number, callerOf: HttpCallerOf): Plugin[] {
  const { limits, services } = options;
  const rateLimits = options.limitsOff ? null : (services.limitServices?.rateLimits ?? null);
  return [
    // First of the limits: a flood over its budget is refused before anything below costs it.
    ...(rateLimits
      ? [
          useEarlyRefusals(rateLimits, async (request, serverContext) => {
            const req = serverContext.req as IncomingMessage | undefined;
            const { principal, clientIp, merchant } = await callerOf(fetchHeaders(request), req, request);
            return { principal, clientIp, merchantId: merchant?.id ?? null };
          }),
        ]
      : []),
    ...useBrowserSafety(),
    ...(limits.introspection ? [] : [useNoIntrospection()]),
    // The page's own policy first: compression then works on the page as it will be sent.
    ...(limits.graphiql ? [useGraphiqlPolicy(), useCompressedHtml()] : []),
    ...(options.limitsOff
      ? []
      : limitPlugins({
          limits,
          rateLimits,
          moneyMoving: moneyMovingMutations(schema),
          maxSubscriptions,
        })),
  ];
}

/** GraphiQL with the client kit's flows as tabs and, in sandbox mode, the development token in every header. */
function graphiqlOptions(options: GatewayServerOptions) {
  const token = options.graphiqlToken ?? null;
  if (!options.limits.graphiql) return false;
  return {
    title: 'Mobile-money payments gateway',
    subscriptionsProtocol: 'WS' as const,
    // One tab per flow, from the client kit's documents (src/graphiql/tabs.ts).
    defaultTabs: graphiqlTabs(token),
    ...(token
      ? {
          headers: JSON.stringify({ Authorization: `Bearer ${token}` }),
          // Tabs the user opens get the token too.
          defaultHeaders: JSON.stringify({ Authorization: `Bearer ${token}` }),
          // graphql-ws carries the token in connection_init, not in a header.
          connectionParams: { authorization: `Bearer ${token}` },
        }
      : {}),
  };
}

/**
 * Creates the yoga server: the schema with the gateway's plugins (client-safe errors first, then observability, the drain, limits,
 * authentication, shared event execution and trusted documents) and each request's context.
 */
export function createGatewayYoga(options: GatewayServerOptions, around: YogaSurroundings): GatewayYoga {
  const { services } = options;
  const { addressing, callerOf } = around;
  return createYoga<Record<string, unknown>, GatewayContext>({
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
    cors: corsOptions(around.origins),
    multipart: false,
    // admitBody (src/limits/body-size.ts) has already read and bounded every body before yoga sees it;
    // yoga's own limit would pipe it again through a stream per request (a measurable share of each request).
    maxRequestBodySize: false,
    // GraphiQL with its assets inlined, so the page works offline (yoga's default loads them from a CDN).
    // The page is a 9 MB module: it is loaded on the first visit, not at start (live mode usually has it off).
    // In sandbox mode it carries a live panel of paymentEvents (src/graphiql/live-panel.ts).
    renderGraphiQL: async (page) =>
      withLivePanel((await import('@graphql-yoga/render-graphiql')).renderGraphiQL(page), options.graphiqlToken ?? null),
    graphiql: graphiqlOptions(options),
    // Over HTTP yoga passes the Fetch `request` (and the Node `req`); over WebSocket (src/http/websocket.ts)
    // the principal established when the socket connected, and the upgrade `req`.
    context: async (initial: { request?: Request; req?: IncomingMessage; principal?: Principal; connectionParams?: unknown }) => {
      if (!initial.principal) {
        const { merchant, ...caller } = await callerOf(fetchHeaders(initial.request!), initial.req, initial.request);
        return createContext(services, services.platform ? { ...caller, merchant } : caller);
      }
      const caller = {
        principal: initial.principal,
        clientIp: addressing.ipOf(initial.req),
        requestId: requestIdFrom(initial.req?.headers['x-request-id'] as string | undefined),
      };
      if (!services.platform) return createContext(services, caller);
      // Platform mode over WebSocket: the merchant from the token, or the one an operator names in connection_init.
      const named = namedMerchant((initial.connectionParams as Record<string, unknown> | undefined)?.merchantId);
      return createContext(services, { ...caller, merchant: await merchantOfRequest(services.platform, caller.principal, named) });
    },
    // Observability right after the masking, so it records what the client got, and before anything
    // that may stop an operation (a plugin that stops one skips the hooks of those after it).
    plugins: [
      useClientSafeErrors(services.log),
      ...(options.observability?.plugins ?? []),
      around.drain.plugin,
      ...limitsPlugins(options, around.maxSubscriptions, callerOf),
      useAuthentication(auditAnonymousMoneyMoves),
      // Last: every plugin above still sees each subscriber's subscription; only event execution is shared.
      useSharedEventExecution((context) => {
        const { principal, merchant } = context as Partial<GatewayContext>;
        // Platform mode: an operator acting for A and one acting for B hold the same grant, not the same data.
        return principal ? `${grantKey(principal)}${merchant ? `#${merchant.id}` : ''}` : null;
      }),
      ...(options.trustedDocuments ? useTrustedDocuments(options.trustedDocuments) : []),
    ],
  });
}
