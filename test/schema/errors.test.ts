// What clients see when things go wrong: upstream error codes we do not know,
// a payment service that is down or answers garbage, a rejected API key, an
// unexpected failure inside the gateway, requests whose outcome is unknown;
// and the typed errors themselves (every PaymentError says it in French too).
// No secret, URL or stack trace may reach a response.
import { MERCHANT_ERRORS } from '../../src/errors/merchant-errors.js';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_OTP } from '../../src/sandbox/index.js';
import { graphql } from '../gql/index.js';
import type { CreateChargeInput, CreateTransferInput } from '../gql/graphql.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { closedPort } from '../helpers/http.js';
import { Api } from '../helpers/sandbox-api.js';
import { startRedisServer } from '../helpers/redis-server.js';
import { as, uniqueKey } from './support.js';
import { waitFor } from '../helpers/wait.js';
import { AddItems, ApproveBatch, BatchItems, BatchView, CreateBatch, StartBatch } from '../payout-batches/documents.js';

const Transfer = graphql(`
  mutation ErrorsTestTransfer($input: CreateTransferInput!) {
    createTransfer(input: $input) {
      __typename
      ... on CreateTransferPayload { transfer { reference amount extId } }
      ... on UpstreamError { outcomeUnknown }
      ... on PaymentError { code message messageFr retryable }
    }
  }
`);

const BalanceQuery = graphql(`
  query ErrorsTestBalance {
    balance { currency collection { available } }
  }
`);

const ChargeAmount = graphql(`
  query ErrorsTestCharge($reference: String!) {
    charge(reference: $reference) { reference amount status }
  }
`);

const PaymentErrorTypes = graphql(`
  query ErrorsTestPaymentErrorTypes {
    __type(name: "PaymentError") { possibleTypes { name } }
  }
`);

// Mutations that between them can produce every PaymentError.
const AnyCharge = graphql(`
  mutation ErrorsTestCreateCharge($input: CreateChargeInput!) {
    createCharge(input: $input) { __typename ... on CreateChargePayload { reference } ... on PaymentError { code message messageFr retryable } }
  }
`);
const AnyOtp = graphql(`
  mutation ErrorsTestOtp($input: SubmitChargeOtpInput!) {
    submitChargeOtp(input: $input) { __typename ... on SubmitChargeOtpPayload { charge { status } } ... on PaymentError { code message messageFr retryable } }
  }
`);
const AnyBulk = graphql(`
  mutation ErrorsTestBulk($input: CreateBulkTransferInput!) {
    createBulkTransfer(input: $input) {
      __typename
      ... on CreateBulkTransferPayload { failures { error { __typename code message messageFr retryable } } }
      ... on PaymentError { code message messageFr retryable }
    }
  }
`);
const AnySettlement = graphql(`
  mutation ErrorsTestSettlement($input: CreateSettlementInput!) {
    createSettlement(input: $input) { __typename ... on SettlementPayload { settlement { reference } } ... on PaymentError { code message messageFr retryable } }
  }
`);
const AnyCancel = graphql(`
  mutation ErrorsTestCancel($reference: String!) {
    cancelSettlement(reference: $reference) { __typename ... on SettlementPayload { settlement { status } } ... on PaymentError { code message messageFr retryable } }
  }
`);

const AnyWebhookEndpoint = graphql(`
  mutation ErrorsTestWebhookEndpoint($input: CreateWebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) { __typename ... on PaymentError { code message messageFr retryable } }
  }
`);
const AnyRotate = graphql(`
  mutation ErrorsTestRotate($input: RotateWebhookEndpointSecretInput!) {
    rotateWebhookEndpointSecret(input: $input) { __typename ... on PaymentError { code message messageFr retryable } }
  }
`);
const AnyRedeliver = graphql(`
  mutation ErrorsTestRedeliver($input: RedeliverWebhookInput!) {
    redeliverWebhook(input: $input) { __typename ... on PaymentError { code message messageFr retryable } }
  }
`);

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ inProcess: true });
});
afterAll(() => stack.close());

const sandboxHost = () => new URL(stack.sandbox.url).host;
/** A line of a JavaScript stack trace ("    at fn (file:line:col)"). */
const STACK_FRAME = /\bat (?:[\w$.<>]+ )?\(?(?:file:|node:|\/)[^)]*:\d+:\d+\)?/;

