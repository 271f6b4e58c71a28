// The tailer's reading of the log: in order, from its position, forever, through outages.
//
// - A failed read is retried after a pause (retryMs, doubled up to maxRetryMs); the reader then reads on from
//   its own position, so nothing appended meanwhile is missed.
// - Back after an outage, it checks whether the log was trimmed past its position while it could not read
//   (events lost for good: every listener is told, `gap`).
// - And whether the log is still the one it was reading. Redis may have lost it (restarted empty, a failover to
//   a replica that never had it): a new log has a new generation, and its ids may start anywhere, below the old
//   position too, so it is read from its start. Until the log exists again (nothing appended yet after the loss),
//   the reader keeps asking at each read: a new log that starts below the old position would never be returned
//   by a read "after" that position, and must not be missed for good because it came a moment later.
import type { Logger } from '../logger.js';
import type { EventLog } from './log.js';
import type { LoggedPaymentEvent } from './payment-event.js';
import { EventLogGapError, nextTurn } from './tail-fanout.js';
import { ZERO_ID, compareStreamIds, type StreamId } from './stream-id.js';

const BATCH = 500;

/** Where the reader stands: the id of the last event delivered, and the generation of the log it belongs to. */
export interface TailPosition {
  position: StreamId;
  /** null: no log yet; '' an entry from before generations. */
  generation: string | null;
}

interface LogReaderOptions {
  log: EventLog;
  logger: Logger;
  blockMs: number;
  retryMs: number;
  maxRetryMs: number;
  /** Where reading starts; moved on as events are delivered. */
  at: TailPosition;
  /** Hands one event to the listeners (awaited: the next one starts only once this one reached them). */
  deliver(event: LoggedPaymentEvent): Promise<void>;
  /** Tells the listeners that events were lost. */
  gap(error: EventLogGapError): void;
  running(): boolean;
}

/** Reads until `running()` turns false. */
export async function readLog(options: LogReaderOptions): Promise<void> {
  const { log, blockMs, at, running } = options;
  const afterOutage = backFromOutage(options);
  const pause = pauses(options);
  const readBatch = batchReader(options);
  let failures = 0;
  let stalls = 0;
  let logMayBeNew = false;
  while (running()) {
    try {
      const events = await log.waitAfter(at.position, BATCH, blockMs);
      if (failures > 0) {
        await afterOutage.checkTrimmed();
        failures = 0;
        logMayBeNew = true;
      }
      if (logMayBeNew) {
        const known = await afterOutage.checkGeneration();
        if (known === 'new') continue; // read the new log from its start
        logMayBeNew = known === 'absent';
      }
      if ((await readBatch(events)) === 'stalled') {
        // A read "after" the position that returned only events at or before it (a faulty log): reading again at
        // once would give the same answer forever, in microtasks that never let the event loop turn. Pause as
        // after a failed read; what was already delivered is never delivered again.
        if (stalls === 0)
          options.logger.error('the event log returned no event after the position it was asked for; pausing', { position: at.position });
        stalls += 1;
        await pause(stalls);
        continue;
      }
      stalls = 0;
      // Whatever the log does, one turn of the event loop between reads: the loop never runs on microtasks alone.
      await nextTurn();
    } catch (err) {
      if (!running()) return;
      if (failures === 0) options.logger.warn('event log read failed; retrying', { error: err });
      failures += 1;
      await pause(failures);
    }
  }
}

/** The checks made when reads work again after failing. */
function backFromOutage({ log, logger, at, gap }: LogReaderOptions) {
  return {
    /** Were events trimmed before this replica could read them? */
    async checkTrimmed() {
      const trimmed = await log.trimmedThrough();
      if (compareStreamIds(trimmed, at.position) > 0) {
        logger.error('event log trimmed past this replica while it could not read: events were lost', { position: at.position, trimmed });
        gap(new EventLogGapError('events were trimmed from the log before this replica could read them'));
      }
      logger.info('event log reading resumed', { position: at.position });
    },
    /** Whether the log is the one read before ('same'), a new one now read from its start ('new'), or not there yet. */
    async checkGeneration(): Promise<'same' | 'new' | 'absent'> {
      const now = await log.generation();
      if (now === null) return 'absent';
      if (now === at.generation) return 'same';
      // A new log: its ids may start anywhere. Read it from the start (skipping what was delivered).
      logger.warn('the event log was created again (Redis lost it): reading the new one from its start', { position: at.position });
      at.generation = now;
      at.position = ZERO_ID;
      return 'new';
    },
  };
}

/** Delivers the events of one read that come after the position; 'stalled' when the read held only earlier ones. */
function batchReader({ at, deliver, running }: LogReaderOptions) {
  return async (events: LoggedPaymentEvent[]): Promise<'progressed' | 'stalled' | 'none'> => {
    let progressed = false;
    for (const event of events) {
      if (!running()) return 'none';
      if (compareStreamIds(event.seq, at.position) <= 0) continue;
      at.position = event.seq;
      progressed = true;
      if (event.generation !== undefined) at.generation = event.generation;
      await deliver(event);
    }
    if (events.length > 0 && !progressed) return 'stalled';
    return progressed ? 'progressed' : 'none';
  };
}

/** The wait before the `attempt`th read after a failed (or faulty) one: retryMs, doubled up to maxRetryMs. */
function pauses({ retryMs, maxRetryMs }: LogReaderOptions) {
  return (attempt: number) =>
    new Promise((resolve) => setTimeout(resolve, Math.min(maxRetryMs, retryMs * 2 ** Math.min(attempt - 1, 10))).unref());
}
