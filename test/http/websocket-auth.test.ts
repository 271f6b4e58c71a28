// Identity over graphql-ws, with a real client over a real socket: the token
// travels in connection_init; without a valid one the socket is closed (4403)
// before any operation runs, and it is closed the same way when the token
// expires. On an accepted socket each operation is judged on its own: a
// subscription the token may not run errors alone, and mutations follow the
// HTTP rules.
import { randomUUID } from 'node:crypto';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mintStaffToken, type Scope } from '../../src/auth/index.js';
import { createOtpCharge } from '../helpers/charges.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import {
  disposeAllClients,
  getsOf,
  probeBus,
  roundTrip,
  subscribe,
  untilWatching,
  waitFor,
  withTimeout,
  wsClient,
  type BusProbe,
  type TestClient,
} from '../live/helpers.js';
import { codesOf } from '../schema/auth-support.js';

let stack: TestStack;
let probe: BusProbe;

beforeAll(async () => {
  // Updates come from the sandbox's webhooks only: no poller reaches the sandbox behind the tests' backs.
  stack = await startStack({ env: { SUBSCRIPTION_POLL_MS: '0' }, sandboxWebhooks: true });
  probe = probeBus(stack.gateway.bus);
});
afterEach(async () => {
  await disposeAllClients();
});
afterAll(async () => {
  await disposeAllClients();
  await stack?.close();
});

const doc = <R = Record<string, unknown>>(source: string) => parse(source) as TypedDocumentNode<R, Record<string, unknown>>;

const connectWith = (token: string | null): TestClient =>
  wsClient(stack.gateway.graphqlUrl, token === null ? {} : { connectionParams: { authorization: `Bearer ${token}` } });

/** Resolves with the first close of the socket. */
const closed = (ws: TestClient, what: string) => waitFor(() => ws.closes.length > 0, what, 10_000).then(() => ws.closes[0]!);

/** The first thing an operation gets: a result, or (refused before it ran) the error graphql-ws sends instead. */
async function firstAnswer(ws: TestClient, source: string, variables: Record<string, unknown> = {}) {
  const sub = subscribe(ws, doc(source), variables);
  const answer = await withTimeout(
    Promise.race([sub.nextResult(5_000, source).then((r) => ({ result: r })), sub.ended.then((e) => ({ ended: e }))]),
    5_000,
    source,
  );
  return { sub, answer };
}

function errorCodes(answer: Awaited<ReturnType<typeof firstAnswer>>['answer']): unknown[] {
  if ('result' in answer) return codesOf(answer.result.errors as never);
  const { ended } = answer;
  return ended.kind === 'error' && Array.isArray(ended.error) ? codesOf(ended.error as never) : [ended.kind];
}

async function token(scopes: Scope[], subject = 'ws-staff', ttlSeconds = 3600): Promise<string> {
  return (await mintStaffToken({ secret: stack.jwtSecret, scopes, subject, ttlSeconds })).token;
}

describe('connecting', () => {
  it('without a token: closed with 4403 before any operation runs', async () => {
    stack.sandbox.requests.clear();
    const ws = connectWith(null);
    const sub = subscribe(ws, doc('{ balance { currency } }'));
    expect((await closed(ws, 'the socket to close')).code).toBe(4403);
    expect(await withTimeout(sub.ended, 5_000, 'the operation to end')).toMatchObject({ kind: 'error' });
    expect(sub.results).toEqual([]);
    expect(stack.sandbox.requests.count()).toBe(0);
  });

  it.each([
    [
      'a token signed with another secret',
      async () => (await mintStaffToken({ secret: 'x'.repeat(40), scopes: ['payments:read'], subject: 's', ttlSeconds: 600 })).token,
    ],
    [
      'an expired token',
      async () =>
        (
          await mintStaffToken({
            secret: stack.jwtSecret,
            scopes: ['payments:read'],
            subject: 's',
            ttlSeconds: 60,
            now: new Date(Date.now() - 3_600_000),
          })
        ).token,
    ],
    ['not a JWT', async () => 'not-a-jwt'],
  ])('with %s: closed with 4403, nothing runs', async (_label, make) => {
    stack.sandbox.requests.clear();
    const ws = connectWith(await make());
    const sub = subscribe(ws, doc('{ balance { currency } }'));
    expect((await closed(ws, 'the socket to close')).code).toBe(4403);
    expect(sub.results).toEqual([]);
    expect(stack.sandbox.requests.count()).toBe(0);
  });

  it('with connection parameters that carry the token in another shape: closed with 4403', async () => {
    const valid = await token(['payments:read']);
    for (const connectionParams of [{ Authorization: `Bearer ${valid}` }, { authorization: valid }, { token: valid }]) {
      const ws = wsClient(stack.gateway.graphqlUrl, { connectionParams });
      expect((await closed(ws, `the socket to close (${Object.keys(connectionParams)[0]})`)).code).toBe(4403);
    }
  });

  it('with a valid token: operations run', async () => {
    const ws = connectWith(await token(['payments:read']));
    await ws.connected;
    const { answer } = await firstAnswer(ws, '{ balance { currency } }');
    expect(answer).toEqual({ result: { data: { balance: { currency: 'XOF' } } } });
  });
});

