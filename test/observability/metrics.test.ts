// GET /metrics after a scripted flow against the sandbox over HTTP: a charge
// confirmed by OTP (then replayed, then reused with other input), a payout,
// webhooks (one new, its duplicate, one badly signed) and an anonymous request.
// The counters must show exactly that flow. Also: the METRICS_TOKEN guard, and
// /metrics being off in live mode without one and open in sandbox mode.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { loadConfig } from '../../src/config.js';
import { startGateway } from '../../src/gateway.js';
import { silentLogger } from '../../src/logger.js';
import { signBody } from '../../src/inbound-webhooks/signature.js';
import { graphql } from '../gql/index.js';
import { startStack, testKey, type TestStack } from '../helpers/gateway.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { as } from '../schema/support.js';
import { parseMetrics, sample } from './prometheus-text.js';

const METRICS_TOKEN = randomBytes(24).toString('hex');

const CreateCharge = graphql(`
  mutation MetricsFlowCharge($input: CreateChargeInput!) {
    createCharge(input: $input) {
      __typename
      ... on CreateChargePayload { reference nextAction }
      ... on PaymentError { code }
    }
  }
`);
const SubmitOtp = graphql(`
  mutation MetricsFlowOtp($input: SubmitChargeOtpInput!) {
    submitChargeOtp(input: $input) { __typename ... on SubmitChargeOtpPayload { charge { status } } ... on PaymentError { code } }
  }
`);
const CreateTransfer = graphql(`
  mutation MetricsFlowPayout($input: CreateTransferInput!) {
    createTransfer(input: $input) { __typename ... on CreateTransferPayload { transfer { reference } } ... on PaymentError { code } }
  }
`);
const Balance = graphql(`
  query MetricsFlowBalance {
    balance { currency }
  }
`);

async function scrape(url: string, authorization?: string): Promise<{ status: number; text: string; contentType: string }> {
  const res = await request(`${url}/metrics`, { headers: authorization ? { authorization } : {} });
  return { status: res.statusCode, text: await res.body.text(), contentType: String(res.headers['content-type']) };
}

describe('/metrics after a scripted flow', () => {
  let stack: TestStack;
  let metrics: ReturnType<typeof parseMetrics>;

  beforeAll(async () => {
    // The readiness probe's first check calls GET /balances once; the interval keeps it from calling again.
    stack = await startStack({ env: { METRICS_TOKEN, HEALTH_PROBE_MS: '3600000' } });

    const key = randomUUID();
    const input = { amount: 2500, phone: '58000000', provider: 'OPC_BF' as const, idempotencyKey: key };
    const charge = as((await stack.gql(CreateCharge, { input })).data?.createCharge, 'CreateChargePayload');
    const otp = await stack.gql(SubmitOtp, { input: { chargeReference: charge.reference, otp: '123456' } });
    expect(otp.data?.submitChargeOtp.__typename).toBe('SubmitChargeOtpPayload');
    // The same key and input: the first success again, nothing sent.
    expect(as((await stack.gql(CreateCharge, { input })).data?.createCharge, 'CreateChargePayload').reference).toBe(charge.reference);
    // The same key, other input: a conflict.
    const conflict = await stack.gql(CreateCharge, { input: { ...input, amount: 2600 } });
    expect(conflict.data?.createCharge).toMatchObject({ __typename: 'IdempotencyConflictError', code: 'IDEMPOTENCY_CONFLICT' });

    const payout = await stack.gql(CreateTransfer, { input: { amount: 1000, recipientPhone: '70000000', idempotencyKey: randomUUID() } });
    expect(payout.data?.createTransfer.__typename).toBe('CreateTransferPayload');

    // No reference in it: a webhook about a resource would make the gateway fetch it in the background.
    const webhook = JSON.stringify({ id: `evt_${randomUUID()}`, event: 'balance.updated', data: {} });
    const post = (body: string, secret: string) =>
      request(stack.gateway.webhookUrl!, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-hash': signBody(body, secret, 'hmac-sha256-hex') },
        body,
      }).then(async (res) => (await res.body.text(), res.statusCode));
    expect(await post(webhook, stack.webhookSecret)).toBe(200);
    expect(await post(webhook, stack.webhookSecret)).toBe(200); // duplicate
    expect(await post(webhook, 'not-the-secret')).toBe(400);

    const anonymous = await stack.gql(Balance, undefined, { authorization: '' });
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');

    const scraped = await scrape(stack.gateway.url, `Bearer ${METRICS_TOKEN}`);
    expect(scraped.status).toBe(200);
    expect(scraped.contentType).toContain('text/plain');
    metrics = parseMetrics(scraped.text);
  }, 60_000);

  afterAll(() => stack?.close());

  it('counts each operation by root field and outcome, with a latency histogram of the same labels', () => {
    const ops = metrics.samples('gateway_graphql_operations_total');
    expect(ops).toEqual(
      expect.arrayContaining([
        sample({ type: 'mutation', field: 'createCharge', outcome: 'success' }, 2),
        sample({ type: 'mutation', field: 'createCharge', outcome: 'IDEMPOTENCY_CONFLICT' }, 1),
        sample({ type: 'mutation', field: 'submitChargeOtp', outcome: 'success' }, 1),
        sample({ type: 'mutation', field: 'createTransfer', outcome: 'success' }, 1),
        sample({ type: 'query', field: 'balance', outcome: 'UNAUTHENTICATED' }, 1),
      ]),
    );
    expect(ops).toHaveLength(5);
    const counts = metrics.samples('gateway_graphql_operation_duration_seconds_count');
    expect(counts.map((s) => [s.labels.field, s.labels.outcome, s.value]).sort()).toEqual(
      ops.map((s) => [s.labels.field, s.labels.outcome, s.value]).sort(),
    );
  });

  it('counts calls to the payment service by route template, never by reference', () => {
    const calls = metrics.samples('gateway_upstream_requests_total');
    // The readiness probe reads the balance on its own schedule, outside the flow.
    const flow = calls.filter((s) => s.labels.endpoint !== 'GET /v1/payment/balances');
    expect(Object.fromEntries(flow.map((s) => [`${s.labels.endpoint} ${s.labels.outcome}`, s.value]))).toEqual({
      // A fresh in-memory idempotency store cannot prove a key unused: the charge and the payout are
      // looked up (by ext_id, in the lists) before they are sent; the charge the OTP submission answers
      // with is completed by a fetch.
      'GET /v1/payment/charges success': 1,
      'POST /v1/payment/charges/ success': 1,
      'GET /v1/payment/charges/{reference} success': 1,
      'POST /v1/payment/charges/submit success': 1,
      'GET /v1/payment/transfers success': 1,
      'POST /v1/payment/transfers/ success': 1,
    });
    for (const s of calls) expect(s.labels.endpoint).toMatch(/^(GET|POST) \/v1\/payment\/[a-z/]*(\{reference\}[a-z/]*)?$/);
    expect(metrics.text).not.toMatch(/ch_|tr_|chk_[0-9a-f]/);
    const counts = metrics.samples('gateway_upstream_request_duration_seconds_count');
    expect(counts.reduce((sum, s) => sum + s.value, 0)).toBe(calls.reduce((sum, s) => sum + s.value, 0));
  });

  it('counts webhooks received, verified, duplicate and rejected', () => {
    expect(metrics.samples('gateway_webhooks_total')).toEqual(
      expect.arrayContaining([
        sample({ event: 'received' }, 3),
        sample({ event: 'verified' }, 2),
        sample({ event: 'duplicate' }, 1),
        sample({ event: 'rejected' }, 1),
      ]),
    );
    expect(metrics.samples('gateway_webhooks_total')).toHaveLength(4);
  });

  it('counts idempotency replays and conflicts, and no unknown outcome', () => {
    expect(metrics.samples('gateway_idempotency_events_total')).toEqual([sample({ event: 'replay' }, 1), sample({ event: 'conflict' }, 1)]);
  });

  it('shows connections, no subscription running, and no rate-limit refusal', () => {
    expect(metrics.samples('gateway_open_connections').map((s) => s.labels.transport)).toEqual(['http', 'ws']);
    expect(metrics.samples('gateway_open_connections').find((s) => s.labels.transport === 'ws')?.value).toBe(0);
    expect(metrics.samples('gateway_active_subscriptions')).toEqual([sample({}, 0)]);
    expect(metrics.samples('gateway_rate_limit_refusals_total')).toEqual([]);
    expect(metrics.text).toContain('# TYPE gateway_rate_limit_refusals_total counter');
  });

  it('answers only the METRICS_TOKEN bearer', async () => {
    expect((await scrape(stack.gateway.url)).status).toBe(401);
    expect((await scrape(stack.gateway.url, `Bearer ${METRICS_TOKEN}x`)).status).toBe(401);
    expect((await scrape(stack.gateway.url, `Bearer ${stack.staffToken}`)).status).toBe(401);
    expect((await scrape(stack.gateway.url, `Bearer ${METRICS_TOKEN}`)).status).toBe(200);
  });
});

