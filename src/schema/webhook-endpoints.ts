// Webhooks to the merchant's servers, in the schema: endpoints (created,
// changed, rotated, deleted), the delivery log, redelivery, replay and test
// events. Everything runs below, in src/outbound-webhooks/; this module maps it
// to GraphQL. Every field needs the `webhooks:manage` scope, and a signing
// secret appears only in the answer of createWebhookEndpoint and
// rotateWebhookEndpointSecret, never in a query.
import { PaymentError, ServiceUnavailableError, ValidationError } from '../errors/payment-errors.js';
import {
  InvalidWebhookUrlError,
  WebhookDeliveryNotFoundError,
  WebhookEndpointLimitError,
  WebhookEndpointNotFoundError,
  WebhooksUnavailableError,
  WEBHOOK_ENDPOINT_ERRORS,
} from '../errors/webhook-endpoint-errors.js';
import { topLevelError } from '../errors/top-level.js';
import {
  OutboundWebhookError,
  WEBHOOK_EVENT_KINDS,
  type DeliveryAttempt,
  type DeliveryRecord,
  type EndpointView,
  type OutboundWebhooks,
} from '../outbound-webhooks/index.js';
import { access } from './access.js';
import { builder } from './builder.js';
import type { GatewayContext } from './context.js';
import { typedErrorObjectTypes } from './error-types.js';
import { canonicalFilter, filteredConnection } from './list-filter.js';
import { decodeGlobalId, encodeGlobalId } from './nodes.js';

const SCOPE = 'webhooks:manage' as const;

/**
 * The outgoing-webhooks service of a request: in platform mode, its merchant's (platform.ts lets no request without
 * one reach these fields). Throws WebhooksUnavailableError when the gateway runs without one.
 */
export function service(ctx: GatewayContext): OutboundWebhooks {
  if (!ctx.outboundWebhooks) throw new WebhooksUnavailableError();
  if (!ctx.platform) return ctx.outboundWebhooks;
  if (!ctx.merchant) throw new WebhooksUnavailableError();
  return ctx.outboundWebhooks.forMerchant(ctx.merchant.id);
}

/** An id as given: the global ID of `typename`, or the raw id (`we_…`, a delivery's own id). */
export function rawId(id: string, typename: 'WebhookEndpoint' | 'WebhookDelivery'): string {
  const decoded = decodeGlobalId(id);
  return decoded.typename === typename ? decoded.id : id;
}

/** The service's refusals as typed errors; a store that cannot be reached is SERVICE_UNAVAILABLE (nothing done). */
export function typedWebhookError(err: unknown): Error {
  if (err instanceof PaymentError) return err;
  if (!(err instanceof OutboundWebhookError)) return new ServiceUnavailableError({ cause: err });
  const r = err.refusal;
  switch (r.kind) {
    case 'endpoint_not_found':
      return new WebhookEndpointNotFoundError(r.endpointId);
    case 'delivery_not_found':
      return new WebhookDeliveryNotFoundError(r.deliveryId);
    case 'limit':
      return new WebhookEndpointLimitError(r.max);
    case 'invalid_url':
      return new InvalidWebhookUrlError(r.reason);
    case 'needs_redis':
      return new WebhooksUnavailableError();
    case 'unknown_kinds':
      // The mutations' own checks answer this with each kind's path first (webhook-endpoint-mutations.ts).
      return new ValidationError(
        r.unknown.map((kind) => ({
          path: ['input', 'kinds'],
          message: `Unknown event kind "${kind}": kinds are ${r.known.join(', ')}.`,
          messageFr: `Type d’événement inconnu "${kind}" : les types sont ${r.known.join(', ')}.`,
        })),
      );
  }
}

/** A query's read: a store that cannot be reached is a top-level SERVICE_UNAVAILABLE. */
async function read<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof OutboundWebhookError && err.refusal.kind === 'endpoint_not_found') throw err;
    throw topLevelError('SERVICE_UNAVAILABLE', 'temporarily');
  }
}

typedErrorObjectTypes(WEBHOOK_ENDPOINT_ERRORS);

