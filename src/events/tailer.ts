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
// tailer reads the new log from its start. The sender re-sends what the lost
// de-duplication keys no longer stop (after a failover too: an entry read from
// the old primary before it reached the replica is logged again), so a delivery
// id may come twice: the copy goes only to listeners that were not handed the
// first one (a subscriber connected throughout must not get it twice; one that
// joined in between must not miss it).
import type { Logger } from '../logger.js';
import type { EventLog } from './log.js';
import type { LoggedPaymentEvent } from './payment-event.js';
import { ZERO_ID, compareStreamIds, type StreamId } from './stream-id.js';

export class EventLogGapError extends Error {
  override readonly name = 'EventLogGapError';
}

export interface TailListener {
  /** `copy`: a delivery id handed out before this listener listened (it may have read the first one from the log itself). */
  onEvent(event: LoggedPaymentEvent, copy: boolean): void;
  onGap(error: EventLogGapError): void;
}

export interface LogTailer {
  /** The id of the last event handed to listeners: a new listener sees every event after it. */
  readonly position: StreamId;
  /** The generation of the log `position` belongs to (null: no log yet; '' an entry from before generations). */
  readonly generation: string | null;
  listen(listener: TailListener): () => void;
  /** Whether an event of this delivery id was handed to listeners (among the last ones remembered). */
  handedOut(deliveryId: string): boolean;
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
  // Each listener with the count of events handed out when it started listening: it was handed every later one.
  const listeners = new Map<TailListener, number>();
  let handedOut = 0;
  let position = await log.lastId();
  let generation = await log.generation();
  let running = true;
  /** Delivery id -> its place in the count of events handed out. */
  const delivered = new Map<string, number>();

  // Sliced, and awaited by the loop: the next event starts only once this one reached every listener, so each
  // listener still sees the events in log order.
  const deliver = async (event: LoggedPaymentEvent) => {
    const first = delivered.get(event.id);
    if (first === undefined) {
      delivered.set(event.id, ++handedOut);
      if (delivered.size > REMEMBERED_DELIVERIES) delivered.delete(delivered.keys().next().value!);
    } else {
      logger.info('an event logged again under a delivery id handed out before: only to listeners that joined since', { seq: event.seq });
    }
    const all = [...listeners];
    for (let i = 0; i < all.length; i++) {
      if (i > 0 && i % DELIVERY_SLICE === 0) {
        await nextTurn();
        if (!running) return;
      }
      const [listener, since] = all[i]!;
      if (!listeners.has(listener)) continue; // gone while an earlier slice was out
      if (first !== undefined && first > since) continue; // it was handed the first copy
      try {
        listener.onEvent(event, first !== undefined);
      } catch (err) {
        logger.error('event listener failed', { seq: event.seq, error: err });
      }
    }
  };

  /** The wait before the `attempt`th read after a failed (or faulty) one: retryMs, doubled up to maxRetryMs. */
  const pause = (attempt: number) =>
    new Promise((resolve) => setTimeout(resolve, Math.min(maxRetryMs, retryMs * 2 ** Math.min(attempt - 1, 10))).unref());

  const loop = async () => {
    let failures = 0;
    let stalls = 0;
    while (running) {
      try {
        const events = await log.waitAfter(position, BATCH, blockMs);
        if (failures > 0) {
          // Back after an outage: were events trimmed before we could read them?
          const trimmed = await log.trimmedThrough();
          if (compareStreamIds(trimmed, position) > 0) {
            logger.error('event log trimmed past this replica while it could not read: events were lost', { position, trimmed });
            const gap = new EventLogGapError('events were trimmed from the log before this replica could read them');
            for (const listener of [...listeners.keys()]) listener.onGap(gap);
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
        let progressed = false;
        for (const event of events) {
          if (!running) return;
          if (compareStreamIds(event.seq, position) <= 0) continue;
          position = event.seq;
          progressed = true;
          if (event.generation !== undefined) generation = event.generation;
          await deliver(event);
        }
        if (events.length > 0 && !progressed) {
          // A read "after" the position that returned only events at or before it (a faulty log): reading again at
          // once would give the same answer forever, in microtasks that never let the event loop turn. Pause as
          // after a failed read; what was already delivered is never delivered again.
          if (stalls === 0) logger.error('the event log returned no event after the position it was asked for; pausing', { position });
          stalls += 1;
          await pause(stalls);
          continue;
        }
        stalls = 0;
        // Whatever the log does, one turn of the event loop between reads: the loop never runs on microtasks alone.
        await nextTurn();
      } catch (err) {
        if (!running) return;
        if (failures === 0) logger.warn('event log read failed; retrying', { error: err });
        failures += 1;
        await pause(failures);
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
      listeners.set(listener, handedOut);
      return () => void listeners.delete(listener);
    },
    handedOut(deliveryId) {
      return delivered.has(deliveryId);
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
