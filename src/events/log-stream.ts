// A subscriber's stream of logged events: the replay (resume) of what the log holds after `after`, then live
// events from the tailer. Live events arriving during the replay wait in a buffer; the stream's cursor
// (stream-cursor.ts) skips what it already has, so nothing is missed or repeated.
import type { BusLifecycle } from './bus-lifecycle.js';
import { SubscriberTooSlowError } from './bus-lifecycle.js';
import { createEventStream, type EventStream, type StreamSink } from './event-stream.js';
import type { EventLog } from './log.js';
import type { LoggedPaymentEvent } from './payment-event.js';
import { streamCursor, type StreamCursor } from './stream-cursor.js';
import type { StreamId } from './stream-id.js';
import type { LogTailer, TailListener } from './tailer.js';

const REPLAY_BATCH = 200;

/** What a stream of the shared log reads from: the log, its tailer, the buffer allowed per subscriber, and the bus's lifecycle. */
export interface LogStreamContext {
  eventLog: EventLog;
  tailer: LogTailer;
  maxBuffered: number;
  life: BusLifecycle;
}

interface LogStreamOptions<F> {
  after: StreamId | null;
  wanted: (event: LoggedPaymentEvent) => boolean;
  /** Where live events come from (default: every event the tailer reads). */
  listen?: (listener: TailListener) => () => void;
  failureAs?: (error: unknown) => F;
}

/**
 * A stream of the shared log's events: those after the subscriber's cursor replayed from the log, then live ones from the tailer, each
 * once and in log order. Ends with EventLogGapError when the events it needs were trimmed, and with SubscriberTooSlowError when its reader
 * falls `maxBuffered` behind.
 */
export function logStream<F = never>(ctx: LogStreamContext, options: LogStreamOptions<F>): EventStream<LoggedPaymentEvent | F> {
  const { tailer, life } = ctx;
  const listen = options.listen ?? ((listener: TailListener) => tailer.listen(listener));
  life.ensureOpen();
  return createEventStream<LoggedPaymentEvent | F>(
    async (sink) => {
      if (life.closed) return sink.stop();
      const untrack = life.track(() => sink.stop());
      const cursor = streamCursor(options.after, tailer);
      const live = liveEvents(ctx, sink, cursor, options.wanted, options.after !== null);
      const unlisten = listen({ onEvent: live.onEvent, onGap: (error) => sink.stop(error) });
      try {
        if (options.after !== null) await replay(ctx, sink, cursor, options.wanted);
        live.replayDone();
        await sink.ended;
      } catch (err) {
        sink.stop(err);
      } finally {
        unlisten();
        untrack();
      }
    },
    { failureAs: options.failureAs },
  );
}

/** Live events from the tailer: held while the replay runs, then handed out (each once, in order). */
function liveEvents(
  { maxBuffered }: LogStreamContext,
  sink: StreamSink<LoggedPaymentEvent>,
  cursor: StreamCursor,
  wanted: (event: LoggedPaymentEvent) => boolean,
  replaying: boolean,
) {
  const held: Array<[LoggedPaymentEvent, boolean]> = [];
  const deliver = (event: LoggedPaymentEvent, copy: boolean) => {
    if (!cursor.live(event, copy) || !wanted(event)) return;
    if (sink.unread >= maxBuffered) return sink.stop(new SubscriberTooSlowError(`more than ${maxBuffered} undelivered events`));
    sink.push(event);
  };
  return {
    onEvent(event: LoggedPaymentEvent, copy: boolean) {
      if (!replaying) return deliver(event, copy);
      if (held.length >= maxBuffered)
        return sink.stop(new SubscriberTooSlowError(`more than ${maxBuffered} events arrived during the replay`));
      held.push([event, copy]);
    },
    replayDone() {
      replaying = false;
      for (const [event, copy] of held.splice(0)) deliver(event, copy);
    },
  };
}

/** Replays the log after the cursor, one event at a time: a replay of thousands waits for the client instead of piling up. */
async function replay(
  { eventLog }: LogStreamContext,
  sink: StreamSink<LoggedPaymentEvent>,
  cursor: StreamCursor,
  wanted: (event: LoggedPaymentEvent) => boolean,
): Promise<void> {
  while (!sink.stopped) {
    const batch = await eventLog.ascending(cursor.last, REPLAY_BATCH);
    if (batch.length === 0) return;
    for (const event of batch) {
      if (sink.stopped) return;
      if (!cursor.replayed(event) || !wanted(event)) continue;
      sink.push(event);
      await sink.drained();
    }
  }
}