function expectNothingLeaked(raw: string, secrets: string[]) {
  for (const s of secrets) expect(raw.includes(s), `response leaks ${s}`).toBe(false);
  expect(raw).not.toMatch(STACK_FRAME);
  expect(raw).not.toMatch(/https?:\/\//);
  expect(raw).not.toMatch(/"stack"|originalError/);
}

const item: Payout = { amount: 1000, recipientPhone: '76123456' };

type Payout = Omit<CreateTransferInput, 'idempotencyKey'>;
/** One intended payment: a fresh idempotency key. */
const once = <T extends object>(input: T) => ({ ...input, idempotencyKey: uniqueKey('pay') });

describe('an error code the gateway does not know', () => {
  it('on a money-moving call: UpstreamError UNKNOWN_ERROR, outcome unknown (it may have gone through), retry with the same key', async () => {
    stack.sandbox.faults.add({
      method: 'POST',
      path: '/v1/payment/transfers/',
      kind: 'envelope',
      httpStatus: 400,
      body: { status: false, message: 'Something odd', error_code: 'WEIRD_NEW_CODE' },
    });
    const res = await stack.gql(Transfer, { input: once(item) });
    expect(res.errors).toBeUndefined();
    const error = as(res.data!.createTransfer, 'UpstreamError');
    expect(error).toMatchObject({ code: 'UNKNOWN_ERROR', outcomeUnknown: true, retryable: true });
    expect(error.message).toMatch(/same idempotency key/);
    expect(error.messageFr.length).toBeGreaterThan(0);
    expect(error.messageFr).not.toBe(error.message);
  });

  it('in a query: a GraphQL error with extensions.code UNKNOWN_ERROR', async () => {
    stack.sandbox.faults.add({
      method: 'GET',
      path: '/v1/payment/balances',
      kind: 'envelope',
      httpStatus: 200,
      body: { status: false, message: 'Something odd', error_code: 'WEIRD_NEW_CODE' },
    });
    const res = await stack.gql(BalanceQuery, {});
    expect(res.data?.balance ?? null).toBeNull();
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'UNKNOWN_ERROR', requestId: expect.any(String) });
  });

  it.each(['NETWORK_ERROR', 'INTERNAL_ERROR', 'EXTERNAL_API_ERROR'])(
    'a documented failure code %s on a money-moving call is an UpstreamError carrying that code, outcome unknown, retryable with the same key',
    async (code) => {
      stack.sandbox.faults.add({
        method: 'POST',
        path: '/v1/payment/transfers/',
        kind: 'envelope',
        httpStatus: 500,
        body: { status: false, message: 'x', error_code: code },
      });
      const error = as((await stack.gql(Transfer, { input: once(item) })).data!.createTransfer, 'UpstreamError');
      expect(error).toMatchObject({ code, retryable: true, outcomeUnknown: true });
    },
  );
});

