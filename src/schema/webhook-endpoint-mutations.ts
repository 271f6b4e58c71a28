// The mutations of webhook endpoints (the types and queries are in
// webhook-endpoints.ts). None moves money; creation is idempotent by its key,
// the others are safe to repeat as their descriptions say.
import { IdempotencyConflictError, ValidationError } from '../errors/payment-errors.js';
import {
  InvalidWebhookUrlError,
  WebhookDeliveryNotFoundError,
  WebhookEndpointLimitError,
  WebhookEndpointNotFoundError,
  WebhooksUnavailableError,
} from '../errors/webhook-endpoint-errors.js';
import { WEBHOOK_EVENT_KINDS, type DeliveryRecord, type EndpointView } from '../outbound-webhooks/index.js';
import { builder } from './builder.js';
import type { GatewayContext } from './context.js';
import { IDEMPOTENCY_KEY_DESCRIPTION, paymentMutation } from './mutation.js';
import type { Checks } from './validation.js';
import { WebhookDeliveryRef, WebhookEndpointRef, rawId, service, typedWebhookError } from './webhook-endpoints.js';

const SCOPE = 'webhooks:manage' as const;
const access = { scope: SCOPE };

async function attempt<T>(ctx: GatewayContext, work: (s: ReturnType<typeof service>) => Promise<T>): Promise<T> {
  try {
    return await work(service(ctx));
  } catch (err) {
    throw typedWebhookError(err);
  }
}

const endpointId = (id: string) => rawId(id, 'WebhookEndpoint');

/**
 * A kind the gateway does not know would match nothing (a typo of `charge.success`): a field error, like any other
 * invalid input, naming the kinds there are (webhookEventKinds lists them too).
 */
function checkKinds(kinds: readonly string[] | null | undefined, checks: Checks): void {
  const known = WEBHOOK_EVENT_KINDS.join(', ');
  (kinds ?? []).forEach((kind, i) => {
    if (WEBHOOK_EVENT_KINDS.includes(kind)) return;
    checks.fail(
      checks.at('kinds', i),
      `Unknown event kind "${kind}": kinds are ${known}.`,
      `Type d’événement inconnu "${kind}" : les types sont ${known}.`,
    );
  });
}
const ENDPOINT_ERRORS = [WebhookEndpointNotFoundError, WebhooksUnavailableError] as const;

// ---- create -----------------------------------------------------------------

const CreateInput = builder.inputType('CreateWebhookEndpointInput', {
  description: 'A new endpoint.',
  fields: (t) => ({
    url: t.string({
      required: true,
      description: 'Where to POST events: https:// (http:// in sandbox mode); a public address in live mode.',
    }),
    kinds: t.stringList({ description: 'Event kinds to send (see webhookEventKinds); empty or absent: every kind.' }),
    description: t.string({ description: 'Your note, at most 500 characters.' }),
    idempotencyKey: t.string({ required: true, description: IDEMPOTENCY_KEY_DESCRIPTION }),
  }),
});

const CreatePayload = builder.objectRef<{ endpoint: EndpointView; secret: string }>('CreateWebhookEndpointPayload').implement({
  description: 'The new endpoint and its signing secret.',
  fields: (t) => ({
    endpoint: t.field({ type: WebhookEndpointRef, resolve: (p) => p.endpoint, description: 'The endpoint.' }),
    secret: t.string({
      // Platform mode keeps the answer sealed (it is stored for its idempotency key): opened only as it is written out.
      resolve: (p, _args, ctx) => service(ctx).revealSecret(p.secret),
      description: 'The signing secret (`whsec_…`), shown only here: keep it in your server’s configuration to verify signatures.',
    }),
  }),
});

paymentMutation('createWebhookEndpoint', {
  description: 'Creates a webhook endpoint: every event of the kinds it takes is POSTed to it, signed (Standard Webhooks).',
  arg: { name: 'input', type: CreateInput },
  payload: CreatePayload,
  errors: [ValidationError, IdempotencyConflictError, InvalidWebhookUrlError, WebhookEndpointLimitError, WebhooksUnavailableError],
  result: { name: 'CreateWebhookEndpointResult', description: 'The endpoint and its secret, or why none was made.' },
  access,
  movesMoney: false,
  validate: (input, checks) => {
    checkKinds(input.kinds, checks);
    if (input.description && input.description.length > 500) {
      checks.fail(
        checks.at('description'),
        'The description must be at most 500 characters',
        'La description doit faire au plus 500 caractères',
      );
    }
  },
  idempotency: { key: (input) => input.idempotencyKey },
  request: (input) => ({ url: input.url, kinds: input.kinds ?? null, description: input.description ?? null }),
  execute: (request, ctx) => attempt(ctx, (s) => s.create(request)),
});

