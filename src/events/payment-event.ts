// What the event log holds for one event: a verified webhook (the receiver,
// src/inbound-webhooks/event.ts, builds it) or one the gateway synthesized when it
// found a change no webhook announced (src/reconcile). Everything downstream
// reads it.
import { CHARGE_STATUSES, CHECKOUT_STATUSES, SETTLEMENT_STATUSES, TRANSFER_STATUSES, type ResourceKind } from '../upstream/types.js';

/** Where an event came from: the payment service's webhook, or the gateway's own poll of the resource. */
export type EventSource = 'WEBHOOK' | 'POLL';

/**
 * An event as it enters the log: its kind, reference, payload and source (a webhook from the service, or a poll of
 * the gateway).
 */
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
  /** Platform mode: the merchant whose webhook route received it; absent in single mode. */
  merchantId?: string;
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

/**
 * The kinds the gateway knows: `<resource>.<status>` for every status it knows (the spec shows only
 * checkout.pending and checkout.success and says the full list is not shown; the sandbox sends these),
 * and its own reconciliation.stuck.
 */
export const KNOWN_EVENT_KINDS: readonly string[] = [
  ...CHECKOUT_STATUSES.map((s) => `checkout.${s}`),
  ...CHARGE_STATUSES.map((s) => `charge.${s}`),
  ...TRANSFER_STATUSES.map((s) => `transfer.${s}`),
  ...SETTLEMENT_STATUSES.map((s) => `settlement.${s}`),
  'reconciliation.stuck',
];

const OWN_NAMESPACES = new Set(KNOWN_EVENT_KINDS.map((k) => k.slice(0, k.indexOf('.'))));

/**
 * Whether a filter on `kind` is a mistake: a kind in one of the gateway's namespaces (charge., ...)
 * that it does not know, or one a typo away from a known kind ("chrage.success"). Such a filter would
 * silently match nothing. A kind of another namespace is a deployment's own (the service's full list
 * is not shown) and is accepted.
 */
export function isMistypedEventKind(kind: string): boolean {
  if (KNOWN_EVENT_KINDS.includes(kind)) return false;
  const dot = kind.indexOf('.');
  if (dot > 0 && OWN_NAMESPACES.has(kind.slice(0, dot))) return true;
  return KNOWN_EVENT_KINDS.some((known) => editDistanceAtMost(kind, known, 2));
}

/** Levenshtein distance <= max (hand-written: a dozen lines, one caller). */
function editDistanceAtMost(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length]! <= max;
}
