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

/** What a stream's producer pushes into: values, an end, or an error. The stream's rules are in the comment above. */
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

/** An async iterator of events whose `return()` ends it at once and cleans up, as graphql-ws and SSE expect when a client unsubscribes. */
export type EventStream<T> = AsyncIterableIterator<T> & { return(): Promise<IteratorResult<T>> };

interface Waiter<T> {
  resolve(result: IteratorResult<T>): void;
  reject(error: unknown): void;
}

const DONE = Object.freeze({ done: true, value: undefined }) as IteratorResult<never>;

interface EventStreamOptions<T> {
  /**
   * Turns the error the stream was stopped with into its last value (the stream then ends normally), so a
   * subscriber's layer above needs no wrapping iterator of its own to do it. Without it, next() rejects.
   */
  failureAs?: (error: unknown) => T;
}

/**
 * The values pushed and not yet taken, in order: an array read from a moving head, compacted as it goes.
 * (A class: its methods sit on one prototype, where a fan-out's hot path calls them without a closure each.)
 */
class ValueQueue<T> {
  private values: T[] = [];
  private head = 0;
  constructor(private readonly onEmptied: () => void) {}

  get unread(): number {
    return this.values.length - this.head;
  }

  push(value: T): void {
    this.values.push(value);
  }

  take(): T {
    const value = this.values[this.head]!;
    this.values[this.head] = undefined as T; // the slot no longer holds the value
    this.head += 1;
    if (this.head === this.values.length) {
      this.clear();
      this.onEmptied();
    } else if (this.head > 1024 && this.head * 2 > this.values.length) {
      this.values = this.values.slice(this.head);
      this.head = 0;
    }
    return value;
  }

  clear(): void {
    this.values = [];
    this.head = 0;
  }
}

/** Producers waiting until the consumer took everything (`drained()`), released together. */
function drainSignal() {
  let waiting: Array<() => void> = [];
  return {
    wait: () => new Promise<void>((resolve) => waiting.push(resolve)),
    release() {
      if (waiting.length === 0) return;
      const released = waiting;
      waiting = [];
      for (const resolve of released) resolve();
    },
  };
}

/** The end of a stream: the error it was stopped with, given once (as a value with `failureAs`), then done. */
function streamEnd<T>(options: EventStreamOptions<T>) {
  let failure: { error: unknown } | null = null;
  return {
    fail(error: unknown) {
      failure = { error };
    },
    forget() {
      failure = null;
    },
    /** After the last queued value: the error once (if any), then done. */
    finish(): Promise<IteratorResult<T>> {
      if (!failure) return Promise.resolve(DONE);
      const { error } = failure;
      failure = null;
      if (!options.failureAs) return Promise.reject(error);
      try {
        return Promise.resolve({ done: false, value: options.failureAs(error) });
      } catch (err) {
        return Promise.reject(err);
      }
    },
  };
}

/**
 * Makes an event stream from a producer that `start` sets up with the stream's sink. Values wait in order until read; `return()` and
 * `throw()` end it at once.
 */
export function createEventStream<T>(
  start: (sink: StreamSink<T>) => void | Promise<void>,
  options: EventStreamOptions<T> = {},
): EventStream<T> {
  const drain = drainSignal();
  const queue = new ValueQueue<T>(drain.release);
  const end = streamEnd(options);
  const waiters: Array<Waiter<T>> = [];
  let started = false;
  let stopped = false;
  let markEnded!: () => void;
  const ended = new Promise<void>((resolve) => (markEnded = resolve));

  const stop = (error?: unknown) => {
    if (stopped) return;
    stopped = true;
    if (error !== undefined) end.fail(error);
    // Waiting consumers have nothing queued (a push would have gone to them): they get the end now.
    for (const waiter of waiters.splice(0)) end.finish().then(waiter.resolve, waiter.reject);
    drain.release(); // a producer waiting for the consumer goes on (to clean up) once the stream ended
    markEnded();
  };
  const endNow = () => {
    stop();
    end.forget();
    queue.clear();
    drain.release();
  };

  const sink: StreamSink<T> = {
    push(value) {
      if (stopped) return;
      const waiter = waiters.shift();
      if (waiter) waiter.resolve({ done: false, value });
      else queue.push(value);
    },
    get unread() {
      return queue.unread;
    },
    drained() {
      if (queue.unread === 0 || stopped) return Promise.resolve();
      return drain.wait();
    },
    stop,
    get stopped() {
      return stopped;
    },
    ended,
  };

  const startNow = () => {
    started = true;
    try {
      const running = start(sink);
      if (running) running.catch((err: unknown) => stop(err));
    } catch (err) {
      stop(err);
    }
  };

  const stream: EventStream<T> = {
    next() {
      if (!started) startNow();
      if (queue.unread > 0) return Promise.resolve({ done: false, value: queue.take() });
      if (stopped) return end.finish();
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
