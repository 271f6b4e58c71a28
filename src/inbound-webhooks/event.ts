// The normalized record of one verified webhook delivery.
//
// The upstream documents only the `event` field (kinds seen: checkout.pending,
// checkout.success); everything else about the payload is "not shown". So the
// record keeps the parsed body untouched in `payload` and only derives a few
// routing fields, each with a safe fallback. Unknown kinds are still records.
import { createHash } from 'node:crypto';
import type { PaymentEventRecord } from '../events/payment-event.js';
import { RESOURCE_KINDS, type ResourceKind } from '../upstream/types.js';

/** Longest identifier taken from a body; anything longer is not a plausible id (and would bloat Redis keys). */
const MAX_ID_LENGTH = 200;

/**
 * The record logged for a webhook the service sent: its kind, its resource, and a delivery id (the body's own id, else its kind and
 * resource id, else a digest of the raw body), so a webhook sent again is logged once.
 */
export function toPaymentEventRecord(body: Record<string, unknown>, rawBody: Buffer, receivedAt: Date): PaymentEventRecord {
  const kind = nonEmptyString(body['event']) ?? 'unknown';
  const data = isObject(body['data']) ? body['data'] : undefined;
  return {
    id: deliveryId(body, data, kind, rawBody),
    kind,
    receivedAt: receivedAt.toISOString(),
    reference: nonEmptyString(data?.['reference']) ?? nonEmptyString(body['reference']) ?? null,
    resourceType: resourceTypeOf(kind),
    payload: body,
  };
}

/** The kind of resource an event is about, from the prefix of its kind (`charge.success`); null for any other. */
export function resourceTypeOf(kind: string): ResourceKind | null {
  return RESOURCE_KINDS.find((type) => kind.startsWith(`${type}.`)) ?? null;
}

/**
 * An id that is the same every time the same delivery is re-sent.
 * - top-level `id`, then `event_id`: taken as the event's own id;
 * - `data.id`: most likely the RESOURCE id (the same checkout sends
 *   checkout.pending then checkout.success), so it is qualified by the kind —
 *   otherwise the success event would be dropped as a "duplicate" of pending;
 * - otherwise sha256 hex of the raw bytes: identical re-sends, identical id.
 */
export function deliveryId(
  body: Record<string, unknown>,
  data: Record<string, unknown> | undefined,
  kind: string,
  rawBody: Buffer,
): string {
  const own = idLike(body['id']) ?? idLike(body['event_id']);
  if (own !== null) return own;
  const resourceId = idLike(data?.['id']);
  if (resourceId !== null && kind.length + resourceId.length < MAX_ID_LENGTH) return `${kind}:${resourceId}`;
  return createHash('sha256').update(rawBody).digest('hex');
}

function idLike(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  const s = nonEmptyString(value);
  return s !== null && s.length <= MAX_ID_LENGTH ? s : null;
}

function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** Whether a value is a plain object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
