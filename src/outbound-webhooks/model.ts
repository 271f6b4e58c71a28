// What the outbound webhooks keep: the merchant's endpoints (with their signing
// secrets, never shown after creation), each delivery of an event to an
// endpoint with its attempts, and the kinds an endpoint may take.
import { randomBytes } from 'node:crypto';
import { KNOWN_EVENT_KINDS, type LoggedPaymentEvent } from '../events/payment-event.js';
import { PAYOUT_BATCH_EVENT_KINDS } from '../payout-batches/event-kinds.js';

/** Kinds the gateway sends only to webhooks (a payout batch's own are payout-batches/event-kinds.ts). */
export const WEBHOOK_TEST_KIND = 'webhook.test';
/** The event sent when an endpoint is disabled after failing too long. */
export const ENDPOINT_DISABLED_KIND = 'webhook_endpoint.disabled';

/** Every kind an endpoint may ask for (`webhookEventKinds`). */
export const WEBHOOK_EVENT_KINDS: readonly string[] = [
  ...KNOWN_EVENT_KINDS,
  ...PAYOUT_BATCH_EVENT_KINDS,
  WEBHOOK_TEST_KIND,
  ENDPOINT_DISABLED_KIND,
];

/**
 * An endpoint's signing secrets: the current one, and the previous one for a while after a rotation, so a receiver can switch without a
 * gap.
 */
export interface EndpointSecrets {
  /** Signs every attempt (`whsec_…`). */
  current: string;
  /** The one before the last rotation: signs beside `current` until `previousExpiresAt` (epoch ms). */
  previous: string | null;
  previousExpiresAt: number | null;
}

/** An endpoint as stored (secrets included: never handed to GraphQL as is, see EndpointView). */
export interface StoredEndpoint {
  id: string;
  url: string;
  description: string | null;
  /** Empty: every kind. */
  kinds: string[];
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
  secrets: EndpointSecrets;
  lastSuccessAt: string | null;
  failingSince: string | null;
  consecutiveFailures: number;
}

/** What GraphQL sees of an endpoint: no secret. */
export type EndpointView = Omit<StoredEndpoint, 'secrets'> & { deliveriesWaiting: number };

/** What may be shown of an endpoint: everything but its secrets, with how many deliveries wait. */
export function viewOf(endpoint: StoredEndpoint, deliveriesWaiting: number): EndpointView {
  const { secrets: _secrets, ...rest } = endpoint;
  return { ...rest, deliveriesWaiting };
}

/** Where a delivery stands: still being tried, delivered, or given up on. */
export type DeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

/** One attempt of a delivery: when, the HTTP status or the error, how long, and the first 1 KB of the answer. */
export interface DeliveryAttempt {
  at: string;
  /** Null: no HTTP answer (refused, timeout, redirect refused, address refused). */
  httpStatus: number | null;
  durationMs: number;
  error: string | null;
  /** The first 1 KB of the answer. */
  responseBodyExcerpt: string | null;
}

/** Attempts kept per delivery (the newest ones): the schedule plus a few redeliveries. */
export const MAX_ATTEMPTS_KEPT = 12;

/** A delivery of one event to one endpoint: its status, attempts, failures and next attempt. */
export interface DeliveryRecord {
  /** `<endpointId>.<webhook-id>`: one delivery per event and endpoint. */
  id: string;
  endpointId: string;
  /** The `webhook-id` header: the event's id, the same on every attempt. */
  eventId: string;
  kind: string;
  status: DeliveryStatus;
  createdAt: string;
  /** Epoch ms of the next attempt while PENDING. */
  nextAttemptAt: number | null;
  /** Failed attempts since the delivery was last (re)queued: the position in the retry schedule. */
  failures: number;
  attempts: DeliveryAttempt[];
  /** The event, kept while the delivery may be sent again (bounded: see the store's limits). */
  event: LoggedPaymentEvent;
}

function deliveryIdOf(endpointId: string, eventId: string): string {
  return `${endpointId}.${eventId}`;
}

/** The endpoint id inside a delivery id (`<endpoint>.<event>`); null when the id has none. */
export function endpointIdOfDelivery(deliveryId: string): string | null {
  const dot = deliveryId.indexOf('.');
  return dot > 0 ? deliveryId.slice(0, dot) : null;
}

/** Whether an endpoint takes events of `kind` (test events go only where they are sent). */
export function takesKind(endpoint: Pick<StoredEndpoint, 'kinds'>, kind: string): boolean {
  if (kind === WEBHOOK_TEST_KIND) return false;
  return endpoint.kinds.length === 0 || endpoint.kinds.includes(kind);
}

// Platform mode: an endpoint's id names its merchant (`we_<the merchant id's 20 hex>_<24 hex>`), so every key of
// the endpoint and its deliveries is found under the merchant's hash tag from the id alone, and an id of another
// merchant is refused before any read. Single mode's ids (`we_<24 hex>`) name none.
const MERCHANT_ENDPOINT_ID = /^we_([0-9a-f]{20})_[0-9a-f]{24}$/;

/** A new endpoint id: of the merchant's in platform mode, else single mode's. */
export function newEndpointId(merchantId: string | null): string {
  const own = randomBytes(12).toString('hex');
  return merchantId === null ? `we_${own}` : `we_${merchantId.slice('mer_'.length)}_${own}`;
}

/** The merchant an endpoint id belongs to (platform mode); null for single mode's ids and anything else. */
export function merchantOfEndpoint(endpointId: string): string | null {
  const hex = MERCHANT_ENDPOINT_ID.exec(endpointId)?.[1];
  return hex ? `mer_${hex}` : null;
}

/**
 * Whether an endpoint takes an event: its kind, and in platform mode its merchant (an endpoint of a merchant takes
 * only that merchant's events; an event of no merchant, such as `merchant.*`, reaches none of them).
 */
export function takesEvent(
  endpoint: Pick<StoredEndpoint, 'id' | 'kinds'>,
  event: Pick<LoggedPaymentEvent, 'kind' | 'merchantId'>,
): boolean {
  const merchant = merchantOfEndpoint(endpoint.id);
  if (merchant !== null && event.merchantId !== merchant) return false;
  return takesKind(endpoint, event.kind);
}

/** A delivery of `event` to an endpoint, due now: what the worker makes of an event it reads, and a test event. */
export function newDeliveryRecord(endpointId: string, event: LoggedPaymentEvent, eventId: string, now: number): DeliveryRecord {
  return {
    id: deliveryIdOf(endpointId, eventId),
    endpointId,
    eventId,
    kind: event.kind,
    status: 'PENDING',
    createdAt: new Date(now).toISOString(),
    nextAttemptAt: now,
    failures: 0,
    attempts: [],
    event,
  };
}

/**
 * What a redelivery makes of a delivery: due at `now`, its retry schedule started over (its attempts kept). Also what
 * a failed attempt leaves when a redelivery was asked for while it was under way (store.ts).
 */
export function redeliveryOf(record: DeliveryRecord, now: number): DeliveryRecord {
  return { ...record, status: 'PENDING', failures: 0, nextAttemptAt: now };
}
