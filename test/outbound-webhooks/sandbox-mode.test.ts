// Without Redis. In sandbox mode the endpoints and the deliveries waiting for a
// retry are kept in SANDBOX_DATA_DIR, so a restarted gateway sends them (same
// webhook-id); in live mode an endpoint is refused with a clear error, since
// nothing would survive a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { EVENT_LOG_FILE } from '../../src/events/log-file.js';
import { startGateway, type RunningGateway } from '../../src/gateway.js';
import { createLogger } from '../../src/logger.js';
import { OUTBOUND_WEBHOOKS_FILE } from '../../src/outbound-webhooks/state-file.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { startStack, testKey, type TestStack } from '../helpers/gateway.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait.js';
import { CREATE_ENDPOINT, createEndpoint, gql, startReceiver, type Receiver } from './helpers.js';
import { postServiceWebhook } from './replica-support.js';

const dir = mkdtempSync(path.join(tmpdir(), 'outbound-sandbox-'));
const webhookSecret = 'sandbox-mode-webhook-secret';
const clock = { t: Date.now() };
let sandbox: Sandbox;
let receiver: Receiver;
const apiKey = testKey('outbound-sandbox');

beforeAll(async () => {
  sandbox = await startTestSandbox();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A gateway in sandbox mode (no PAYMENT_BASE_URL, no Redis) with the data folder's files, as `npm start` runs it. */
async function sandboxGateway(): Promise<{ gateway: RunningGateway; stack: TestStack }> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SANDBOX_DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    WEBHOOK_SIGNATURE_SCHEME: 'hmac-sha256-hex',
  });
  const gateway = await startGateway(config, createLogger('silent'), {
    upstream: { baseUrl: sandbox.url, apiKey },
    webhookSecret,
    eventLogFile: path.join(dir, EVENT_LOG_FILE),
    outboundWebhooksFile: path.join(dir, OUTBOUND_WEBHOOKS_FILE),
    outboundWebhooks: { now: () => clock.t, pollMs: 50 },
  });
  // The little of a TestStack the helpers use: the URL and the development token.
  const stack = { gateway, staffToken: gateway.developmentToken!.token } as unknown as TestStack;
  return { gateway, stack };
}

describe('sandbox mode, without Redis', () => {
  it('endpoints and deliveries waiting for a retry survive a restart', async () => {
    const first = await sandboxGateway();
    expect(first.gateway.outboundWebhooks.available).toBe(true);
    const { id } = await createEndpoint(first.stack, receiver.url);
    receiver.behaviour = 503;
    for (let i = 0; i < 3; i++) expect(await postServiceWebhook(first.gateway.webhookUrl!, webhookSecret, i, 'kept')).toBe(200);
    await waitFor(() => new Set(receiver.received.map((r) => r.headers['webhook-id'])).size === 3, 'a first attempt of each', 10_000, 20);
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    await first.gateway.close();

    receiver.behaviour = 200;
    clock.t += 60_000; // the 5 s retry is due
    const second = await sandboxGateway();
    try {
      const listed = await gql(second.stack, '{ webhookEndpoints { edges { node { id url } } } }');
      expect(listed.data.webhookEndpoints.edges).toEqual([{ node: { id, url: receiver.url } }]);
      await waitFor(
        () => receiver.delivered().filter((d) => d.type === 'charge.success').length === 3,
        'the 3 retries delivered',
        10_000,
        20,
      );
      expect(new Set(receiver.delivered().map((d) => d.id))).toEqual(ids);
    } finally {
      await second.gateway.close();
    }
  }, 30_000);
});

describe('sandbox mode: what an endpoint URL may be', () => {
  it('http:// works, so a refused scheme says https:// or http://, in English and in French', async () => {
    const { gateway, stack } = await sandboxGateway();
    try {
      const ftp = await gql(stack, CREATE_ENDPOINT, { input: { url: 'ftp://x', idempotencyKey: crypto.randomUUID() } });
      expect(ftp.data.createWebhookEndpoint).toMatchObject({
        __typename: 'InvalidWebhookUrlError',
        urlProblem: 'the URL must start with https:// or http://',
        urlProblemFr: 'l’URL doit commencer par https:// ou http://',
        message: 'This webhook URL cannot be used: the URL must start with https:// or http://.',
        messageFr: 'Cette adresse de webhook ne peut pas être utilisée : l’URL doit commencer par https:// ou http://.',
      });
      const plain = await gql(stack, CREATE_ENDPOINT, { input: { url: 'http://127.0.0.1:9/hooks', idempotencyKey: crypto.randomUUID() } });
      expect(plain.data.createWebhookEndpoint.__typename).toBe('CreateWebhookEndpointPayload');
      await gql(stack, 'mutation ($i: DeleteWebhookEndpointInput!) { deleteWebhookEndpoint(input: $i) { __typename } }', {
        i: { endpointId: plain.data.createWebhookEndpoint.endpoint.id },
      });
    } finally {
      await gateway.close();
    }
  });
});

describe('live mode without Redis', () => {
  it('refuses to create an endpoint, saying why', async () => {
    const stack = await startStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    try {
      const res = await gql(stack, CREATE_ENDPOINT, { input: { url: receiver.url, idempotencyKey: crypto.randomUUID() } });
      expect(res.data.createWebhookEndpoint).toMatchObject({ __typename: 'WebhooksUnavailableError', code: 'WEBHOOKS_UNAVAILABLE' });
      expect(res.data.createWebhookEndpoint.message).toContain('REDIS_URL');
      expect((await gql(stack, '{ webhookEndpoints { totalCount } }')).data.webhookEndpoints.totalCount).toBe(0);
    } finally {
      await stack.close();
    }
  });
});
