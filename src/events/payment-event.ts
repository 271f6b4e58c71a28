// What the event bus carries for one verified webhook delivery. The webhook
// receiver builds it (src/webhooks/event.ts); everything downstream reads it.
import type { ResourceKind } from '../upstream/types.js';

export interface PaymentEventRecord {
  /** Delivery id: stable across re-sends of the same delivery (see deliveryId). */
  id: string;
  /** The body's `event`, or 'unknown'. */
  kind: string;
  /** When this gateway received it: UTC ISO 8601 with "Z". */
  receivedAt: string;
  reference: string | null;
  resourceType: ResourceKind | null;
  /** The parsed body exactly as received. */
  payload: unknown;
}
