// Platform mode in the schema: which merchant a request acts for, and which root fields each kind of caller may
// reach. The merchant comes from the token's `merchant_id` claim, never from a body; a platform operator's token
// (a staff token without the claim) acts for a merchant only by naming it (X-Merchant-Id, or `merchantId` in
// graphql-ws's connection_init), and its scopes then apply to that merchant's data. A merchant's token that names
// another merchant gets the very answer an unknown id gets: existence is never revealed.
//
// Deny by default: in platform mode a root field is served only when it is listed here. A field that is not
// kept apart per merchant yet answers NOT_IN_THIS_MODE rather than mixing merchants' data.
import { tokenProblemOf, type Principal } from '../auth/index.js';
import { topLevelError } from '../errors/top-level.js';
import { isMerchantId } from '../merchants/index.js';
import type { GatewayContext, PlatformServices, RequestMerchant } from './context.js';

/** The operator's root fields (scope `platform:manage`): merchants themselves. They exist in platform mode only. */
export const OPERATOR_FIELDS: ReadonlySet<string> = new Set([
  'merchants',
  'merchantEvents',
  'createMerchant',
  'updateMerchant',
  'rotateMerchantApiKey',
  'suspendMerchant',
  'offboardMerchant',
]);

/**
 * The root fields platform mode serves for one merchant, each through that merchant's own upstream client,
 * idempotency keys and audit lines. Everything else keeps state that is not yet kept apart per merchant, and is
 * refused in platform mode.
 */
export const MERCHANT_FIELDS: ReadonlySet<string> = new Set([
  'balance',
  'charge',
  'charges',
  'checkout',
  'checkouts',
  'node',
  'nodes',
  'settlement',
  'settlements',
  'transfer',
  'transfers',
  'events',
  'paymentEvents',
  'createCharge',
  'submitChargeOtp',
  'initializeCheckout',
  'createTransfer',
  'createBulkTransfer',
  'createSettlement',
  'cancelSettlement',
  // Payout batches: the merchant's own batches, runner slots and pacer (src/payout-batches/).
  'payoutBatch',
  'payoutBatches',
  'payoutBatchUpdated',
  'createPayoutBatch',
  'addPayoutBatchItems',
  'startPayoutBatch',
  'approvePayoutBatch',
  'cancelPayoutBatch',
  // Following one resource: the merchant's own pollers and client (src/live/).
  'chargeUpdated',
  'checkoutUpdated',
  'transferUpdated',
  'settlementUpdated',
  // Webhooks to the merchant's servers: its own endpoints, deliveries and secrets (src/outbound-webhooks/).
  'webhookEndpoints',
  'webhookDeliveries',
  'webhookEventKinds',
  'createWebhookEndpoint',
  'updateWebhookEndpoint',
  'deleteWebhookEndpoint',
  'rotateWebhookEndpointSecret',
  'sendTestWebhook',
  'redeliverWebhook',
  'replayWebhookEvents',
]);

/** What platform mode says of a root field for this request: open to the scope rule, or refused and why. */
export type PlatformGate = 'open' | 'platform_only' | 'not_yet' | 'name_merchant' | 'operator_only';

/** The platform rule of a root field for this request (single mode: only the operator's fields are closed). */
export function platformGate(ctx: Pick<GatewayContext, 'platform' | 'principal' | 'merchant'>, field: string): PlatformGate {
  if (!ctx.platform) return OPERATOR_FIELDS.has(field) ? 'platform_only' : 'open';
  if (OPERATOR_FIELDS.has(field)) {
    // A merchant's token never manages the platform, whatever scope it carries.
    return ctx.principal?.kind === 'staff' && !ctx.principal.merchantId ? 'open' : 'operator_only';
  }
  if (!MERCHANT_FIELDS.has(field)) return 'not_yet';
  if (ctx.merchant) return 'open';
  return ctx.principal?.kind === 'staff' && !ctx.principal.merchantId ? 'name_merchant' : 'operator_only';
}

/** The error of a field the platform rule refused (the scope rule's refusals are access.ts's). */
export function platformRefusal(gate: Exclude<PlatformGate, 'open' | 'operator_only'>, field: string) {
  return topLevelError('NOT_IN_THIS_MODE', { field, reason: gate });
}

/** A token of a merchant that is gone, as access.ts's `unauthenticated('claims')` (which imports this module). */
const unauthenticated = () =>
  topLevelError('UNAUTHENTICATED', tokenProblemOf('claims'), {
    extensions: { http: { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } } },
  });

const merchantNotFound = () => topLevelError('MERCHANT_NOT_FOUND', undefined, { extensions: { http: { status: 404 } } });

/**
 * The merchant a request acts for, from its principal and the merchant it names (a header, or connection_init).
 * Null in single mode and for an operator that names none. A merchant's token naming another merchant, and an
 * operator naming an unknown or offboarded one, get MERCHANT_NOT_FOUND alike; a token of a merchant that is
 * gone (offboarded, purged, never was) is refused as UNAUTHENTICATED.
 */
export async function merchantOfRequest(
  platform: PlatformServices | null | undefined,
  principal: Principal | null,
  named: string | null,
): Promise<RequestMerchant | null> {
  if (!platform || !principal) return null;
  const own = principal.merchantId ?? null;
  if (own === null && principal.kind === 'client') throw unauthenticated();
  if (own !== null && named !== null && named !== own) throw merchantNotFound();
  const id = own ?? named;
  if (id === null) return null;
  const merchant = isMerchantId(id) ? await readMerchant(platform, id) : null;
  if (!merchant || merchant.status === 'OFFBOARDED') {
    if (own !== null) throw unauthenticated();
    throw merchantNotFound();
  }
  const upstream = await platform.upstreamFor(merchant).catch(() => {
    throw topLevelError('SERVICE_UNAVAILABLE', 'temporarily');
  });
  return { id, status: merchant.status, byOperator: own === null, upstream };
}

/** A merchant's view; a registry that cannot be read (Redis down) is SERVICE_UNAVAILABLE, nothing done. */
async function readMerchant(platform: PlatformServices, id: string) {
  try {
    return await platform.merchant(id);
  } catch {
    throw topLevelError('SERVICE_UNAVAILABLE', 'temporarily');
  }
}

/** The header an operator names the merchant it acts for with. */
export const MERCHANT_HEADER = 'x-merchant-id';

/** The merchant a request names, from its header or connection_init's `merchantId`; null: none. */
export function namedMerchant(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
