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
//
// The parts: reading the log (src/events/tailer.ts), the fan-out by resource (resource-routing.ts), a
// subscriber's replay and live events (log-stream.ts, resume: resume-check.ts), its de-duplication
// (stream-cursor.ts), and the pub/sub topics (topic-stream.ts).
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
import type { StreamId } from './stream-id.js';
import { startTailer } from './tailer.js';
import { logLag, type LogLag } from './lag.js';
import { memoryTransport, redisTransport, type Transport } from './transport.js';
import type { EventStream } from './event-stream.js';
import { busLifecycle } from './bus-lifecycle.js';
import { logStream, type LogStreamContext } from './log-stream.js';
import { resourceKey, resourceRouting } from './resource-routing.js';
import { checkResumable } from './resume-check.js';
import { topicStream } from './topic-stream.js';

export { SubscriberTooSlowError } from './bus-lifecycle.js';
export { resourceKey } from './resource-routing.js';
export { ResumeTooOldError } from './resume-check.js';

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

/**
 * The durable event log and its live fan-out: append events once, read them in order from any position, follow
 * them live on every replica.
 */
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
  subscribeResourceEvents(type: ResourceKind, reference: string, merchantId?: string): EventStream<LoggedPaymentEvent>;
  /** Calls `listener` with every event this replica reads from the log; returns the way to stop. */
  onLoggedEvent(listener: (event: LoggedPaymentEvent) => void): () => void;
  /**
   * Calls `listener` with every event this replica appended (once it is stored; not a duplicate an append-once
   * refused): each event reaches the listeners of one replica only, the one that accepted it. Returns the way to stop.
   */
  onAppendedEvent(listener: (event: LoggedPaymentEvent) => void): () => void;
  /** The log itself, for history queries. */
  readonly log: EventLog;
  /** How far this replica's reading of the log is behind its head (the lag metrics). */
  lag(): Promise<LogLag>;
  publishResourceChanged(change: ResourceChange): Promise<void>;
  subscribeResourceChanged(type: ResourceKind, reference: string): EventStream<ResourceChange>;
  /** Ends every stream handed out and unsubscribes. The Redis connections stay open: their owner closes them. */
  close(): Promise<void>;
}

interface EventBusOptions {
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

const DEFAULT_MAX_BUFFERED_EVENTS = 1000;

/** The durable log the bus appends to and reads: a Redis Stream, or in memory without Redis. */
function openEventLog(options: EventBusOptions, redis: GatewayRedis | null, log: Logger, retentionMs: number): EventLog {
  if (!redis) return memoryEventLog({ retentionMs, maxEntries: options.memoryLogEntries, persistence: options.memoryLogPersistence });
  return redisEventLog({
    commands: redis.commands,
    blocking: redis.blocking('events-log'),
    key: redis.key('events', 'log'),
    durable: redis.durable,
    retentionMs,
    logger: log,
  });
}

/**
 * The bus over Redis (with `redis`) or over a bounded in-memory log; starts the reader that hands events to this
 * replica's subscribers.
 */
export async function createEventBus(options: EventBusOptions = {}): Promise<EventBus> {
  const log = options.log ?? silentLogger;
  const maxBuffered = options.maxBuffered ?? DEFAULT_MAX_BUFFERED_EVENTS;
  const redis = options.redis ?? null;
  const transport: Transport = redis
    ? redisTransport({ publisher: redis.publisher, subscriber: redis.subscriber, channelPrefix: `${redis.key('events')}:`, log })
    : memoryTransport();
  const retentionMs = options.retentionMs ?? DEFAULT_EVENT_RETENTION_MS;
  const eventLog = openEventLog(options, redis, log, retentionMs);
  const tailer = await startTailer({ log: eventLog, logger: log, blockMs: options.tailBlockMs });
  const life = busLifecycle();
  const streams: LogStreamContext = { eventLog, tailer, maxBuffered, life };
  const listenToResource = resourceRouting(tailer);
  const appended = new Set<(event: LoggedPaymentEvent) => void>();
  const tellAppended = (event: LoggedPaymentEvent) => {
    for (const listener of appended) {
      try {
        listener(event);
      } catch (err) {
        log.warn('an appended-event listener failed', { error: err });
      }
    }
    return event;
  };

  return {
    mode: redis ? 'redis' : 'memory',
    log: eventLog,
    lag: () => logLag(eventLog, tailer.position),
    async publishPaymentEvent(event) {
      life.ensureOpen();
      return tellAppended(await eventLog.append(event));
    },
    async publishPaymentEventOnce(event, ttlMs) {
      life.ensureOpen();
      // The gateway's one notion of "this delivery was seen" (the webhook receiver's acceptIntoLog).
      const result = await eventLog.appendOnce(event, redis ? redis.key('webhook-delivery', event.id) : event.id, ttlMs);
      if (!result.duplicate) tellAppended(result.event);
      return result;
    },
    subscribePaymentEvents({ after = null, kinds, failureAs } = {}) {
      return logStream(streams, { after, wanted: kinds ? (event) => kinds.has(event.kind) : () => true, failureAs });
    },
    checkResumable: (after, generation = null) => checkResumable(eventLog, retentionMs, after, generation),
    subscribeResourceEvents(type, reference, merchantId) {
      const key = resourceKey(type, reference);
      return logStream(streams, {
        after: null,
        // Platform mode: only the merchant's own events about it.
        wanted: (e) => e.resourceType === type && e.reference === reference && (merchantId === undefined || e.merchantId === merchantId),
        listen: (listener) => listenToResource(key, listener),
      });
    },
    onLoggedEvent(listener) {
      return tailer.listen({ onEvent: listener, onGap: () => {} });
    },
    onAppendedEvent(listener) {
      appended.add(listener);
      return () => void appended.delete(listener);
    },
    async publishResourceChanged(change) {
      life.ensureOpen();
      await transport.publish(`resourceChanged:${resourceKey(change.type, change.reference)}`, change);
    },
    subscribeResourceChanged(type, reference) {
      return topicStream<ResourceChange>(transport, `resourceChanged:${resourceKey(type, reference)}`, maxBuffered, life);
    },
    async close() {
      if (!life.close()) return;
      // Unsubscribes every channel still held; the streams' own teardowns then find nothing left to do.
      transport.close();
      await tailer.stop();
    },
  };
}
