// The stream each subscriber of the event log reads (src/events/event-stream.ts): lazy, in order, what was queued
// before a stop is still read, a failure comes after the last value (as an error, or as a value with failureAs),
// and return()/throw() end it at once and let its producer clean up.
import { describe, expect, it } from 'vitest';
import { createEventStream, type StreamSink } from '../../src/events/event-stream.js';

/** A stream whose sink the test drives; `cleaned` turns true once the producer saw the end. */
function driven<T>(options: { failureAs?: (error: unknown) => T } = {}) {
  let sink: StreamSink<T> | null = null;
  let cleaned = false;
  const stream = createEventStream<T>(async (s) => {
    sink = s;
    await s.ended;
    cleaned = true;
  }, options);
  return {
    stream,
    get sink() {
      return sink;
    },
    get cleaned() {
      return cleaned;
    },
  };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the event stream', () => {
  it('starts on the first next(), before it returns, and hands values over in order', async () => {
    const s = driven<number>();
    expect(s.sink).toBeNull();
    const first = s.stream.next();
    expect(s.sink).not.toBeNull();
    s.sink!.push(1); // to the waiting next()
    s.sink!.push(2); // queued
    s.sink!.push(3);
    expect(s.sink!.unread).toBe(2);
    expect(await first).toEqual({ done: false, value: 1 });
    expect(await s.stream.next()).toEqual({ done: false, value: 2 });
    expect(await s.stream.next()).toEqual({ done: false, value: 3 });
    expect(s.sink!.unread).toBe(0);
  });

  it('after stop(error): what was queued, then the error once, then done; the producer cleans up', async () => {
    const s = driven<string>();
    void s.stream.next().then(() => undefined);
    s.sink!.push('taken');
    s.sink!.push('a');
    s.sink!.push('b');
    s.sink!.stop(new Error('gap'));
    s.sink!.push('ignored');
    expect(await s.stream.next()).toEqual({ done: false, value: 'a' });
    expect(await s.stream.next()).toEqual({ done: false, value: 'b' });
    await expect(s.stream.next()).rejects.toThrow('gap');
    expect(await s.stream.next()).toEqual({ done: true, value: undefined });
    await settle();
    expect(s.cleaned).toBe(true);
  });

  it('with failureAs, the error becomes the last value and the stream then ends normally', async () => {
    const s = driven<string>({ failureAs: (error) => `interrupted: ${(error as Error).message}` });
    const waiting = s.stream.next();
    s.sink!.stop(new Error('too slow'));
    expect(await waiting).toEqual({ done: false, value: 'interrupted: too slow' });
    expect(await s.stream.next()).toEqual({ done: true, value: undefined });
  });

  it('drained() waits until the consumer took every value, and is released by the end', async () => {
    const s = driven<number>();
    void s.stream.next();
    s.sink!.push(1);
    s.sink!.push(2);
    let drained = false;
    const waiting = s.sink!.drained().then(() => (drained = true));
    await settle();
    expect(drained).toBe(false);
    await s.stream.next();
    await waiting;
    expect(drained).toBe(true);
    s.sink!.push(3);
    const again = s.sink!.drained();
    await s.stream.return();
    await again; // would hang if the end did not release it
  });

  it('return() and throw() end it at once, dropping what was queued; throw() rejects with its error', async () => {
    const returned = driven<number>();
    void returned.stream.next();
    returned.sink!.push(1);
    returned.sink!.push(2);
    expect(await returned.stream.return()).toEqual({ done: true, value: undefined });
    expect(await returned.stream.next()).toEqual({ done: true, value: undefined });
    await settle();
    expect(returned.cleaned).toBe(true);

    const thrown = driven<number>();
    void thrown.stream.next();
    await expect(thrown.stream.throw!(new Error('client went away'))).rejects.toThrow('client went away');
    expect(await thrown.stream.next()).toEqual({ done: true, value: undefined });
    await settle();
    expect(thrown.cleaned).toBe(true);
  });

  it('a stream returned before its first next() never starts', async () => {
    const s = driven<number>();
    await s.stream.return();
    expect(await s.stream.next()).toEqual({ done: true, value: undefined });
    expect(s.sink).toBeNull();
  });
});
