// Following one resource in platform mode, over a real WebSocket and SSE: merchant A's staff follows its charge,
// read and polled with A's own client (the gateway's own key knows nothing of A's account), and sees it through to
// SUCCESS on both transports; an operator acting for B following A's charge gets the answer an unknown reference
// gets. No webhook comes here (the sandbox sends none): the updates are the merchant's own pollers'.
import { randomUUID } from 'node:crypto';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mintStaffToken, SCOPES } from '../../src/auth/index.js';
import { uniqueNamespace } from '../events/redis-helpers.js';
import type { TestStack } from '../helpers/gateway.js';
import { closePlatformStack, createMerchant, startPlatformStack } from '../helpers/platform.js';
import { waitFor } from '../helpers/wait.js';
import { disposeAllClients, subscribe, wsClient } from './helpers.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- ad-hoc documents of this suite
type Doc = TypedDocumentNode<any, Record<string, unknown>>;

const namespace = uniqueNamespace('platform-follow');
let stack: TestStack;

beforeAll(async () => {
  stack = await startPlatformStack(namespace, { env: { SUBSCRIPTION_POLL_MS: '100', SUBSCRIPTION_POLL_MAX_MS: '200' } });
}, 30_000);

afterAll(async () => {
  await disposeAllClients();
  await closePlatformStack(stack, namespace);
});

const FOLLOW = 'subscription($r: String!) { chargeUpdated(reference: $r) { reference status } }';

it('follows a merchant’s charge with its own client over WebSocket and SSE; another merchant’s gets not found', async () => {
  const operator = (await mintStaffToken({ secret: stack.jwtSecret, scopes: SCOPES, subject: 'operator', ttlSeconds: 600 })).token;
  const as = (token: string, query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}) =>
    stack.gql(parse(query) as Doc, variables, { authorization: `Bearer ${token}`, ...headers });
  const merchant = (name: string) => createMerchant(stack, name, operator);
  const [a, b] = [await merchant('followa'), await merchant('followb')];
  const staffA = (
    await mintStaffToken({
      secret: stack.jwtSecret,
      scopes: ['payments:read', 'payments:collect', 'events:read'],
      subject: 'a',
      ttlSeconds: 600,
      merchantId: a,
    })
  ).token;
  const reference = (
    await as(staffA, `mutation($i: CreateChargeInput!) { createCharge(input: $i) { ... on CreateChargePayload { reference } } }`, {
      i: { amount: 1500, phone: '76000000', provider: 'OPA_BF', idempotencyKey: randomUUID() },
    })
  ).data!.createCharge.reference as string;

  const ws = subscribe(
    wsClient(stack.gateway.graphqlUrl, { connectionParams: { authorization: `Bearer ${staffA}` } }),
    parse(FOLLOW) as Doc,
    {
      r: reference,
    },
  );
  const sse: string[] = [];
  const controller = new AbortController();
  void (async () => {
    const res = await fetch(stack.gateway.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${staffA}` },
      body: JSON.stringify({ query: FOLLOW, variables: { r: reference } }),
      signal: controller.signal,
    });
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) sse.push(new TextDecoder().decode(chunk));
  })().catch(() => undefined);

  expect((await ws.next(10_000, 'the current state')).chargeUpdated).toEqual({ reference, status: 'SEND_OTP' });
  await waitFor(() => sse.join('').includes('SEND_OTP'), 'SSE’s current state', 10_000, 20);
  await as(staffA, `mutation($i: SubmitChargeOtpInput!) { submitChargeOtp(input: $i) { __typename } }`, {
    i: { chargeReference: reference, otp: '123456' },
  });
  expect((await ws.next(10_000, 'SUCCESS from A’s pollers')).chargeUpdated).toEqual({ reference, status: 'SUCCESS' });
  await waitFor(() => sse.join('').includes('SUCCESS'), 'SSE’s SUCCESS', 10_000, 20);
  controller.abort();

  // B's operator, over WebSocket: A's charge is not found, exactly as one that does not exist.
  const asB = wsClient(stack.gateway.graphqlUrl, { connectionParams: { authorization: `Bearer ${operator}`, merchantId: b } });
  const onA = await subscribe(asB, parse(FOLLOW) as Doc, { r: reference }).nextResult(10_000, 'the answer on A’s charge');
  const onUnknown = await subscribe(asB, parse(FOLLOW) as Doc, { r: 'ch_000000000000000000000000' }).nextResult(10_000, 'on an unknown');
  expect(onA.errors?.[0]?.extensions?.['code']).toBe('NOT_FOUND');
  expect(JSON.stringify(onA)).not.toContain(reference);
  expect(JSON.stringify(onA)).toBe(JSON.stringify(onUnknown));
});
