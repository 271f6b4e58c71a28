// The event bus behind GraphQL subscriptions, with typed topics:
//   payment events      -> LoggedPaymentEvent, from the durable event log
//                          (src/events/log.ts): appended before a webhook is
//                          answered, read back in order by every replica's
//                          tailer, replayable after a given id;
//   resourceChanged     -> ResourceChange, a fresh fetch of one resource, in
//                          process or over Redis pub/sub: a fast path only, the
//                          log behind it is what makes delivery complete.
//
// Subscriptions are repeaters (@repeaterjs/repeater, as yoga's own pub/sub):
// lazy until the first next(), and return()/throw() end them and unsubscribe
// as every GraphQL server expects. A subscriber that stops reading does not
// grow memory without bound: past `maxBuffered` undelivered events its stream
// ends with an error (the client resubscribes with the last id it received)
// rather than silently skipping events.
import { Repeater } from '@repeaterjs/repeater';
import type { LoggedPaymentEvent, PaymentEventRecord } from './payment-event.js';
import type { ResourceKind } from '../upstream/types.js';
import type { GatewayRedis } from '../redis/connections.js';
import { silentLogger, type Logger } from '../logger.js';
import {
  DEFAULT_EVENT_RETENTION_MS,
  memoryEventLog,
  redisEventLog,
  type AppendOnceResult,
  type EventLog,
  type MemoryLogPersistence,
} from './log.js';
import { compareStreamIds, parseStreamId, type StreamId } from './stream-id.js';
import { startTailer, type LogTailer, type TailListener } from './tailer.js';
import { logLag, type LogLag } from './lag.js';
import { memoryTransport, redisTransport, type Transport } from './transport.js';
import { createEventStream, type EventStream } from './event-stream.js';

/** A resource's new state. The GraphQL schema defines the concrete resource shapes. */
export interface ResourceChange {
  type: ResourceKind;
  reference: string;
  status: string;
  resource: unknown;
  /** The log id of the event whose refresh this is, when it is one (lets watchers skip a refresh of their own). */
  cause?: string;
}

/** An event stream whose return() always exists (ends the subscription). */
export type { EventStream };

export interface EventBus {
  readonly mode: 'memory' | 'redis';
  /** Appends the event to the log; resolves once it is stored (rejects when Redis refuses it). */
  publishPaymentEvent(event: PaymentEventRecord): Promise<LoggedPaymentEvent>;
  /** Appends the event unless its delivery id was seen within `ttlMs` (atomically, across replicas). */
  publishPaymentEventOnce(event: PaymentEventRecord, ttlMs: number): Promise<AppendOnceResult>;
  /**
   * Every event appended after `after` (a log id; without it: from now on), in log order, each once: first
   * those already in the log, then live ones as this replica reads them. Check `after` with checkResumable first.
   */
  subscribePaymentEvents<F = never>(options?: {
    after?: StreamId | null;
    kinds?: ReadonlySet<string> | null;
    /** The stream's failure (a gap, a subscriber too slow...) as its last value instead of a rejected next(). */
    failureAs?: (error: unknown) => F;
  }): EventStream<LoggedPaymentEvent | F>;
  /**
   * Rejects with ResumeTooOldError when events after `after` may be gone from the log (trimmed, or lost with
   * Redis: `generation`, the one the id was issued in, is not the log's any more; null for an id from before
   * generations).
   */
  checkResumable(after: StreamId, generation?: string | null): Promise<void>;
  /** Live events about one resource (not counted as paymentEvents subscriptions). */
  subscribeResourceEvents(type: ResourceKind, reference: string): EventStream<LoggedPaymentEvent>;
  /** Calls `listener` with every event this replica reads from the log; returns the way to stop. */
  onLoggedEvent(listener: (event: LoggedPaymentEvent) => void): () => void;
  /** The log itself, for history queries. */
  readonly log: EventLog;
  /** How far this replica's reading of the log is behind its head (the lag metrics). */
  lag(): Promise<LogLag>;
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
  /** How long the log keeps events (EVENT_RETENTION_HOURS). Default 72 h. */
  retentionMs?: number;
  /** Cap of the in-memory log (no Redis). Default 10,000 events. */
  memoryLogEntries?: number;
  /** The in-memory log's state across restarts (sandbox mode's data folder). */
  memoryLogPersistence?: MemoryLogPersistence;
  /** Longest wait of one blocking read of the log. Default 2000 ms. */
  tailBlockMs?: number;
}

