// The stream each subscriber of the event log reads: a queue with one consumer, as light as it can be, because a
// fan-out runs it once per subscriber per event (10,000 times for one webhook to 10,000 subscriptions).
// It replaces a Repeater, whose push (a promise per value, more per pull) was the gateway's costliest JavaScript
// function in a CPU profile of bench/fanout-health.ts; its garbage added to the collections that stall a fan-out.
// Here a pushed value is handed straight to a waiting next(), or queued; nothing else is allocated per value.
//
// The contract is the one the bus's callers and GraphQL servers rely on:
// - lazy: `start` runs on the first next() (synchronously, so a listener is in place before next() returns);
// - values come out in the order pushed; stop() lets the consumer read what is queued, then ends the stream
//   (with the error, if one was given, thrown by the next() after the last value);
// - return() and throw() end it at once (throw() rejects with its error), and `ended` tells `start` to clean up.

export interface StreamSink<T> {
  /** Hands the value to a waiting next() or queues it. Ignored once the stream ended. */
  push(value: T): void;
  /** Values pushed and not yet taken by the consumer. */
  readonly unread: number;
  /** Resolves once every value pushed so far was taken (or the stream ended). */
  drained(): Promise<void>;
  /** Ends the stream after what is queued; with an error, the consumer gets it after the last value. */
  stop(error?: unknown): void;
  readonly stopped: boolean;
  /** Settles when the stream ends, whichever way. */
  readonly ended: Promise<void>;
}

export type EventStream<T> = AsyncIterableIterator<T> & { return(): Promise<IteratorResult<T>> };

interface Waiter<T> {
  resolve(result: IteratorResult<T>): void;
  reject(error: unknown): void;
}

const DONE = Object.freeze({ done: true, value: undefined }) as IteratorResult<never>;

export interface EventStreamOptions<T> {
  /**
   * Turns the error the stream was stopped with into its last value (the stream then ends normally), so a
   * subscriber's layer above needs no wrapping iterator of its own to do it. Without it, next() rejects.
   */
  failureAs?: (error: unknown) => T;
}

export function createEventStream<T>(
  start: (sink: StreamSink<T>) => void | Promise<void>,
  options: EventStreamOptions<T> = {},
): EventStream<T> {
  let queue: T[] = [];
  let head = 0;
  const waiters: Array<Waiter<T>> = [];
  let drainWaiters: Array<() => void> = [];
  let started = false;
  let stopped = false;
  let failure: { error: unknown } | null = null;
  let markEnded!: () => void;
  const ended = new Promise<void>((resolve) => (markEnded = resolve));

  const unread = () => queue.length - head;
  const releaseDrained = () => {
    if (drainWaiters.length === 0) return;
    const waiting = drainWaiters;
    drainWaiters = [];
    for (const resolve of waiting) resolve();
  };
  const take = (): T => {
    const value = queue[head]!;
    queue[head] = undefined as T; // the slot no longer holds the value
    head += 1;
    if (head === queue.length) {
      queue = [];
      head = 0;
      releaseDrained();
    } else if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
    return value;
  };
  /** After the last queued value: the error once (if any), then done. */
  const finish = (): Promise<IteratorResult<T>> => {
    if (failure) {
      const { error } = failure;
      failure = null;
      if (options.failureAs) {
        try {
          return Promise.resolve({ done: false, value: options.failureAs(error) });
        } catch (err) {
          return Promise.reject(err);
        }
      }
      return Promise.reject(error);
    }
    return Promise.resolve(DONE);
  };
  const stop = (error?: unknown) => {
    if (stopped) return;
    stopped = true;
    if (error !== undefined) failure = { error };
    // Waiting consumers have nothing queued (a push would have gone to them): they get the end now.
    for (const waiter of waiters.splice(0)) finish().then(waiter.resolve, waiter.reject);
    releaseDrained(); // a producer waiting for the consumer goes on (to clean up) once the stream ended
    markEnded();
  };
  const endNow = () => {
    stop();
    failure = null;
    queue = [];
    head = 0;
    releaseDrained();
  };

  const sink: StreamSink<T> = {
    push(value) {
      if (stopped) return;
      const waiter = waiters.shift();
      if (waiter) waiter.resolve({ done: false, value });
      else queue.push(value);
    },
    get unread() {
      return unread();
    },
    drained() {
      if (unread() === 0 || stopped) return Promise.resolve();
      return new Promise<void>((resolve) => drainWaiters.push(resolve));
    },
    stop,
    get stopped() {
      return stopped;
    },
    ended,
  };

  const stream: EventStream<T> = {
    next() {
      if (!started) {
        started = true;
        try {
          const running = start(sink);
          if (running) running.catch((err: unknown) => stop(err));
        } catch (err) {
          stop(err);
        }
      }
      if (unread() > 0) return Promise.resolve({ done: false, value: take() });
      if (stopped) return finish();
      return new Promise<IteratorResult<T>>((resolve, reject) => waiters.push({ resolve, reject }));
    },
    return() {
      started = true; // a stream ended before its first pull never starts
      endNow();
      return Promise.resolve(DONE);
    },
    throw(error?: unknown) {
      started = true;
      endNow();
      return Promise.reject(error);
    },
    [Symbol.asyncIterator]() {
      return stream;
    },
  };
  return stream;
}
