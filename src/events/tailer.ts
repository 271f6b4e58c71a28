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
// tailer reads the new log from its start (src/events/tail-reader.ts). The sender re-sends what the lost
// de-duplication keys no longer stop (after a failover too: an entry read from
// the old primary before it reached the replica is logged again), so a delivery
// id may come twice: the copy goes only to listeners that were not handed the
// first one (a subscriber connected throughout must not get it twice; one that
// joined in between must not miss it: src/events/tail-fanout.ts).
import type { Logger } from '../logger.js';
import type { EventLog } from './log.js';
import type { StreamId } from './stream-id.js';
import { createTailFanOut, type TailListener } from './tail-fanout.js';
import { readLog, type TailPosition } from './tail-reader.js';

export { DELIVERY_SLICE, EventLogGapError, type TailListener } from './tail-fanout.js';

/** Reads the log's new events as they are appended, one reader per replica, and hands them to every listener in order. */
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

interface TailerOptions {
  log: EventLog;
  logger: Logger;
  /** Longest wait of one read. Default 2000 ms. */
  blockMs?: number;
  /** Pause after a failed read, doubled up to maxRetryMs. Default 50 ms. */
  retryMs?: number;
  maxRetryMs?: number;
}

/** Starts reading at the log's current end. */
export async function startTailer(options: TailerOptions): Promise<LogTailer> {
  const { log, logger } = options;
  const fanOut = createTailFanOut(logger);
  const at: TailPosition = { position: await log.lastId(), generation: await log.generation() };
  let running = true;
  const isRunning = () => running;
  const done = readLog({
    log,
    logger,
    blockMs: options.blockMs ?? 2_000,
    retryMs: options.retryMs ?? 50,
    maxRetryMs: options.maxRetryMs ?? 1_000,
    at,
    deliver: (event) => fanOut.deliver(event, isRunning),
    gap: (error) => fanOut.gap(error),
    running: isRunning,
  });

  return {
    get position() {
      return at.position;
    },
    get generation() {
      return at.generation;
    },
    listen: (listener) => fanOut.listen(listener),
    handedOut: (deliveryId) => fanOut.handedOut(deliveryId),
    async stop() {
      running = false;
      fanOut.clear();
      log.close();
      // A blocked Redis read returns within blockMs, or fails when its connection closes.
      await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 10).unref())]);
    },
  };
}
