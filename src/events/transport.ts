// Where the bus's messages travel: in process, or over Redis pub/sub so every
// replica sees every event once. Both deliver a topic's messages to its
// listeners; the Redis one subscribes a channel while the topic has listeners.
import type { RedisClient } from '../redis/index.js';
import type { Logger } from '../logger.js';

/** Publish and listen on named topics, in this process or through Redis pub/sub across replicas: messages of the moment, not kept. */
export interface Transport {
  /** Resolves once handed to the backend; rejects when Redis refuses it (the caller can then answer 503). */
  publish(topic: string, payload: unknown): Promise<void>;
  /** Calls `listener` with each payload published on `topic`; returns the way to stop. */
  listen(topic: string, listener: (payload: unknown) => void): () => void;
  /** Drops every listener (and, for Redis, our message handler on the borrowed connection). */
  close(): void;
}

class Listeners {
  private readonly byTopic = new Map<string, Set<(payload: unknown) => void>>();

  /** True when `topic` had no listener before. */
  add(topic: string, listener: (payload: unknown) => void): boolean {
    const set = this.byTopic.get(topic);
    if (set) return (void set.add(listener), false);
    this.byTopic.set(topic, new Set([listener]));
    return true;
  }

  /** True when `topic` has no listener left. */
  remove(topic: string, listener: (payload: unknown) => void): boolean {
    const set = this.byTopic.get(topic);
    if (!set?.delete(listener) || set.size > 0) return false;
    this.byTopic.delete(topic);
    return true;
  }

  deliver(topic: string, payload: unknown): void {
    for (const listener of [...(this.byTopic.get(topic) ?? [])]) listener(payload);
  }

  topics(): string[] {
    return [...this.byTopic.keys()];
  }

  clear(): void {
    this.byTopic.clear();
  }
}

/** A Transport within this process, for a single replica: a message published reaches the topic's listeners at once. */
export function memoryTransport(): Transport {
  const listeners = new Listeners();
  return {
    async publish(topic, payload) {
      listeners.deliver(topic, payload);
    },
    listen(topic, listener) {
      listeners.add(topic, listener);
      return () => void listeners.remove(topic, listener);
    },
    close: () => listeners.clear(),
  };
}

/**
 * Channels are `<channelPrefix><topic>`, so deployments and test runs sharing
 * one Redis never see each other's events. The connections are borrowed from
 * their owner (src/redis), which closes them.
 */
export function redisTransport(args: { publisher: RedisClient; subscriber: RedisClient; channelPrefix: string; log: Logger }): Transport {
  const { publisher, subscriber, channelPrefix, log } = args;
  const listeners = new Listeners();
  const failed = (op: string, topic: string) => (err: unknown) =>
    log.warn('redis pub/sub operation failed', { op, topic, error: err instanceof Error ? err.message : String(err) });

  const onMessage = (channel: string, message: string) => {
    if (!channel.startsWith(channelPrefix)) return;
    const topic = channel.slice(channelPrefix.length);
    let payload: unknown;
    try {
      payload = JSON.parse(message);
    } catch (err) {
      // Someone else published garbage on our channel: drop it, never throw inside ioredis.
      return failed('deliver', topic)(err);
    }
    listeners.deliver(topic, payload);
  };
  subscriber.on('message', onMessage);

  return {
    async publish(topic, payload) {
      await publisher.publish(channelPrefix + topic, JSON.stringify(payload));
    },
    listen(topic, listener) {
      // The subscriber queues SUBSCRIBE while reconnecting and re-subscribes after a restart.
      if (listeners.add(topic, listener)) subscriber.subscribe(channelPrefix + topic).catch(failed('subscribe', topic));
      return () => {
        if (!listeners.remove(topic, listener) || subscriber.status === 'end') return;
        subscriber.unsubscribe(channelPrefix + topic).catch(failed('unsubscribe', topic));
      };
    },
    close() {
      subscriber.off('message', onMessage);
      const channels = listeners.topics().map((t) => channelPrefix + t);
      listeners.clear();
      if (channels.length > 0 && subscriber.status !== 'end') subscriber.unsubscribe(...channels).catch(failed('unsubscribe', '*'));
    },
  };
}
