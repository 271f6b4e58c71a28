// De-duplication for one subscriber's stream of logged events: where the stream stands in the log, so that
// nothing at or before it is handed out again wherever the replay and the tailer stand relative to each other,
// and the delivery ids its replay read that the tailer had handed out, so that a copy of one logged again
// (see tailer.ts), whether read later in the replay or passed on by the tailer, is one this stream has.
import type { LoggedPaymentEvent } from './payment-event.js';
import { compareStreamIds, type StreamId } from './stream-id.js';
import type { LogTailer } from './tailer.js';

/** Delivery ids one resumed stream remembers from its replay, to skip a copy of one. */
const REPLAYED_COPIES_REMEMBERED = 1_000;

/** Where one stream stands in the log, so an event read by the replay and handed out live again is delivered once. */
export interface StreamCursor {
  /** The id of the last event this stream read (replayed or live). */
  readonly last: StreamId;
  /** Moves on to an event the replay read; false when it is a copy this replay already read (skip it). */
  replayed(event: LoggedPaymentEvent): boolean;
  /** Moves on to a live event; false when this stream has it already (skip it). */
  live(event: LoggedPaymentEvent, copy: boolean): boolean;
}

/**
 * A stream resumed after `after`, or (null) from the tailer's position: live events only. (A class: `live` runs
 * once per subscriber per event, from one prototype rather than a closure per stream.)
 */
class Cursor implements StreamCursor {
  last: StreamId;
  // Ids compare only within one generation of the log: a new log's may start below the last one seen.
  private lastGeneration: string | null | undefined;
  private readonly replayedHandedOut = new Set<string>();

  constructor(
    after: StreamId | null,
    private readonly tailer: Pick<LogTailer, 'position' | 'generation' | 'handedOut'>,
  ) {
    this.last = after ?? tailer.position;
    this.lastGeneration = after === null ? tailer.generation : undefined;
  }

  replayed(event: LoggedPaymentEvent): boolean {
    this.moveTo(event);
    if (!this.tailer.handedOut(event.id)) return true;
    const copies = this.replayedHandedOut;
    if (copies.has(event.id)) return false; // a copy logged again, this replay's second
    copies.add(event.id);
    // Copies follow a loss within moments: the latest ones are enough, and a long replay keeps no more.
    if (copies.size > REPLAYED_COPIES_REMEMBERED) copies.delete(copies.values().next().value!);
    return true;
  }

  live(event: LoggedPaymentEvent, copy: boolean): boolean {
    if (copy && this.replayedHandedOut.has(event.id)) return false;
    const sameLog = this.lastGeneration === undefined || (event.generation ?? '') === (this.lastGeneration ?? '');
    if (sameLog && compareStreamIds(event.seq, this.last) <= 0) return false;
    this.moveTo(event);
    return true;
  }

  private moveTo(event: LoggedPaymentEvent): void {
    this.last = event.seq;
    this.lastGeneration = event.generation ?? '';
  }
}

/** A cursor starting after `after` (null: from the tailer's position). */
export function streamCursor(after: StreamId | null, tailer: Pick<LogTailer, 'position' | 'generation' | 'handedOut'>): StreamCursor {
  return new Cursor(after, tailer);
}
