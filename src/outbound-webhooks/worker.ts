// Delivers what the store holds, on every replica. Each endpoint is worked on
// its own (a slow or dead endpoint never delays another): at most
// `maxInFlight` attempts at once per endpoint and replica, taken in this order
// on each pass: deliveries due for a retry, events another replica left in
// flight (claimed after the visibility timeout), then new events from the
// endpoint's place in the log, unless its retry set is full (it then holds
// its place). A pass runs when the log has news, when an attempt ends, and
// every `pollMs`.
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.js';
import type { LoggedPaymentEvent } from '../events/payment-event.js';
import { encodeEventId } from '../events/stream-id.js';
import type { Dispatcher } from './dispatcher.js';
import { MAX_ATTEMPTS_KEPT, deliveryIdOf, takesKind, type DeliveryRecord, type StoredEndpoint } from './model.js';
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
  /** How often endpoints are re-read and every endpoint gets a pass. Default 1000 ms. */
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
  again: boolean;
  /** Deliveries in the retry set as last counted (plus those this replica added since). */
  retrying: number;
  lastCountAt: number;
}

/** The webhook-id of a logged event: its public event id (PaymentEvent.id), the same for every attempt and replica. */
export function webhookIdOf(event: LoggedPaymentEvent): string {
  return encodeEventId(event.seq, event.generation);
}

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

export class DeliveryWorker {
  readonly consumer = `replica-${randomUUID()}`;
  private endpoints = new Map<string, StoredEndpoint>();
  private readonly work = new Map<string, EndpointWork>();
  private readonly attempts = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
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

  /** Re-reads the endpoints (another replica may have changed them) and gives each a pass. */
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

  /** A pass for every endpoint soon (coalesced: a burst of events costs one round). */
  wakeAll(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      for (const id of this.endpoints.keys()) void this.pass(id);
    });
  }

  wake(endpointId: string): void {
    if (!this.stopped) setImmediate(() => void this.pass(endpointId));
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
    if (!w) this.work.set(id, (w = { inFlight: 0, passing: false, again: false, retrying: 0, lastCountAt: 0 }));
    return w;
  }

  private storeDown(err: unknown): void {
    if (!this.warnedDown) this.deps.log.warn('webhook delivery paused: the store is unreachable', { error: (err as Error).message });
    this.warnedDown = true;
  }

  private async pass(id: string): Promise<void> {
    const w = this.state(id);
    if (w.passing) return void (w.again = true);
    w.passing = true;
    try {
      do {
        w.again = false;
        const endpoint = this.endpoints.get(id);
        if (!endpoint?.enabled || this.stopped) return;
        await this.fill(endpoint, w);
      } while (w.again);
    } catch (err) {
      this.storeDown(err);
    } finally {
      w.passing = false;
    }
  }

  /** Starts attempts up to the endpoint's free slots: due retries, stale in-flight events, then new events. */
  private async fill(endpoint: StoredEndpoint, w: EndpointWork): Promise<void> {
    const { store } = this.deps;
    const now = this.deps.now();
    let free = this.settings.maxInFlightPerEndpoint - w.inFlight;
    if (free <= 0) return;
    const due = await store.claimDue(endpoint.id, now, free, now + this.visibilityMs);
    for (const record of due) this.begin(endpoint, record, null);
    free -= due.length;
    if (free > 0 && Date.now() - w.lastCountAt >= this.visibilityMs / 2) {
      w.lastCountAt = Date.now();
      w.retrying = (await store.waiting(endpoint.id)).retrying;
      free -= await this.startEvents(endpoint, await store.claimStale(endpoint.id, this.consumer, this.visibilityMs, free));
    }
    // A full retry set: the endpoint holds its place in the log and reads nothing new.
    if (free <= 0 || w.retrying >= this.settings.retrySetMax) return;
    const fresh = await store.readNew(endpoint.id, this.consumer, free);
    await this.startEvents(endpoint, fresh);
    if (fresh.length === free) w.again = true;
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
        this.wake(endpoint.id);
      });
    this.attempts.add(attempt);
  }

  /** One attempt, and the delivery's new state saved with it. */
  private async attempt(endpoint: StoredEndpoint, record: DeliveryRecord, ackSeq: string | null): Promise<void> {
    const { dispatcher, store, metrics, log, now } = this.deps;
    const startedAt = now();
    const body = webhookBody(record.event, record.eventId);
    const headers = signedHeaders(endpoint.secrets, record.eventId, new Date(startedAt), body);
    const result = await dispatcher.post(endpoint.url, body, { ...headers });
    const ok = result.error === null;
    metrics.attempt(outcomeLabel(result.error), result.durationMs / 1000);
    const attempts = [...record.attempts, { ...result, at: new Date(startedAt).toISOString() }].slice(-MAX_ATTEMPTS_KEPT);
    const failures = ok ? record.failures : record.failures + 1;
    const delay = ok ? null : nextRetryDelayMs(this.settings.retryScheduleMs, failures);
    const status = ok ? 'SUCCEEDED' : delay === null ? 'FAILED' : 'PENDING';
    const next: DeliveryRecord = { ...record, attempts, failures, status, nextAttemptAt: delay === null ? null : now() + delay };
    const settled = await store.settle(next, ackSeq, ok ? 'ok' : 'failed', now());
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

  private async disable(endpoint: StoredEndpoint): Promise<void> {
    const hours = Math.round(this.settings.disableAfterMs / 3_600_000);
    const reason = `failing for ${hours} hours`;
    if (!(await this.deps.store.disableOnce(endpoint.id, reason))) return;
    this.endpoints.set(endpoint.id, { ...endpoint, enabled: false, disabledReason: reason });
    this.deps.log.warn('webhook endpoint disabled', { endpointId: endpoint.id, reason });
    await this.deps.onDisabled(endpoint, reason);
  }
}
