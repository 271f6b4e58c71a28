// One attempt of a delivery, and what comes of it: signed with the attempt's own time, POSTed, its outcome and the
// delivery's next state saved in one write (store.recordAttempt), the retry scheduled on the schedule, and the
// endpoint disabled once it has failed everything for the disable period.
import type { Logger } from '../logger.js';
import type { Dispatcher } from './dispatcher.js';
import type { EndpointSchedule } from './endpoint-schedule.js';
import { outcomeLabel, type WebhookMetrics } from './metrics.js';
import { MAX_ATTEMPTS_KEPT, type DeliveryRecord, type StoredEndpoint } from './model.js';
import { webhookBody } from './payload.js';
import { nextRetryDelayMs } from './retry-schedule.js';
import { signedHeaders } from './signer.js';
import type { OutboundStore } from './store.js';

/** Bodies kept by webhook id: an event's body is the same for every endpoint, so its fan-out builds it once. */
const BODIES_KEPT = 256;

interface AttemptDeps {
  store: OutboundStore;
  dispatcher: Dispatcher;
  log: Logger;
  metrics: WebhookMetrics;
  /** The time of attempts, due dates and the disable period. */
  now: () => number;
  retryScheduleMs: readonly number[];
  disableAfterMs: number;
  /** This replica disabled the endpoint (it was enabled until now): the worker stops its passes, the caller tells. */
  disabled: (endpoint: StoredEndpoint, reason: string) => Promise<void>;
}

/**
 * Makes and records the attempts of deliveries: signs the event's body, posts it, and records the outcome with the next retry. Each
 * event's body is built once and reused for its retries.
 */
export class DeliveryAttempts {
  private readonly bodies = new Map<string, string>();

  constructor(private readonly deps: AttemptDeps) {}

  /**
   * One attempt of `record` (`ackSeq`: the log entry of a first attempt, taken off the in-flight list with it), and
   * the delivery's new state saved. Rejects when the store cannot be written: the delivery then stays in flight or
   * in the retry set, and is taken up again.
   */
  async run(endpoint: StoredEndpoint, record: DeliveryRecord, ackSeq: string | null, schedule: EndpointSchedule): Promise<void> {
    const { dispatcher, store, metrics, log, now } = this.deps;
    const startedAt = now();
    const body = this.bodyOf(record);
    const headers = signedHeaders(endpoint.secrets, record.eventId, new Date(startedAt), body);
    const result = await dispatcher.post(endpoint.url, body, { ...headers });
    const ok = result.error === null;
    metrics.attempt(outcomeLabel(result.error), result.durationMs / 1000);
    const attempts = [...record.attempts, { ...result, at: new Date(startedAt).toISOString() }].slice(-MAX_ATTEMPTS_KEPT);
    const failures = ok ? record.failures : record.failures + 1;
    const delay = ok ? null : nextRetryDelayMs(this.deps.retryScheduleMs, failures);
    const status = ok ? 'SUCCEEDED' : delay === null ? 'FAILED' : 'PENDING';
    const next: DeliveryRecord = { ...record, attempts, failures, status, nextAttemptAt: delay === null ? null : now() + delay };
    const saved = await store.recordAttempt(next, ackSeq, ok ? 'ok' : 'failed', now());
    if (status !== 'PENDING') metrics.settled(ok ? 'succeeded' : 'failed');
    if (status === 'PENDING' && ackSeq) schedule.retrying += 1;
    if (status !== 'PENDING' && !ackSeq) schedule.retrying = Math.max(0, schedule.retrying - 1);
    if (ok) return;
    log.debug('webhook attempt failed', { endpointId: endpoint.id, eventId: record.eventId, kind: record.kind, error: result.error });
    if (status === 'FAILED')
      log.info('webhook delivery failed for good', { endpointId: endpoint.id, eventId: record.eventId, kind: record.kind });
    if (saved.failingSince !== null && now() - saved.failingSince >= this.deps.disableAfterMs) await this.disable(endpoint);
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
    const hours = Math.round(this.deps.disableAfterMs / 3_600_000);
    const reason = `failing for ${hours} hours`;
    if (!(await this.deps.store.disableOnce(endpoint.id, reason))) return;
    this.deps.log.warn('webhook endpoint disabled', { endpointId: endpoint.id, reason });
    await this.deps.disabled(endpoint, reason);
  }
}
