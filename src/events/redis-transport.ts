// A thin adapter between @graphql-yoga/redis-event-target and two ioredis
// connections. The library only calls four methods on the clients it is given:
//   on('message', fn), subscribe(channel), unsubscribe(channel), publish(channel, msg)
// and it neither awaits nor catches their promises. Passing the raw clients
// would therefore turn a Redis outage into unhandled rejections, which end a
// Node 20 process. This adapter:
//   - catches and logs those fire-and-forget failures;
//   - prefixes channel names with a namespace, so deployments and test runs
//     sharing one Redis do not receive each other's events;
//   - guards the message listener: a malformed message published by someone
//     else on our channel is logged and dropped, not thrown inside ioredis.
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';

export interface RedisTransport {
  /** What to hand to createRedisEventTarget as both publishClient and subscribeClient. */
  readonly asClient: Redis;
  /** Awaitable publish on the namespaced channel (the typed bus methods use it to surface failures). */
  publish(topic: string, message: string): Promise<void>;
  /** Removes our listeners from the subscriber connection (before it is closed). */
  detach(): void;
}

export function namespacedRedisClient(args: {
  publishClient: Redis;
  subscribeClient: Redis;
  channelPrefix: string;
  log: Logger;
}): RedisTransport {
  const { publishClient, subscribeClient, channelPrefix, log } = args;
  const listeners: Array<(channel: string, message: string) => void> = [];

  const logFailure = (op: string, topic: string) => (err: unknown) => {
    log.warn('redis pub/sub operation failed', { op, topic, error: err instanceof Error ? err.message : String(err) });
  };

  const adapter = {
    on(event: string, listener: (channel: string, message: string) => void) {
      if (event !== 'message') throw new Error(`unsupported event: ${event}`);
      const wrapped = (channel: string, message: string) => {
        if (!channel.startsWith(channelPrefix)) return;
        const topic = channel.slice(channelPrefix.length);
        try {
          listener(topic, message);
        } catch (err) {
          logFailure('deliver', topic)(err);
        }
      };
      listeners.push(wrapped);
      subscribeClient.on('message', wrapped);
      return adapter;
    },
    subscribe(topic: string) {
      return subscribeClient.subscribe(channelPrefix + topic).catch(logFailure('subscribe', topic));
    },
    unsubscribe(topic: string) {
      // After close the connection is gone and its subscriptions with it.
      if (subscribeClient.status === 'end') return Promise.resolve();
      return subscribeClient.unsubscribe(channelPrefix + topic).catch(logFailure('unsubscribe', topic));
    },
    publish(topic: string, message: string) {
      return publishClient.publish(channelPrefix + topic, message).catch(logFailure('publish', topic));
    },
  };

  return {
    // The cast is confined here: the library is typed against the full client but uses only the methods above.
    asClient: adapter as unknown as Redis,
    async publish(topic, message) {
      await publishClient.publish(channelPrefix + topic, message);
    },
    detach() {
      for (const l of listeners.splice(0)) subscribeClient.off('message', l);
    },
  };
}
