// Checkouts: hosted payment pages. Initialize one, send the customer to its
// authorizationUrl, then follow it by query or subscription.
import { access } from './access.js';
import type { GatewayContext } from './context.js';
import { builder } from './builder.js';
import { CheckoutStatusEnum, ProviderEnum } from './enums.js';
import { IdempotencyConflictError, RateLimitedError, UpstreamError, ValidationError } from '../errors/payment-errors.js';
import { IDEMPOTENCY_KEY_DESCRIPTION, paymentMutation } from './mutation.js';
import type { Checkout, CheckoutStatus, Provider } from '../upstream/types.js';
import { isInitializationReference } from '../upstream/checkout-reference.js';
import { canonicalFilter, checkFilterBounds, filteredConnection, listOnce, withinBounds, type CommonFilter } from './list-filter.js';
import { normalizedPhone } from './phone-input.js';
import { ChargeRef, CheckoutRef } from './refs.js';
import { loadNodes } from './nodes.js';

builder.node(CheckoutRef, {
  description: 'A hosted payment page for one amount; the customer pays there with mobile money.',
  id: { resolve: (c) => c.reference, description: 'Opaque global ID of this checkout, for node(id) and nodes(ids).' },
  loadManyWithoutCache: (refs, ctx) => loadNodes(ctx.loaders.checkout, refs),
  fields: (t) => ({
    reference: t.exposeString('reference', {
      description: "The checkout's reference (UUID form). The `chk_…` form returned at initialization designates the same checkout.",
    }),
    amount: t.exposeInt('amount', { description: 'Amount to collect, in XOF.' }),
    email: t.exposeString('email', { nullable: true, description: 'Customer email, when given.' }),
    status: t.field({ type: CheckoutStatusEnum, resolve: (c) => c.status, description: 'Payment state.' }),
    successUrl: t.exposeString('successUrl', { description: 'Where the customer is sent after paying.' }),
    cancelUrl: t.exposeString('cancelUrl', { description: 'Where the customer is sent after cancelling.' }),
    phone: t.exposeString('phone', { nullable: true, description: 'Paying phone number; null until a payment is attempted.' }),
    provider: t.field({
      type: ProviderEnum,
      nullable: true,
      resolve: (c) => c.provider,
      description: 'Operator used; null until a payment is attempted.',
    }),
    chargeReference: t.exposeString('chargeReference', {
      nullable: true,
      description: 'Reference of the charge made on this checkout, once there is one.',
    }),
    charge: t.field({
      type: ChargeRef,
      nullable: true,
      description:
        'The charge made on this checkout, once there is one (batched: the charges of a page of checkouts are read together from the charge list).',
      resolve: (c, _args, ctx) => {
        if (!c.chargeReference) return null;
        ctx.loaders.hintChargeWindow(c.chargeReference, { from: new Date(c.createdAt), to: new Date(c.updatedAt) });
        return ctx.loaders.charge.load(c.chargeReference);
      },
    }),
    liveMode: t.exposeBoolean('liveMode', { description: 'False for test-mode resources.' }),
    createdAt: t.field({ type: 'DateTime', resolve: (c) => c.createdAt, description: 'When it was created (UTC).' }),
    updatedAt: t.field({ type: 'DateTime', resolve: (c) => c.updatedAt, description: 'When it last changed (UTC).' }),
  }),
});

const CheckoutFilterInput = builder.inputType('CheckoutFilter', {
  description:
    'Narrows the checkout list. All conditions must hold. The gateway applies them (the service lists checkouts unfiltered), with one call to the service per operation whatever the filter.',
  fields: (t) => ({
    reference: t.string({ description: 'Exactly this checkout (UUID or `chk_…` form).' }),
    status: t.field({ type: CheckoutStatusEnum, description: 'This status only.' }),
    provider: t.field({ type: ProviderEnum, description: 'Paid (or attempted) with this operator only.' }),
    phone: t.string({ description: 'This paying phone only (as the service lists it).' }),
    dateFrom: t.field({ type: 'Date', description: 'Created on or after this day (UTC).' }),
    dateTo: t.field({ type: 'Date', description: 'Created on or before this day (UTC).' }),
    amountMin: t.int({ description: 'Amount at least this, in XOF.' }),
    amountMax: t.int({ description: 'Amount at most this, in XOF.' }),
  }),
});

interface CheckoutFilter extends CommonFilter {
  status?: CheckoutStatus | null;
  provider?: Provider | null;
  phone?: string | null;
}

