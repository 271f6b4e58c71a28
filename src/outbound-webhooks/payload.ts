// The body of a webhook to a merchant's server: `{ type, timestamp, data }`
// (Standard Webhooks). `data` is the event's resource in the GraphQL type's
// field names (the service's snake_case webhook body normalized as the
// gateway's client reads it, enums in the schema's upper case), plus the event
// id, its source and the log's sequence (a receiver drops an update older than
// the one it has). Built from the logged event alone: no call to the service.
import type { LoggedPaymentEvent } from '../events/payment-event.js';
import { normalizeCharge, normalizeCheckout, normalizeSettlement, normalizeTransfer, isPlainObject } from '../upstream/normalize.js';
import type { ResourceKind } from '../upstream/types.js';

const NORMALIZERS: Record<ResourceKind, (data: unknown) => object> = {
  checkout: normalizeCheckout,
  charge: normalizeCharge,
  transfer: normalizeTransfer,
  settlement: normalizeSettlement,
};

/** Fields whose values are GraphQL enums (upper case in the schema). */
const ENUM_FIELDS = new Set(['status', 'provider', 'recipientWallet', 'accountType']);

interface WebhookBody {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** The event's resource: normalized when it is one of the service's, else its `data` as sent. */
function resourceOf(event: LoggedPaymentEvent): Record<string, unknown> {
  const payload = isPlainObject(event.payload) ? event.payload : {};
  const data = payload['data'];
  if (event.resourceType && event.source !== 'POLL') {
    try {
      return upperEnums({ ...NORMALIZERS[event.resourceType](data) });
    } catch {
      // A body the client cannot read as that resource: sent as received rather than dropped.
    }
  }
  if (isPlainObject(data)) return event.resourceType ? upperEnums({ ...data }) : { ...data };
  return { payload: event.payload };
}

function upperEnums(resource: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(resource)) {
    const value = resource[key];
    if (ENUM_FIELDS.has(key) && typeof value === 'string') resource[key] = value.toUpperCase();
  }
  return resource;
}

/** The JSON body for `event`, whose webhook id is `eventId`. */
export function webhookBody(event: LoggedPaymentEvent, eventId: string): string {
  const body: WebhookBody = {
    type: event.kind,
    timestamp: event.receivedAt,
    data: { ...resourceOf(event), eventId, source: event.source ?? 'WEBHOOK', sequence: event.seq },
  };
  return JSON.stringify(body);
}
