// Delivers what the store holds, on every replica: the story of an event is
// log -> the endpoint's consumer group -> an attempt (delivery-attempt.ts) ->
// its outcome -> the retry set. Each endpoint is worked on its own (a slow or
// dead endpoint never delays another), with at most `maxInFlight` attempts at
// once per endpoint and replica; what one pass does is endpoint-pass.ts, and
// when passes run is each endpoint's schedule (endpoint-schedule.ts).
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
import type { LoggedPaymentEvent } from '../events/payment-event.js';
import type { Logger } from '../logger.js';
import { DeliveryAttempts } from './delivery-attempt.js';
import type { Dispatcher } from './dispatcher.js';
import { passOver, type PassContext } from './endpoint-pass.js';
import { EndpointSchedule } from './endpoint-schedule.js';
import type { WebhookMetrics } from './metrics.js';
import { MerchantSlots } from './merchant-slots.js';
import { merchantOfEndpoint, takesEvent, type DeliveryRecord, type StoredEndpoint } from './model.js';
import type { OutboundStore } from './store.js';

interface WorkerSettings {
  retryScheduleMs: readonly number[];
  timeoutMs: number;
  maxInFlightPerEndpoint: number;
  retrySetMax: number;
  disableAfterMs: number;
  /** How often endpoints are re-read and every endpoint gets a full pass. Default 1000 ms. */
  pollMs?: number;
  /** Platform mode: attempts at once on this replica, per merchant and in all (merchant-slots.ts); absent: single mode. */
  fairness?: { maxInFlightPerMerchant: number; maxInFlight: number } | null;
}

interface WorkerDeps {
  store: OutboundStore;
  dispatcher: Dispatcher;
  log: Logger;
  metrics: WebhookMetrics;
  /** The one clock of due dates, attempts, the disable period and the counting beat (tests hand in a manual one). */
  now: () => number;
  /** Called once when this replica disabled an endpoint (the caller logs the event). */
  onDisabled: (endpoint: StoredEndpoint, reason: string) => Promise<void>;
}

/**
 * Delivers the shared log's events to every enabled endpoint, from this replica: wakes on new events and endpoint changes, runs one pass
 * per endpoint at a time, and takes over events another replica left in flight past `visibilityMs`. `stop(graceMs)` gives the attempts
 * under way that long; one cut short is taken up again later.
 */
export class DeliveryWorker {
  readonly consumer = `replica-${randomUUID()}`;
  /** In flight longer than this, an event is taken over by another replica: an attempt never lasts as long. */
  readonly visibilityMs: number;
  private endpoints = new Map<string, StoredEndpoint>();
  private readonly schedules = new Map<string, EndpointSchedule>();
  private readonly running = new Set<Promise<void>>();
  private readonly attempts: DeliveryAttempts;
  private readonly pass: PassContext;
  private timer: NodeJS.Timeout | null = null;
  private readonly waker = coalescedWakes((id, full) => void this.passes(id, full));
  private readonly slots: MerchantSlots | null;
  private stopped = false;
  private warnedDown = false;

  constructor(
    private readonly settings: WorkerSettings,
    private readonly deps: WorkerDeps,
  ) {
    this.visibilityMs = settings.timeoutMs + 5_000;
    const fair = settings.fairness;
    this.slots = fair ? new MerchantSlots(fair, (id) => this.soon(id, true), deps.now) : null;
    this.attempts = new DeliveryAttempts({
      ...deps,
      retryScheduleMs: settings.retryScheduleMs,
      disableAfterMs: settings.disableAfterMs,
      disabled: async (endpoint, reason) => {
        this.endpoints.set(endpoint.id, { ...endpoint, enabled: false, disabledReason: reason });
        await deps.onDisabled(endpoint, reason);
      },
    });
    this.pass = {
      store: deps.store,
      consumer: this.consumer,
      visibilityMs: this.visibilityMs,
      maxInFlight: settings.maxInFlightPerEndpoint,
      retrySetMax: settings.retrySetMax,
      now: deps.now,
      begin: (endpoint, record, ackSeq) => this.begin(endpoint, record, ackSeq),
      slots: this.slots,
    };
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
    for (const id of this.endpoints.keys()) this.soon(id, true);
  }

