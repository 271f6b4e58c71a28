// Platform mode's webhooks from the service: one URL per merchant, `<WEBHOOK_PATH>/<route id>`, each verified with
// that merchant's own webhook secret. The route id is random (a merchant's URL says nothing of another's); an
// unknown or offboarded route is answered 404, and an event signed with another merchant's secret fails the
// signature check of this route's (400): both are logged as refused, with the route's merchant. An accepted event
// enters the log with its merchant's id, and is de-duplicated per merchant (two merchants' deliveries never
// collide on a body id).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PaymentEventRecord } from '../events/payment-event.js';
import { createWebhookHandler, type Acceptance, type WebhookHandlerDeps } from './receiver.js';

/** The merchant a webhook route belongs to, and the secret its events are verified with. */
export interface MerchantWebhookRoute {
  merchantId: string;
  secret: string;
}

/** What the router needs beside the receiver's own dependencies: its base path and how to find a route's merchant. */
export interface MerchantWebhookRouterDeps extends Omit<WebhookHandlerDeps, 'secret' | 'accept'> {
  /** WEBHOOK_PATH: routes are `<basePath>/<route id>`. */
  basePath: string;
  /** The route's merchant and secret; null: no such route, or its merchant is offboarded. */
  resolve(routeId: string): Promise<MerchantWebhookRoute | null>;
  accept(event: PaymentEventRecord): Promise<Acceptance>;
}

const ROUTE_ID = /^[A-Za-z0-9_-]{22}$/;

/** The handler of every `<basePath>/<route id>` (a prefix route of the HTTP server). */
export function createMerchantWebhookRouter(deps: MerchantWebhookRouterDeps) {
  const { basePath, resolve, accept, log, ...receiver } = deps;
  return async function handleMerchantWebhook(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const routeId = path.startsWith(`${basePath}/`) ? path.slice(basePath.length + 1) : '';
    const route = ROUTE_ID.test(routeId) ? await resolve(routeId) : null;
    if (!route) {
      // The route id is not logged: a guessed one is noise, a real one a merchant's address.
      log.warn('webhook rejected', { reason: 'unknown_route' });
      deps.observe?.('received');
      deps.observe?.('rejected');
      const body = '{"ok":false,"error":"not_found"}';
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length, connection: 'close' });
      res.end(body);
      return;
    }
    const { merchantId } = route;
    return createWebhookHandler({
      ...receiver,
      secret: route.secret,
      log: log.child({ merchantId }),
      accept: (event) => accept({ ...event, id: `${merchantId}:${event.id}`, merchantId }),
    })(req, res);
  };
}
