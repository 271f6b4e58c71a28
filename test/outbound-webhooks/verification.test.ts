// Every kind of event a merchant's server cares about reaches it signed to the
// Standard Webhooks spec: a charge confirmed by OTP, a pay_offline charge, a
// checkout, a transfer and a payout batch. Two receivers verify each delivery
// independently, one with the `standardwebhooks` package and one with svix's
// `Webhook` class; a receiver holding the wrong secret fails every one.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';
import { createOtpCharge, createPayOfflineCharge, createTransfer, initializeCheckout, submitOtp } from '../live/documents.js';
import { createEndpoint, gql, startReceiver, type Receiver } from './helpers.js';

const namespace = uniqueNamespace('outbound-verify');
const METRICS_TOKEN = 'metrics-token-of-the-verification-suite';
let stack: TestStack;
let receiver: Receiver;
let secret: string;

beforeAll(async () => {
  stack = await startStack({
    redisNamespace: namespace,
    sandboxWebhooks: true,
    sandbox: { delays: { payOfflineMs: 200, transferMs: 100 } },
    env: { REDIS_URL, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SUBSCRIPTION_POLL_MS: '0', METRICS_TOKEN: METRICS_TOKEN },
  });
  receiver = await startReceiver();
  ({ secret } = await createEndpoint(stack, receiver.url));
}, 30_000);
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
  const redis = new Redis(REDIS_URL);
  await deleteByPrefix(redis, namespace);
  await redis.quit();
});

async function form(url: string, fields: Record<string, string>): Promise<number> {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  await res.body.dump();
  return res.statusCode;
}

async function runPayoutBatch(): Promise<string> {
  for (const wallet of ['opa_bf', 'opb_bf'] as const) stack.sandbox.topUp(stack.apiKey, wallet, 100_000);
  const created = await gql(
    stack,
    `mutation ($input: CreatePayoutBatchInput!) { createPayoutBatch(input: $input) { __typename ... on CreatePayoutBatchPayload { batch { id batchId } } } }`,
    {
      input: { idempotencyKey: randomUUID(), label: 'webhook test' },
    },
  );
  const { id, batchId } = created.data.createPayoutBatch.batch as { id: string; batchId: string };
  const items = [0, 1].map((i) => ({
    amount: 100,
    recipientPhone: i ? '70000001' : '76000001',
    recipientWallet: i ? 'OPB_BF' : 'OPA_BF',
    reference: `row-${i}`,
  }));
  await gql(stack, `mutation ($input: AddPayoutBatchItemsInput!) { addPayoutBatchItems(input: $input) { __typename } }`, {
    input: { batchId: id, page: 1, items },
  });
  const started = await gql(stack, `mutation ($input: StartPayoutBatchInput!) { startPayoutBatch(input: $input) { __typename } }`, {
    input: { batchId: id },
  });
  expect(started.data.startPayoutBatch.__typename).toBe('StartPayoutBatchPayload');
  return batchId;
}

/** The deliveries the receiver accepted of `kind` about `reference`. */
const deliveredAbout = (kind: string, reference: string) =>
  receiver.received.filter((r) => {
    const body = JSON.parse(r.body) as { type: string; data: { reference?: string; id?: string } };
    return body.type === kind && (body.data.reference === reference || body.data.id === reference);
  });

describe('events delivered to a merchant server, verified by two independent verifiers', () => {
  it('a charge by OTP, a pay_offline charge, a checkout, a transfer and a payout batch each arrive, and verify', async () => {
    const otpCharge = await createOtpCharge(stack);
    await submitOtp(stack, otpCharge);
    const offline = await createPayOfflineCharge(stack);
    const checkout = await initializeCheckout(stack);
    expect(await form(`${checkout.page}/pay`, { provider: 'opa_bf', phone: '76000000' })).toBe(303);
    expect(await form(`${checkout.page}/otp`, { otp: '123456' })).toBe(303);
    const transfer = await createTransfer(stack);
    const batchId = await runPayoutBatch();

    const expected: Array<[string, string]> = [
      ['charge.success', otpCharge],
      ['charge.success', offline],
      ['checkout.success', checkout.uuid],
      ['transfer.success', transfer],
      ['payout_batch.completed', batchId],
    ];
    await waitFor(() => expected.every(([kind, ref]) => deliveredAbout(kind, ref).length > 0), 'every event at the receiver', 30_000, 50);

    for (const [kind, ref] of expected) {
      const [delivery] = deliveredAbout(kind, ref);
      const body = JSON.parse(delivery!.body) as { type: string; timestamp: string; data: Record<string, unknown> };
      expect(body.type).toBe(kind);
      expect(body.data).toMatchObject({ eventId: delivery!.headers['webhook-id'], sequence: expect.stringMatching(/^\d+-\d+$/) });
      if (kind.startsWith('charge.'))
        expect(body.data).toMatchObject({ reference: ref, status: 'SUCCESS', amount: expect.any(Number), currency: 'XOF' });
      expect(delivery!.headers['content-type']).toBe('application/json');
      expect(delivery!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
      // Both verifiers take the exact bytes and the three headers.
      expect(new StandardWebhook(secret).verify(delivery!.body, delivery!.headers)).toEqual(body);
      expect(new SvixWebhook(secret).verify(delivery!.body, delivery!.headers)).toEqual(body);
      const wrong = `whsec_${Buffer.from(randomUUID()).toString('base64')}`;
      expect(() => new StandardWebhook(wrong).verify(delivery!.body, delivery!.headers)).toThrow(/No matching signature/);
      expect(() => new SvixWebhook(wrong).verify(delivery!.body, delivery!.headers)).toThrow(/No matching signature/);
      // A tampered body fails too.
      expect(() => new SvixWebhook(secret).verify(delivery!.body.replace(ref, `${ref}x`), delivery!.headers)).toThrow();
    }
    // Every delivery verifies, not only the ones asked about; the secret is in no log line.
    for (const r of receiver.received) expect(() => new StandardWebhook(secret).verify(r.body, r.headers)).not.toThrow();
    expect(stack.logLines.join('\n')).not.toContain(secret.slice(6));
  }, 60_000);

  it('counts attempts and deliveries in the metrics, and logs no answer body', async () => {
    const res = await request(`${stack.gateway.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const text = await res.body.text();
    expect(res.statusCode).toBe(200);
    expect(text).toMatch(/gateway_webhook_attempts_total\{outcome="success"\} [1-9]/);
    expect(text).toMatch(/gateway_webhook_deliveries_total\{outcome="succeeded"\} [1-9]/);
    expect(text).toMatch(/gateway_webhook_attempt_duration_seconds_count\{outcome="success"\} [1-9]/);
    expect(text).toMatch(/gateway_webhook_oldest_waiting_seconds\{endpoint="we_[0-9a-f]+"\} 0/);
    // The receiver's answers hold 2,000 "x": the first 1 KB is kept in the delivery log, none of it in a log line.
    expect(stack.logLines.join('\n')).not.toContain('x'.repeat(100));
  });
});
