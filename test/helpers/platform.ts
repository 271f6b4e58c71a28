// Platform mode's test stacks: a gateway with MERCHANT_MODE=platform on the shared Redis (127.0.0.1:6379) under a
// namespace of the test's own, removed with its keys afterwards, and events logged as a merchant's webhook route
// logs them.
import { randomBytes, randomUUID } from 'node:crypto';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { mintStaffToken, SCOPES } from '../../src/auth/index.js';
import type { EventBus } from '../../src/events/bus.js';
import type { PaymentEventRecord } from '../../src/events/payment-event.js';
import { connectRedis } from '../../src/redis/index.js';
import { deleteByPrefix } from '../events/redis-helpers.js';
import { startStack, testKey, type StackOptions, type TestStack } from './gateway.js';

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
  // Cleaning up after 10,000 events on a busy machine may outlast the gateway's one-second command timeout.
  const redis = await connectRedis({ url: REDIS_URL, namespace, commandTimeoutMs: 30_000 });
  await deleteByPrefix(redis.commands, namespace);
  await redis.close();
}

/**
 * Logs an event append-once by its delivery id, as a webhook route does, retrying like a sender would: a timeout
 * of the shared Redis under the suite's load neither fails the test nor logs the event twice.
 */
/** The `n`th `charge.success` of a merchant, as its webhook route logs it (`data.n` tells them apart). */
export const merchantEvent = (merchantId: string, n: number): PaymentEventRecord => ({
  id: `${merchantId}:evt_${n}`,
  kind: 'charge.success',
  receivedAt: new Date().toISOString(),
  reference: `ch_${n}`,
  resourceType: null,
  payload: { event: 'charge.success', data: { n } },
  merchantId,
});

export async function logOnce(bus: EventBus, record: PaymentEventRecord) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await bus.publishPaymentEventOnce(record, 3_600_000);
    } catch (err) {
      if (attempt === 5) throw err;
    }
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- ad-hoc documents of the platform suites
type Doc = TypedDocumentNode<any, Record<string, unknown>>;

/** Runs an ad-hoc document against the stack with a bearer token (and any other headers). */
export function gqlAs(stack: TestStack) {
  return (token: string, query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    stack.gql(parse(query) as Doc, variables, { authorization: `Bearer ${token}`, ...headers });
}

/** The platform operator's token (every scope, no merchant). */
export async function operatorToken(stack: TestStack): Promise<string> {
  return (await mintStaffToken({ secret: stack.jwtSecret, scopes: SCOPES, subject: 'operator', ttlSeconds: 600 })).token;
}

/** A merchant made by the operator through the API, with a sandbox account of its own; returns its `mer_…` id. */
export async function createMerchant(stack: TestStack, name: string, operator?: string): Promise<string> {
  const created = await gqlAs(stack)(
    operator ?? (await operatorToken(stack)),
    `mutation($i: CreateMerchantInput!) { createMerchant(input: $i) { ... on CreateMerchantPayload { merchant { merchantId } } } }`,
    { i: { name, apiKey: testKey(name), webhookSecret: `whsec_${name}_123456`, idempotencyKey: randomUUID() } },
  );
  return created.data!.createMerchant.merchant.merchantId as string;
}
