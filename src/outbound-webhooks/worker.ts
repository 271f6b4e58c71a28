// Delivers what the store holds, on every replica. Each endpoint is worked on
// its own (a slow or dead endpoint never delays another): at most
// `maxInFlight` attempts at once per endpoint and replica, taken in this order
// on each pass: deliveries due for a retry, events another replica left in
// flight (claimed after the visibility timeout), then new events from the
// endpoint's place in the log, unless its retry set is full (it then holds
// its place).
//
// What a pass costs is paid per endpoint, so passes run only where there is
// work: an event in the log wakes the endpoints that take its kind, for a
// LIGHT pass (new events only: one XREADGROUP, sent with those of the other
// endpoints woken in the same tick); every `pollMs` each endpoint gets a FULL
// pass (due retries, behind a plain read; new events only if it was told of
// some it has not read, e.g. of kinds it does not take; stale events and a
// read every visibilityMs / 2); an attempt's end wakes its endpoint only when
// the last pass left work behind for want of a free slot. Retries are
// therefore started within `pollMs` of their due time.
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.js';
import type { LoggedPaymentEvent } from '../events/payment-event.js';
import { encodeEventId } from '../events/stream-id.js';
import type { Dispatcher } from './dispatcher.js';
import { MAX_ATTEMPTS_KEPT, newDeliveryRecord, takesKind, type DeliveryRecord, type StoredEndpoint } from './model.js';
import { outcomeLabel, type WebhookMetrics } from './metrics.js';
import { webhookBody } from './payload.js';
import { nextRetryDelayMs } from './retry-schedule.js';
import { signedHeaders } from './signer.js';
import type { OutboundStore } from './store.js';

export interface WorkerSettings {
  retryScheduleMs: readonly number[];
  timeoutMs: number;
  maxInFlightPerEndpoint: number;
  retrySetMax: number;
  disableAfterMs: number;
  /** How often endpoints are re-read and every endpoint gets a full pass. Default 1000 ms. */
  pollMs?: number;
}

export interface WorkerDeps {
  store: OutboundStore;
  dispatcher: Dispatcher;
  log: Logger;
  metrics: WebhookMetrics;
  /** The time of due dates, attempts and the disable period (tests hand in a manual clock). */
  now: () => number;
  /** Called once when this replica disabled an endpoint (the caller logs the event). */
  onDisabled: (endpoint: StoredEndpoint, reason: string) => Promise<void>;
}

interface EndpointWork {
  inFlight: number;
  passing: boolean;
  /** Another pass was asked for while one ran (`againFull`: a full one). */
  again: boolean;
  againFull: boolean;
  /** The last pass left due retries (`moreDue`) or new events (`moreNew`) for want of a free slot. */
  moreDue: boolean;
  moreNew: boolean;
  /** Events heard of (from the log's tail, or a change to the endpoint) since this replica started. */
  logged: number;
  /** `logged` as it was when a read last found the endpoint caught up: equal, a full pass need not read. */
  readUpTo: number;
  /** Deliveries in the retry set as last counted (plus those this replica added since). */
  retrying: number;
  lastCountAt: number;
}

/** Bodies kept by webhook id: an event's body is the same for every endpoint, so its fan-out builds it once. */
const BODIES_KEPT = 256;

/** The webhook-id of a logged event: its public event id (PaymentEvent.id), the same for every attempt and replica. */
export function webhookIdOf(event: LoggedPaymentEvent): string {
  return encodeEventId(event.seq, event.generation);
}

export class DeliveryWorker {
  readonly consumer = `replica-${randomUUID()}`;
  private endpoints = new Map<string, StoredEndpoint>();
  private readonly work = new Map<string, EndpointWork>();
  private readonly attempts = new Set<Promise<void>>();
  private readonly bodies = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;
  /** Endpoints to pass over in the next tick -> whether fully. */
  private readonly waking = new Map<string, boolean>();
  private scheduled = false;
  private stopped = false;
  private warnedDown = false;
  /** In flight longer than this, an event is taken over by another replica: an attempt never lasts as long. */
  readonly visibilityMs: number;

  constructor(
    private readonly settings: WorkerSettings,
    private readonly deps: WorkerDeps,
  ) {
    this.visibilityMs = settings.timeoutMs + 5_000;
  }

  start(): void {
    const tick = () => {
      if (this.stopped) return;
      void this.refresh().finally(() => {
        if (!this.stopped) this.timer = setTimeout(tick, this.settings.pollMs ?? 1_000);
      });
    };
    tick();
  }