describe('payment service down', () => {
  let down: TestStack;
  let port: number;
  beforeAll(async () => {
    port = await closedPort();
    down = await startStack({ inProcess: true, env: { PAYMENT_BASE_URL: `http://127.0.0.1:${port}` } });
  });
  afterAll(() => down.close());

  it('a mutation returns UpstreamError UPSTREAM_UNAVAILABLE, retryable (nothing was sent)', async () => {
    const res = await down.gql(Transfer, { input: once(item) });
    expect(res.errors).toBeUndefined();
    const error = as(res.data!.createTransfer, 'UpstreamError');
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', retryable: true, outcomeUnknown: false });
    expectNothingLeaked(res.raw, [down.apiKey, `127.0.0.1:${port}`, String(port)]);
  });

  it('a query fails with extensions.code UPSTREAM_UNAVAILABLE, and the body shows no key, address or stack', async () => {
    const res = await down.gql(BalanceQuery, {}, { 'x-request-id': 'req-down-1' });
    expect(res.status).toBe(200);
    expect(res.data?.balance ?? null).toBeNull();
    expect(res.errors).toHaveLength(1);
    expect(res.errors![0]!.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', retryable: true, requestId: 'req-down-1' });
    expect(res.errors![0]!.path).toEqual(['balance']);
    expectNothingLeaked(res.raw, [down.apiKey, `127.0.0.1:${port}`, String(port), down.sandbox.url]);
  });

  it('a nullable field fails alone: charge(reference) is null with the error beside it', async () => {
    const res = await down.gql(ChargeAmount, { reference: 'ch_0123456789abcdef01234567' });
    expect(res.data).toEqual({ charge: null });
    expect(res.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
  });
});

describe('a misbehaving payment service', () => {
  it.each([
    ['an HTML error page', { kind: 'html' as const, httpStatus: 502 }],
    ['a truncated body', { kind: 'truncated' as const }],
    ['fields of the wrong types', { kind: 'wrong_types' as const }],
    ['a dropped connection', { kind: 'reset' as const }],
  ])('%s on a query: UPSTREAM_UNAVAILABLE, nothing leaked', async (_name, fault) => {
    stack.sandbox.faults.add({ method: 'GET', path: '/v1/payment/balances', times: 'unlimited', ...fault });
    try {
      const res = await stack.gql(BalanceQuery, {});
      expect(res.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
      expectNothingLeaked(res.raw, [stack.apiKey, sandboxHost()]);
    } finally {
      stack.sandbox.faults.clear();
    }
  });

  it('a money-moving call whose answer is lost is reported as outcome unknown, retryable with the same key', async () => {
    stack.sandbox.faults.add({ method: 'POST', path: '/v1/payment/transfers/', kind: 'reset', afterProcessing: true });
    const error = as((await stack.gql(Transfer, { input: once({ ...item, amount: 1111 }) })).data!.createTransfer, 'UpstreamError');
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', outcomeUnknown: true, retryable: true });
    expect(error.messageFr).not.toBe(error.message);
  });

  it('with an idempotency key, a lost answer is found again at the service instead of paying twice', async () => {
    const key = uniqueKey('lost');
    stack.sandbox.faults.add({ method: 'POST', path: '/v1/payment/transfers/', kind: 'reset', afterProcessing: true });
    const lost = as(
      (await stack.gql(Transfer, { input: { ...item, amount: 2222, idempotencyKey: key } })).data!.createTransfer,
      'UpstreamError',
    );
    expect(lost.outcomeUnknown).toBe(true);

    stack.sandbox.requests.clear();
    const retry = as(
      (await stack.gql(Transfer, { input: { ...item, amount: 2222, idempotencyKey: key } })).data!.createTransfer,
      'CreateTransferPayload',
    );
    expect(retry.transfer.amount).toBe(2222);
    expect(stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers' })).toBe(0);
    const rest = new Api(stack.sandbox.url, stack.apiKey);
    const listed = (await rest.get('/v1/payment/transfers')).body.data as Array<{ reference: string; amount: number }>;
    await rest.close();
    expect(listed.filter((t) => t.amount === 2222).map((t) => t.reference)).toEqual([retry.transfer.reference]);
  });
});

describe('an API key the payment service rejects', () => {
  let bogus: TestStack;
  const key = `sk_live_bogus_${randomBytes(8).toString('hex')}`;
  beforeAll(async () => {
    bogus = await startStack({ inProcess: true, sharedSandbox: stack.sandbox, apiKey: key });
  });
  afterAll(() => bogus.close());

  it('fails a query with a top-level UPSTREAM_UNAUTHENTICATED error', async () => {
    const res = await bogus.gql(BalanceQuery, {});
    expect(res.data?.balance ?? null).toBeNull();
    expect(res.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAUTHENTICATED');
    expectNothingLeaked(res.raw, [key, sandboxHost()]);
  });

  it('fails a mutation with the same top-level error, not a union member', async () => {
    const res = await bogus.gql(Transfer, { input: once(item) });
    expect(res.data?.createTransfer ?? null).toBeNull();
    expect(res.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAUTHENTICATED');
    expect(res.errors?.[0]?.path).toEqual(['createTransfer']);
    expectNothingLeaked(res.raw, [key, sandboxHost()]);
  });

  it('fails a lookup by reference too (not a silent null)', async () => {
    const res = await bogus.gql(ChargeAmount, { reference: 'ch_0123456789abcdef01234567' });
    expect(res.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAUTHENTICATED');
  });
});

describe('an unexpected failure inside the gateway', () => {
  it('is masked as "Unexpected error." with a request id; the log has the detail', async () => {
    // A well-formed answer our client accepts: a charge of 3,000,000,000 XOF (a safe integer, a
    // plausible amount). The GraphQL Int of Charge.amount cannot represent it, so completing the
    // field throws inside the gateway.
    const rest = new Api(stack.sandbox.url, stack.apiKey);
    const reference = await rest.newCharge('opa_bf', '76000000', 1000);
    const real = (await rest.get(`/v1/payment/charges/${reference}`)).body.data;
    await rest.close();
    stack.sandbox.faults.add({
      method: 'GET',
      path: `/v1/payment/charges/${reference}`,
      kind: 'envelope',
      httpStatus: 200,
      body: { status: true, message: 'Charge retrieved successfully', data: { ...real, amount: 3_000_000_000 } },
    });

    const res = await stack.gql(ChargeAmount, { reference }, { 'x-request-id': 'req-unexpected-1' });
    expect(res.data).toEqual({ charge: null });
    expect(res.errors).toHaveLength(1);
    expect(res.errors![0]).toMatchObject({
      message: 'Unexpected error.',
      path: ['charge', 'amount'],
      extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: 'req-unexpected-1' },
    });
    expect(res.raw).not.toMatch(/3000000000|Int cannot/);
    expectNothingLeaked(res.raw, [stack.apiKey, sandboxHost()]);
    expect(stack.logLines.some((l) => l.includes('req-unexpected-1') && /"level":"error"/.test(l))).toBe(true);
  });
});

describe('typed errors', () => {
  const FRENCH = /\b(le|la|les|un|une|des|du|de|ce|cette|est|sont|pas|pour|avec|sur|votre|vous|aucun|aucune|réessayez|trop|encore)\b/i;
  const seen = new Map<string, Array<{ code: string; message: string; messageFr: string }>>();
  type Seen = { __typename: string; code?: string; message?: string; messageFr?: string };
  const record = (r: Seen) => {
    if (r.messageFr === undefined) return;
    const list = seen.get(r.__typename) ?? [];
    list.push({ code: r.code!, message: r.message!, messageFr: r.messageFr });
    seen.set(r.__typename, list);
  };

  it('every PaymentError type says what went wrong in English and, differently, in French', async () => {
    // Payout batches: at most 3 items, approval required (so the batch errors can all be reached).
    const s = await startStack({
      inProcess: true,
      sharedSandbox: stack.sandbox,
      env: { PAYOUT_BATCH_MAX_ITEMS: '3', PAYOUT_BATCH_APPROVAL: 'required', PAYOUT_BATCH_FOLLOW_POLL_MS: '100' },
    });
    const nopayout = await startStack({
      inProcess: true,
      sharedSandbox: stack.sandbox,
      apiKey: `sk_test_nopayout_${randomBytes(8).toString('hex')}`,
    });
    try {
      const charge = async (input: Omit<CreateChargeInput, 'idempotencyKey'> & { idempotencyKey?: string }) =>
        (await s.gql(AnyCharge, { input: { idempotencyKey: uniqueKey('charge'), ...input } })).data!.createCharge;
      const otp = async (chargeReference: string, code: string) =>
        (await s.gql(AnyOtp, { input: { chargeReference, otp: code } })).data!.submitChargeOtp;
      const inject = (method: 'GET' | 'POST', path: string, error_code: string, httpStatus = 400) =>
        s.sandbox.faults.add({
          method,
          path,
          kind: 'envelope',
          httpStatus,
          body: { status: false, message: `Injected ${error_code}`, error_code },
        });

      record(await charge({ amount: 0, phone: '1', provider: 'OPA_BF' })); // ValidationError
      record(await charge({ amount: 1000, phone: '76000001', provider: 'OPA_BF' })); // InvalidAccountError
      for (const code of [
        'OTP_STILL_VALID',
        'UNSUPPORTED_PROVIDER',
        'UNAUTHORIZED_CHARGE_PROVIDER',
        'RATE_LIMIT_EXCEEDED',
        'INTERNAL_ERROR',
      ]) {
        inject('POST', '/v1/payment/charges/', code);
        record(await charge({ amount: 1000, phone: '76000000', provider: 'OPA_BF' }));
      }
      const key = uniqueKey('fr');
      record(await charge({ amount: 1000, phone: '76000000', provider: 'OPA_BF', idempotencyKey: key }));
      record(await charge({ amount: 2000, phone: '76000000', provider: 'OPA_BF', idempotencyKey: key })); // IdempotencyConflictError

      const created = as(await charge({ amount: 1000, phone: '76000000', provider: 'OPA_BF' }), 'CreateChargePayload');
      record(await otp(created.reference, '000000')); // OtpInvalidError
      inject('POST', '/v1/payment/charges/submit', 'OTP_EXPIRED');
      record(await otp(created.reference, TEST_OTP)); // OtpExpiredError
      record(await otp('ch_000000000000000000000000', TEST_OTP)); // NotFoundError
      const declined = as(await charge({ amount: 1000, phone: '76000002', provider: 'OPA_BF' }), 'CreateChargePayload');
      record(await otp(declined.reference, TEST_OTP)); // INSUFFICIENT_FUNDS outside submitChargeOtp's list

      s.sandbox.setBalance(s.apiKey, { wallets: { opa_bf: { available: 10 } }, collection: { available: 10_000 } });
      const transfer = (await s.gql(Transfer, { input: once(item) })).data!.createTransfer;
      record(transfer); // InsufficientFundsError
      const bulk = (input: Payout[]) => s.gql(AnyBulk, { input: once({ transfers: input }) });
      record((await bulk(Array.from({ length: 101 }, () => item))).data!.createBulkTransfer); // BatchSizeLimitExceededError
      const partial = as(
        (await bulk([item, { ...item, recipientPhone: '70123456' }])).data!.createBulkTransfer,
        'CreateBulkTransferPayload',
      );
      for (const f of partial.failures) record(f.error);

      const settlement = as((await s.gql(AnySettlement, { input: once({ amount: 1_000 }) })).data!.createSettlement, 'SettlementPayload');
      record((await s.gql(AnySettlement, { input: once({ amount: 1_000_000 }) })).data!.createSettlement); // InsufficientFundsError (collection)
      as((await s.gql(AnyCancel, { reference: settlement.settlement.reference })).data!.cancelSettlement, 'SettlementPayload');
      record((await s.gql(AnyCancel, { reference: settlement.settlement.reference })).data!.cancelSettlement); // SettlementNotCancellableError
      record((await s.gql(AnyCancel, { reference: '00000000-0000-4000-8000-000000000000' })).data!.cancelSettlement); // NotFoundError
      record((await nopayout.gql(AnySettlement, { input: once({ amount: 1_000 }) })).data!.createSettlement); // PaymentAccountMissingError

      // Payout batches (the OPA_BF wallet holds 10 XOF by now).
      const newBatch = async () =>
        as(
          (await s.gql(CreateBatch, { input: { idempotencyKey: uniqueKey('batch'), label: 'errors' } })).data!.createPayoutBatch,
          'CreatePayoutBatchPayload',
        ).batch.id;
      const opa = { amount: 1000, recipientPhone: '76123456', recipientWallet: 'OPA_BF' as const };
      const add = async (batchId: string, page: number, n: number, payout = opa) =>
        (await s.gql(AddItems, { input: { batchId, page, items: Array.from({ length: n }, () => payout) } })).data!.addPayoutBatchItems;
      record(await add('pb_000000000000000000000000', 1, 1)); // PayoutBatchNotFoundError
      const short = await newBatch();
      await add(short, 1, 3);
      record(await add(short, 2, 1)); // PayoutBatchFullError
      record((await s.gql(StartBatch, { input: { batchId: short } })).data!.startPayoutBatch); // PayoutBatchShortfallError
      await s.gql(StartBatch, { input: { batchId: short, sendWhatFits: true } });
      record(await add(short, 3, 1)); // PayoutBatchStateError
      record((await s.gql(ApproveBatch, { input: { batchId: short } })).data!.approvePayoutBatch); // SelfApprovalError
      const failing = await newBatch();
      await add(failing, 1, 1, { amount: 1000, recipientPhone: '70000009', recipientWallet: 'OPB_BF' as never });
      await s.gql(StartBatch, { input: { batchId: failing } });
      const approver = { authorization: `Bearer ${await s.mintToken(['payouts:approve'], 'approver')}` };
      as((await s.gql(ApproveBatch, { input: { batchId: failing } }, approver)).data!.approvePayoutBatch, 'ApprovePayoutBatchPayload');
      await waitFor(async () => (await s.gql(BatchView, { id: failing })).data!.payoutBatch!.settled, 'the batch to settle', 30_000, 50);
      const failed = (await s.gql(BatchItems, { id: failing, filter: { status: 'FAILED' }, first: 1 })).data!.payoutBatch!.items.edges;
      record(failed[0]!.node.failure!); // TransferFailedError

      // Webhook endpoints: live mode without Redis has none (WebhooksUnavailableError).
      const endpoint = (url: string, on = s) =>
        on.gql(AnyWebhookEndpoint, { input: { url, idempotencyKey: uniqueKey('endpoint') } }).then((r) => r.data!.createWebhookEndpoint);
      record(await endpoint('https://example.com/hooks'));

      // ServiceUnavailableError: the idempotency guard (a Redis of this test's own) is down.
      const redis = await startRedisServer();
      const guarded = await startStack({
        inProcess: true,
        sharedSandbox: stack.sandbox,
        env: { REDIS_URL: redis.url, WEBHOOK_ENDPOINTS_MAX: '1' },
      });
      try {
        record(await endpoint('ftp://example.com/hooks', guarded)); // InvalidWebhookUrlError
        as(await endpoint('https://example.com/hooks', guarded), 'CreateWebhookEndpointPayload');
        record(await endpoint('https://example.com/other', guarded)); // WebhookEndpointLimitError
        record((await guarded.gql(AnyRotate, { input: { endpointId: 'we_nothing' } })).data!.rotateWebhookEndpointSecret); // WebhookEndpointNotFoundError
        record((await guarded.gql(AnyRedeliver, { input: { deliveryId: 'we_nothing.evt_nothing' } })).data!.redeliverWebhook); // WebhookDeliveryNotFoundError
        await redis.kill();
        record((await guarded.gql(Transfer, { input: once(item) })).data!.createTransfer);
      } finally {
        await guarded.close();
        await redis.stop();
      }

      // Platform mode's (MerchantNotFoundError, MerchantOffboardedError, MerchantSuspendedError) need a gateway in
      // platform mode: test/schema/platform.test.ts meets each, in English and French.
      const platformOnly = new Set(MERCHANT_ERRORS.map((e) => e.declaration.name));
      const types = (await s.gql(PaymentErrorTypes, {}))
        .data!.__type!.possibleTypes!.map((t) => t.name)
        .filter((name) => !platformOnly.has(name ?? ''));
      expect([...seen.keys()].sort()).toEqual(types.sort());
      for (const [typename, list] of seen) {
        for (const e of list) {
          const where = `${typename} ${e.code}: ${e.message} / ${e.messageFr}`;
          expect(e.message.trim().length, where).toBeGreaterThan(0);
          expect(e.messageFr.trim().length, where).toBeGreaterThan(0);
          expect(e.messageFr, where).not.toBe(e.message);
          expect(e.messageFr, where).toMatch(FRENCH);
        }
      }
    } finally {
      await nopayout.close();
      await s.close();
    }
  });

  it("an error outside a mutation's own list keeps its meaning in both languages", async () => {
    // createTransfer does not list OtpStillValidError: if the service answered with that code,
    // it comes back as an UpstreamError carrying the code, with the French that matches the English.
    stack.sandbox.faults.add({
      method: 'POST',
      path: '/v1/payment/transfers/',
      kind: 'envelope',
      httpStatus: 400,
      body: { status: false, message: 'OTP still valid', error_code: 'OTP_STILL_VALID' },
    });
    const result = (await stack.gql(Transfer, { input: once(item) })).data!.createTransfer;
    expect(result).toMatchObject({ __typename: 'UpstreamError', code: 'OTP_STILL_VALID', retryable: false });
    const e = result as { message: string; messageFr: string };
    expect(e.message).toMatch(/still valid/i);
    expect(e.messageFr).toMatch(/encore valide/i);
    expect(e.messageFr).not.toMatch(/réessayez plus tard/i);
  });
});
