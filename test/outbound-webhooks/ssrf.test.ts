// No server-side request forgery: in live mode an endpoint may not reach an
// address inside the merchant's network. Literal addresses are refused when the
// URL is saved; a name is checked on every address it resolves to when the
// connection is made (so a name that resolves inside, or later starts to, gets
// nothing); a redirect is never followed.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/outbound-webhooks/dispatcher.js';
import { isPublicAddress } from '../../src/outbound-webhooks/target-policy.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';
import { CREATE_ENDPOINT, DELIVERIES, gql, startReceiver, type Receiver } from './helpers.js';

const namespace = uniqueNamespace('outbound-ssrf');
let stack: TestStack;
let receiver: Receiver;
/** The merchant-controlled DNS of the test: `rebind.example` resolves to loopback. */
const resolved: Record<string, string[]> = { 'rebind.example': ['127.0.0.1'], 'mixed.example': ['93.184.215.14', '10.1.2.3'] };

beforeAll(async () => {
  receiver = await startReceiver();
  stack = await startStack({
    redisNamespace: namespace,
    env: { REDIS_URL, SUBSCRIPTION_POLL_MS: '0', WEBHOOK_DELIVERY_TIMEOUT_MS: '2000' },
    outboundWebhooks: {
      pollMs: 100,
      resolve: async (hostname) => (resolved[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    },
  });
}, 30_000);
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
  const redis = new Redis(REDIS_URL);
  await deleteByPrefix(redis, namespace);
  await redis.quit();
});

const create = (url: string) => gql(stack, CREATE_ENDPOINT, { input: { url, idempotencyKey: crypto.randomUUID() } });

describe('live mode', () => {
  it('refuses at creation the URLs whose address is inside: loopback, private, link-local, IPv6 loopback, IPv4-mapped', async () => {
    for (const url of [
      'http://127.0.0.1/hooks',
      'https://10.0.0.1/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hooks',
      'https://[::ffff:127.0.0.1]/hooks',
      'https://[fd00::1]/hooks',
      'https://localhost/hooks',
      'https://0.0.0.0/hooks',
    ]) {
      const result = (await create(url)).data.createWebhookEndpoint;
      expect(result, url).toMatchObject({ __typename: 'InvalidWebhookUrlError', code: 'INVALID_WEBHOOK_URL' });
      expect(result.urlProblem, url).toMatch(/^address not allowed/);
    }
    const plain = (await create('http://93.184.215.14/hooks')).data.createWebhookEndpoint;
    expect(plain).toMatchObject({ __typename: 'InvalidWebhookUrlError', urlProblem: 'the URL must start with https:// in live mode' });
  });

  it('judges addresses by ipaddr.js ranges: only public unicast passes', () => {
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      '::ffff:10.0.0.1',
      '100.64.0.1',
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
    for (const a of ['93.184.215.14', '2606:2800:220:1::1', '::ffff:93.184.215.14']) expect(isPublicAddress(a), a).toBe(true);
  });

  it('a name that resolves inside is refused when the connection is made, and the receiver gets nothing', async () => {
    const url = `https://rebind.example:${receiver.port}/hooks`;
    const created = (await create(url)).data.createWebhookEndpoint;
    expect(created.__typename).toBe('CreateWebhookEndpointPayload');
    await gql(stack, 'mutation ($i: SendTestWebhookInput!) { sendTestWebhook(input: $i) { __typename } }', {
      i: { endpointId: created.endpoint.id },
    });
    let attempts: Array<{ error: string; httpStatus: number | null }> = [];
    await waitFor(
      async () => {
        const log = await gql(stack, DELIVERIES, { endpointId: created.endpoint.id });
        if (!log.data) throw new Error(log.raw);
        attempts = log.data.webhookDeliveries.edges[0]?.node.attempts ?? [];
        return attempts.length > 0;
      },
      'a first attempt',
      5_000,
      50,
    );
    expect(attempts[0]).toMatchObject({ error: 'address not allowed', httpStatus: null });
    expect(receiver.received).toHaveLength(0);
  });

  it('the dispatcher checks every resolved address, and never follows a redirect', async () => {
    const guarded = createDispatcher({
      timeoutMs: 2_000,
      allowPrivateTargets: false,
      resolve: async (hostname) => (resolved[hostname] ?? []).map((address) => ({ address, family: 4 })),
    });
    const mixed = await guarded.post(`http://mixed.example:${receiver.port}/hooks`, '{}', {});
    expect(mixed).toMatchObject({ httpStatus: null, error: 'address not allowed' });
    const literal = await guarded.post(`http://[::ffff:127.0.0.1]:${receiver.port}/hooks`, '{}', {});
    expect(literal).toMatchObject({ httpStatus: null, error: 'address not allowed' });
    await guarded.close();
    expect(receiver.received).toHaveLength(0);

    // Private targets allowed (a receiver on the merchant's network): a 302 to another address is still not followed.
    const open = createDispatcher({ timeoutMs: 2_000, allowPrivateTargets: true });
    receiver.behaviour = 302;
    receiver.redirectTo = `http://127.0.0.1:${receiver.port}/after-redirect`;
    const redirected = await open.post(receiver.url, '{}', {});
    expect(redirected).toMatchObject({ httpStatus: 302, error: 'redirect not followed' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received.map((r) => r.headers.host)).toHaveLength(1);
    await open.close();
    receiver.behaviour = 200;
  });
});
