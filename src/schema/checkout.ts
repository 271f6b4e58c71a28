// Checkouts: hosted payment pages. Initialize one, send the customer to its
// authorizationUrl, then follow it by query or subscription.
import { runIdempotent } from '../idempotency/run.js';
import { builder } from './builder.js';
import { CheckoutStatusEnum, ProviderEnum } from './enums.js';
import { IdempotencyConflictError, RateLimitedError, UpstreamFailureError, ValidationError } from './errors.js';
import { IDEMPOTENCY_KEY_DESCRIPTION, withTypedErrors } from './mutation.js';
import { connectionFromList, listScope } from './pagination.js';
import { ChargeRef, CheckoutRef } from './refs.js';
import { Checks } from './validation.js';
import { loadNodes } from './nodes.js';

builder.node(CheckoutRef, {
  description: 'A hosted payment page for one amount; the customer pays there with mobile money.',
  id: { resolve: (c) => c.reference, description: 'Opaque global ID of this checkout, for node(id) and nodes(ids).' },
  loadManyWithoutCache: (refs, ctx) => loadNodes(ctx.loaders.checkout, refs),
  fields: (t) => ({
    reference: t.exposeString('reference', { description: 'The checkout\'s reference (UUID form). The `chk_…` form returned at initialization designates the same checkout.' }),
    amount: t.exposeInt('amount', { description: 'Amount to collect, in XOF.' }),
    email: t.exposeString('email', { nullable: true, description: 'Customer email, when given.' }),
    status: t.field({ type: CheckoutStatusEnum, resolve: (c) => c.status, description: 'Payment state.' }),
    successUrl: t.exposeString('successUrl', { description: 'Where the customer is sent after paying.' }),
    cancelUrl: t.exposeString('cancelUrl', { description: 'Where the customer is sent after cancelling.' }),
    phone: t.exposeString('phone', { nullable: true, description: 'Paying phone number; null until a payment is attempted.' }),
    provider: t.field({ type: ProviderEnum, nullable: true, resolve: (c) => c.provider, description: 'Operator used; null until a payment is attempted.' }),
    chargeReference: t.exposeString('chargeReference', { nullable: true, description: 'Reference of the charge made on this checkout, once there is one.' }),
    charge: t.field({
      type: ChargeRef,
      nullable: true,
      description: 'The charge made on this checkout, once there is one (batched: one upstream call per distinct charge per operation).',
      resolve: (c, _args, ctx) => (c.chargeReference ? ctx.loaders.charge.load(c.chargeReference) : null),
    }),
    liveMode: t.exposeBoolean('liveMode', { description: 'False for test-mode resources.' }),
    createdAt: t.field({ type: 'DateTime', resolve: (c) => c.createdAt, description: 'When it was created (UTC).' }),
    updatedAt: t.field({ type: 'DateTime', resolve: (c) => c.updatedAt, description: 'When it last changed (UTC).' }),
  }),
});

builder.queryFields((t) => ({
  checkout: t.field({
    type: CheckoutRef,
    nullable: true,
    description: 'A checkout by reference (either form); null when none exists.',
    args: { reference: t.arg.string({ required: true, description: 'UUID or `chk_…` reference.' }) },
    resolve: (_root, { reference }, ctx) => ctx.loaders.checkout.load(reference),
  }),
  checkouts: t.connection({
    type: CheckoutRef,
    description: 'All checkouts, newest first.',
    resolve: (_root, args, ctx) => connectionFromList(args, listScope('checkouts'), () => ctx.upstream.listCheckouts()),
  },
    { name: 'CheckoutConnection', description: 'A page of checkouts.', edgesField: { description: 'The checkouts of this page, in list order, each with its cursor.' } },
    { name: 'CheckoutEdge', description: 'One checkout and its cursor.', nodeField: { description: 'The checkout.' } },
  ),
}));

const InitializeCheckoutInput = builder.inputType('InitializeCheckoutInput', {
  description: 'What the hosted payment page collects, and where it sends the customer afterwards.',
  fields: (t) => ({
    amount: t.int({ required: true, description: 'Amount in XOF, a positive whole number.' }),
    successUrl: t.string({ required: true, description: 'Absolute http(s) URL the customer returns to after paying.' }),
    cancelUrl: t.string({ required: true, description: 'Absolute http(s) URL the customer returns to after cancelling.' }),
    email: t.string({ required: false, description: 'Customer email, optional.' }),
    idempotencyKey: t.string({ required: false, description: IDEMPOTENCY_KEY_DESCRIPTION }),
  }),
});

interface InitializedCheckoutPayload {
  reference: string;
  authorizationUrl: string;
  liveMode: boolean;
}

const InitializeCheckoutPayload = builder.objectRef<InitializedCheckoutPayload>('InitializeCheckoutPayload').implement({
  description: 'A new checkout: send the customer to `authorizationUrl`.',
  fields: (t) => ({
    reference: t.exposeString('reference', { description: 'The checkout reference (`chk_…` form); `checkout(reference:)` accepts it.' }),
    authorizationUrl: t.exposeString('authorizationUrl', { description: 'The payment page to send the customer to.' }),
    liveMode: t.exposeBoolean('liveMode', { description: 'False in test mode.' }),
    checkout: t.field({
      type: CheckoutRef,
      nullable: true,
      description: 'The checkout itself, fetched on demand.',
      resolve: (p, _args, ctx) => ctx.loaders.checkout.load(p.reference),
    }),
  }),
});

const INITIALIZE_ERRORS = [ValidationError, RateLimitedError, IdempotencyConflictError, UpstreamFailureError] as const;

builder.mutationField('initializeCheckout', (t) =>
  t.field({
    type: InitializeCheckoutPayload,
    description: 'Creates a hosted payment page for an amount.',
    args: { input: t.arg({ type: InitializeCheckoutInput, required: true }) },
    errors: { types: [...INITIALIZE_ERRORS], directResult: true, union: { name: 'InitializeCheckoutResult', description: 'The new checkout, or why it was not created.' } },
    resolve: (_root, { input }, ctx) =>
      withTypedErrors(INITIALIZE_ERRORS, async () => {
        const checks = new Checks();
        checks.amount(checks.at('amount'), input.amount);
        checks.url(checks.at('successUrl'), input.successUrl);
        checks.url(checks.at('cancelUrl'), input.cancelUrl);
        checks.email(checks.at('email'), input.email);
        checks.done();
        const request = { amount: input.amount, successUrl: input.successUrl, cancelUrl: input.cancelUrl, email: input.email ?? null };
        return runIdempotent({
          store: ctx.idempotency,
          operation: 'initializeCheckout',
          key: input.idempotencyKey,
          input: request,
          execute: async () => {
            const created = await ctx.upstream.initializeCheckout(request);
            return { reference: created.reference, authorizationUrl: created.authorizationUrl, liveMode: created.liveMode };
          },
        });
      }),
  }),
);