/** An `after` older than what the log still holds: the client must reload from the `events` query. */
export class ResumeTooOldError extends Error {
  override readonly name = 'ResumeTooOldError';
}

export const DEFAULT_MAX_BUFFERED_EVENTS = 1000;
const REPLAY_BATCH = 200;
/** Delivery ids one resumed stream remembers from its replay, to skip a copy of one (see logStream). */
const REPLAYED_COPIES_REMEMBERED = 1_000;

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
  const retentionMs = options.retentionMs ?? DEFAULT_EVENT_RETENTION_MS;
  const eventLog: EventLog = redis
    ? redisEventLog({
        commands: redis.commands,
        blocking: redis.blocking('events-log'),
        key: redis.key('events', 'log'),
        durable: redis.durable,
        retentionMs,
        logger: log,
      })
    : memoryEventLog({ retentionMs, maxEntries: options.memoryLogEntries, persistence: options.memoryLogPersistence });
  const tailer: LogTailer = await startTailer({ log: eventLog, logger: log, blockMs: options.tailBlockMs });

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

  /**
   * A stream of logged events: replay after `after` from the log, then live from the tailer. Live events
   * arriving during the replay wait in a buffer; ids at or before the last one delivered are skipped, so
   * nothing is missed or repeated wherever the replay and the tailer stand relative to each other.
   */
  // Resource watchers (one per `*Updated` subscription, thousands per replica) are found by the event's
  // resource, not by asking each of them about every event: one routing listener on the tailer.
  const resourceListeners = new Map<string, Set<TailListener>>();
  let routing: (() => void) | null = null;
  const listenToResource = (key: string, listener: TailListener): (() => void) => {
    routing ??= tailer.listen({
      onEvent(event, copy) {
        if (!event.resourceType || !event.reference) return;
        const listeners = resourceListeners.get(resourceKey(event.resourceType, event.reference));
        if (listeners) for (const one of [...listeners]) one.onEvent(event, copy);
      },
      onGap(error) {
        for (const listeners of [...resourceListeners.values()]) for (const one of [...listeners]) one.onGap(error);
      },
    });
    let listeners = resourceListeners.get(key);
    if (!listeners) resourceListeners.set(key, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) resourceListeners.delete(key);
    };
  };

  const logStream = <F = never>(
    after: StreamId | null,
    wanted: (event: LoggedPaymentEvent) => boolean,
    listen: (listener: TailListener) => () => void = (listener) => tailer.listen(listener),
    failureAs?: (error: unknown) => F,
  ): EventStream<LoggedPaymentEvent | F> => {
    ensureOpen();
    return createEventStream<LoggedPaymentEvent | F>(
      async (sink) => {
        if (closed) return sink.stop();
        const end = () => sink.stop();
        running.add(end);
        let last = after ?? tailer.position;
        // Ids compare only within one generation of the log: a new log's may start below the last one seen.
        let lastGeneration = after === null ? tailer.generation : undefined;
        let replaying = after !== null;
        const held: Array<[LoggedPaymentEvent, boolean]> = [];
        // Delivery ids this replay read from the log that the tailer had handed out: a copy of one logged again
        // (see tailer.ts), whether read later in the replay or passed on by the tailer, is one this stream has.
        const replayedHandedOut = new Set<string>();
        const deliver = (event: LoggedPaymentEvent, copy: boolean) => {
          if (copy && replayedHandedOut.has(event.id)) return;
          const sameLog = lastGeneration === undefined || (event.generation ?? '') === (lastGeneration ?? '');
          if (sameLog && compareStreamIds(event.seq, last) <= 0) return;
          last = event.seq;
          lastGeneration = event.generation ?? '';
          if (!wanted(event)) return;
          if (sink.unread >= maxBuffered) return sink.stop(new SubscriberTooSlowError(`more than ${maxBuffered} undelivered events`));
          sink.push(event);
        };
        const unlisten = listen({
          onEvent(event, copy) {
            if (!replaying) return deliver(event, copy);
            if (held.length >= maxBuffered)
              return sink.stop(new SubscriberTooSlowError(`more than ${maxBuffered} events arrived during the replay`));
            held.push([event, copy]);
          },
          onGap: (error) => sink.stop(error),
        });
        try {
          while (replaying && !sink.stopped) {
            const batch = await eventLog.ascending(last, REPLAY_BATCH);
            if (batch.length === 0) break;
            for (const event of batch) {
              if (sink.stopped) break;
              last = event.seq;
              lastGeneration = event.generation ?? '';
              if (tailer.handedOut(event.id)) {
                if (replayedHandedOut.has(event.id)) continue; // a copy logged again, this replay's second
                replayedHandedOut.add(event.id);
                // Copies follow a loss within moments: the latest ones are enough, and a long replay keeps no more.
                if (replayedHandedOut.size > REPLAYED_COPIES_REMEMBERED) replayedHandedOut.delete(replayedHandedOut.values().next().value!);
              }
              if (!wanted(event)) continue;
              // One at a time: a replay of thousands waits for the client instead of piling up.
              sink.push(event);
              await sink.drained();
            }
          }
          replaying = false;
          for (const [event, copy] of held.splice(0)) deliver(event, copy);
          await sink.ended;
        } catch (err) {
          sink.stop(err);
        } finally {
          unlisten();
          running.delete(end);
        }
      },
      { failureAs },
    );
  };

  return {
    mode: redis ? 'redis' : 'memory',
    log: eventLog,
    lag: () => logLag(eventLog, tailer.position),
    async publishPaymentEvent(event) {
      ensureOpen();
      return eventLog.append(event);
    },
    async publishPaymentEventOnce(event, ttlMs) {
      ensureOpen();
      // The gateway's one notion of "this delivery was seen" (the webhook receiver's acceptIntoLog).
      return eventLog.appendOnce(event, redis ? redis.key('webhook-delivery', event.id) : event.id, ttlMs);
    },
    subscribePaymentEvents(options = {}) {
      const kinds = options.kinds;
      return logStream(options.after ?? null, kinds ? (event) => kinds.has(event.kind) : () => true, undefined, options.failureAs);
    },
    async checkResumable(after, generation = null) {
      // Another log than the id's (Redis restarted empty): its ids say nothing about what the client missed.
      if (((await eventLog.generation()) || null) !== generation) {
        throw new ResumeTooOldError('this id is from an event log that was lost');
      }
      const trimmed = await eventLog.trimmedThrough();
      const [ms] = parseStreamId(after) ?? [0];
      if (compareStreamIds(trimmed, after) > 0 || ms < Date.now() - retentionMs) {
        throw new ResumeTooOldError('events after this id are no longer in the log');
      }
      // An id the log never reached: the log was lost (a Redis restarted empty) or the id is from elsewhere.
      if (compareStreamIds(after, await eventLog.lastId()) > 0) throw new ResumeTooOldError('this id is not in the event log');
    },
    subscribeResourceEvents(type, reference) {
      return logStream(
        null,
        (e) => e.resourceType === type && e.reference === reference,
        (listener) => listenToResource(resourceKey(type, reference), listener),
      );
    },
    onLoggedEvent(listener) {
      return tailer.listen({ onEvent: listener, onGap: () => {} });
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
      await tailer.stop();
    },
  };
}

export function resourceKey(type: ResourceKind, reference: string): string {
  return `${type}:${reference}`;
}