  /**
   * A light pass, soon, for the endpoints that take the event (the others read past it on their full pass). In
   * platform mode another merchant's endpoints are not told of it: they read past it with their own merchant's next.
   */
  wakeFor(event: Pick<LoggedPaymentEvent, 'kind' | 'merchantId'>): void {
    for (const endpoint of this.endpoints.values()) {
      const merchant = merchantOfEndpoint(endpoint.id);
      if (merchant !== null && merchant !== event.merchantId) continue;
      this.scheduleOf(endpoint.id).heard += 1;
      if (takesEvent(endpoint, event)) this.soon(endpoint.id, false);
    }
  }

  /** A full pass for the endpoint soon, reading its place in the log (a delivery queued, the place moved back). */
  wake(endpointId: string): void {
    this.scheduleOf(endpointId).heard += 1;
    this.soon(endpointId, true);
  }

  /** Stops taking work; attempts in flight get `graceMs` to end (those cut are taken up again later: see visibilityMs). */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await settledWithin([...this.running], graceMs);
  }

  /** A pass for the endpoint soon (full: due retries and stale events too), coalesced with the others of this tick. */
  private soon(endpointId: string, full: boolean): void {
    if (!this.stopped) this.waker(endpointId, full);
  }

  private scheduleOf(id: string): EndpointSchedule {
    let schedule = this.schedules.get(id);
    if (!schedule) this.schedules.set(id, (schedule = new EndpointSchedule()));
    return schedule;
  }

  private storeDown(err: unknown): void {
    if (!this.warnedDown) this.deps.log.warn('webhook delivery paused: the store is unreachable', { error: (err as Error).message });
    this.warnedDown = true;
  }

  /** Runs passes over the endpoint while they are asked for (one at a time per endpoint). */
  private async passes(id: string, full: boolean): Promise<void> {
    const schedule = this.scheduleOf(id);
    if (!schedule.request(full)) return;
    try {
      for (let asFull = full; ;) {
        const endpoint = this.endpoints.get(id);
        if (!endpoint?.enabled || this.stopped) return;
        await passOver(this.pass, endpoint, schedule, asFull);
        const next = schedule.finished();
        if (!next) return;
        asFull = next === 'full';
      }
    } catch (err) {
      this.storeDown(err);
    } finally {
      schedule.halt();
    }
  }

  private begin(endpoint: StoredEndpoint, record: DeliveryRecord, ackSeq: string | null): void {
    const schedule = this.scheduleOf(endpoint.id);
    schedule.inFlight += 1;
    const attempt = this.attempts
      .run(endpoint, record, ackSeq, schedule)
      // Not saved (the store is down): the event stays in flight or in the retry set, and is taken up again.
      .catch((err: unknown) => this.storeDown(err))
      .finally(() => {
        schedule.inFlight -= 1;
        this.slots?.releaseOf(endpoint.id);
        this.running.delete(attempt);
        // Only work a pass left behind for want of this slot needs one now; the rest waits for its wake or the poll.
        const back = schedule.comeBackFor;
        if (back !== 'nothing') this.soon(endpoint.id, back === 'full');
      });
    this.running.add(attempt);
  }
}

/** Waits for the promises to settle, or for `ms`, whichever comes first. */
async function settledWithin(promises: Promise<unknown>[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled(promises), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * Passes asked for in one tick start together in the next (full if any asked for full), so their first reads share
 * one write to Redis, and a burst of events costs one round.
 */
function coalescedWakes(run: (endpointId: string, full: boolean) => void): (endpointId: string, full: boolean) => void {
  const waking = new Map<string, boolean>();
  let scheduled = false;
  return (endpointId, full) => {
    waking.set(endpointId, full || (waking.get(endpointId) ?? false));
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const batch = [...waking];
      waking.clear();
      for (const [id, asFull] of batch) run(id, asFull);
    });
  };
}