// ---- update, delete, rotate -------------------------------------------------

const UpdateInput = builder.inputType('UpdateWebhookEndpointInput', {
  description: 'What to change; absent fields stay as they are.',
  fields: (t) => ({
    endpointId: t.id({ required: true, description: 'The endpoint’s id.' }),
    url: t.string({ description: 'A new URL.' }),
    kinds: t.stringList({ description: 'New kinds; empty: every kind.' }),
    description: t.string({ description: 'A new note.' }),
    enabled: t.boolean({ description: 'false stops deliveries; true starts them again (and clears the failure streak).' }),
  }),
});

const EndpointPayload = (name: string, description: string) =>
  builder.objectRef<{ endpoint: EndpointView }>(name).implement({
    description,
    fields: (t) => ({
      endpoint: t.field({ type: WebhookEndpointRef, resolve: (p) => p.endpoint, description: 'The endpoint as it is now.' }),
    }),
  });

paymentMutation('updateWebhookEndpoint', {
  description: 'Changes an endpoint’s URL, kinds, note, or whether it is enabled.',
  arg: { name: 'input', type: UpdateInput },
  payload: EndpointPayload('UpdateWebhookEndpointPayload', 'The endpoint as changed.'),
  errors: [ValidationError, InvalidWebhookUrlError, ...ENDPOINT_ERRORS],
  result: { name: 'UpdateWebhookEndpointResult', description: 'The endpoint, or why it was not changed.' },
  access,
  movesMoney: false,
  validate: (input, checks) => checkKinds(input.kinds, checks),
  idempotency: { notNeeded: 'Setting the same values again changes nothing.' },
  request: (input) => input,
  execute: (input, ctx) =>
    attempt(ctx, async (s) => ({
      endpoint: await s.update(endpointId(String(input.endpointId)), {
        url: input.url,
        kinds: input.kinds,
        description: input.description,
        enabled: input.enabled,
      }),
    })),
});

const DeleteInput = builder.inputType('DeleteWebhookEndpointInput', {
  description: 'The endpoint to delete.',
  fields: (t) => ({ endpointId: t.id({ required: true, description: 'The endpoint’s id.' }) }),
});

paymentMutation('deleteWebhookEndpoint', {
  description: 'Deletes an endpoint and its delivery log; nothing more is sent to it.',
  arg: { name: 'input', type: DeleteInput },
  payload: builder.objectRef<{ deletedEndpointId: string }>('DeleteWebhookEndpointPayload').implement({
    description: 'What was deleted.',
    fields: (t) => ({ deletedEndpointId: t.exposeID('deletedEndpointId', { description: 'The deleted endpoint’s id, as it was given.' }) }),
  }),
  errors: [...ENDPOINT_ERRORS],
  result: { name: 'DeleteWebhookEndpointResult', description: 'The deleted id, or why nothing was deleted.' },
  access,
  movesMoney: false,
  idempotency: { notNeeded: 'A deleted endpoint cannot be deleted again: a repeat answers WebhookEndpointNotFoundError.' },
  request: (input) => input,
  execute: (input, ctx) =>
    attempt(ctx, async (s) => {
      await s.delete(endpointId(String(input.endpointId)));
      return { deletedEndpointId: String(input.endpointId) };
    }),
});

const RotateInput = builder.inputType('RotateWebhookEndpointSecretInput', {
  description: 'The endpoint whose secret to replace.',
  fields: (t) => ({ endpointId: t.id({ required: true, description: 'The endpoint’s id.' }) }),
});

paymentMutation('rotateWebhookEndpointSecret', {
  description:
    'Gives the endpoint a new signing secret. For 24 hours the old one signs beside it (two entries in webhook-signature), so your server can switch without missing a delivery.',
  arg: { name: 'input', type: RotateInput },
  payload: builder
    .objectRef<{ endpoint: EndpointView; secret: string; previousSecretExpiresAt: string }>('RotateWebhookEndpointSecretPayload')
    .implement({
      description: 'The new secret.',
      fields: (t) => ({
        endpoint: t.field({ type: WebhookEndpointRef, resolve: (p) => p.endpoint, description: 'The endpoint.' }),
        secret: t.exposeString('secret', { description: 'The new signing secret (`whsec_…`), shown only here.' }),
        previousSecretExpiresAt: t.field({
          type: 'DateTime',
          resolve: (p) => p.previousSecretExpiresAt,
          description: 'Until when the previous secret signs beside the new one.',
        }),
      }),
    }),
  errors: [...ENDPOINT_ERRORS],
  result: { name: 'RotateWebhookEndpointSecretResult', description: 'The new secret, or why there is none.' },
  access,
  movesMoney: false,
  idempotency: {
    notNeeded: 'A repeat rotates again: its answer holds the newest secret, and the one it replaced still signs for 24 hours.',
  },
  request: (input) => input,
  execute: (input, ctx) => attempt(ctx, (s) => s.rotate(endpointId(String(input.endpointId)))),
});