  /** Re-reads the endpoints (another replica may have changed them) and gives each a full pass. */
  async refresh(): Promise<void> {
    try {
      const list = await this.deps.store.listEndpoints();
      this.endpoints = new Map(list.map((e) => [e.id, e]));
      if (this.warnedDown) this.deps.log.info('webhook delivery resumed');
      this.warnedDown = false;
    } catch (err) {
      this.storeDown(err);
    }
    this.wakeAll();
  }

  /** A full pass for every endpoint soon. */
  wakeAll(): void {
    for (const id of this.endpoints.keys()) this.schedule(id, true);
  }

  /** A light pass, soon, for the endpoints that take the event's kind (the others read past it on their full pass). */
  wakeFor(event: Pick<LoggedPaymentEvent, 'kind'>): void {
    for (const endpoint of this.endpoints.values()) {
      this.state(endpoint.id).logged += 1;
      if (takesKind(endpoint, event.kind)) this.schedule(endpoint.id, false);
    }
  }

  /** A full pass for the endpoint soon, reading its place in the log (a delivery queued, the place moved back). */
  wake(endpointId: string): void {
    this.state(endpointId).logged += 1;
    this.schedule(endpointId, true);
  }

  /**
   * A pass for the endpoint soon (full: due retries and stale events too). Coalesced: the passes asked for in one
   * tick start together in the next, so their first reads share one write to Redis, and a burst costs one round.
   */
  private schedule(endpointId: string, full: boolean): void {
    if (this.stopped) return;
    this.waking.set(endpointId, full || (this.waking.get(endpointId) ?? false));
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const batch = [...this.waking];
      this.waking.clear();
      for (const [id, asFull] of batch) void this.pass(id, asFull);
    });
  }

  /** Stops taking work; attempts in flight get `graceMs` to end (those cut are taken up again later: see visibilityMs). */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.allSettled([...this.attempts]), grace]);
    clearTimeout(timer);
  }

  private state(id: string): EndpointWork {
    let w = this.work.get(id);
    if (!w) {
      w = {
        inFlight: 0,
        passing: false,
        again: false,
        againFull: false,
        moreDue: false,
        moreNew: false,
        logged: 0,
        readUpTo: 0,
        retrying: 0,
        lastCountAt: 0,
      };
      this.work.set(id, w);
    }
    return w;
  }

  private storeDown(err: unknown): void {
    if (!this.warnedDown) this.deps.log.warn('webhook delivery paused: the store is unreachable', { error: (err as Error).message });
    this.warnedDown = true;
  }

  private async pass(id: string, full: boolean): Promise<void> {
    const w = this.state(id);
    if (w.passing) {
      w.again = true;
      w.againFull ||= full;
      return;
    }
    w.passing = true;
    try {
      for (let asFull = full; ; asFull = w.againFull) {
        w.again = false;
        w.againFull = false;
        const endpoint = this.endpoints.get(id);
        if (!endpoint?.enabled || this.stopped) return;
        await this.fill(endpoint, w, asFull);
        if (!w.again) return;
      }
    } catch (err) {
      this.storeDown(err);
    } finally {
      w.passing = false;
    }
  }

  /**
   * Starts attempts up to the endpoint's free slots: due retries (full passes), stale in-flight events, then new
   * events. Notes what it had to leave for want of a slot, for the next attempt's end to come back for it.
   */
  private async fill(endpoint: StoredEndpoint, w: EndpointWork, full: boolean): Promise<void> {
    const { store } = this.deps;
    const now = this.deps.now();
    let free = this.settings.maxInFlightPerEndpoint - w.inFlight;
    if (free <= 0) {
      w.moreNew = true;
      w.moreDue ||= full;
      return;
    }
    if (full) {
      const due = await store.claimDue(endpoint.id, now, free, now + this.visibilityMs);
      for (const record of due) this.begin(endpoint, record, null);
      w.moreDue = due.length === free;
      free -= due.length;
    }
    // Every visibilityMs / 2 whatever woke the pass (the retry set counted before the first read).
    const counting = free > 0 && now - w.lastCountAt >= this.visibilityMs / 2;
    if (counting) {
      w.lastCountAt = now;
      w.retrying = (await store.waiting(endpoint.id)).retrying;
      free -= await this.startEvents(endpoint, await store.claimStale(endpoint.id, this.consumer, this.visibilityMs, free));
    }
    // No free slot, or a full retry set (the endpoint holds its place in the log and reads nothing new): an
    // attempt's end comes back.
    w.moreNew = free <= 0 || w.retrying >= this.settings.retrySetMax;
    if (w.moreNew) return;
    // A full pass reads only when the log has news the endpoint has not read (events of kinds it does not take, a
    // read that failed), and on the count's beat (what no tail told of: events logged while this replica was down).
    if (full && !counting && w.readUpTo === w.logged) return;
    const seen = w.logged;
    const fresh = await store.readNew(endpoint.id, this.consumer, free);
    await this.startEvents(endpoint, fresh);
    // As many as asked for: there may be more at once; fewer: caught up with what was heard of before the read.
    if (fresh.length === free) w.again = true;
    else w.readUpTo = Math.max(w.readUpTo, seen);
  }

  /** Starts the events the endpoint takes, releases the others; returns how many started. */
  private async startEvents(endpoint: StoredEndpoint, events: LoggedPaymentEvent[]): Promise<number> {
    const skipped: string[] = [];
    let started = 0;
    for (const event of events) {
      if (!takesKind(endpoint, event.kind)) {
        skipped.push(event.seq);
        continue;
      }
      const eventId = webhookIdOf(event);
      this.begin(endpoint, newDeliveryRecord(endpoint.id, event, eventId, this.deps.now()), event.seq);
      started += 1;
    }
    await this.deps.store.release(endpoint.id, skipped);
    return started;
  }

  private begin(endpoint: StoredEndpoint, record: DeliveryRecord, ackSeq: string | null): void {
    const w = this.state(endpoint.id);
    w.inFlight += 1;
    const attempt = this.attempt(endpoint, record, ackSeq)
      .catch((err: unknown) => {
        // Not settled (the store is down): the event stays in flight or in the retry set, and is taken up again.
        this.storeDown(err);
      })
      .finally(() => {
        w.inFlight -= 1;
        this.attempts.delete(attempt);
        // Only work a pass left behind for want of this slot needs one now; the rest waits for its wake or the poll.
        if (w.moreDue || w.moreNew) this.schedule(endpoint.id, w.moreDue);
      });
    this.attempts.add(attempt);
  }

  /** One attempt, and the delivery's new state saved with it. */
  private async attempt(endpoint: StoredEndpoint, record: DeliveryRecord, ackSeq: string | null): Promise<void> {
    const { dispatcher, store, metrics, log, now } = this.deps;
    const startedAt = now();
    const body = this.bodyOf(record);
    const headers = signedHeaders(endpoint.secrets, record.eventId, new Date(startedAt), body);
    const result = await dispatcher.post(endpoint.url, body, { ...headers });
    const ok = result.error === null;
    metrics.attempt(outcomeLabel(result.error), result.durationMs / 1000);
    const attempts = [...record.attempts, { ...result, at: new Date(startedAt).toISOString() }].slice(-MAX_ATTEMPTS_KEPT);
    const failures = ok ? record.failures : record.failures + 1;
    const delay = ok ? null : nextRetryDelayMs(this.settings.retryScheduleMs, failures);
    const status = ok ? 'SUCCEEDED' : delay === null ? 'FAILED' : 'PENDING';
    const next: DeliveryRecord = { ...record, attempts, failures, status, nextAttemptAt: delay === null ? null : now() + delay };
    const settled = await store.recordAttempt(next, ackSeq, ok ? 'ok' : 'failed', now());
    if (status !== 'PENDING') metrics.settled(ok ? 'succeeded' : 'failed');
    const w = this.state(endpoint.id);
    if (status === 'PENDING' && ackSeq) w.retrying += 1;
    if (status !== 'PENDING' && !ackSeq) w.retrying = Math.max(0, w.retrying - 1);
    if (ok) return;
    log.debug('webhook attempt failed', { endpointId: endpoint.id, eventId: record.eventId, kind: record.kind, error: result.error });
    if (status === 'FAILED')
      log.info('webhook delivery failed for good', { endpointId: endpoint.id, eventId: record.eventId, kind: record.kind });
    if (settled.failingSince !== null && now() - settled.failingSince >= this.settings.disableAfterMs) await this.disable(endpoint);
  }

  private bodyOf(record: DeliveryRecord): string {
    let body = this.bodies.get(record.eventId);
    if (body === undefined) {
      body = webhookBody(record.event, record.eventId);
      this.bodies.set(record.eventId, body);
      // The oldest out (a Map keeps insertion order).
      if (this.bodies.size > BODIES_KEPT) this.bodies.delete(this.bodies.keys().next().value!);
    }
    return body;
  }

  private async disable(endpoint: StoredEndpoint): Promise<void> {
    const hours = Math.round(this.settings.disableAfterMs / 3_600_000);
    const reason = `failing for ${hours} hours`;
    if (!(await this.deps.store.disableOnce(endpoint.id, reason))) return;
    this.endpoints.set(endpoint.id, { ...endpoint, enabled: false, disabledReason: reason });
    this.deps.log.warn('webhook endpoint disabled', { endpointId: endpoint.id, reason });
    await this.deps.onDisabled(endpoint, reason);
  }
}
