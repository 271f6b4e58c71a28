// The event bus behind GraphQL subscriptions.
//
// Built on yoga's createPubSub with typed topics:
//   paymentEvent                          -> PaymentEventRecord
//   resourceChanged:<type>:<reference>    -> ResourceChange
// (the second uses yoga's "topic with dynamic id": publish(topic, id, payload)
// and subscribe(topic, id) address `${topic}:${id}`).
//
// Without Redis the event target is in-process. With Redis it is
// @graphql-yoga/redis-event-target over two ioredis connections (a connection
// in subscriber mode cannot publish), so every replica sees every event once.
import { setMaxListeners } from 'node:events';
import { createPubSub, type PubSub } from 'graphql-yoga';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { Redis } from 'ioredis';
import {
  DEFAULT_DEDUPE_TTL_MS,
  memoryDeduplicator,
  redisDeduplicator,
  type DeliveryDeduplicator,
} from '../webhooks/dedupe.js';
import type { PaymentEventRecord, ResourceType } from '../webhooks/event.js';
import { silentLogger, type Logger } from '../logger.js';
import { namespacedRedisClient, type RedisTransport } from './redis-transport.js';

/** A resource's new state. The GraphQL schema defines the concrete resource shapes. */
export interface ResourceChange {
  type: ResourceType;
  reference: string;
  status: string;
  resource: unknown;
}

export type BusTopics = {
  paymentEvent: [event: PaymentEventRecord];
  resourceChanged: [key: string, change: ResourceChange];
};

/** An event iterator whose return() always exists (ends the subscription). */
export type EventStream<T> = AsyncIterableIterator<T> & { return(): Promise<IteratorResult<T>> };

export interface EventBus {
  readonly mode: 'memory' | 'redis';
  /** The underlying typed pub/sub. Iterators taken from it directly are not ended by close(). */
  readonly pubsub: PubSub<BusTopics>;
  /** Webhook delivery deduplicator sharing the bus's backend (Redis or memory). */
  readonly dedupe: DeliveryDeduplicator;
  /** Resolves once the event is handed to the backend; rejects when Redis refuses it. */
  publishPaymentEvent(event: PaymentEventRecord): Promise<void>;
  subscribePaymentEvents(): EventStream<PaymentEventRecord>;
  publishResourceChanged(change: ResourceChange): Promise<void>;
  subscribeResourceChanged(type: ResourceType, reference: string): EventStream<ResourceChange>;
  /** Ends every iterator handed out by the subscribe* methods, then quits the Redis connections. */
  close(): Promise<void>;
}

export interface EventBusOptions {
  redisUrl?: string | null;
  /**
   * Prefix of Redis channels and keys, so that two deployments (or test runs)
   * sharing one Redis never see each other's events. Default 'momo-gateway'.
   */
  namespace?: string;
  dedupeTtlMs?: number;
  log?: Logger;
}

export async function createEventBus(options: EventBusOptions = {}): Promise<EventBus> {
  const log = options.log ?? silentLogger;
  const ttlMs = options.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS;
  if (!options.redisUrl) {
    // Every subscriber is one listener on one topic; thousands on one topic are normal here.
    const eventTarget = new EventTarget();
    setMaxListeners(0, eventTarget);
    const pubsub = createPubSub<BusTopics>({ eventTarget: eventTarget as never });
    return assembleBus({
      mode: 'memory',
      pubsub,
      dedupe: memoryDeduplicator({ ttlMs }),
      // In memory, publish is synchronous and cannot fail.
      publishRaw: async (routingKey, ...args) => pubsub.publish(routingKey, ...args),
      shutdown: async () => {},
    });
  }

  const namespace = options.namespace ?? 'momo-gateway';
  const [publishClient, subscribeClient] = await connectPair(options.redisUrl, log);
  const transport: RedisTransport = namespacedRedisClient({
    publishClient,
    subscribeClient,
    channelPrefix: `${namespace}:events:`,
    log,
  });
  const pubsub = createPubSub<BusTopics>({
    // The adapter offers the four methods the library uses; see redis-transport.ts for why it exists.
    eventTarget: createRedisEventTarget({ publishClient: transport.asClient, subscribeClient: transport.asClient }),
  });
  return assembleBus({
    mode: 'redis',
    pubsub,
    dedupe: redisDeduplicator(publishClient, { ttlMs, prefix: `${namespace}:webhook-delivery:` }),
    // Same channel name and serialization as the event target's dispatchEvent,
    // but awaited, so a failed publish reaches the caller (the webhook answers 503).
    publishRaw: (routingKey, ...args) => {
      const topic = args.length === 2 ? `${routingKey}:${String(args[0])}` : routingKey;
      return transport.publish(topic, JSON.stringify(args.length === 2 ? args[1] : args[0]));
    },
    shutdown: async () => {
      transport.detach();
      await Promise.allSettled([quit(publishClient), quit(subscribeClient)]);
    },
  });
}

