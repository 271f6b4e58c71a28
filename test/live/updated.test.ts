// Resource subscriptions that start with the truth: the current state at
// once, a typed error for an unknown reference, and a retryable
// SUBSCRIPTION_INTERRUPTED end (instead of a silently dead stream) when the
// subscription can no longer follow its resource. Real graphql-ws clients, the
// gateway over HTTP, the sandbox on a manual clock (nothing moves by itself).
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/sandbox/index.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { ChargeUpdated, CheckoutUpdated, SettlementUpdated, TransferUpdated, createOtpCharge } from './documents.js';
import { disposeAllClients, getsOf, postWebhook, staffClient, subscribe, waitFor, withTimeout } from './helpers.js';

let stack: TestStack;

beforeAll(async () => {
  stack = await startStack({ sandbox: { clock: manualClock() }, env: { SUBSCRIPTION_POLL_MS: '0' }, sandboxWebhooks: true });
});
afterEach(async () => {
  stack.sandbox.faults.clear();
  await disposeAllClients();
});
afterAll(async () => {
  await disposeAllClients();
  await stack?.close();
});

type Errors = Array<{ message: string; extensions?: Record<string, unknown> }>;

describe('*Updated subscriptions', () => {
  it('chargeUpdated on a pending charge delivers its current state at once, and stays open for the next change', async () => {
    const reference = await createOtpCharge(stack);
    const sub = subscribe(staffClient(stack), ChargeUpdated, { reference });
    expect((await sub.next(3_000, 'the current state')).chargeUpdated).toEqual({
      __typename: 'Charge',
      reference,
      status: 'SEND_OTP',
      amount: 1500,
      provider: 'OPA_BF',
    });
    expect(sub.isEnded).toBe(false);
  });

  it('an unknown reference is a typed NOT_FOUND error (English and French), for each resource kind', async () => {
    const ws = staffClient(stack);
    const cases = [
      [ChargeUpdated, 'charge', 'ch_does_not_exist'],
      [TransferUpdated, 'transfer', 'tr_does_not_exist'],
      [SettlementUpdated, 'settlement', randomUUID()],
      [CheckoutUpdated, 'checkout', randomUUID()],
    ] as const;
    for (const [doc, resource, reference] of cases) {
      const sub = subscribe(ws, doc as typeof ChargeUpdated, { reference });
      const end = await withTimeout(sub.ended, 5_000, `the ${resource} refusal`);
      const errors = (end.kind === 'error' ? end.error : sub.results[0]?.errors) as Errors;
      expect(errors).toHaveLength(1);
      expect(errors[0]!.message).toBe(`No ${resource} with this reference.`);
      expect(errors[0]!.extensions).toMatchObject({
        code: 'NOT_FOUND',
        resource,
        reference,
        retryable: false,
        messageFr: expect.any(String),
      });
      expect(sub.results.filter((r) => r.data)).toEqual([]);
    }
    expect(ws.closes).toEqual([]);
  });

  it('when the resource cannot be fetched after an event about it: a retryable SUBSCRIPTION_INTERRUPTED, then the end', async () => {
    const reference = await createOtpCharge(stack);
    const ws = staffClient(stack);
    const sub = subscribe(ws, ChargeUpdated, { reference });
    expect((await sub.next(3_000, 'the current state')).chargeUpdated.status).toBe('SEND_OTP');

    // From now on the service refuses to show the charge; then a webhook about it arrives.
    stack.sandbox.faults.add({
      method: 'GET',
      path: `/v1/payment/charges/${reference}`,
      kind: 'envelope',
      httpStatus: 400,
      body: { status: false, message: 'Bad request', error_code: 'INVALID_DATA' },
      times: 'unlimited',
    });
    const gets = getsOf(stack.sandbox, 'charge', reference);
    const body = JSON.stringify({ event: 'charge.success', data: { reference, status: 'success' } });
    expect((await postWebhook(stack.gateway.webhookUrl!, stack.webhookSecret, body)).status).toBe(200);

    const result = await sub.nextResult(10_000, 'the interruption');
    expect(result.data ?? null).toBeNull();
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0]!.extensions).toMatchObject({ code: 'SUBSCRIPTION_INTERRUPTED', retryable: true });
    expect(await withTimeout(sub.ended, 2_000, 'the end of the stream')).toEqual({ kind: 'complete' });
    // The refresh after the webhook, then the subscription's own attempt (no replica's refresh came).
    await waitFor(() => getsOf(stack.sandbox, 'charge', reference) >= gets + 2, 'both fetches');
    expect(ws.closes).toEqual([]);
  });
});
