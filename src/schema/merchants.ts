// Platform mode's merchants in the schema: the `Merchant` node and the platform operator's operations (scope
// `platform:manage`, a staff token without `merchant_id`; src/schema/platform.ts closes them to anyone else and
// to single mode). Everything runs in src/merchants/; no secret is ever an output: an API key's last 4
// characters at most. Every attempt is audited, like a money move.
import { IdempotencyConflictError, PaymentError, ServiceUnavailableError, ValidationError } from '../errors/payment-errors.js';
import { MerchantNotFoundError, MerchantOffboardedError } from '../errors/merchant-errors.js';
import { topLevelError } from '../errors/top-level.js';
import { isMerchantId, MerchantRefusedError, type MerchantRegistry, type MerchantView } from '../merchants/index.js';
import { hasScope } from '../auth/index.js';
import { access } from './access.js';
import { builder } from './builder.js';
import type { GatewayContext, PlatformServices } from './context.js';
import { filteredConnection } from './list-filter.js';
import { IDEMPOTENCY_KEY_DESCRIPTION, paymentMutation } from './mutation.js';
import { decodeGlobalId } from './nodes.js';

const SCOPE = 'platform:manage' as const;

/** Platform mode's services; platform.ts lets no request reach these fields without them. */
function platformOf(ctx: GatewayContext): PlatformServices {
  if (!ctx.platform) throw topLevelError('NOT_IN_THIS_MODE', { field: 'merchants', reason: 'platform_only' });
  return ctx.platform;
}
const registryOf = (ctx: GatewayContext): MerchantRegistry => platformOf(ctx).registry;

/** A merchant id as given: its global ID or the raw `mer_…`. */
function merchantIdOf(id: string): string {
  const decoded = decodeGlobalId(id);
  return decoded.typename === 'Merchant' ? decoded.id : id;
}

const FIELD_TEXTS = {
  invalid_name: { field: 'name', en: 'The name must be 1 to 200 characters', fr: 'Le nom doit faire de 1 à 200 caractères' },
  invalid_api_key: {
    field: 'apiKey',
    en: 'The API key must be a secret key of the service (sk_test_… or sk_live_…)',
    fr: 'La clé d’API doit être une clé secrète du service (sk_test_… ou sk_live_…)',
  },
  invalid_webhook_secret: {
    field: 'webhookSecret',
    en: 'The webhook secret must be 8 to 1000 characters',
    fr: 'Le secret des webhooks doit faire de 8 à 1000 caractères',
  },
} as const;

/** The registry's refusals as typed errors; a store that cannot be reached: SERVICE_UNAVAILABLE (nothing done). */
async function attempt<T>(merchantId: string | null, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof PaymentError) throw err;
    if (!(err instanceof MerchantRefusedError)) throw new ServiceUnavailableError({ cause: err });
    switch (err.reason) {
      case 'not_found':
        throw new MerchantNotFoundError(merchantId ?? '');
      case 'offboarded':
        throw new MerchantOffboardedError();
      default: {
        const text = FIELD_TEXTS[err.reason];
        throw new ValidationError([{ path: ['input', text.field], message: text.en, messageFr: text.fr }]);
      }
    }
  }
}

/** Runs `work` on a merchant named by its id, refusing an id of another shape as unknown. */
function onMerchant<T>(id: string, work: (merchantId: string) => Promise<T>): Promise<T> {
  const merchantId = merchantIdOf(id);
  return attempt(merchantId, () => (isMerchantId(merchantId) ? work(merchantId) : Promise.reject(new MerchantRefusedError('not_found'))));
}

const MerchantStatusEnum = builder.enumType('MerchantStatus', {
  description: 'Where a merchant of the platform stands.',
  values: {
    ACTIVE: { description: 'Serves everything.' },
    SUSPENDED: { description: 'Reads still answer; money moves are refused (MerchantSuspendedError).' },
    OFFBOARDED: { description: 'Refuses everything; its data is purged after MERCHANT_OFFBOARD_GRACE.' },
  } as const,
});

/** Whether this request may see this merchant: the platform operator, or the merchant's own staff. */
function maySee(ctx: GatewayContext, merchant: MerchantView): boolean {
  const principal = ctx.principal;
  if (principal?.kind !== 'staff') return false;
  if (principal.merchantId) return principal.merchantId === merchant.id;
  return hasScope(principal, SCOPE);
}

