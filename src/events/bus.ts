// The event bus behind GraphQL subscriptions: pub/sub only, with typed topics
//   paymentEvent                          -> PaymentEventRecord
//   resourceChanged:<type>:<reference>    -> ResourceChange
// in process, or over Redis (connections borrowed from src/redis) so every
// replica sees every event once.
//
// Subscriptions are repeaters (@repeaterjs/repeater, as yoga's own pub/sub):
// lazy until the first next(), and return()/throw() end them and unsubscribe
// as every GraphQL server expects. A subscriber that stops reading does not
// grow memory without bound: past `maxBuffered` undelivered events its stream
// ends with an error (the client resubscribes and reads the current state)
// rather than silently skipping events.
import { Repeater } from '@repeaterjs/repeater';
import type { PaymentEventRecord } from './payment-event.js';
import type { ResourceKind } from '../upstream/types.js';
import type { GatewayRedis } from '../redis/connections.js';
import { silentLogger, type Logger } from '../logger.js';
import { memoryTransport, redisTransport, type Transport } from './transport.js';

/** A resource's new state. The GraphQL schema defines the concrete resource shapes. */
export interface ResourceChange {
  type: ResourceKind;
  reference: string;
  status: string;
  resource: unknown;
}

/** An event stream whose return() always exists (ends the subscription). */
export type EventStream<T> = AsyncIterableIterator<T> & { return(): Promise<IteratorResult<T>> };

export interface EventBus {
  readonly mode: 'memory' | 'redis';
  /** Resolves once the event is handed to the backend; rejects when Redis refuses it. */
  publishPaymentEvent(event: PaymentEventRecord): Promise<void>;
  subscribePaymentEvents(): EventStream<PaymentEventRecord>;
  publishResourceChanged(change: ResourceChange): Promise<void>;
  subscribeResourceChanged(type: ResourceKind, reference: string): EventStream<ResourceChange>;
  /** Ends every stream handed out and unsubscribes. The Redis connections stay open: their owner closes them. */
  close(): Promise<void>;
}

export interface EventBusOptions {
  /** Redis connections (from connectRedis); without them the bus is in-process. */
  redis?: GatewayRedis | null;
  log?: Logger;
  /** Undelivered events one subscriber may accumulate before its stream ends. Default 1000. */
  maxBuffered?: number;
}

export const DEFAULT_MAX_BUFFERED_EVENTS = 1000;

export class SubscriberTooSlowError extends Error {
  override readonly name = 'SubscriberTooSlowError';
}

export async function createEventBus(options: EventBusOptions = {}): Promise<EventBus> {
  const log = options.log ?? silentLogger;
  const maxBuffered = options.maxBuffered ?? DEFAULT_MAX_BUFFERED_EVENTS;
  const redis = options.redis ?? null;
  const transport: Transport = redis
    ? redisTransport({ publisher: redis.publisher, subscriber: redis.subscriber, channelPrefix: `${redis.key('events')}:`, log })
    : memoryTransport();

  // The stop function of every running stream, so close() can end them all.
  const running = new Set<() => void>();
  let closed = false;
  const ensureOpen = () => {
    if (closed) throw new Error('event bus is closed');
  };

  const stream = <T>(topic: string): EventStream<T> => {
    ensureOpen();
    return new Repeater<T>(async (push, stop) => {
      if (closed) return stop();
      const end = () => stop();
      running.add(end);
      // Events pushed and not yet taken by the consumer (no repeater buffer: with one, throw() would not end the stream).
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
        running.delete(end);
      }
    });
  };

  return {
    mode: redis ? 'redis' : 'memory',
    async publishPaymentEvent(event) {
      ensureOpen();
      await transport.publish('paymentEvent', event);
    },
    subscribePaymentEvents() {
      return stream<PaymentEventRecord>('paymentEvent');
    },
    async publishResourceChanged(change) {
      ensureOpen();
      await transport.publish(`resourceChanged:${resourceKey(change.type, change.reference)}`, change);
    },
    subscribeResourceChanged(type, reference) {
      return stream<ResourceChange>(`resourceChanged:${resourceKey(type, reference)}`);
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const end of [...running]) end();
      // Unsubscribes every channel still held; the streams' own teardowns then find nothing left to do.
      transport.close();
    },
  };
}

export function resourceKey(type: ResourceKind, reference: string): string {
  return `${type}:${reference}`;
}
