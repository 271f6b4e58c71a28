// Platform mode with the sandbox, end to end: each merchant's account of the sandbox sends its webhooks to that
// merchant's own route on the gateway (as `npm start` connects the demo merchants), so a charge of merchant A
// confirmed by OTP in the sandbox arrives as A's event, and B never sees it. Over real HTTP both ways: the gateway
// listens, and the sandbox posts to it.
import { randomUUID } from 'node:crypto';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mintStaffToken, SCOPES } from '../../src/auth/index.js';
import { connectMerchantWebhooks } from '../../src/sandbox/index.js';
import { uniqueNamespace } from '../events/redis-helpers.js';
import { testKey, type TestStack } from '../helpers/gateway.js';
import { closePlatformStack, startPlatformStack } from '../helpers/platform.js';
import { waitFor } from '../helpers/wait.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- ad-hoc documents of this suite
type Doc = TypedDocumentNode<any, Record<string, unknown>>;

const namespace = uniqueNamespace('sandbox-merchant-webhooks');
let stack: TestStack;

beforeAll(async () => {
  stack = await startPlatformStack(namespace);
}, 30_000);

afterAll(() => closePlatformStack(stack, namespace));

const as = (token: string, query: string, variables: Record<string, unknown> = {}) =>
  stack.gql(parse(query) as Doc, variables, { authorization: `Bearer ${token}` });

async function merchant(name: string): Promise<{ id: string; token: string }> {
  const operator = (await mintStaffToken({ secret: stack.jwtSecret, scopes: SCOPES, subject: 'operator', ttlSeconds: 600 })).token;
  const created = await as(
    operator,
    `mutation($i: CreateMerchantInput!) { createMerchant(input: $i) { ... on CreateMerchantPayload { merchant { merchantId } } } }`,
    { i: { name, apiKey: testKey(name), webhookSecret: `whsec_${name}_${randomUUID()}`, idempotencyKey: randomUUID() } },
  );
  const id = created.data!.createMerchant.merchant.merchantId as string;
  const scopes = ['payments:read', 'payments:collect', 'events:read'] as const;
  return { id, token: (await mintStaffToken({ secret: stack.jwtSecret, scopes, subject: name, ttlSeconds: 600, merchantId: id })).token };
}

const EVENTS = '{ events(first: 100) { edges { node { kind payload } } } }';
const references = async (token: string, kind: string) =>
  ((await as(token, EVENTS)).data!.events.edges as Array<{ node: { kind: string; payload: { data?: { reference?: string } } } }>)
    .filter((e) => e.node.kind === kind)
    .map((e) => e.node.payload.data?.reference);

it('sends a charge of merchant A, confirmed by OTP in the sandbox, to A’s route only: A’s event, never B’s', async () => {
  const a = await merchant('sandboxa');
  const b = await merchant('sandboxb');
  const connected = await connectMerchantWebhooks(stack.sandbox, stack.gateway.merchants!, {
    webhookUrl: stack.gateway.webhookUrl!,
    scheme: 'hmac-sha256-hex',
  });
  expect(connected).toBe(2);

  const created = await as(
    a.token,
    `mutation($i: CreateChargeInput!) { createCharge(input: $i) { ... on CreateChargePayload { reference } } }`,
    { i: { amount: 2500, phone: '76000000', provider: 'OPA_BF', idempotencyKey: randomUUID() } },
  );
  const reference = created.data!.createCharge.reference as string;
  await as(a.token, `mutation($i: SubmitChargeOtpInput!) { submitChargeOtp(input: $i) { __typename } }`, {
    i: { chargeReference: reference, otp: '123456' },
  });
  await waitFor(async () => (await references(a.token, 'charge.success')).includes(reference), 'A’s charge.success', 15_000, 100);
  expect(await references(b.token, 'charge.success')).not.toContain(reference);
  // The sandbox posted A's webhooks to A's route only, each accepted (signed with A's own secret), none to B's.
  const route = async (id: string) => {
    const view = await stack.gateway.merchants!.get(id);
    return `${stack.gateway.webhookUrl!}/${view!.routeId}`;
  };
  const charges = stack.sandbox.webhooks.all().filter((d) => d.event === 'charge.success');
  expect(charges.length).toBeGreaterThan(0);
  const [toA, toB] = [await route(a.id), await route(b.id)];
  expect(charges.every((d) => d.target === toA && d.ok)).toBe(true);
  expect(charges.some((d) => d.target === toB)).toBe(false);
});