/** The GraphQL `Merchant` node. */
export const MerchantRef = builder.objectRef<MerchantView>('Merchant');
builder.node(MerchantRef, {
  description: 'A merchant of the platform (platform mode): its own account at the service, its keys, data, events and staff.',
  id: { resolve: (m) => m.id, description: 'Opaque global ID of this merchant.' },
  // Through node(id): only the operator or the merchant's own staff; anyone else gets null, as for an unknown id.
  loadManyWithoutCache: (ids, ctx) =>
    Promise.all(
      ids.map(async (id) => {
        if (!ctx.platform || !isMerchantId(id)) return null;
        const merchant = await ctx.platform.registry.get(id);
        return merchant && maySee(ctx, merchant) ? merchant : null;
      }),
    ),
  fields: (t) => ({
    merchantId: t.exposeString('id', { description: 'The merchant’s own id (`mer_…`): what its tokens carry in `merchant_id`.' }),
    name: t.exposeString('name', { description: 'Its name, as the platform shows it.' }),
    status: t.field({ type: MerchantStatusEnum, resolve: (m) => m.status, description: 'Where it stands.' }),
    liveMode: t.exposeBoolean('liveMode', { description: 'True for a live API key (`sk_live_…`), false for a test one.' }),
    apiKeyLast4: t.exposeString('apiKeyLast4', { description: 'The last 4 characters of its API key: all that is ever shown of it.' }),
    inboundWebhookUrl: t.string({
      resolve: (m, _args, ctx) => `${platformOf(ctx).webhookPath}/${m.routeId}`,
      description: 'The path of the gateway where the service sends this merchant’s webhooks (verified with its own secret).',
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (m) => m.createdAt, description: 'When it was created (UTC).' }),
    updatedAt: t.field({ type: 'DateTime', resolve: (m) => m.updatedAt, description: 'When it last changed (UTC).' }),
    purgeAfter: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (m) => m.purgeAfter,
      description: 'Offboarded: when its data is purged.',
    }),
  }),
});

builder.queryFields((t) => ({
  merchants: t.connection(
    {
      ...access({ scope: SCOPE }),
      type: MerchantRef,
      description: 'The platform’s merchants, oldest first (platform mode; the platform operator only).',
      resolve: (_root, args, ctx) =>
        filteredConnection(args, 'merchants', {}, async () => {
          const registry = registryOf(ctx);
          const all: MerchantView[] = [];
          try {
            for (let after: string | null = null; ;) {
              const page = await registry.list(500, after);
              all.push(...page.merchants);
              if (!page.hasMore || page.merchants.length === 0) return all;
              after = page.cursorOf(page.merchants.at(-1)!);
            }
          } catch {
            throw topLevelError('SERVICE_UNAVAILABLE', 'temporarily');
          }
        }),
    },
    {
      name: 'MerchantConnection',
      description: 'A page of merchants.',
      edgesField: { description: 'The merchants of this page, each with its cursor.' },
    },
    { name: 'MerchantEdge', description: 'One merchant and its cursor.', nodeField: { description: 'The merchant.' } },
  ),
}));

const MerchantPayload = (name: string, description: string) =>
  builder.objectRef<{ merchant: MerchantView }>(name).implement({
    description,
    fields: (t) => ({ merchant: t.field({ type: MerchantRef, resolve: (p) => p.merchant, description: 'The merchant as it is now.' }) }),
  });

/** What every operator mutation is: the operator's scope, no money moved, every attempt audited. */
const OPERATOR_MUTATION = { access: { scope: SCOPE }, movesMoney: false, audited: true } as const;
const MERCHANT_ERRORS = [MerchantNotFoundError, MerchantOffboardedError, ServiceUnavailableError] as const;
const merchantIdField = { required: true, description: 'The merchant’s id (its global ID, or `mer_…`).' } as const;

const CreateInput = builder.inputType('CreateMerchantInput', {
  description: 'A merchant of the platform, with its own account at the service.',
  fields: (t) => ({
    name: t.string({ required: true, description: 'Its name, 1 to 200 characters.' }),
    apiKey: t.string({ required: true, description: 'Its secret API key at the service (`sk_test_…` / `sk_live_…`); stored encrypted.' }),
    webhookSecret: t.string({ required: true, description: 'The secret the service signs its webhooks with; stored encrypted.' }),
    idempotencyKey: t.string({ required: true, description: IDEMPOTENCY_KEY_DESCRIPTION }),
  }),
});

paymentMutation('createMerchant', {
  description: 'Adds a merchant to the platform (platform mode). Its secrets are stored encrypted and never shown again.',
  arg: { name: 'input', type: CreateInput },
  payload: MerchantPayload('CreateMerchantPayload', 'The new merchant.'),
  errors: [ValidationError, IdempotencyConflictError, ServiceUnavailableError],
  result: { name: 'CreateMerchantResult', description: 'The merchant, or why none was made.' },
  ...OPERATOR_MUTATION,
  idempotency: { key: (input) => input.idempotencyKey },
  request: (input) => ({ name: input.name, apiKey: input.apiKey, webhookSecret: input.webhookSecret }),
  execute: async (request, ctx) => ({ merchant: await attempt(null, () => registryOf(ctx).create(request)) }),
});

