// The tailer's fan-out: each event read from the log goes to every listener of this replica, in slices with a turn
// of the event loop in between, and a delivery id logged again (after the log lost its first copy) goes only to the
// listeners that were not handed the first one.
import type { Logger } from '../logger.js';
import type { LoggedPaymentEvent } from './payment-event.js';
import { InternalError } from '../errors/internal-error.js';

/**
 * The events a stream needed next were trimmed from the log (or the log was replaced): the stream ends with it rather than skip them
 * silently.
 */
export class EventLogGapError extends InternalError {
  override readonly name = 'EventLogGapError';
  readonly code = 'EVENT_LOG_GAP';
}

/** A listener of the log's tail: told each event handed out, in order, and told of a gap. */
export interface TailListener {
  /** `copy`: a delivery id handed out before this listener listened (it may have read the first one from the log itself). */
  onEvent(event: LoggedPaymentEvent, copy: boolean): void;
  onGap(error: EventLogGapError): void;
}

/**
 * Listeners handed one event before the tailer lets the event loop turn. Each listener's subscriber then runs its
 * share (execution, serialisation, a socket write) as microtasks; without a turn in between, one event to 10,000
 * subscribers kept /health and every other request waiting for all of them (0.4 to 1 s).
 */
export const DELIVERY_SLICE = 64;

/** Delivery ids remembered to skip a re-sent copy logged again after the log was lost. */
const REMEMBERED_DELIVERIES = 10_000;

/** Resolves on the next turn of the event loop, once pending I/O callbacks ran. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface TailFanOut {
  listen(listener: TailListener): () => void;
  /** Hands the event to every listener; resolves once it reached them all (or `running()` turned false). */
  deliver(event: LoggedPaymentEvent, running: () => boolean): Promise<void>;
  /** Tells every listener that events were lost. */
  gap(error: EventLogGapError): void;
  /** Whether an event of this delivery id was handed to listeners (among the last ones remembered). */
  handedOut(deliveryId: string): boolean;
  clear(): void;
}

/**
 * Hands each event read from the log's tail to every listener, in slices so a crowd of listeners never blocks the loop, and in log order.
 * A delivery id handed out before goes only to listeners that joined since. A listener that throws does not stop the others.
 */
export function createTailFanOut(logger: Logger): TailFanOut {
  // Each listener with the count of events handed out when it started listening: it was handed every later one.
  const listeners = new Map<TailListener, number>();
  let handedOut = 0;
  /** Delivery id -> its place in the count of events handed out. */
  const delivered = new Map<string, number>();

  /** The place of the event's first copy, or undefined when this is the first (then remembered). */
  const firstCopy = (event: LoggedPaymentEvent): number | undefined => {
    const first = delivered.get(event.id);
    if (first !== undefined) {
      logger.info('an event logged again under a delivery id handed out before: only to listeners that joined since', { seq: event.seq });
      return first;
    }
    delivered.set(event.id, ++handedOut);
    if (delivered.size > REMEMBERED_DELIVERIES) delivered.delete(delivered.keys().next().value!);
    return undefined;
  };

  return {
    listen(listener) {
      listeners.set(listener, handedOut);
      return () => void listeners.delete(listener);
    },
    // Sliced, and awaited by the reader: the next event starts only once this one reached every listener, so each
    // listener still sees the events in log order.
    async deliver(event, running) {
      const first = firstCopy(event);
      const all = [...listeners];
      for (let i = 0; i < all.length; i++) {
        if (i > 0 && i % DELIVERY_SLICE === 0) {
          await nextTurn();
          if (!running()) return;
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
    },
    gap(error) {
      for (const listener of [...listeners.keys()]) listener.onGap(error);
    },
    handedOut: (deliveryId) => delivered.has(deliveryId),
    clear: () => listeners.clear(),
  };
}
