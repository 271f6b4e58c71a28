// Graceful shutdown with money in flight: what SIGTERM runs (gateway.close()) while
// eight payments are at the service. Every one is answered and recorded, a retry of
// any of them on another replica returns the first result without a new payment, a
// live subscription is completed before its socket closes with 1001, and a new
// connection is refused as soon as shutdown begins.
import { randomUUID } from 'node:crypto';
import { print } from 'graphql';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, type ManualClock } from '../../src/sandbox/index.js';
import { REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';
import { CreateCharge, CreateTransfer, PaymentEvents } from '../live/documents.js';
import { disposeAllClients, staffClient, subscribe } from '../live/helpers.js';

const DELAY_MS = 1_000;
const CHARGES = 6;
const TRANSFERS = 2;
const CHARGE_POST = { method: 'POST', path: '/v1/payment/charges/' } as const;
const TRANSFER_POST = { method: 'POST', path: '/v1/payment/transfers/' } as const;

let clock: ManualClock;
let replicaA: TestStack;
let replicaB: TestStack;

beforeAll(async () => {
  clock = manualClock();
  const namespace = uniqueNamespace('shutdown');
  replicaA = await startStack({ sandbox: { clock }, env: { REDIS_URL }, redisNamespace: namespace });
  // Same deployment: same Redis namespace, same service account, same token secret (so the same subject).
  replicaB = await startStack({
    sharedSandbox: replicaA.sandbox,
    apiKey: replicaA.apiKey,
    env: { REDIS_URL, AUTH_JWT_SECRET: replicaA.jwtSecret },
    redisNamespace: namespace,
  });
});
afterAll(async () => {
  await disposeAllClients();
  await replicaB?.close();
  await replicaA?.close();
});

const chargeInput = (i: number) => ({ amount: 1_000 + i, phone: '76000000', provider: 'OPA_BF' as const, idempotencyKey: randomUUID() });
const transferInput = (i: number) => ({
  amount: 500 + i,
  recipientPhone: '76000000',
  recipientWallet: 'OPA_BF' as const,
  idempotencyKey: randomUUID(),
});

describe('graceful shutdown', () => {
  it('answers and records every payment in flight, completes subscriptions, then closes sockets with 1001', async () => {
    const { sandbox } = replicaA;
    const timersBefore = clock.pendingTimers();
    sandbox.faults.add({ ...CHARGE_POST, kind: 'delay', ms: DELAY_MS, times: CHARGES });
    sandbox.faults.add({ ...TRANSFER_POST, kind: 'delay', ms: DELAY_MS, times: TRANSFERS });

    const ws = staffClient(replicaA);
    await ws.connected;
    const events = subscribe(ws, PaymentEvents, {});
    const order: string[] = [];

    const chargeInputs = Array.from({ length: CHARGES }, (_, i) => chargeInput(i));
    const transferInputs = Array.from({ length: TRANSFERS }, (_, i) => transferInput(i));
    const charges = chargeInputs.map((input) =>
      replicaA.gql(CreateCharge, { input }).then((res) => {
        order.push('answer');
        return res;
      }),
    );
    // Mutations over WebSocket count too: no HTTP request tracks them.
    const transfers = transferInputs.map((input) => {
      const sub = subscribe(ws, CreateTransfer, { input });
      return sub.next(15_000, 'the transfer result').then((data) => {
        order.push('answer');
        return data;
      });
    });
    void events.ended.then(() => order.push('subscription complete'));
    // The same subscription over SSE: its stream ends too (yoga's `complete` event, then the end of the body).
    const sse = await fetch(`${replicaA.gateway.url}/graphql`, {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${replicaA.staffToken}` },
      body: JSON.stringify({ query: print(PaymentEvents) }),
    });
    expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const sseBody = sse.text();

    // All eight are at the service, which holds them until the clock moves.
    await waitFor(() => clock.pendingTimers() >= timersBefore + CHARGES + TRANSFERS, 'eight payments held at the service');
    const closing = replicaA.gateway.close();
    void closing.then(() => order.push('closed'));

    // Shutdown has begun: the subscription is completed, new connections are refused, and the gateway waits.
    await expect(events.ended).resolves.toEqual({ kind: 'complete' });
    expect(await sseBody).toMatch(/event: complete/);
    await expect(request(`${replicaA.gateway.url}/health/live`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(order).not.toContain('closed');
    expect(ws.closes).toEqual([]);

    await clock.advance(DELAY_MS);
    const chargeResults = await Promise.all(charges);
    const transferResults = await Promise.all(transfers);
    await closing;

    for (const res of chargeResults)
      expect(res.data?.createCharge).toMatchObject({ __typename: 'CreateChargePayload', status: 'SEND_OTP' });
    for (const data of transferResults) expect(data.createTransfer).toMatchObject({ __typename: 'CreateTransferPayload' });
    expect(order.slice(0, 1)).toEqual(['subscription complete']);
    expect(order.filter((o) => o === 'answer')).toHaveLength(CHARGES + TRANSFERS);
    expect(order.at(-1)).toBe('closed');
    await waitFor(() => ws.closes.length > 0, 'the socket closed');
    expect(ws.closes[0]!.code).toBe(1001);
    expect(sandbox.requests.count(CHARGE_POST)).toBe(CHARGES);
    expect(sandbox.requests.count(TRANSFER_POST)).toBe(TRANSFERS);

    // Each was recorded: retried on the other replica, the first result comes back and nothing is sent again.
    for (const [i, input] of chargeInputs.entries()) {
      const retry = await replicaB.gql(CreateCharge, { input });
      const first = chargeResults[i]!.data?.createCharge as { reference: string };
      expect(retry.data?.createCharge).toMatchObject({ __typename: 'CreateChargePayload', reference: first.reference });
    }
    for (const [i, input] of transferInputs.entries()) {
      const retry = await replicaB.gql(CreateTransfer, { input });
      const first = transferResults[i]!.createTransfer as { transfer: { reference: string } };
      expect(retry.data?.createTransfer).toMatchObject({ transfer: { reference: first.transfer.reference } });
    }
    expect(sandbox.requests.count(CHARGE_POST)).toBe(CHARGES);
    expect(sandbox.requests.count(TRANSFER_POST)).toBe(TRANSFERS);
  });
});
