// What every stream of the bus shares: whether the bus is closed, and the way to end every stream still running
// when it closes.
import { ClosedError, InternalError } from '../errors/internal-error.js';

/**
 * Ends a stream whose consumer fell more than its buffer behind: the stream fails rather than let events pile up in memory or skip some
 * silently.
 */
export class SubscriberTooSlowError extends InternalError {
  override readonly name = 'SubscriberTooSlowError';
  readonly code = 'SUBSCRIBER_TOO_SLOW';
}

/** Whether the event bus is open, and the stop of every stream it runs, so closing the bus ends them all. */
export interface BusLifecycle {
  readonly closed: boolean;
  /** Throws once the bus is closed: no new stream, no publish. */
  ensureOpen(): void;
  /** Registers a running stream's stop; returns the way to unregister it. */
  track(end: () => void): () => void;
  /** Marks the bus closed and ends every running stream; false when it was closed already. */
  close(): boolean;
}

/** A new, open lifecycle with no stream running. */
export function busLifecycle(): BusLifecycle {
  // The stop function of every running stream, so close() can end them all.
  const running = new Set<() => void>();
  let closed = false;
  return {
    get closed() {
      return closed;
    },
    ensureOpen() {
      if (closed) throw new ClosedError('event bus is closed');
    },
    track(end) {
      running.add(end);
      return () => void running.delete(end);
    },
    close() {
      if (closed) return false;
      closed = true;
      for (const end of [...running]) end();
      return true;
    },
  };
}