describe('token expiry', () => {
  it('closes the socket with 4403 when its token expires, ending the subscriptions on it', async () => {
    const ws = connectWith(await token(['events:read'], 'short-lived', 2));
    await ws.connected;
    const sub = subscribe(ws, doc('subscription { paymentEvents { id } }'));
    await waitFor(() => probe.paymentEventsOpen() > 0, 'paymentEvents to be live');
    const close = await closed(ws, 'the socket to close at token expiry');
    expect(close.code).toBe(4403);
    expect(await withTimeout(sub.ended, 5_000, 'the subscription to end')).toMatchObject({ kind: 'error' });
  });
});

describe('a subscription the token may not run errors alone; the socket stays', () => {
  it('a payments:read-only staff token: paymentEvents is FORBIDDEN, queries on the same socket still run', async () => {
    const ws = connectWith(await token(['payments:read']));
    await ws.connected;
    const { answer } = await firstAnswer(ws, 'subscription { paymentEvents { id } }');
    expect(errorCodes(answer)).toEqual(['FORBIDDEN']);
    const again = await firstAnswer(ws, '{ balance { currency } }');
    expect(again.answer).toEqual({ result: { data: { balance: { currency: 'XOF' } } } });
    expect(ws.closes).toEqual([]);
  });

  it("a client token: another charge's chargeUpdated is FORBIDDEN; its own charge's updates arrive on the same socket", async () => {
    const own = await createOtpCharge(stack, { provider: 'OPC_BF' });
    const other = await createOtpCharge(stack, { provider: 'OPC_BF' });
    const ws = connectWith(own.clientToken);
    await ws.connected;

    stack.sandbox.requests.clear();
    const refused = await firstAnswer(ws, 'subscription ($r: String!) { chargeUpdated(reference: $r) { reference status } }', {
      r: other.reference,
    });
    expect(errorCodes(refused.answer)).toEqual(['FORBIDDEN']);
    expect(stack.sandbox.requests.count()).toBe(0);

    const since = getsOf(stack.sandbox, 'charge', own.reference);
    const mine = subscribe(ws, doc('subscription ($r: String!) { chargeUpdated(reference: $r) { reference status } }'), {
      r: own.reference,
    });
    await untilWatching(probe, stack.sandbox, 'charge', own.reference, { since });
    expect(await mine.next(5_000, 'the current state')).toEqual({ chargeUpdated: { reference: own.reference, status: 'SEND_OTP' } });

    // The customer's browser confirms over the same socket (a mutation over WebSocket, client-token rules).
    const submitted = await firstAnswer(
      ws,
      'mutation ($input: SubmitChargeOtpInput!) { submitChargeOtp(input: $input) { __typename ... on PaymentError { code } } }',
      { input: { chargeReference: own.reference, otp: '123456' } },
    );
    expect(submitted.answer).toEqual({ result: { data: { submitChargeOtp: { __typename: 'SubmitChargeOtpPayload' } } } });

    expect(await mine.next(5_000, 'chargeUpdated SUCCESS')).toEqual({ chargeUpdated: { reference: own.reference, status: 'SUCCESS' } });
    expect(ws.closes).toEqual([]);
  });
});

describe('mutations over WebSocket follow the HTTP rules', () => {
  const CREATE_TRANSFER = `mutation ($input: CreateTransferInput!) {
    createTransfer(input: $input) { __typename ... on CreateTransferPayload { transfer { reference } } ... on PaymentError { code } }
  }`;
  const transferInput = () => ({ input: { amount: 1000, recipientPhone: '70000000', idempotencyKey: randomUUID() } });

  it('without payouts:write: FORBIDDEN naming the scope, nothing sent; with it: the transfer is made', async () => {
    const reader = connectWith(await token(['payments:read', 'events:read']));
    await reader.connected;
    stack.sandbox.requests.clear();
    const { answer } = await firstAnswer(reader, CREATE_TRANSFER, transferInput());
    expect(errorCodes(answer)).toEqual(['FORBIDDEN']);
    expect('result' in answer && answer.result.errors?.[0]?.extensions?.requiredScope).toBe('payouts:write');
    expect(stack.sandbox.requests.count()).toBe(0);

    const payer = connectWith(await token(['payouts:write']));
    await payer.connected;
    const made = await firstAnswer(payer, CREATE_TRANSFER, transferInput());
    expect(made.answer).toMatchObject({ result: { data: { createTransfer: { __typename: 'CreateTransferPayload' } } } });
  });

  it("a client token: createTransfer and another charge's OTP are FORBIDDEN, nothing sent", async () => {
    const own = await createOtpCharge(stack, { provider: 'OPC_BF' });
    const other = await createOtpCharge(stack, { provider: 'OPC_BF' });
    const ws = connectWith(own.clientToken);
    await ws.connected;
    stack.sandbox.requests.clear();
    const transfer = await firstAnswer(ws, CREATE_TRANSFER, transferInput());
    expect(errorCodes(transfer.answer)).toEqual(['FORBIDDEN']);
    const otp = await firstAnswer(ws, 'mutation ($input: SubmitChargeOtpInput!) { submitChargeOtp(input: $input) { __typename } }', {
      input: { chargeReference: other.reference, otp: '123456' },
    });
    expect(errorCodes(otp.answer)).toEqual(['FORBIDDEN']);
    await roundTrip(ws);
    expect(stack.sandbox.requests.count()).toBe(0);
    expect(ws.closes).toEqual([]);
  });
});