/**
 * The list's checkouts show the UUID reference only; a `chk_…` reference is the same checkout under
 * its other name, found with one fetch (null: no such checkout, so nothing matches).
 */
async function listedReference(reference: string, ctx: GatewayContext): Promise<string | null> {
  if (!isInitializationReference(reference)) return reference;
  return (await ctx.loaders.checkout.load(reference))?.reference ?? null;
}

function matchesCheckout(f: CheckoutFilter, reference: string | null | undefined) {
  return (c: Checkout) =>
    (reference === undefined || c.reference === reference) &&
    (!f.status || c.status === f.status) &&
    (!f.provider || c.provider === f.provider) &&
    (!f.phone || c.phone === normalizedPhone(f.phone, f.provider)) &&
    withinBounds(f, c);
}

builder.queryFields((t) => ({
  checkout: t.field({
    ...access<{ reference: string }>({ scope: 'payments:read', client: ({ reference }) => ({ kind: 'checkout', reference }) }),
    type: CheckoutRef,
    nullable: true,
    description: 'A checkout by reference (either form); null when none exists.',
    args: { reference: t.arg.string({ required: true, description: 'UUID or `chk_…` reference.' }) },
    resolve: (_root, { reference }, ctx) => ctx.loaders.checkout.load(reference),
  }),
  checkouts: t.connection(
    {
      ...access({ scope: 'payments:read' }),
      type: CheckoutRef,
      description:
        'Checkouts, newest first, filtered. Cursors belong to one filter: changing the filter means starting again without a cursor.',
      args: { filter: t.arg({ type: CheckoutFilterInput }) },
      resolve: async (_root, args, ctx) => {
        const filter = canonicalFilter(args.filter) as CheckoutFilter;
        checkFilterBounds(filter);
        const connection = await filteredConnection(args, 'checkouts', filter as Record<string, unknown>, async () => {
          const reference = filter.reference ? await listedReference(filter.reference, ctx) : undefined;
          const all = await listOnce(ctx, 'checkouts', () => ctx.upstream.listCheckouts());
          return all.filter(matchesCheckout(filter, reference));
        });
        for (const { node } of connection.edges) ctx.loaders.checkout.prime(node.reference, node);
        return connection;
      },
    },
    {
      name: 'CheckoutConnection',
      description: 'A page of checkouts.',
      edgesField: { description: 'The checkouts of this page, in list order, each with its cursor.' },
    },
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
    idempotencyKey: t.string({ required: true, description: IDEMPOTENCY_KEY_DESCRIPTION }),
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
    clientToken: t.string({
      description:
        "A token for the customer's browser, bound to this one checkout (see CLIENT_TOKEN_TTL): it may read the checkout, its charge, and follow checkoutUpdated. Send it as `Authorization: Bearer <clientToken>`.",
      resolve: async (p, _args, ctx) =>
        (await ctx.tokens.mintClientToken({ kind: 'checkout', reference: p.reference }, undefined, ctx.merchant?.id)).token,
    }),
    checkout: t.field({
      type: CheckoutRef,
      nullable: true,
      description: 'The checkout itself, fetched on demand.',
      resolve: (p, _args, ctx) => ctx.loaders.checkout.load(p.reference),
    }),
  }),
});

paymentMutation('initializeCheckout', {
  description: 'Creates a hosted payment page for an amount.',
  arg: { name: 'input', type: InitializeCheckoutInput },
  payload: InitializeCheckoutPayload,
  errors: [ValidationError, RateLimitedError, IdempotencyConflictError, UpstreamError],
  result: { name: 'InitializeCheckoutResult', description: 'The new checkout, or why it was not created.' },
  access: { scope: 'payments:collect' },
  upstream: 'initializeCheckout',
  validate: (input, checks) => {
    checks.amount(checks.at('amount'), input.amount);
    checks.url(checks.at('successUrl'), input.successUrl);
    checks.url(checks.at('cancelUrl'), input.cancelUrl);
    checks.email(checks.at('email'), input.email);
  },
  request: (input) => ({ amount: input.amount, successUrl: input.successUrl, cancelUrl: input.cancelUrl, email: input.email ?? null }),
  // The service keeps no ext_id for checkouts: a checkout whose answer was lost cannot be looked up.
  idempotency: { key: (input) => input.idempotencyKey },
  execute: async (request, ctx) => {
    const created = await ctx.upstream.initializeCheckout(request);
    return { reference: created.reference, authorizationUrl: created.authorizationUrl, liveMode: created.liveMode };
  },
  created: (payload) => [{ kind: 'checkout', reference: payload.reference }],
});