const HealthRef = builder.objectRef<EndpointView>('WebhookEndpointHealth').implement({
  description: 'How deliveries to an endpoint are going.',
  fields: (t) => ({
    lastSuccessAt: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (e) => e.lastSuccessAt,
      description: 'The last attempt it answered 2xx.',
    }),
    failingSince: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (e) => e.failingSince,
      description: 'When its current run of failed attempts began; null when its last attempt succeeded.',
    }),
    consecutiveFailures: t.exposeInt('consecutiveFailures', { description: 'Failed attempts since the last success.' }),
    deliveriesWaiting: t.exposeInt('deliveriesWaiting', { description: 'Deliveries in flight or waiting for a retry.' }),
  }),
});

/** The GraphQL `WebhookEndpoint` node: a URL that receives the gateway's events, signed to the Standard Webhooks spec. */
export const WebhookEndpointRef = builder.objectRef<EndpointView>('WebhookEndpoint');
builder.node(WebhookEndpointRef, {
  description: 'A URL of your server that receives the gateway’s events, signed to the Standard Webhooks spec.',
  id: { resolve: (e) => e.id, description: 'Opaque global ID of this endpoint.' },
  loadManyWithoutCache: (ids, ctx) => Promise.all(ids.map((id) => service(ctx).get(id))),
  fields: (t) => ({
    url: t.exposeString('url', { description: 'Where events are POSTed.' }),
    description: t.exposeString('description', { nullable: true, description: 'Your note.' }),
    kinds: t.exposeStringList('kinds', { description: 'The event kinds it takes; empty: every kind.' }),
    enabled: t.exposeBoolean('enabled', {
      description: 'False: nothing is sent (disabled by hand, or after failing for WEBHOOK_ENDPOINT_DISABLE_AFTER_HOURS).',
    }),
    disabledReason: t.exposeString('disabledReason', { nullable: true, description: 'Why it is disabled, e.g. "failing for 120 hours".' }),
    createdAt: t.field({ type: 'DateTime', resolve: (e) => e.createdAt, description: 'When it was created (UTC).' }),
    health: t.field({ type: HealthRef, resolve: (e) => e, description: 'How deliveries to it are going.' }),
  }),
});

const DeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  description: 'Where a delivery stands.',
  values: {
    PENDING: { value: 'PENDING', description: 'Not delivered yet: in flight, or waiting for its next attempt.' },
    SUCCEEDED: { value: 'SUCCEEDED', description: 'The endpoint answered 2xx.' },
    FAILED: { value: 'FAILED', description: 'Every attempt of the retry schedule failed (redeliverWebhook sends it again).' },
  } as const,
});

const AttemptRef = builder.objectRef<DeliveryAttempt>('WebhookDeliveryAttempt').implement({
  description: 'One attempt to deliver an event.',
  fields: (t) => ({
    at: t.field({ type: 'DateTime', resolve: (a) => a.at, description: 'When it was sent.' }),
    httpStatus: t.exposeInt('httpStatus', { nullable: true, description: 'The answer’s status; null when there was no HTTP answer.' }),
    durationMs: t.exposeInt('durationMs', { description: 'How long it took.' }),
    error: t.exposeString('error', {
      nullable: true,
      description:
        'Why it failed: "HTTP 500", "timeout after 15000 ms", "connection refused", "redirect not followed", "address not allowed"…',
    }),
    responseBodyExcerpt: t.exposeString('responseBodyExcerpt', { nullable: true, description: 'The first 1 KB of the answer.' }),
  }),
});

