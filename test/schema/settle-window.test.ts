// The settle window (IDEMPOTENCY_SETTLE_MS) end to end: a payment whose outcome
// is unknown and that the look-up cannot find yet is refused IN_PROGRESS with
// `retryAfterMs`, then sent once the window is over; a bulk of which only part
// reached the service answers, once the window is over, with what it found and
// the rest reported as not sent. Payments are counted in the sandbox's own list.
// The window is measured on a manual clock handed to the gateway's idempotency
// store: the test moves it to the window's last millisecond and past it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, type Sandbox } from '../../src/sandbox/index.js';
import { graphql } from '../gql/index.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { startStack, testKey, type TestStack } from '../helpers/gateway.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { Api, type Json } from '../helpers/sandbox-api.js';

const SETTLE_MS = 2000;

const Transfer = graphql(`
  mutation SettleTransfer($input: CreateTransferInput!) {
    createTransfer(input: $input) {
      __typename
      ... on CreateTransferPayload { transfer { reference } }
      ... on UpstreamError { outcomeUnknown }
      ... on IdempotencyConflictError { reason retryAfterMs }
      ... on PaymentError { code message retryable }
    }
  }
`);

const Bulk = graphql(`
  mutation SettleBulk($input: CreateBulkTransferInput!) {
    createBulkTransfer(input: $input) {
      __typename
      ... on CreateBulkTransferPayload {
        queuedCount
        failures { index item { amount recipientPhone } error { __typename code message messageFr } }
      }
      ... on UpstreamError { outcomeUnknown }
      ... on IdempotencyConflictError { reason retryAfterMs }
      ... on PaymentError { code message retryable }
    }
  }
`);

let sandbox: Sandbox;
let rest: Api;
let proxy: FaultProxy;
let stack: TestStack;
// Started at the real time so the store's entries read like any others; only the test moves it.
const idempotencyTime = manualClock(Date.now());
const apiKey = testKey('settle');
let nextAmount = 500;
const amount = () => ++nextAmount;

const transfersOf = async (a: number): Promise<Json[]> =>
  (await rest.get('/v1/payment/transfers')).body.data.filter((t: Json) => t.amount === a);

beforeAll(async () => {
  sandbox = await startTestSandbox();
  rest = new Api(sandbox.url, apiKey);
  proxy = await startFaultProxy(sandbox.url);
  stack = await startStack({
    inProcess: true,
    sharedSandbox: sandbox,
    apiKey,
    idempotencyClock: idempotencyTime,
    env: { PAYMENT_BASE_URL: proxy.url, IDEMPOTENCY_SETTLE_MS: String(SETTLE_MS), RATE_LIMIT_MONEY_PER_MINUTE: '100000' },
  });
});
afterAll(async () => {
  await stack?.close();
  await proxy?.close();
  await rest?.close();
  await sandbox?.close();
});

describe('IDEMPOTENCY_SETTLE_MS', () => {
  it('an HTML 502 from a proxy, nothing processed: the retry within the window carries retryAfterMs, the one after it goes through; 1 payment', async () => {
    const a = amount();
    const key = randomUUID();
    const send = async () =>
      (await stack.gql(Transfer, { input: { amount: a, recipientPhone: '70000000', idempotencyKey: key } })).data!.createTransfer;
    proxy.inject({ method: 'POST', path: '/v1/payment/transfers/', action: { kind: 'html502-unprocessed' } });

    expect(await send()).toMatchObject({ __typename: 'UpstreamError', outcomeUnknown: true });
    const early = await send();
    expect(early).toMatchObject({ __typename: 'IdempotencyConflictError', reason: 'IN_PROGRESS', retryable: true });
    const retryAfterMs = (early as { retryAfterMs: number }).retryAfterMs;
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(retryAfterMs).toBeLessThanOrEqual(SETTLE_MS);
    expect(await transfersOf(a)).toHaveLength(0);

    // Its last millisecond is still within the window; the retry told to wait exactly that long goes through.
    await idempotencyTime.advance(retryAfterMs - 1);
    expect(await send()).toMatchObject({ __typename: 'IdempotencyConflictError', reason: 'IN_PROGRESS', retryAfterMs: 1 });
    expect(await transfersOf(a)).toHaveLength(0);
    await idempotencyTime.advance(1);
    const answer = await send();
    expect(answer.__typename).toBe('CreateTransferPayload');
    expect(await send()).toEqual(answer);
    expect(await transfersOf(a)).toHaveLength(1);
  });

  it('a bulk of 3 where the service rejected one item, its answer lost: once the window is over, the 2 found are queued and the third is reported not sent; 0 paid twice', async () => {
    // The last is more than the wallet holds: the service rejects it (INSUFFICIENT_FUNDS) and queues the others.
    const amounts = [amount(), amount(), 50_000_000 + amount()];
    const key = randomUUID();
    const send = async () =>
      (
        await stack.gql(Bulk, {
          input: { transfers: amounts.map((a) => ({ amount: a, recipientPhone: '70000000' })), idempotencyKey: key },
        })
      ).data!.createBulkTransfer;
    proxy.inject({ method: 'POST', path: '/v1/payment/transfers/bulk/', action: { kind: 'status500' } });

    expect(await send()).toMatchObject({ __typename: 'UpstreamError', outcomeUnknown: true });
    const early = await send();
    expect(early).toMatchObject({ __typename: 'IdempotencyConflictError', reason: 'IN_PROGRESS', retryAfterMs: expect.any(Number) });
    const retryAfterMs = (early as { retryAfterMs: number }).retryAfterMs;
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(retryAfterMs).toBeLessThanOrEqual(SETTLE_MS);

    await idempotencyTime.advance(retryAfterMs - 1);
    expect(await send()).toMatchObject({ __typename: 'IdempotencyConflictError', reason: 'IN_PROGRESS', retryAfterMs: 1 });
    await idempotencyTime.advance(1);
    const answer = await send();
    expect(answer).toMatchObject({
      __typename: 'CreateBulkTransferPayload',
      queuedCount: 2,
      failures: [
        {
          index: 2,
          item: { amount: amounts[2], recipientPhone: '70000000' },
          error: { __typename: 'ValidationError', code: 'INVALID_DATA', message: expect.stringMatching(/not sent/i) },
        },
      ],
    });
    // The same answer on every retry with the key; nothing sent again.
    expect(await send()).toEqual(answer);
    expect(await Promise.all(amounts.map(async (a) => (await transfersOf(a)).length))).toEqual([1, 1, 0]);
    expect(proxy.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment/transfers/bulk/')).toHaveLength(1);
  });
});