const UpdateInput = builder.inputType('UpdateMerchantInput', {
  description: 'What to change; absent fields stay as they are.',
  fields: (t) => ({
    merchantId: t.id(merchantIdField),
    name: t.string({ description: 'A new name.' }),
    webhookSecret: t.string({ description: 'A new webhook secret (after the merchant changed it at the service).' }),
  }),
});

paymentMutation('updateMerchant', {
  description: 'Renames a merchant, or sets its new webhook secret.',
  arg: { name: 'input', type: UpdateInput },
  payload: MerchantPayload('UpdateMerchantPayload', 'The merchant as changed.'),
  errors: [ValidationError, ...MERCHANT_ERRORS],
  result: { name: 'UpdateMerchantResult', description: 'The merchant, or why it was not changed.' },
  ...OPERATOR_MUTATION,
  idempotency: { notNeeded: 'Setting the same values again changes nothing.' },
  request: (input) => input,
  execute: (input, ctx) =>
    onMerchant(String(input.merchantId), async (id) => ({
      merchant: await registryOf(ctx).update(id, { name: input.name, webhookSecret: input.webhookSecret }),
    })),
});

const RotateInput = builder.inputType('RotateMerchantApiKeyInput', {
  description: 'The merchant’s new API key.',
  fields: (t) => ({
    merchantId: t.id(merchantIdField),
    apiKey: t.string({ required: true, description: 'The new secret API key (`sk_test_…` / `sk_live_…`); stored encrypted.' }),
  }),
});

paymentMutation('rotateMerchantApiKey', {
  description: 'Replaces a merchant’s API key (after it rolled it at the service): the next calls use the new one.',
  arg: { name: 'input', type: RotateInput },
  payload: MerchantPayload('RotateMerchantApiKeyPayload', 'The merchant with its new key’s last 4 characters.'),
  errors: [ValidationError, ...MERCHANT_ERRORS],
  result: { name: 'RotateMerchantApiKeyResult', description: 'The merchant, or why the key was not replaced.' },
  ...OPERATOR_MUTATION,
  idempotency: { notNeeded: 'Setting the same key again changes nothing.' },
  request: (input) => input,
  execute: (input, ctx) =>
    onMerchant(String(input.merchantId), async (id) => ({ merchant: await registryOf(ctx).rotateApiKey(id, input.apiKey) })),
});

const SuspendInput = builder.inputType('SuspendMerchantInput', {
  description: 'Which merchant, and whether it is suspended or reinstated.',
  fields: (t) => ({
    merchantId: t.id(merchantIdField),
    suspended: t.boolean({
      defaultValue: true,
      description: 'true (default): suspend (reads answer, money moves are refused); false: reinstate.',
    }),
  }),
});

paymentMutation('suspendMerchant', {
  description: 'Suspends a merchant (reads still answer, money moves are refused with MerchantSuspendedError), or reinstates it.',
  arg: { name: 'input', type: SuspendInput },
  payload: MerchantPayload('SuspendMerchantPayload', 'The merchant as it is now.'),
  errors: MERCHANT_ERRORS,
  result: { name: 'SuspendMerchantResult', description: 'The merchant, or why it was not changed.' },
  ...OPERATOR_MUTATION,
  idempotency: { notNeeded: 'Suspending a suspended merchant changes nothing.' },
  request: (input) => input,
  execute: (input, ctx) =>
    onMerchant(String(input.merchantId), async (id) => ({ merchant: await registryOf(ctx).setSuspended(id, input.suspended !== false) })),
});

const OffboardInput = builder.inputType('OffboardMerchantInput', {
  description: 'The merchant leaving the platform.',
  fields: (t) => ({ merchantId: t.id(merchantIdField) }),
});

paymentMutation('offboardMerchant', {
  description:
    'Offboards a merchant: its tokens and webhook URL are refused at once, and its data is purged after MERCHANT_OFFBOARD_GRACE.',
  arg: { name: 'input', type: OffboardInput },
  payload: MerchantPayload('OffboardMerchantPayload', 'The merchant, with when it is purged.'),
  errors: [MerchantNotFoundError, ServiceUnavailableError],
  result: { name: 'OffboardMerchantResult', description: 'The merchant, or why it was not offboarded.' },
  ...OPERATOR_MUTATION,
  idempotency: { notNeeded: 'Offboarding twice changes nothing: the first grace stands.' },
  request: (input) => input,
  execute: (input, ctx) => onMerchant(String(input.merchantId), async (id) => ({ merchant: await registryOf(ctx).offboard(id) })),
});
