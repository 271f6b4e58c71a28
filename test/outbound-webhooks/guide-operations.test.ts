// The webhook guide's GraphQL (docs/webhooks.md), taken from the guide itself and run as written against a gateway
// with Redis: the createWebhookEndpoint example, then the endpoint operations a merchant's code runs (the endpoints
// with their health, an endpoint's failed deliveries, a redelivery, a test event). A guess at their shape that does
// not fit the schema (`webhookEndpoints { id url }` instead of its connection) fails here.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';
import { createEndpoint, gql, startReceiver, type Receiver } from './helpers.js';
import { guideSnippet } from './receivers/guide-receivers.js';
import { postServiceWebhook } from './replica-support.js';

const namespace = uniqueNamespace('outbound-guide');
const clock = { t: Date.now() };
let stack: TestStack;
let receiver: Receiver;

beforeAll(async () => {
  stack = await startStack({
    redisNamespace: namespace,
    env: { REDIS_URL, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SUBSCRIPTION_POLL_MS: '0' },
    outboundWebhooks: { now: () => clock.t, pollMs: 30 },
  });
  receiver = await startReceiver();
}, 30_000);
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
  const redis = new Redis(REDIS_URL);
  await deleteByPrefix(redis, namespace);
  await redis.quit();
});

describe('the webhook guide’s GraphQL, as written', () => {
  it('creates an endpoint with its example', async () => {
    const res = await gql(stack, guideSnippet('**An endpoint** (scope `webhooks:manage`', 'graphql'));
    expect(res.errors).toBeUndefined();
    expect(res.data.createWebhookEndpoint).toMatchObject({
      __typename: 'CreateWebhookEndpointPayload',
      endpoint: { url: 'https://shop.example/hooks', kinds: ['charge.failed', 'charge.success'] },
    });
    expect(res.data.createWebhookEndpoint.secret).toMatch(/^whsec_/);
  });

  it('lists the endpoints, reads the failed deliveries, redelivers one and sends a test event', async () => {
    const document = guideSnippet('**The endpoint operations from your code**', 'graphql');
    const send = (name: string, variables: Record<string, unknown> = {}) => operation(document, name, variables);

    // An endpoint whose receiver fails everything, and one event delivered to it until its schedule is over.
    receiver.behaviour = 500;
    const { id } = await createEndpoint(stack, receiver.url, ['transfer.failed']);
    expect(await postServiceWebhook(stack.gateway.webhookUrl!, stack.webhookSecret, 1, 'guide', 'transfer.failed')).toBe(200);
    const raw = Buffer.from(id, 'base64url').toString('utf8').split(':')[1]!;
    for (let attempts = 1; attempts <= 8; attempts++) {
      await waitFor(
        async () => ((await stack.gateway.outboundWebhooks.deliveries(raw))[0]?.attempts.length ?? 0) >= attempts,
        `attempt ${attempts}`,
        10_000,
        20,
      );
      const [delivery] = await stack.gateway.outboundWebhooks.deliveries(raw);
      if (delivery!.nextAttemptAt !== null) clock.t = delivery!.nextAttemptAt;
    }

    const endpoints = await send('WebhookEndpoints');
    expect(endpoints.errors).toBeUndefined();
    expect(endpoints.data.webhookEndpoints.totalCount).toBe(2);
    const mine = endpoints.data.webhookEndpoints.edges.find((e: { node: { id: string } }) => e.node.id === id).node;
    expect(mine).toMatchObject({ url: receiver.url, kinds: ['transfer.failed'], enabled: true, disabledReason: null });
    expect(mine.health).toMatchObject({ lastSuccessAt: null, consecutiveFailures: 8, deliveriesWaiting: 0 });

    const failed = await send('FailedDeliveries', { endpointId: id });
    expect(failed.errors).toBeUndefined();
    expect(failed.data.webhookDeliveries.totalCount).toBe(1);
    const delivery = failed.data.webhookDeliveries.edges[0].node;
    expect(delivery).toMatchObject({ kind: 'transfer.failed', status: 'FAILED', nextAttemptAt: null });
    expect(delivery.attempts).toHaveLength(8);
    expect(delivery.attempts[0]).toMatchObject({ httpStatus: 500, error: 'HTTP 500' });

    receiver.behaviour = 204;
    const again = await send('RedeliverWebhook', { deliveryId: delivery.id });
    expect(again.data.redeliverWebhook).toMatchObject({
      __typename: 'RedeliverWebhookPayload',
      delivery: { id: delivery.id, status: 'PENDING' },
    });
    await waitFor(() => receiver.delivered().some((d) => d.type === 'transfer.failed'), 'the redelivery', 10_000, 20);

    const test = await send('SendTestWebhook', { endpointId: id });
    expect(test.data.sendTestWebhook).toMatchObject({ __typename: 'SendTestWebhookPayload', delivery: { kind: 'webhook.test' } });
    await waitFor(() => receiver.delivered().some((d) => d.type === 'webhook.test'), 'the test event', 10_000, 20);
  }, 30_000);
});

/** Sends the guide's document with `operationName`, as a client selecting one of its operations does. */
async function operation(document: string, operationName: string, variables: Record<string, unknown>) {
  const res = await fetch(stack.gateway.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.staffToken}` },
    body: JSON.stringify({ query: document, operationName, variables }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers are read by path, as in helpers.ts
  return (await res.json()) as { data: any; errors?: unknown[] };
}
