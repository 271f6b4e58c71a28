// A stream of one transport topic (resource changes, in process or over Redis pub/sub), as a repeater
// (@repeaterjs/repeater, as yoga's own pub/sub): lazy until the first next(), ended by return()/throw(). A
// subscriber that stops reading ends with SubscriberTooSlowError past `maxBuffered` undelivered messages.
import { Repeater } from '@repeaterjs/repeater';
import type { BusLifecycle } from './bus-lifecycle.js';
import { SubscriberTooSlowError } from './bus-lifecycle.js';
import type { EventStream } from './event-stream.js';
import type { Transport } from './transport.js';

/**
 * A stream of the messages published on one topic of the transport, from now on (no replay). Ends with SubscriberTooSlowError when its
 * reader falls `maxBuffered` behind, and when the bus closes.
 */
export function topicStream<T>(transport: Transport, topic: string, maxBuffered: number, life: BusLifecycle): EventStream<T> {
  life.ensureOpen();
  return new Repeater<T>(async (push, stop) => {
    if (life.closed) return stop();
    const untrack = life.track(() => stop());
    // Messages pushed and not yet taken by the consumer (no repeater buffer: with one, throw() would not end the stream).
    let backlog = 0;
    const unlisten = transport.listen(topic, (payload) => {
      if (backlog >= maxBuffered) return stop(new SubscriberTooSlowError(`more than ${maxBuffered} undelivered events`));
      backlog += 1;
      // A push settles once the consumer asks for more; throw() on the stream rejects it: end with that error.
      push(payload as T).then(
        () => (backlog -= 1),
        (err: unknown) => stop(err),
      );
    });
    try {
      await stop;
    } finally {
      unlisten();
      untrack();
    }
  });
}
