// De-duplication for one subscriber's stream of logged events: where the stream stands in the log, so that
// nothing at or before it is handed out again wherever the replay and the tailer stand relative to each other,
// and the delivery ids its replay read that the tailer had handed out, so that a copy of one logged again
// (see tailer.ts), whether read later in the replay or passed on by the tailer, is one this stream has.
import type { LoggedPaymentEvent } from './payment-event.js';
import { compareStreamIds, type StreamId } from './stream-id.js';
import type { LogTailer } from './tailer.js';

/** Delivery ids one resumed stream remembers from its replay, to skip a copy of one. */
const REPLAYED_COPIES_REMEMBERED = 1_000;

export interface StreamCursor {
  /** The id of the last event this stream read (replayed or live). */
  readonly last: StreamId;
  /** Moves on to an event the replay read; false when it is a copy this replay already read (skip it). */
  replayed(event: LoggedPaymentEvent): boolean;
  /** Moves on to a live event; false when this stream has it already (skip it). */
  live(event: LoggedPaymentEvent, copy: boolean): boolean;
}

/** A stream resumed after `after`, or (null) from the tailer's position: live events only. */
export function streamCursor(after: StreamId | null, tailer: Pick<LogTailer, 'position' | 'generation' | 'handedOut'>): StreamCursor {
  let last = after ?? tailer.position;
  // Ids compare only within one generation of the log: a new log's may start below the last one seen.
  let lastGeneration = after === null ? tailer.generation : undefined;
  const replayedHandedOut = new Set<string>();
  const moveTo = (event: LoggedPaymentEvent) => {
    last = event.seq;
    lastGeneration = event.generation ?? '';
  };
  return {
    get last() {
      return last;
    },
    replayed(event) {
      moveTo(event);
      if (!tailer.handedOut(event.id)) return true;
      if (replayedHandedOut.has(event.id)) return false; // a copy logged again, this replay's second
      replayedHandedOut.add(event.id);
      // Copies follow a loss within moments: the latest ones are enough, and a long replay keeps no more.
      if (replayedHandedOut.size > REPLAYED_COPIES_REMEMBERED) replayedHandedOut.delete(replayedHandedOut.values().next().value!);
      return true;
    },
    live(event, copy) {
      if (copy && replayedHandedOut.has(event.id)) return false;
      const sameLog = lastGeneration === undefined || (event.generation ?? '') === (lastGeneration ?? '');
      if (sameLog && compareStreamIds(event.seq, last) <= 0) return false;
      moveTo(event);
      return true;
    },
  };
}
