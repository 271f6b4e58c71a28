// Where endpoints and deliveries are kept: Redis (shared by the replicas,
// redis-store.ts) or memory (one process, kept in SANDBOX_DATA_DIR in sandbox
// mode, memory-store.ts). Both follow the same model:
//
// - Each endpoint has its PLACE in the durable event log (a Redis Streams
//   consumer group on the log's stream: the shared log in single mode, its
//   merchant's own in platform mode, merchant-log-router.ts): new events are
//   read from there, and an
//   event read stays "in flight" (the group's pending list) until its first
//   attempt is settled. A replica that dies mid-delivery leaves it there, and
//   another one claims it after the visibility timeout (XAUTOCLAIM).
// - A failed attempt moves the delivery into the endpoint's RETRY SET (due
//   time -> delivery), in the same atomic write that takes it off the pending
//   list: no moment exists where it is in neither.
// - One attempt at a time per delivery (as Stripe and Svix): a retry claimed
//   from the retry set is LEASED until its attempt settles (or the lease runs
//   out: its replica died); so is an attempt of an event read from the log
//   (new, taken over or replayed), which none starts while a retry of its
//   delivery is under way, and which replaces one waiting (holdFromLog), in
//   either mode. A redelivery never starts a second attempt beside
//   one under way: it is noted, and should that attempt fail, its delivery is
//   due at once on a fresh schedule instead of the next step of the old one.
// - Settled deliveries are kept for the delivery log: the newest RECENT_DELIVERIES_KEPT
//   per endpoint, plus those in the retry set.
//
// Memory per endpoint is therefore bounded whatever its backlog: an endpoint
// whose retry set holds WEBHOOK_RETRY_SET_MAX deliveries stops reading new
// events and holds its place in the log (which keeps them EVENT_RETENTION_HOURS).
import type { LoggedPaymentEvent } from '../events/payment-event.js';
import type { DeliveryRecord, StoredEndpoint } from './model.js';

/** Settled deliveries kept per endpoint for `webhookDeliveries` (beside those waiting for a retry). */
export const RECENT_DELIVERIES_KEPT = 500;

type EndpointPatch = Partial<Pick<StoredEndpoint, 'url' | 'description' | 'kinds' | 'enabled' | 'disabledReason' | 'secrets'>> & {
  /** Re-enabled by hand: the failure streak starts over. */
  resetHealth?: boolean;
};

/** What came of a redelivery (see OutboundStore.redeliver), with the delivery as it now stands. */
export type Redelivery = { outcome: 'queued' | 'in_flight'; record: DeliveryRecord } | { outcome: 'gone'; record: null };

/**
 * Whether an event read from the log may be attempted (OutboundStore.holdFromLog): 'go' (leased; a retry of it that
 * was waiting is replaced by this attempt), 'retrying' (a retry of its delivery is under way: the event is
 * acknowledged and left to that attempt), 'busy' (another attempt from the log is under way: the event stays in
 * flight, acknowledged when that one settles).
 */
export type LogHold = 'go' | 'retrying' | 'busy';

/** How an attempt went, for the endpoint's health. */
export type AttemptOutcome = 'ok' | 'failed';

interface SettleResult {
  /** False: the endpoint is gone (the delivery was dropped). */
  kept: boolean;
  /** When the endpoint's current failure streak began (epoch ms), null when it is healthy. */
  failingSince: number | null;
}

/**
 * Where endpoints and their deliveries are kept, in memory or in Redis: endpoints, each one's place in its log, the attempts of its
 * deliveries.
 */
export interface OutboundStore {
  readonly mode: 'memory' | 'redis';
  /** False when `max` endpoints (of its merchant, in platform mode) exist already. Its place in the log is the log's end. */
  createEndpoint(endpoint: StoredEndpoint, max: number): Promise<boolean>;
  /** Oldest first: of one merchant (platform mode), or every one (single mode; the worker). */
  listEndpoints(merchantId?: string | null): Promise<StoredEndpoint[]>;
  getEndpoint(id: string): Promise<StoredEndpoint | null>;
  /** Null when there is no such endpoint. */
  updateEndpoint(id: string, patch: EndpointPatch): Promise<StoredEndpoint | null>;
  deleteEndpoint(id: string): Promise<boolean>;
  /**
   * Replaces the endpoint's secrets only if they are still `expected` (compare-and-set: a re-wrap never undoes a
   * rotation made meanwhile); false when they changed or the endpoint is gone.
   */
  replaceSecrets(id: string, expected: StoredEndpoint['secrets'], next: StoredEndpoint['secrets']): Promise<boolean>;
  /** Platform mode over Redis: the merchants with endpoints (whose logs the merchant-log router trims). */
  endpointMerchants?(): Promise<string[]>;
  /** Disables an enabled endpoint; false when it was not enabled (another replica did it first). */
  disableOnce(id: string, reason: string): Promise<boolean>;

