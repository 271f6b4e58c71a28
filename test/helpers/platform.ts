// Platform mode's test stacks: a gateway with MERCHANT_MODE=platform on the shared Redis (127.0.0.1:6379) under a
// namespace of the test's own, removed with its keys afterwards, and events logged as a merchant's webhook route
// logs them.
import { randomBytes } from 'node:crypto';
import type { EventBus } from '../../src/events/bus.js';
import type { PaymentEventRecord } from '../../src/events/payment-event.js';
import { connectRedis } from '../../src/redis/index.js';
import { deleteByPrefix } from '../events/redis-helpers.js';
import { startStack, type StackOptions, type TestStack } from './gateway.js';

export const REDIS_URL = 'redis://127.0.0.1:6379';

/** A platform-mode stack under `namespace`; `env` adds to (or overrides) the platform settings. */
export function startPlatformStack(namespace: string, options: StackOptions = {}): Promise<TestStack> {
  return startStack({
    ...options,
    redisNamespace: namespace,
    env: { MERCHANT_MODE: 'platform', MERCHANT_KEYS_KEK: randomBytes(32).toString('base64'), REDIS_URL, ...options.env },
  });
}

/** Closes the stack (if it started) and deletes every key of its namespace. */
export async function closePlatformStack(stack: TestStack | undefined, namespace: string): Promise<void> {
  await stack?.close();
  const redis = await connectRedis({ url: REDIS_URL, namespace });
  await deleteByPrefix(redis.commands, namespace);
  await redis.close();
}

/**
 * Logs an event append-once by its delivery id, as a webhook route does, retrying like a sender would: a timeout
 * of the shared Redis under the suite's load neither fails the test nor logs the event twice.
 */
export async function logOnce(bus: EventBus, record: PaymentEventRecord) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await bus.publishPaymentEventOnce(record, 3_600_000);
    } catch (err) {
      if (attempt === 5) throw err;
    }
  }
}
