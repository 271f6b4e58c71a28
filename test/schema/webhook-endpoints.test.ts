// Webhook endpoints through GraphQL, over real HTTP: who may touch them (only a
// staff token with webhooks:manage), what they answer, and where the signing
// secret appears: in the answer of createWebhookEndpoint and
// rotateWebhookEndpointSecret only, never in a query, an error or a log line.
// Rotation: both signatures verify during the overlap, only the new one after.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/auth/index.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';
import { CREATE_ENDPOINT, DELIVERIES, ENDPOINTS, createEndpoint, gql, startReceiver, type Receiver } from '../outbound-webhooks/helpers.js';

const namespace = uniqueNamespace('webhook-endpoints');
let stack: TestStack;
let receiver: Receiver;

beforeAll(async () => {
  stack = await startStack({
    redisNamespace: namespace,
    env: { REDIS_URL, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_ENDPOINTS_MAX: '3', SUBSCRIPTION_POLL_MS: '0' },
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

const id = () => randomUUID();
/** One operation per new root field, each valid for a token that may run it. */
const OPERATIONS: Record<string, [string, Record<string, unknown>]> = {
  webhookEndpoints: ['{ webhookEndpoints { totalCount } }', {}],
  webhookDeliveries: ['query ($e: ID!) { webhookDeliveries(endpointId: $e) { totalCount } }', { e: 'we_x' }],
  webhookEventKinds: ['{ webhookEventKinds }', {}],
  createWebhookEndpoint: [CREATE_ENDPOINT, { input: { url: 'https://example.com/hooks', idempotencyKey: id() } }],
  updateWebhookEndpoint: [
    'mutation ($i: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(input: $i) { __typename } }',
    { i: { endpointId: 'we_x' } },
  ],
  deleteWebhookEndpoint: [
    'mutation ($i: DeleteWebhookEndpointInput!) { deleteWebhookEndpoint(input: $i) { __typename } }',
    { i: { endpointId: 'we_x' } },
  ],
  rotateWebhookEndpointSecret: [
    'mutation ($i: RotateWebhookEndpointSecretInput!) { rotateWebhookEndpointSecret(input: $i) { __typename } }',
    { i: { endpointId: 'we_x' } },
  ],
  redeliverWebhook: [
    'mutation ($i: RedeliverWebhookInput!) { redeliverWebhook(input: $i) { __typename } }',
    { i: { deliveryId: 'we_x.evt_x' } },
  ],
  replayWebhookEvents: [
    'mutation ($i: ReplayWebhookEventsInput!) { replayWebhookEvents(input: $i) { __typename } }',
    { i: { endpointId: 'we_x', since: new Date().toISOString() } },
  ],
  sendTestWebhook: ['mutation ($i: SendTestWebhookInput!) { sendTestWebhook(input: $i) { __typename } }', { i: { endpointId: 'we_x' } }],
};

describe('who may manage webhook endpoints', () => {
  it('every field is refused to anonymous callers, client tokens, and tokens without webhooks:manage; allowed with it', async () => {
    const charge = await gql(
      stack,
      `mutation ($input: CreateChargeInput!) { createCharge(input: $input) { ... on CreateChargePayload { clientToken } } }`,
      {
        input: { amount: 2500, phone: '58000000', provider: 'OPC_BF', idempotencyKey: id() },
      },
    );
    const clientToken = charge.data.createCharge.clientToken as string;
    const readOnly = await stack.mintToken(['payments:read']);
    const allButWebhooks = await stack.mintToken(SCOPES.filter((s) => s !== 'webhooks:manage'));
    const manager = await stack.mintToken(['webhooks:manage']);
    for (const [field, [query, variables]] of Object.entries(OPERATIONS)) {
      const codes = async (token: string | null) =>
        ((await gql(stack, query, variables, token)).errors ?? []).map((e) => e.extensions?.code);
      expect(await codes(null), `${field} anonymous`).toEqual(['UNAUTHENTICATED']);
      expect(await codes(clientToken), `${field} client token`).toEqual(['FORBIDDEN']);
      expect(await codes(readOnly), `${field} payments:read`).toEqual(['FORBIDDEN']);
      expect(await codes(allButWebhooks), `${field} every other scope`).toEqual(['FORBIDDEN']);
      const allowed = await gql(
        stack,
        query,
        field === 'createWebhookEndpoint' ? { input: { url: receiver.url, idempotencyKey: id() } } : variables,
        manager,
      );
      expect(allowed.errors, `${field} with webhooks:manage: ${allowed.raw}`).toBeUndefined();
    }
  }, 30_000);
});

describe('endpoints', () => {
  it('the secret is shown once at creation, never by a query; a repeat of the same key answers the same endpoint', async () => {
    const key = id();
    const first = await gql(stack, CREATE_ENDPOINT, {
      input: { url: receiver.url, kinds: ['charge.success'], description: 'orders', idempotencyKey: key },
    });
    const created = first.data.createWebhookEndpoint;
    expect(created).toMatchObject({
      __typename: 'CreateWebhookEndpointPayload',
      endpoint: { url: receiver.url, kinds: ['charge.success'], enabled: true },
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const again = await gql(stack, CREATE_ENDPOINT, {
      input: { url: receiver.url, kinds: ['charge.success'], description: 'orders', idempotencyKey: key },
    });
    expect(again.data.createWebhookEndpoint.endpoint.id).toBe(created.endpoint.id);

    const listed = await gql(stack, ENDPOINTS);
    expect(listed.data.webhookEndpoints.edges.map((e: { node: { id: string } }) => e.node.id)).toContain(created.endpoint.id);
    const node = await gql(
      stack,
      'query ($id: ID!) { node(id: $id) { ... on WebhookEndpoint { id url health { consecutiveFailures deliveriesWaiting } } } }',
      {
        id: created.endpoint.id,
      },
    );
    expect(node.data.node).toMatchObject({ id: created.endpoint.id, health: { consecutiveFailures: 0, deliveriesWaiting: 0 } });
    const secretPart = (created.secret as string).slice(6);
    for (const raw of [listed.raw, node.raw]) expect(raw).not.toContain(secretPart);
    expect(stack.logLines.join('\n')).not.toContain(secretPart);
    const sent = await gql(
      stack,
      'mutation ($i: SendTestWebhookInput!) { sendTestWebhook(input: $i) { ... on SendTestWebhookPayload { delivery { id kind status } } } }',
      {
        i: { endpointId: created.endpoint.id },
      },
    );
    expect(sent.data.sendTestWebhook.delivery).toMatchObject({ kind: 'webhook.test', status: 'PENDING' });
    await waitFor(() => receiver.received.some((r) => r.body.includes('"webhook.test"')), 'the test event', 5_000, 20);
    const test = receiver.received.find((r) => r.body.includes('"webhook.test"'))!;
    expect(new Webhook(created.secret).verify(test.body, test.headers)).toMatchObject({ type: 'webhook.test' });
    const log = await gql(stack, DELIVERIES, { endpointId: created.endpoint.id });
    expect(log.raw).not.toContain(secretPart);
    await gql(stack, 'mutation ($i: DeleteWebhookEndpointInput!) { deleteWebhookEndpoint(input: $i) { __typename } }', {
      i: { endpointId: created.endpoint.id },
    });
  }, 20_000);

  it('bad input answers typed errors: an unknown kind lists the known ones, a bad URL says why, the limit, an unknown endpoint', async () => {
    const unknown = await gql(stack, CREATE_ENDPOINT, { input: { url: receiver.url, kinds: ['charge.sucess'], idempotencyKey: id() } });
    // A typed error, like the URL's problem: the field that is wrong, in both languages, naming the known kinds.
    expect(unknown.errors).toBeUndefined();
    expect(unknown.data.createWebhookEndpoint).toMatchObject({ __typename: 'ValidationError', code: 'VALIDATION_FAILED' });
    const [kindError] = unknown.data.createWebhookEndpoint.fieldErrors;
    expect(kindError.path).toEqual(['input', 'kinds', '0']);
    expect(kindError.message).toMatch(/^Unknown event kind "charge.sucess": kinds are .*charge\.success/);
    expect(kindError.messageFr).toMatch(/^Type d’événement inconnu "charge.sucess" : les types sont .*charge\.success/);
    const renamed = await gql(
      stack,
      'mutation ($i: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(input: $i) { __typename ... on ValidationError { fieldErrors { path } } } }',
      { i: { endpointId: 'we_nothing', kinds: ['charge.success', 'transfer.succeeded'] } },
    );
    expect(renamed.data.updateWebhookEndpoint).toEqual({ __typename: 'ValidationError', fieldErrors: [{ path: ['input', 'kinds', '1'] }] });
    const bad = await gql(stack, CREATE_ENDPOINT, { input: { url: 'ftp://example.com/x', idempotencyKey: id() } });
    expect(bad.data.createWebhookEndpoint).toMatchObject({ __typename: 'InvalidWebhookUrlError', code: 'INVALID_WEBHOOK_URL' });
    const ids: string[] = [];
    const existing = (await gql(stack, ENDPOINTS)).data.webhookEndpoints.totalCount as number;
    for (let i = existing; i < 3; i++) ids.push((await createEndpoint(stack, receiver.url)).id);
    const over = await gql(stack, CREATE_ENDPOINT, { input: { url: receiver.url, idempotencyKey: id() } });
    expect(over.data.createWebhookEndpoint).toMatchObject({ __typename: 'WebhookEndpointLimitError', code: 'WEBHOOK_ENDPOINT_LIMIT' });
    const gone = await gql(
      stack,
      'mutation ($i: RotateWebhookEndpointSecretInput!) { rotateWebhookEndpointSecret(input: $i) { __typename ... on WebhookEndpointNotFoundError { endpointId } } }',
      {
        i: { endpointId: 'we_nothing' },
      },
    );
    expect(gone.data.rotateWebhookEndpointSecret).toEqual({ __typename: 'WebhookEndpointNotFoundError', endpointId: 'we_nothing' });
    for (const endpointId of ids)
      await gql(stack, 'mutation ($i: DeleteWebhookEndpointInput!) { deleteWebhookEndpoint(input: $i) { __typename } }', {
        i: { endpointId },
      });
  }, 20_000);

  it('rotation: during the overlap both secrets verify the same delivery; after it, only the new one signs', async () => {
    const { id: endpointId, secret: oldSecret } = await createEndpoint(stack, receiver.url, ['webhook.test']);
    const rotated = await gql(
      stack,
      'mutation ($i: RotateWebhookEndpointSecretInput!) { rotateWebhookEndpointSecret(input: $i) { ... on RotateWebhookEndpointSecretPayload { secret previousSecretExpiresAt } } }',
      {
        i: { endpointId },
      },
    );
    const { secret: newSecret, previousSecretExpiresAt } = rotated.data.rotateWebhookEndpointSecret as {
      secret: string;
      previousSecretExpiresAt: string;
    };
    expect(newSecret).not.toBe(oldSecret);
    expect(Date.parse(previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    const before = receiver.received.length;
    await gql(stack, 'mutation ($i: SendTestWebhookInput!) { sendTestWebhook(input: $i) { __typename } }', { i: { endpointId } });
    await waitFor(() => receiver.received.length > before, 'the test event', 5_000, 20);
    const during = receiver.received.at(-1)!;
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(newSecret).verify(during.body, during.headers)).not.toThrow();
    expect(() => new Webhook(oldSecret).verify(during.body, during.headers)).not.toThrow();

    // After the overlap (the store's expiry moved to the past, as 24 hours later): the new secret only.
    const endpointRawId = Buffer.from(endpointId, 'base64url').toString().split(':')[1]!;
    const redis = new Redis(REDIS_URL);
    const key = `${namespace}:webhooks:ep:${endpointRawId}`;
    const secrets = JSON.parse((await redis.hget(key, 'secrets'))!) as { previousExpiresAt: number };
    await redis.hset(key, 'secrets', JSON.stringify({ ...secrets, previousExpiresAt: Date.now() - 1 }));
    await redis.quit();
    // Every replica re-reads its endpoints each second.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const count = receiver.received.length;
    await gql(stack, 'mutation ($i: SendTestWebhookInput!) { sendTestWebhook(input: $i) { __typename } }', { i: { endpointId } });
    await waitFor(() => receiver.received.length > count, 'the second test event', 5_000, 20);
    const after = receiver.received.at(-1)!;
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(() => new Webhook(newSecret).verify(after.body, after.headers)).not.toThrow();
    expect(() => new Webhook(oldSecret).verify(after.body, after.headers)).toThrow(/No matching signature/);
  }, 20_000);
});