  /** Reads up to `count` new events from the endpoint's place in the log, marking them in flight for this consumer. */
  readNew(endpointId: string, consumer: string, count: number): Promise<LoggedPaymentEvent[]>;
  /** Takes over events in flight for longer than `minIdleMs` (a replica died with them). */
  claimStale(endpointId: string, consumer: string, minIdleMs: number, count: number): Promise<LoggedPaymentEvent[]>;
  /** Takes events off the in-flight list without a delivery (kinds the endpoint does not take). */
  release(endpointId: string, seqs: string[]): Promise<void>;
  /**
   * Records an attempt and where its delivery stands now, in one atomic write: PENDING goes to the retry set at
   * `nextAttemptAt`, SUCCEEDED and FAILED to the recent list; `ackSeq` (a first attempt, read from the log) takes
   * its event off the in-flight list; `outcome` updates the endpoint's health (`atMs`: when the attempt was made).
   * The delivery's lease ends; a failed attempt during which a redelivery was asked for leaves it due at `atMs` on
   * a fresh schedule (model.ts, redeliveryOf).
   */
  recordAttempt(record: DeliveryRecord, ackSeq: string | null, outcome: AttemptOutcome, atMs: number): Promise<SettleResult>;
  /**
   * Queues a new delivery no attempt produced (a test event): into the retry set at its `nextAttemptAt`, the
   * endpoint's health untouched. False when the endpoint is gone.
   */
  enqueue(record: DeliveryRecord): Promise<boolean>;
  /**
   * A redelivery, one attempt at a time, decided in one atomic step: with an attempt under way (its lease, a retry's
   * or one from the log: holdFromLog), nothing starts and the request is noted for that attempt's outcome
   * ('in_flight'); otherwise the delivery is due at `now` on a fresh schedule, a retry waiting brought forward
   * rather than doubled ('queued'). 'gone': no such delivery, or no such endpoint.
   */
  redeliver(endpointId: string, deliveryId: string, now: number): Promise<Redelivery>;
  /**
   * Leases the deliveries of events just read from the log before their attempts (in one atomic step, in the slot
   * of the endpoint's keys and log), so that a redelivery and an attempt from the log are decided one after the
   * other, whichever comes first, and none starts while a retry of it is under way (LogHold).
   */
  holdFromLog(endpointId: string, deliveryIds: string[], now: number, leaseUntil: number): Promise<LogHold[]>;
  /** Deliveries of the retry set due at `now`, leased until `leaseUntil` (another replica takes them after it). */
  claimDue(endpointId: string, now: number, count: number, leaseUntil: number): Promise<DeliveryRecord[]>;
  getDelivery(endpointId: string, deliveryId: string): Promise<DeliveryRecord | null>;
  /** The deliveries kept for the endpoint, newest first. */
  listDeliveries(endpointId: string): Promise<DeliveryRecord[]>;
  /** Deliveries waiting: in the retry set, and in flight. `oldestMs`: the event time of the oldest one. */
  waiting(endpointId: string): Promise<{ retrying: number; inFlight: number; oldestMs: number | null }>;
  /**
   * Events of the log the endpoint reads after `after` (exclusive; null: from the oldest), oldest first: what a
   * replay counts. Absent (the memory store): the endpoints read the bus's log.
   */
  eventsAfter?(endpointId: string, after: string | null, count: number): Promise<LoggedPaymentEvent[]>;
  /** Moves the endpoint's place in the log back to just before `seq` (never forward). */
  rewind(endpointId: string, seq: string): Promise<void>;
  /**
   * Platform mode over Redis: moves the endpoints' groups a build before the merchants' logs left on the shared log
   * into their merchants' logs, their events not yet delivered with them (redis-upgrade.ts). Absent elsewhere.
   */
  adoptEarlierGroups?(): Promise<void>;
  close(): Promise<void>;
}
