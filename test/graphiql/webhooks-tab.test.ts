// GraphiQL's "Webhooks to your server" tab (the client kit's webhooks.graphql), run operation by operation as
// GraphiQL sends it (the whole document, the operation's name, the tab's variables) against a gateway with Redis:
// create an endpoint on a local receiver, send it a test, read its deliveries, then every other operation of the
// tab. The browser side of tabs is in-chromium.test.ts; this one shows that each of the tab's documents works.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphiqlTabs } from '../../src/graphiql/tabs.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers read field by field

const tab = graphiqlTabs(null).find((t) => /^mutation CreateWebhookEndpoint\b/m.test(t.query))!;
const tabVariables = JSON.parse(tab.variables!) as Json;
type Run = (operationName: string, variables?: Json) => Promise<Json>;

/** The tab's other operations on the endpoint, each answering its payload. */
async function runTheOthers(run: Run, endpointId: string, deliveryId: string): Promise<void> {
  const listed = (await run('WebhookEndpoints')).webhookEndpoints.edges.map((e: Json) => e.node);
  expect(listed).toEqual([expect.objectContaining({ id: endpointId, health: expect.objectContaining({ consecutiveFailures: 0 }) })]);
  expect((await run('WebhookEventKinds')).webhookEventKinds).toEqual(expect.arrayContaining(['charge.success', 'webhook.test']));
  const updated = (await run('UpdateWebhookEndpoint', { update: { endpointId, enabled: false } })).updateWebhookEndpoint;
  expect(updated.endpoint).toMatchObject({ id: endpointId, enabled: false });
  const rotated = (await run('RotateWebhookEndpointSecret', { endpointId })).rotateWebhookEndpointSecret;
  expect(rotated.secret).toMatch(/^whsec_/);
  expect(Date.parse(rotated.previousSecretExpiresAt as string)).toBeGreaterThan(Date.now());
  const redelivered = (await run('RedeliverWebhook', { deliveryId })).redeliverWebhook;
  expect(redelivered.delivery).toMatchObject({ id: deliveryId });
  const replayed = (await run('ReplayWebhookEvents', { endpointId, since: new Date(Date.now() - 60_000).toISOString() }))
    .replayWebhookEvents;
  expect(replayed).toMatchObject({ eventsQueued: 0, endpoint: { id: endpointId } });
  const deleted = (await run('DeleteWebhookEndpoint', { endpointId })).deleteWebhookEndpoint;
  expect(deleted).toEqual({ deletedEndpointId: endpointId });
  expect((await run('WebhookEndpoints')).webhookEndpoints.edges).toEqual([]);
}
describe('GraphiQL’s "Webhooks to your server" tab', () => {
  const namespace = uniqueNamespace('webhooks-tab');
  let stack: TestStack;
  let receiver: Server;
  let receiverUrl: string;
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];

  /** One operation of the tab, sent as GraphiQL sends it; its data (a top-level error fails the test). */
  async function run(operationName: string, variables: Json = {}): Promise<Json> {
    const res = await request(stack.gateway.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.staffToken}` },
      body: JSON.stringify({ query: tab.query, operationName, variables: { ...tabVariables, ...variables } }),
    });
    const answer = (await res.body.json()) as { data?: Json; errors?: unknown };
    expect(answer.errors, operationName).toBeUndefined();
    return answer.data!;
  }

  beforeAll(async () => {
    stack = await startStack({ redisNamespace: namespace, env: { REDIS_URL, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  }, 30_000);
  afterAll(async () => {
    await stack?.close();
    await new Promise((resolve) => receiver?.close(resolve));
    const redis = new Redis(REDIS_URL);
    await deleteByPrefix(redis, namespace);
    redis.disconnect();
  });

  it('creates an endpoint, sends it a signed test, lists the delivery with its attempt, then runs every other operation', async () => {
    const created = (await run('CreateWebhookEndpoint', { create: { ...tabVariables.create, url: receiverUrl } })).createWebhookEndpoint;
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.endpoint).toMatchObject({ url: receiverUrl, enabled: true });
    expect([...(created.endpoint.kinds as string[])].sort()).toEqual([...(tabVariables.create.kinds as string[])].sort());
    const endpointId = created.endpoint.id as string;

    const sent = (await run('SendTestWebhook', { endpointId })).sendTestWebhook;
    expect(sent.delivery).toMatchObject({ kind: 'webhook.test' });
    await waitFor(() => received.length === 1, 'the test webhook at the receiver', 10_000);
    const event = new Webhook(created.secret as string).verify(received[0]!.body, received[0]!.headers as Record<string, string>);
    expect(event).toMatchObject({ type: 'webhook.test' });

    let deliveries: Json[] = [];
    await waitFor(
      async () => {
        deliveries = (await run('WebhookDeliveries', { endpointId })).webhookDeliveries.edges.map((e: Json) => e.node);
        return deliveries[0]?.status === 'SUCCEEDED';
      },
      'the delivery listed as SUCCEEDED',
      10_000,
      50,
    );
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ id: sent.delivery.id, kind: 'webhook.test', eventId: received[0]!.headers['webhook-id'] });
    expect(deliveries[0]!.attempts).toEqual([expect.objectContaining({ httpStatus: 204, error: null })]);

    await runTheOthers(run, endpointId, sent.delivery.id as string);
  });
});