// ---- redeliver, replay, test ------------------------------------------------

const DeliveryPayload = (name: string, description: string) =>
  builder.objectRef<{ delivery: DeliveryRecord }>(name).implement({
    description,
    fields: (t) => ({ delivery: t.field({ type: WebhookDeliveryRef, resolve: (p) => p.delivery, description: 'The delivery, queued.' }) }),
  });

const RedeliverInput = builder.inputType('RedeliverWebhookInput', {
  description: 'The delivery to send again.',
  fields: (t) => ({ deliveryId: t.id({ required: true, description: 'The delivery’s id.' }) }),
});

paymentMutation('redeliverWebhook', {
  description:
    'Sends a delivery again (FAILED or not), with the same webhook-id, and a fresh retry schedule. One attempt at a time: a retry waiting is brought forward; during an attempt under way nothing more starts, and should that attempt fail the delivery is tried again at once.',
  arg: { name: 'input', type: RedeliverInput },
  payload: DeliveryPayload('RedeliverWebhookPayload', 'The delivery, queued.'),
  errors: [WebhookDeliveryNotFoundError, WebhooksUnavailableError],
  result: { name: 'RedeliverWebhookResult', description: 'The queued delivery, or why nothing was queued.' },
  access,
  movesMoney: false,
  idempotency: { notNeeded: 'A repeat queues the same delivery again; receivers de-duplicate on webhook-id.' },
  request: (input) => input,
  execute: (input, ctx) => attempt(ctx, async (s) => ({ delivery: await s.redeliver(rawId(String(input.deliveryId), 'WebhookDelivery')) })),
});

const ReplayInput = builder.inputType('ReplayWebhookEventsInput', {
  description: 'The endpoint and how far back.',
  fields: (t) => ({
    endpointId: t.id({ required: true, description: 'The endpoint’s id.' }),
    since: t.field({
      type: 'DateTime',
      required: true,
      description: 'Send again every event from this time on (at most EVENT_RETENTION_HOURS back).',
    }),
  }),
});

paymentMutation('replayWebhookEvents', {
  description: 'Sends the endpoint every event it takes since a time again, for a receiver that lost its own data.',
  arg: { name: 'input', type: ReplayInput },
  payload: builder.objectRef<{ endpoint: EndpointView; eventsQueued: number }>('ReplayWebhookEventsPayload').implement({
    description: 'What will be sent again.',
    fields: (t) => ({
      endpoint: t.field({ type: WebhookEndpointRef, resolve: (p) => p.endpoint, description: 'The endpoint.' }),
      eventsQueued: t.exposeInt('eventsQueued', { description: 'Events of its kinds in the log since that time.' }),
    }),
  }),
  errors: [...ENDPOINT_ERRORS],
  result: { name: 'ReplayWebhookEventsResult', description: 'What will be sent again, or why nothing will.' },
  access,
  movesMoney: false,
  idempotency: { notNeeded: 'A repeat sends the same events again; receivers de-duplicate on webhook-id.' },
  request: (input) => input,
  execute: (input, ctx) => attempt(ctx, (s) => s.replay(endpointId(String(input.endpointId)), Date.parse(String(input.since)))),
});

const TestInput = builder.inputType('SendTestWebhookInput', {
  description: 'The endpoint to test.',
  fields: (t) => ({ endpointId: t.id({ required: true, description: 'The endpoint’s id.' }) }),
});

paymentMutation('sendTestWebhook', {
  description: 'Sends the endpoint a `webhook.test` event, signed like every other.',
  arg: { name: 'input', type: TestInput },
  payload: DeliveryPayload('SendTestWebhookPayload', 'The test delivery, queued.'),
  errors: [...ENDPOINT_ERRORS],
  result: { name: 'SendTestWebhookResult', description: 'The test delivery, or why none was sent.' },
  access,
  movesMoney: false,
  idempotency: { notNeeded: 'Each call sends one more test event; nothing else changes.' },
  request: (input) => input,
  execute: (input, ctx) => attempt(ctx, async (s) => ({ delivery: await s.sendTest(endpointId(String(input.endpointId))) })),
});
