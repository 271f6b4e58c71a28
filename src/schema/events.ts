// Live payment events over WebSocket (graphql-ws) or SSE: every verified
// webhook as it arrives, and each resource's state as it moves forward.
import type { Charge, Checkout, Settlement, Transfer } from '../upstream/types.js';
import type { PaymentEventRecord } from '../events/payment-event.js';
import type { ResourceKind } from '../upstream/types.js';
import { access } from './access.js';
import { builder } from './builder.js';
import { ChargeRef, CheckoutRef, SettlementRef, TransferRef } from './refs.js';
import type { GatewayContext } from './context.js';

function concerning<T>(type: ResourceKind) {
  return async (event: PaymentEventRecord, _args: unknown, ctx: GatewayContext): Promise<T | null> =>
    event.resourceType === type ? ((await ctx.live.resourceForEvent(event)) as T | null) : null;
}

const PaymentEventRef = builder.objectRef<PaymentEventRecord>('PaymentEvent').implement({
  description: 'A verified webhook from the payment service.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Delivery id: the same delivery received twice has the same id (and is published once).' }),
    kind: t.exposeString('kind', { description: 'The event kind as sent, e.g. "charge.success", "checkout.pending".' }),
    receivedAt: t.field({ type: 'DateTime', resolve: (e) => e.receivedAt, description: 'When the gateway received it (UTC).' }),
    reference: t.exposeString('reference', {
      nullable: true,
      description: 'Reference of the resource it is about, when the payload names one.',
    }),
    payload: t.field({ type: 'JSON', resolve: (e) => e.payload, description: 'The webhook body exactly as received (parsed JSON).' }),
    checkout: t.field({
      type: CheckoutRef,
      nullable: true,
      resolve: concerning<Checkout>('checkout'),
      description: 'The checkout it is about, fetched fresh from the service.',
    }),
    charge: t.field({
      type: ChargeRef,
      nullable: true,
      resolve: concerning<Charge>('charge'),
      description: 'The charge it is about, fetched fresh from the service.',
    }),
    transfer: t.field({
      type: TransferRef,
      nullable: true,
      resolve: concerning<Transfer>('transfer'),
      description: 'The transfer it is about, fetched fresh from the service.',
    }),
    settlement: t.field({
      type: SettlementRef,
      nullable: true,
      resolve: concerning<Settlement>('settlement'),
      description: 'The settlement it is about, fetched fresh from the service.',
    }),
  }),
});

builder.subscriptionFields((t) => ({
  paymentEvents: t.field({
    ...access({ scope: 'events:read' }),
    type: PaymentEventRef,
    description: 'Every verified webhook, as it arrives. Pass `kinds` to receive only some (e.g. ["charge.success", "charge.failed"]).',
    args: { kinds: t.arg.stringList({ required: false, description: 'Event kinds to receive; all when omitted or empty.' }) },
    subscribe: (_root, { kinds }, ctx) => ctx.live.paymentEvents(kinds ?? null),
    resolve: (event) => event,
  }),
  checkoutUpdated: t.field({
    ...access<{ reference: string }>({ scope: 'events:read', client: ({ reference }) => ({ kind: 'checkout', reference }) }),
    type: CheckoutRef,
    description: 'The checkout each time its status moves forward; completes after a final status. Either reference form works.',
    args: { reference: t.arg.string({ required: true }) },
    subscribe: (_root, { reference }, ctx) => ctx.live.watch('checkout', reference),
    resolve: (resource) => resource as unknown as Checkout,
  }),
  chargeUpdated: t.field({
    ...access<{ reference: string }>({ scope: 'events:read', client: ({ reference }) => ({ kind: 'charge', reference }) }),
    type: ChargeRef,
    description:
      'The charge each time its status moves forward (SEND_OTP → SUCCESS, PAY_OFFLINE → FAILED...); completes after a final status.',
    args: { reference: t.arg.string({ required: true }) },
    subscribe: (_root, { reference }, ctx) => ctx.live.watch('charge', reference),
    resolve: (resource) => resource as unknown as Charge,
  }),
  transferUpdated: t.field({
    ...access({ scope: 'events:read' }),
    type: TransferRef,
    description: 'The transfer each time its status moves forward; completes after SUCCESS or FAILED.',
    args: { reference: t.arg.string({ required: true }) },
    subscribe: (_root, { reference }, ctx) => ctx.live.watch('transfer', reference),
    resolve: (resource) => resource as unknown as Transfer,
  }),
  settlementUpdated: t.field({
    ...access({ scope: 'events:read' }),
    type: SettlementRef,
    description: 'The settlement each time its status moves forward (PROCESSING → IN_TRANSIT → SUCCESS); completes after a final status.',
    args: { reference: t.arg.string({ required: true }) },
    subscribe: (_root, { reference }, ctx) => ctx.live.watch('settlement', reference),
    resolve: (resource) => resource as unknown as Settlement,
  }),
}));