describe('/metrics when the answer to a payout is lost', () => {
  it('shows the transport fault, the unknown outcome, and the operation ending in an UpstreamError', async () => {
    const stack = await startStack({ env: { METRICS_TOKEN, HEALTH_PROBE_MS: '3600000' } });
    try {
      // The service carries the payout out, then the connection drops before the answer.
      stack.sandbox.faults.add({ method: 'POST', path: '/v1/payment/transfers/', kind: 'reset', afterProcessing: true });
      const res = await stack.gql(CreateTransfer, { input: { amount: 1000, recipientPhone: '70000000', idempotencyKey: randomUUID() } });
      expect(res.data?.createTransfer).toMatchObject({ __typename: 'UpstreamError', code: 'UPSTREAM_UNAVAILABLE' });

      const scraped = parseMetrics((await scrape(stack.gateway.url, `Bearer ${METRICS_TOKEN}`)).text);
      expect(scraped.samples('gateway_upstream_requests_total')).toContainEqual(
        sample({ endpoint: 'POST /v1/payment/transfers/', outcome: 'reset' }, 1),
      );
      expect(scraped.samples('gateway_idempotency_events_total')).toEqual([sample({ event: 'outcome_unknown' }, 1)]);
      expect(scraped.samples('gateway_graphql_operations_total')).toEqual([
        sample({ type: 'mutation', field: 'createTransfer', outcome: 'UPSTREAM_UNAVAILABLE' }, 1),
      ]);
    } finally {
      await stack.close();
    }
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  it('is off in live mode', async () => {
    const stack = await startStack();
    try {
      expect((await scrape(stack.gateway.url)).status).toBe(404);
    } finally {
      await stack.close();
    }
  });

  it('is open in sandbox mode', async () => {
    const sandbox = await startTestSandbox();
    // No PAYMENT_BASE_URL: sandbox mode, the service handed in as `npm start` does.
    const gateway = await startGateway(loadConfig({ PORT: '0', SANDBOX_PORT: '0', LOG_LEVEL: 'silent' }), silentLogger, {
      upstream: { baseUrl: sandbox.url, apiKey: testKey() },
    });
    try {
      const scraped = await scrape(gateway.url);
      expect(scraped.status).toBe(200);
      expect(scraped.text).toContain('# TYPE gateway_graphql_operations_total counter');
    } finally {
      await gateway.close();
      await sandbox.close();
    }
  });
});
