// What the event log holds for one event: a verified webhook (the receiver,
// src/webhooks/event.ts, builds it) or one the gateway synthesized when it
// found a change no webhook announced (src/reconcile). Everything downstream
// reads it.
import type { ResourceKind } from '../upstream/types.js';

/** Where an event came from: the payment service's webhook, or the gateway's own poll of the resource. */
export type EventSource = 'WEBHOOK' | 'POLL';

export interface PaymentEventRecord {
  /** Delivery id: stable across re-sends of the same delivery (see deliveryId). */
  id: string;
  /** The body's `event`, or 'unknown'. */
  kind: string;
  /** When this gateway received it: UTC ISO 8601 with "Z". */
  receivedAt: string;
  reference: string | null;
  resourceType: ResourceKind | null;
  /** The parsed body exactly as received (for POLL events: what the gateway found). */
  payload: unknown;
  /** Absent: WEBHOOK. */
  source?: EventSource;
}

/** An event once appended: `seq` is its position in the log (a stream id), which orders events. */
export interface LoggedPaymentEvent extends PaymentEventRecord {
  seq: string;
  /**
   * The generation of the log that holds it (a new one each time the log is created: a Redis restarted
   * empty, a new in-memory log). Clients' event ids carry it, so an id from a lost log is never taken
   * for a position in a new one. Absent for entries written before generations existed.
   */
  generation?: string;
}