/** The GraphQL `WebhookDelivery` node: one event sent to one endpoint, with its attempts. */
export const WebhookDeliveryRef = builder.objectRef<DeliveryRecord>('WebhookDelivery');
builder.node(WebhookDeliveryRef, {
  description: 'One event sent to one endpoint, with its attempts.',
  id: { resolve: (d) => d.id, description: 'Opaque global ID of this delivery.' },
  loadManyWithoutCache: (ids, ctx) => Promise.all(ids.map((id) => service(ctx).delivery(id))),
  fields: (t) => ({
    endpointId: t.id({ resolve: (d) => encodeGlobalId('WebhookEndpoint', d.endpointId), description: 'The endpoint’s global ID.' }),
    eventId: t.id({ resolve: (d) => d.eventId, description: 'The event’s id: the `webhook-id` header, the same on every attempt.' }),
    kind: t.exposeString('kind', { description: 'The payload’s `type`, e.g. "charge.success".' }),
    status: t.field({ type: DeliveryStatusEnum, resolve: (d) => d.status, description: 'Where it stands.' }),
    createdAt: t.field({ type: 'DateTime', resolve: (d) => d.createdAt, description: 'When it was first attempted.' }),
    nextAttemptAt: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (d) => (d.status === 'PENDING' && d.nextAttemptAt !== null ? new Date(d.nextAttemptAt).toISOString() : null),
      description: 'When it is tried next, while PENDING.',
    }),
    attempts: t.field({ type: [AttemptRef], resolve: (d) => d.attempts, description: 'Its attempts, oldest first (the newest 12).' }),
  }),
});

const DeliveryFilterInput = builder.inputType('WebhookDeliveryFilter', {
  description: 'Narrows the delivery log. All conditions must hold.',
  fields: (t) => ({
    status: t.field({ type: DeliveryStatusEnum, description: 'This status only.' }),
    kind: t.string({ description: 'This event kind only.' }),
    from: t.field({ type: 'DateTime', description: 'Created at or after this time.' }),
    to: t.field({ type: 'DateTime', description: 'Created at or before this time.' }),
  }),
});

function matches(filter: { status?: string; kind?: string; from?: string; to?: string }) {
  const from = filter.from ? Date.parse(filter.from) : null;
  const to = filter.to ? Date.parse(filter.to) : null;
  return (d: DeliveryRecord) => {
    const at = Date.parse(d.createdAt);
    return (
      (!filter.status || d.status === filter.status) &&
      (!filter.kind || d.kind === filter.kind) &&
      (from === null || at >= from) &&
      (to === null || at <= to)
    );
  };
}

builder.queryFields((t) => ({
  webhookEndpoints: t.connection(
    {
      ...access({ scope: SCOPE }),
      type: WebhookEndpointRef,
      description: 'Your webhook endpoints, oldest first.',
      resolve: (_root, args, ctx) => filteredConnection(args, 'webhookEndpoints', {}, () => read(() => service(ctx).list())),
    },
    {
      name: 'WebhookEndpointConnection',
      description: 'A page of webhook endpoints.',
      edgesField: { description: 'The endpoints of this page, each with its cursor.' },
    },
    { name: 'WebhookEndpointEdge', description: 'One endpoint and its cursor.', nodeField: { description: 'The endpoint.' } },
  ),
  webhookDeliveries: t.connection(
    {
      ...access({ scope: SCOPE }),
      type: WebhookDeliveryRef,
      description: `The delivery log of one endpoint, newest first: deliveries waiting for a retry, and the newest 500 settled ones.`,
      args: { endpointId: t.arg.id({ required: true }), filter: t.arg({ type: DeliveryFilterInput }) },
      resolve: async (_root, args, ctx) => {
        const filter = canonicalFilter(args.filter) as { status?: string; kind?: string; from?: string; to?: string };
        const endpointId = rawId(String(args.endpointId), 'WebhookEndpoint');
        return filteredConnection(args, `webhookDeliveries:${endpointId}`, filter, async () => {
          const all = await read(() => service(ctx).deliveries(endpointId)).catch((err: unknown) => {
            if (err instanceof OutboundWebhookError) return [];
            throw err;
          });
          return all.filter(matches(filter));
        });
      },
    },
    {
      name: 'WebhookDeliveryConnection',
      description: 'A page of webhook deliveries.',
      edgesField: { description: 'The deliveries of this page, newest first, each with its cursor.' },
    },
    { name: 'WebhookDeliveryEdge', description: 'One delivery and its cursor.', nodeField: { description: 'The delivery.' } },
  ),
  webhookEventKinds: t.stringList({
    ...access({ scope: SCOPE }),
    description: 'The event kinds an endpoint may take (`kinds` of createWebhookEndpoint).',
    resolve: () => [...WEBHOOK_EVENT_KINDS],
  }),
}));