type PublishRaw = <K extends keyof BusTopics>(routingKey: K, ...args: BusTopics[K]) => Promise<void>;

function assembleBus(parts: {
  mode: EventBus['mode'];
  pubsub: PubSub<BusTopics>;
  dedupe: DeliveryDeduplicator;
  publishRaw: PublishRaw;
  shutdown: () => Promise<void>;
}): EventBus {
  const { pubsub, dedupe, publishRaw } = parts;
  // Each open iterator's ender; an iterator removes itself when it finishes,
  // so a long-running server does not accumulate finished subscriptions.
  const open = new Set<() => Promise<unknown>>();
  let closed = false;

  const ensureOpen = () => {
    if (closed) throw new Error('event bus is closed');
  };

  const track = <T>(inner: AsyncIterableIterator<T>): EventStream<T> => {
    const end = async () => {
      open.delete(end);
      return inner.return?.();
    };
    open.add(end);
    const iterator: EventStream<T> = {
      async next() {
        const result = await inner.next();
        if (result.done) open.delete(end);
        return result;
      },
      async return() {
        await end();
        return { done: true, value: undefined };
      },
      async throw(error?: unknown) {
        await end();
        throw error;
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  };

  return {
    mode: parts.mode,
    pubsub,
    dedupe,
    async publishPaymentEvent(event) {
      ensureOpen();
      await publishRaw('paymentEvent', event);
    },
    subscribePaymentEvents() {
      ensureOpen();
      return track(pubsub.subscribe('paymentEvent'));
    },
    async publishResourceChanged(change) {
      ensureOpen();
      await publishRaw('resourceChanged', resourceKey(change.type, change.reference), change);
    },
    subscribeResourceChanged(type, reference) {
      ensureOpen();
      return track(pubsub.subscribe('resourceChanged', resourceKey(type, reference)));
    },
    async close() {
      if (closed) return;
      closed = true;
      // End iterators first: their teardown unsubscribes, and must run before the connections go.
      await Promise.allSettled([...open].map((end) => end()));
      await dedupe.close();
      await parts.shutdown();
    },
  };
}

export function resourceKey(type: ResourceType, reference: string): string {
  return `${type}:${reference}`;
}

/** Two connections, both verified before the bus is handed out, so a wrong REDIS_URL fails at start. */
async function connectPair(url: string, log: Logger): Promise<[Redis, Redis]> {
  const make = (role: string) => {
    const client = new Redis(url, { lazyConnect: true, connectionName: `momo-gateway-${role}` });
    // Without a listener ioredis prints every connection error itself; route them through our logger
    // (the message only — never the URL, which may hold a password).
    client.on('error', (err: Error) => log.warn('redis connection error', { role, error: err.message }));
    return client;
  };
  const clients: [Redis, Redis] = [make('publish'), make('subscribe')];
  try {
    await Promise.all(clients.map((c) => c.connect()));
    return clients;
  } catch (err) {
    clients.forEach((c) => c.disconnect());
    throw new Error(`cannot connect to Redis: ${(err as Error).message}`);
  }
}

async function quit(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}
