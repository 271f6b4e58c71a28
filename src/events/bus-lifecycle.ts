// What every stream of the bus shares: whether the bus is closed, and the way to end every stream still running
// when it closes.
import { ClosedError, InternalError } from '../errors/internal-error.js';

export class SubscriberTooSlowError extends InternalError {
  override readonly name = 'SubscriberTooSlowError';
  readonly code = 'SUBSCRIBER_TOO_SLOW';
}

export interface BusLifecycle {
  readonly closed: boolean;
  /** Throws once the bus is closed: no new stream, no publish. */
  ensureOpen(): void;
  /** Registers a running stream's stop; returns the way to unregister it. */
  track(end: () => void): () => void;
  /** Marks the bus closed and ends every running stream; false when it was closed already. */
  close(): boolean;
}

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
