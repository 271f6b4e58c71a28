// Platform mode's webhooks from the service, over real HTTP: one URL per merchant, verified with that merchant's own
// secret. An event signed with A's secret and posted to B's URL is refused and recorded; an unknown or offboarded
// merchant's URL is 404; the same delivery id at two merchants is two events, each logged with its merchant.
import { randomBytes, randomUUID } from 'node:crypto';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mintStaffToken, SCOPES } from '../../src/auth/index.js';
import { signBody } from '../../src/inbound-webhooks/signature.js';
import { testKey, type TestStack } from '../helpers/gateway.js';
import { post } from '../helpers/http.js';
import { uniqueNamespace } from '../events/redis-helpers.js';
import { closePlatformStack, startPlatformStack } from '../helpers/platform.js';
import { createUpstreamClient } from '../../src/upstream/client.js';
import { waitFor } from '../helpers/wait.js';

const namespace = uniqueNamespace('merchant-routes');
let stack: TestStack;
let operator: string;

beforeAll(async () => {
  stack = await startPlatformStack(namespace);
  operator = (await mintStaffToken({ secret: stack.jwtSecret, scopes: SCOPES, subject: 'operator', ttlSeconds: 600 })).token;
}, 30_000);

afterAll(() => closePlatformStack(stack, namespace));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- ad-hoc documents of this suite
type Doc = TypedDocumentNode<any, Record<string, unknown>>;
const gql = (query: string, variables: Record<string, unknown>) =>
  stack.gql(parse(query) as Doc, variables, { authorization: `Bearer ${operator}` });

async function merchant(name: string) {
  const apiKey = testKey(name);
  const webhookSecret = `whsec_${randomBytes(12).toString('hex')}`;
  const res = await gql(
    `mutation($i: CreateMerchantInput!) { createMerchant(input: $i) { ... on CreateMerchantPayload { merchant { merchantId inboundWebhookUrl } } } }`,
    { i: { name, apiKey, webhookSecret, idempotencyKey: randomUUID() } },
  );
  const { merchantId, inboundWebhookUrl } = res.data!.createMerchant.merchant;
  return { merchantId: merchantId as string, url: `${stack.gateway.url}${inboundWebhookUrl}`, webhookSecret, apiKey };
}

const deliver = async (url: string, body: string, secret: string) =>
  (await post(url, body, { 'content-type': 'application/json', 'x-webhook-hash': signBody(body, secret, 'hmac-sha256-hex') })).status;

it('verifies each merchant’s URL with its own secret, refuses and records a cross-signed event, and logs each with its merchant', async () => {
  const a = await merchant('hooka');
  const b = await merchant('hookb');
  const body = JSON.stringify({ id: 'evt_same_id', event: 'checkout.success', data: { reference: 'chk_1' } });
  expect(await deliver(a.url, body, a.webhookSecret)).toBe(200);
  // The same delivery id at B: B's own event, not a duplicate of A's.
  expect(await deliver(b.url, body, b.webhookSecret)).toBe(200);
  expect(await deliver(a.url, body, a.webhookSecret)).toBe(200);
  const logged = (await stack.gateway.bus.log.descending(null, 100)).filter((e) => e.kind === 'checkout.success');
  expect(logged.map((e) => e.merchantId).sort()).toEqual([a.merchantId, b.merchantId].sort());

  // Signed with A's secret, posted to B's URL.
  const forged = JSON.stringify({ id: 'evt_forged', event: 'checkout.success', data: { reference: 'chk_2' } });
  expect(await deliver(b.url, forged, a.webhookSecret)).toBe(400);
  const refusal = stack.logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'webhook rejected' && l.reason === 'bad_signature');
  expect(refusal).toMatchObject({ merchantId: b.merchantId });
  expect((await stack.gateway.bus.log.descending(null, 100)).some((e) => e.id.includes('evt_forged'))).toBe(false);

  // Unknown routes and the bare path: 404, recorded.
  expect(await deliver(`${stack.gateway.url}/webhooks/payment/AAAAAAAAAAAAAAAAAAAAAA`, body, a.webhookSecret)).toBe(404);
  expect(await deliver(`${stack.gateway.url}/webhooks/payment`, body, a.webhookSecret)).toBe(404);
  expect(stack.logLines.some((l) => l.includes('"reason":"unknown_route"'))).toBe(true);

  // Offboarded: its URL refuses webhooks at once.
  await gql(`mutation($i: OffboardMerchantInput!) { offboardMerchant(input: $i) { __typename } }`, { i: { merchantId: a.merchantId } });
  expect(await deliver(a.url, JSON.stringify({ id: 'evt_late', event: 'checkout.success' }), a.webhookSecret)).toBe(404);
  // No secret in any log line.
  for (const secret of [a.webhookSecret, b.webhookSecret]) expect(stack.logLines.join('\n')).not.toContain(secret);
});

it('feeds the ext_id index of the route’s merchant only: a charge made without the gateway is found by that merchant', async () => {
  const a = await merchant('extida');
  const b = await merchant('extidb');
  // Made at the service with A's key, not through the gateway: only the webhook tells the gateway of it.
  const service = createUpstreamClient({
    baseUrl: stack.sandbox.url,
    apiKey: a.apiKey,
    timeoutMs: 5_000,
    pageParam: 'page',
    pageSizeParam: 'page_size',
    pageSize: 20,
  });
  const charge = await service.createCharge({ amount: 1_000, phone: '76000000', provider: 'opa_bf', extId: 'shop-7' });
  await service.close();
  const event = JSON.stringify({
    id: `evt_${randomUUID()}`,
    event: 'charge.success',
    data: { reference: charge.reference, ext_id: 'shop-7' },
  });
  expect(await deliver(a.url, event, a.webhookSecret)).toBe(200);
  const search = '{ charges(first: 5, filter: { extId: "shop-7" }) { edges { node { reference } } } }';
  const as = (m: { merchantId: string }) =>
    stack.gql(parse(search) as Doc, {}, { authorization: `Bearer ${operator}`, 'x-merchant-id': m.merchantId });
  const found = async () => (await as(a)).data!.charges.edges.map((e: { node: { reference: string } }) => e.node.reference);
  // Indexed once the event is accepted (the 200 does not wait for it).
  await waitFor(async () => (await found()).length > 0, 'A finds its charge', 5_000);
  expect(await found()).toEqual([charge.reference]);
  expect((await as(b)).data!.charges.edges).toEqual([]);
});
