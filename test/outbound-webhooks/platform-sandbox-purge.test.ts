// Platform mode in sandbox mode without Redis (what `MERCHANT_MODE=platform npm start` runs on a laptop): the
// merchants and webhook endpoints are kept in memory, and an offboarded merchant's purge removes its endpoints and
// their deliveries as the Redis purge does, while another merchant's stay. In process: the purge is the subject.
import { randomBytes, randomUUID } from 'node:crypto';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mintStaffToken, SCOPES } from '../../src/auth/index.js';
import { loadConfig } from '../../src/config.js';
import { startGateway, type RunningGateway } from '../../src/gateway.js';
import { silentLogger } from '../../src/logger.js';
import { merchantOfEndpoint } from '../../src/outbound-webhooks/model.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { fetchGraphQL, testKey } from '../helpers/gateway.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait.js';
import { CREATE_ENDPOINT } from './helpers.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- ad-hoc documents of this suite
type Doc = TypedDocumentNode<any, Record<string, unknown>>;

const JWT_SECRET = randomBytes(32).toString('hex');
let sandbox: Sandbox;
let gateway: RunningGateway;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  gateway = await startGateway(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      AUTH_JWT_SECRET: JWT_SECRET,
      MERCHANT_MODE: 'platform',
      MERCHANT_KEYS_KEK: randomBytes(32).toString('base64'),
      MERCHANT_OFFBOARD_GRACE: '1',
    }),
    silentLogger,
    {
      upstream: { baseUrl: sandbox.url, apiKey: testKey('platform-sandbox') },
      webhookSecret: randomBytes(16).toString('hex'),
      listen: false,
    },
  );
}, 30_000);

afterAll(async () => {
  await gateway?.close();
  await sandbox?.close();
});

const as = (token: string, query: string, variables: Record<string, unknown>) =>
  fetchGraphQL(gateway, parse(query) as Doc, variables, { authorization: `Bearer ${token}` });

/** A merchant with one webhook endpoint, made through the API; returns the merchant's id. */
async function merchantWithEndpoint(name: string): Promise<string> {
  const operator = (await mintStaffToken({ secret: JWT_SECRET, scopes: SCOPES, subject: 'operator', ttlSeconds: 600 })).token;
  const created = await as(
    operator,
    `mutation($i: CreateMerchantInput!) { createMerchant(input: $i) { ... on CreateMerchantPayload { merchant { merchantId } } } }`,
    { i: { name, apiKey: testKey(name), webhookSecret: `whsec_${name}_123456`, idempotencyKey: randomUUID() } },
  );
  const id = created.data!.createMerchant.merchant.merchantId as string;
  const staff = (await mintStaffToken({ secret: JWT_SECRET, scopes: ['webhooks:manage'], subject: name, ttlSeconds: 600, merchantId: id }))
    .token;
  const made = await as(staff, CREATE_ENDPOINT, { input: { url: `https://${name}.example/hooks`, idempotencyKey: randomUUID() } });
  expect(made.data?.createWebhookEndpoint.__typename, made.raw).toBe('CreateWebhookEndpointPayload');
  return id;
}

const owners = async () => (await gateway.outboundWebhooks.list()).map((e) => merchantOfEndpoint(e.id));

it('removes a purged merchant’s webhook endpoints from memory, and keeps the other merchant’s', async () => {
  const [a, b] = [await merchantWithEndpoint('sandboxpurgea'), await merchantWithEndpoint('sandboxpurgeb')];
  expect((await owners()).sort()).toEqual([a, b].sort());
  await gateway.merchants!.offboard(a);
  // MERCHANT_OFFBOARD_GRACE is a second: the purge then takes the merchant, as the hourly sweep would.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  expect(await gateway.merchants!.purgeDue()).toEqual([a]);
  await waitFor(async () => !(await owners()).includes(a), 'the purged merchant’s endpoint removed');
  expect(await owners()).toEqual([b]);
});
