// Every replica reads the whole event log, in order, and hands each event to
// its own subscribers. Nothing travels by fire-and-forget pub/sub: a replica
// that loses Redis for a while reads on from where it stopped once Redis is
// back, so every event acknowledged with 200 reaches every live subscriber.
//
// If the log was trimmed past the tailer's position while it could not read
// (an outage longer than the retention), events were lost for good: every
// listener is told (`onGap`), so subscriptions end with a retryable error
// instead of pretending to be complete.
//
// If the log itself was lost (Redis restarted empty: a new generation), the
// tailer reads the new log from its start, and skips a delivery id it has
// already handed out: the sender re-sends what the lost de-duplication keys
// no longer stop, and a subscriber connected throughout must not get it twice.
import type { Logger } from '../logger.js';
import type { EventLog } from './log.js';
import type { LoggedPaymentEvent } from './payment-event.js';
import { ZERO_ID, compareStreamIds, type StreamId } from './stream-id.js';

export class EventLogGapError extends Error {
  override readonly name = 'EventLogGapError';
}

export interface TailListener {
  onEvent(event: LoggedPaymentEvent): void;
  onGap(error: EventLogGapError): void;
}

export interface LogTailer {
  /** The id of the last event handed to listeners: a new listener sees every event after it. */
  readonly position: StreamId;
  /** The generation of the log `position` belongs to (null: no log yet; '' an entry from before generations). */
  readonly generation: string | null;
  listen(listener: TailListener): () => void;
  stop(): Promise<void>;
}

export interface TailerOptions {
  log: EventLog;
  logger: Logger;
  /** Longest wait of one read. Default 2000 ms. */
  blockMs?: number;
  /** Pause after a failed read, doubled up to maxRetryMs. Default 50 ms. */
  retryMs?: number;
  maxRetryMs?: number;
}

const BATCH = 500;
/**
 * Listeners handed one event before the tailer lets the event loop turn. Each listener's subscriber then runs its
 * share (execution, serialisation, a socket write) as microtasks; without a turn in between, one event to 10,000
 * subscribers kept /health and every other request waiting for all of them (0.4 to 1 s).
 */
export const DELIVERY_SLICE = 64;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Delivery ids remembered to skip a re-sent copy logged again after the log was lost. */
const REMEMBERED_DELIVERIES = 10_000;

/** Starts reading at the log's current end. */
export async function startTailer(options: TailerOptions): Promise<LogTailer> {
  const { log, logger } = options;
  const blockMs = options.blockMs ?? 2_000;
  const retryMs = options.retryMs ?? 50;
  const maxRetryMs = options.maxRetryMs ?? 1_000;
  const listeners = new Set<TailListener>();
  let position = await log.lastId();
  let generation = await log.generation();
  let running = true;
  const delivered = new Set<string>();

  // Sliced, and awaited by the loop: the next event starts only once this one reached every listener, so each
  // listener still sees the events in log order.
  const deliver = async (event: LoggedPaymentEvent) => {
    if (delivered.has(event.id)) {
      logger.info('skipped an event delivered before under the same delivery id', { seq: event.seq });
      return;
    }
    delivered.add(event.id);
    if (delivered.size > REMEMBERED_DELIVERIES) delivered.delete(delivered.values().next().value!);
    const all = [...listeners];
    for (let i = 0; i < all.length; i++) {
      if (i > 0 && i % DELIVERY_SLICE === 0) {
        await nextTurn();
        if (!running) return;
      }
      const listener = all[i]!;
      if (!listeners.has(listener)) continue; // gone while an earlier slice was out
      try {
        listener.onEvent(event);
      } catch (err) {
        logger.error('event listener failed', { seq: event.seq, error: err });
      }
    }
  };

  const loop = async () => {
    let failures = 0;
    while (running) {
      try {
        const events = await log.waitAfter(position, BATCH, blockMs);
        if (failures > 0) {
          // Back after an outage: were events trimmed before we could read them?
          const trimmed = await log.trimmedThrough();
          if (compareStreamIds(trimmed, position) > 0) {
            logger.error('event log trimmed past this replica while it could not read: events were lost', { position, trimmed });
            const gap = new EventLogGapError('events were trimmed from the log before this replica could read them');
            for (const listener of [...listeners]) listener.onGap(gap);
          }
          logger.info('event log reading resumed', { position });
          failures = 0;
          const now = await log.generation();
          if (now !== generation && now !== null) {
            // A new log: its ids may start anywhere. Read it from the start (skipping what was delivered).
            logger.warn('the event log was created again (Redis lost it): reading the new one from its start', { position });
            generation = now;
            position = ZERO_ID;
            continue;
          }
        }
        for (const event of events) {
          if (!running) return;
          if (compareStreamIds(event.seq, position) <= 0) continue;
          position = event.seq;
          if (event.generation !== undefined) generation = event.generation;
          await deliver(event);
        }
      } catch (err) {
        if (!running) return;
        if (failures === 0) logger.warn('event log read failed; retrying', { error: err });
        failures += 1;
        await new Promise((resolve) => setTimeout(resolve, Math.min(maxRetryMs, retryMs * 2 ** Math.min(failures - 1, 10))).unref());
      }
    }
  };
  const done = loop();

  return {
    get position() {
      return position;
    },
    get generation() {
      return generation;
    },
    listen(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async stop() {
      running = false;
      listeners.clear();
      log.close();
      // A blocked Redis read returns within blockMs, or fails when its connection closes.
      await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 10).unref())]);
    },
  };
}
