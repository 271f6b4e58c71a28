// No crossing between merchants, generated from the schema: every root field of Query, Mutation and Subscription
// has its row here (a field without one fails the first test), and each row runs with four kinds of token: A's
// staff token, A's client token, a platform operator without platform:manage, and an operator acting for B.
// Merchants A and B made the same payments with the same ext_ids and idempotency keys. The matrix finds no answer
// holding the other merchant's references or ids, no resource written into the other merchant's account, and
// every answer about the other merchant's resource equal to the answer about a resource that does not exist.
// In process: the schema, access and the registry are the subject (the sandbox is reached over HTTP); the
// subscription rows run over SSE in process, and over graphql-ws on a real WebSocket (one socket per token kind).
import { randomBytes, randomUUID } from 'node:crypto';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintStaffToken, SCOPES, type Scope } from '../../src/auth/index.js';
import { schema } from '../../src/schema/index.js';
import { fetchGraphQL, testKey, type GraphQLResponse, type TestStack } from '../helpers/gateway.js';
import { GRAPHQL_PATH } from '../../src/http/server.js';
import { uniqueNamespace } from '../events/redis-helpers.js';
import { closePlatformStack, logOnce, startPlatformStack } from '../helpers/platform.js';
import { encodeEventId } from '../../src/events/stream-id.js';
import type { PaymentEventRecord } from '../../src/events/payment-event.js';
import { disposeAllClients, wsClient, type TestClient } from '../live/helpers.js';

const namespace = uniqueNamespace('crossing');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- ad-hoc documents of this suite
type Doc = TypedDocumentNode<any, Record<string, unknown>>;

/** One merchant's resources, made the same way as the other's (same ext_ids, same idempotency keys). */
interface Resources {
  merchantId: string;
  merchantGlobalId: string;
  apiKey: string;
  charge: string;
  chargeId: string;
  checkout: string;
  transfer: string;
  settlement: string;
  /** A draft payout batch, made under the idempotency key k1 (as the other merchant's). */
  batch: string;
  /** A webhook endpoint's global id, and one of its deliveries' (a test event's). */
  endpoint: string;
  delivery: string;
}

/** What a row's variables point at: the other merchant's resources, or ones that do not exist. */
type Target = Omit<Resources, 'apiKey'>;

const UNKNOWN: Target = {
  merchantId: 'mer_00000000000000000000',
  merchantGlobalId: Buffer.from('Merchant:mer_00000000000000000000').toString('base64url'),
  charge: 'ch_000000000000000000000000',
  chargeId: Buffer.from('Charge:ch_000000000000000000000000').toString('base64url'),
  checkout: 'chk_00000000000000000000000000000000',
  transfer: 'tr_000000000000000000000000',
  settlement: '00000000-0000-4000-8000-000000000000',
  batch: 'pb_000000000000000000000000',
  endpoint: Buffer.from('WebhookEndpoint:we_00000000000000000000_000000000000000000000000').toString('base64url'),
  delivery: Buffer.from('WebhookDelivery:we_00000000000000000000_000000000000000000000000.evt_test_0').toString('base64url'),
};

/** A row: its document, its variables from a target, and what platform mode does with the field. */
interface Row {
  /** merchant: served per merchant; operator: platform:manage only; not_yet: refused in platform mode. */
  kind: 'merchant' | 'operator' | 'not_yet';
  query: string;
  variables?: (t: Target) => Record<string, unknown>;
  /** A mutation that creates: its answer is compared by who holds what it made, not with an unknown target. */
  creates?: boolean;
}

const key = () => randomUUID();
const ROWS: Record<string, Row> = {
  'Query.balance': { kind: 'merchant', query: '{ balance { currency collection { available } } }' },
  'Query.charge': {
    kind: 'merchant',
    query: 'query($r: String!) { charge(reference: $r) { reference extId } }',
    variables: (t) => ({ r: t.charge }),
  },
  'Query.charges': {
    kind: 'merchant',
    // The list, and the search by the ext_id both merchants used (each merchant's own index answers it).
    query: `{ charges(first: 100) { edges { node { reference extId } } }
      byExtId: charges(first: 100, filter: { extId: "order-1" }) { edges { node { reference extId } } } }`,
  },
  'Query.checkout': {
    kind: 'merchant',
    query: 'query($r: String!) { checkout(reference: $r) { id amount } }',
    variables: (t) => ({ r: t.checkout }),
  },
  'Query.checkouts': { kind: 'merchant', query: '{ checkouts(first: 100) { edges { node { id } } } }' },
  'Query.node': { kind: 'merchant', query: 'query($id: ID!) { node(id: $id) { id } }', variables: (t) => ({ id: t.chargeId }) },
  'Query.nodes': {
    kind: 'merchant',
    query: 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }',
    variables: (t) => ({ ids: [t.chargeId, t.merchantGlobalId] }),
  },
  'Query.settlement': {
    kind: 'merchant',
    query: 'query($r: String!) { settlement(reference: $r) { reference } }',
    variables: (t) => ({ r: t.settlement }),
  },
  'Query.settlements': { kind: 'merchant', query: '{ settlements(first: 100) { edges { node { reference } } } }' },
  'Query.transfer': {
    kind: 'merchant',
    query: 'query($r: String!) { transfer(reference: $r) { reference extId } }',
    variables: (t) => ({ r: t.transfer }),
  },
  'Query.transfers': { kind: 'merchant', query: '{ transfers(first: 100) { edges { node { reference extId } } } }' },
  'Query.merchants': { kind: 'operator', query: '{ merchants(first: 100) { edges { node { merchantId } } } }' },
  'Query.merchantEvents': { kind: 'operator', query: '{ merchantEvents(first: 100) { edges { node { id kind reference payload } } } }' },
  'Query.events': { kind: 'merchant', query: '{ events(first: 100) { edges { node { id kind payload } } } }' },
  'Query.payoutBatch': {
    kind: 'merchant',
    query: 'query($id: ID!) { payoutBatch(id: $id) { id batchId label } }',
    variables: (t) => ({ id: t.batch }),
  },
  'Query.payoutBatches': { kind: 'merchant', query: '{ payoutBatches(first: 50) { totalCount edges { node { batchId } } } }' },
  'Query.webhookDeliveries': {
    kind: 'merchant',
    query: 'query($e: ID!) { webhookDeliveries(endpointId: $e, first: 10) { totalCount edges { node { id kind } } } }',
    variables: (t) => ({ e: t.endpoint }),
  },
  'Query.webhookEndpoints': { kind: 'merchant', query: '{ webhookEndpoints(first: 50) { edges { node { id url } } } }' },
  'Query.webhookEventKinds': { kind: 'merchant', query: '{ webhookEventKinds }' },
  'Mutation.createCharge': {
    kind: 'merchant',
    creates: true,
    query: `mutation($i: CreateChargeInput!) { createCharge(input: $i) { __typename ... on CreateChargePayload { reference } ... on PaymentError { code } } }`,
    variables: () => ({ i: { amount: 1000, phone: '76000000', provider: 'OPA_BF', extId: 'order-1', idempotencyKey: 'k1' } }),
  },
  'Mutation.submitChargeOtp': {
    kind: 'merchant',
    query: `mutation($i: SubmitChargeOtpInput!) { submitChargeOtp(input: $i) { __typename ... on PaymentError { code message } } }`,
    variables: (t) => ({ i: { chargeReference: t.charge, otp: '123456' } }),
  },
  'Mutation.initializeCheckout': {
    kind: 'merchant',
    creates: true,
    query: `mutation($i: InitializeCheckoutInput!) { initializeCheckout(input: $i) { __typename ... on InitializeCheckoutPayload { reference } ... on PaymentError { code } } }`,
    variables: () => ({
      i: { amount: 5000, successUrl: 'https://shop.example/ok', cancelUrl: 'https://shop.example/no', idempotencyKey: 'k1' },
    }),
  },
  'Mutation.createTransfer': {
    kind: 'merchant',
    creates: true,
    query: `mutation($i: CreateTransferInput!) { createTransfer(input: $i) { __typename ... on CreateTransferPayload { transfer { reference } } ... on PaymentError { code } } }`,
    variables: () => ({ i: { amount: 1000, recipientPhone: '76000000', extId: `payout-${key()}`, idempotencyKey: 'k1' } }),
  },
  'Mutation.createBulkTransfer': {
    kind: 'merchant',
    creates: true,
    query: `mutation($i: CreateBulkTransferInput!) { createBulkTransfer(input: $i) { __typename ... on PaymentError { code } } }`,
    variables: () => ({ i: { transfers: [{ amount: 1000, recipientPhone: '76000000', extId: `bulk-${key()}` }], idempotencyKey: 'k1' } }),
  },
  'Mutation.createSettlement': {
    kind: 'merchant',
    creates: true,
    query: `mutation($i: CreateSettlementInput!) { createSettlement(input: $i) { __typename ... on SettlementPayload { settlement { reference } } ... on PaymentError { code } } }`,
    variables: () => ({ i: { amount: 100, idempotencyKey: 'k1' } }),
  },
  'Mutation.cancelSettlement': {
    kind: 'merchant',
    query: `mutation($r: String!) { cancelSettlement(reference: $r) { __typename ... on PaymentError { code message } } }`,
    variables: (t) => ({ r: t.settlement }),
  },
  'Mutation.createMerchant': {
    kind: 'operator',
    query: `mutation($i: CreateMerchantInput!) { createMerchant(input: $i) { __typename } }`,
    variables: () => ({ i: { name: 'Intruder', apiKey: testKey('intruder'), webhookSecret: 'whsec_intruder_1', idempotencyKey: key() } }),
  },
  'Mutation.updateMerchant': {
    kind: 'operator',
    query: `mutation($i: UpdateMerchantInput!) { updateMerchant(input: $i) { __typename } }`,
    variables: (t) => ({ i: { merchantId: t.merchantId, name: 'Renamed' } }),
  },
  'Mutation.rotateMerchantApiKey': {
    kind: 'operator',
    query: `mutation($i: RotateMerchantApiKeyInput!) { rotateMerchantApiKey(input: $i) { __typename } }`,
    variables: (t) => ({ i: { merchantId: t.merchantId, apiKey: testKey('stolen') } }),
  },
  'Mutation.suspendMerchant': {
    kind: 'operator',
    query: `mutation($i: SuspendMerchantInput!) { suspendMerchant(input: $i) { __typename } }`,
    variables: (t) => ({ i: { merchantId: t.merchantId } }),
  },
  'Mutation.offboardMerchant': {
    kind: 'operator',
    query: `mutation($i: OffboardMerchantInput!) { offboardMerchant(input: $i) { __typename } }`,
    variables: (t) => ({ i: { merchantId: t.merchantId } }),
  },
  'Mutation.createPayoutBatch': {
    kind: 'merchant',
    creates: true,
    query: `mutation($i: CreatePayoutBatchInput!) { createPayoutBatch(input: $i) { __typename ... on CreatePayoutBatchPayload { batch { batchId } } ... on PaymentError { code } } }`,
    variables: () => ({ i: { idempotencyKey: 'k1', label: 'payroll' } }),
  },
  'Mutation.addPayoutBatchItems': {
    kind: 'merchant',
    query: `mutation($i: AddPayoutBatchItemsInput!) { addPayoutBatchItems(input: $i) { __typename ... on PaymentError { code message } } }`,
    variables: (t) => ({ i: { batchId: t.batch, page: 2, items: [{ amount: 1000, recipientPhone: '76000001' }] } }),
  },
  'Mutation.startPayoutBatch': {
    kind: 'merchant',
    query: `mutation($i: StartPayoutBatchInput!) { startPayoutBatch(input: $i) { __typename ... on PaymentError { code message } } }`,
    variables: (t) => ({ i: { batchId: t.batch } }),
  },
  'Mutation.approvePayoutBatch': {
    kind: 'merchant',
    query: `mutation($i: ApprovePayoutBatchInput!) { approvePayoutBatch(input: $i) { __typename ... on PaymentError { code message } } }`,
    variables: (t) => ({ i: { batchId: t.batch } }),
  },
  'Mutation.cancelPayoutBatch': {
    kind: 'merchant',
    query: `mutation($i: CancelPayoutBatchInput!) { cancelPayoutBatch(input: $i) { __typename ... on PaymentError { code message } } }`,
    variables: (t) => ({ i: { batchId: t.batch } }),
  },
  'Mutation.createWebhookEndpoint': {
    kind: 'merchant',
    creates: true,
    query: `mutation { createWebhookEndpoint(input: { url: "https://shop.example/h", idempotencyKey: "k1" }) { __typename ... on CreateWebhookEndpointPayload { endpoint { id } } ... on PaymentError { code } } }`,
  },
  'Mutation.updateWebhookEndpoint': {
    kind: 'merchant',
    query: `mutation($e: ID!) { updateWebhookEndpoint(input: { endpointId: $e, url: "https://evil.example/h" }) { __typename ... on PaymentError { code message } } }`,
    variables: (t) => ({ e: t.endpoint }),
  },
  'Mutation.deleteWebhookEndpoint': {
    kind: 'merchant',
    query: `mutation($e: ID!) { deleteWebhookEndpoint(input: { endpointId: $e }) { __typename ... on PaymentError { code message } } }`,
    variables: (t) => ({ e: t.endpoint }),
  },
  'Mutation.rotateWebhookEndpointSecret': {
    kind: 'merchant',
    query: `mutation($e: ID!) { rotateWebhookEndpointSecret(input: { endpointId: $e }) { __typename ... on PaymentError { code message } } }`,
    variables: (t) => ({ e: t.endpoint }),
  },
  'Mutation.sendTestWebhook': {
    kind: 'merchant',
    query: `mutation($e: ID!) { sendTestWebhook(input: { endpointId: $e }) { __typename ... on PaymentError { code message } } }`,
    variables: (t) => ({ e: t.endpoint }),
  },
  'Mutation.redeliverWebhook': {
    kind: 'merchant',
    query: `mutation($d: ID!) { redeliverWebhook(input: { deliveryId: $d }) { __typename ... on PaymentError { code message } } }`,
    variables: (t) => ({ d: t.delivery }),
  },
  'Mutation.replayWebhookEvents': {
    kind: 'merchant',
    query: `mutation($e: ID!) { replayWebhookEvents(input: { endpointId: $e, since: "2026-01-01T00:00:00Z" }) { __typename ... on PaymentError { code message } } }`,
    variables: (t) => ({ e: t.endpoint }),
  },
  'Subscription.chargeUpdated': {
    kind: 'merchant',
    query: 'subscription($r: String!) { chargeUpdated(reference: $r) { reference } }',
    variables: (t) => ({ r: t.charge }),
  },
  'Subscription.checkoutUpdated': {
    kind: 'merchant',
    query: 'subscription($r: String!) { checkoutUpdated(reference: $r) { id } }',
    variables: (t) => ({ r: t.checkout }),
  },
  'Subscription.paymentEvents': {
    kind: 'merchant',
    // From the marker on: the log holds B's event, A's, then B's again (the first message is the caller's own).
    query: 'subscription($after: ID) { paymentEvents(after: $after) { id kind payload } }',
    variables: () => ({ after: marker }),
  },
  'Subscription.payoutBatchUpdated': {
    kind: 'merchant',
    query: 'subscription($id: ID!) { payoutBatchUpdated(id: $id) { id batchId } }',
    variables: (t) => ({ id: t.batch }),
  },
  'Subscription.settlementUpdated': {
    kind: 'merchant',
    query: 'subscription($r: String!) { settlementUpdated(reference: $r) { reference } }',
    variables: (t) => ({ r: t.settlement }),
  },
  'Subscription.transferUpdated': {
    kind: 'merchant',
    query: 'subscription($r: String!) { transferUpdated(reference: $r) { reference } }',
    variables: (t) => ({ r: t.transfer }),
  },
};

let stack: TestStack;
let a: Resources;
let b: Resources;
/** The id of an event logged before each merchant's own: `paymentEvents(after:)` replays from there. */
let marker = '';
let tokens: Array<{ label: string; authorization: string; headers: Record<string, string>; own: () => Resources; other: () => Resources }>;

async function operatorCall(query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}) {
  const operator = (await mintStaffToken({ secret: stack.jwtSecret, scopes: SCOPES, subject: 'operator', ttlSeconds: 600 })).token;
  return fetchGraphQL(stack.gateway, parse(query) as Doc, variables, { authorization: `Bearer ${operator}`, ...headers });
}

/** A merchant with one of each resource, made with the same ext_id and idempotency keys as the other merchant's. */
async function merchantWithResources(name: string): Promise<Resources> {
  const apiKey = testKey(name);
  const created = await operatorCall(
    `mutation($i: CreateMerchantInput!) { createMerchant(input: $i) { ... on CreateMerchantPayload { merchant { id merchantId } } } }`,
    {
      i: { name, apiKey, webhookSecret: `whsec_${randomBytes(8).toString('hex')}`, idempotencyKey: key() },
    },
  );
  const { id: merchantGlobalId, merchantId } = created.data!.createMerchant.merchant;
  const as = { 'x-merchant-id': merchantId };
  const run = async (field: string) => (await operatorCall(ROWS[field]!.query, ROWS[field]!.variables?.(UNKNOWN) ?? {}, as)).data!;
  const charge = (await run('Mutation.createCharge')).createCharge.reference as string;
  // Paid, so that the collection balance covers the settlement.
  const otp = ROWS['Mutation.submitChargeOtp']!;
  await operatorCall(otp.query, otp.variables!({ ...UNKNOWN, charge }), as);
  const checkout = (await run('Mutation.initializeCheckout')).initializeCheckout.reference as string;
  const transfer = (await run('Mutation.createTransfer')).createTransfer.transfer.reference as string;
  const settlement = (await run('Mutation.createSettlement')).createSettlement.settlement.reference as string;
  const batch = (await run('Mutation.createPayoutBatch')).createPayoutBatch.batch.batchId as string;
  const items = ROWS['Mutation.addPayoutBatchItems']!;
  await operatorCall(items.query, { i: { batchId: batch, page: 1, items: [{ amount: 1000, recipientPhone: '76000001' }] } }, as);
  const chargeId = Buffer.from(`Charge:${charge}`).toString('base64url');
  const endpoint = (await run('Mutation.createWebhookEndpoint')).createWebhookEndpoint.endpoint.id as string;
  const test = 'mutation($e: ID!) { sendTestWebhook(input: { endpointId: $e }) { ... on SendTestWebhookPayload { delivery { id } } } }';
  const delivery = (await operatorCall(test, { e: endpoint }, as)).data!.sendTestWebhook.delivery.id as string;
  return { merchantId, merchantGlobalId, apiKey, charge, chargeId, checkout, transfer, settlement, batch, endpoint, delivery };
}

/** An event of a merchant's webhook route (null: one no merchant's route received), about its charge. */
function eventOf(merchant: Resources | null, id: string): PaymentEventRecord {
  return {
    id: merchant ? `${merchant.merchantId}:${id}` : id,
    kind: 'charge.success',
    receivedAt: new Date().toISOString(),
    reference: merchant?.charge ?? null,
    resourceType: merchant ? 'charge' : null,
    payload: { event: 'charge.success', data: { reference: merchant?.charge ?? null } },
    ...(merchant ? { merchantId: merchant.merchantId } : {}),
  };
}

/** A client token of a merchant's charge, as createCharge hands it to the customer's browser. */
async function clientTokenOf(merchant: Resources): Promise<string> {
  const staff = (
    await mintStaffToken({
      secret: stack.jwtSecret,
      scopes: ['payments:collect'],
      subject: 'shop',
      ttlSeconds: 600,
      merchantId: merchant.merchantId,
    })
  ).token;
  const create = parse(
    'mutation($i: CreateChargeInput!) { createCharge(input: $i) { ... on CreateChargePayload { clientToken } } }',
  ) as Doc;
  const input = { i: { amount: 700, phone: '76000000', provider: 'OPA_BF', idempotencyKey: key() } };
  return (await fetchGraphQL(stack.gateway, create, input, { authorization: `Bearer ${staff}` })).data!.createCharge.clientToken as string;
}

beforeAll(async () => {
  // Listening for the WebSocket rows only: every other row is sent in process.
  stack = await startPlatformStack(namespace);
  a = await merchantWithResources('crossa');
  b = await merchantWithResources('crossb');
  // Events as each merchant's webhook route logs them (test/inbound-webhooks/merchant-routes.test.ts sends them over HTTP).
  const logged = await logOnce(stack.gateway.bus, eventOf(null, `marker-${randomUUID()}`));
  if (logged.duplicate) throw new Error('a fresh marker cannot be a duplicate');
  marker = encodeEventId(logged.event.seq, logged.event.generation);
  for (const m of [b, a, b]) await logOnce(stack.gateway.bus, eventOf(m, randomUUID()));
  const merchantScopes: Scope[] = SCOPES.filter((s) => s !== 'platform:manage');
  const staffA = (
    await mintStaffToken({ secret: stack.jwtSecret, scopes: SCOPES, subject: 'staff-a', ttlSeconds: 600, merchantId: a.merchantId })
  ).token;
  const noManage = (await mintStaffToken({ secret: stack.jwtSecret, scopes: merchantScopes, subject: 'operator-2', ttlSeconds: 600 }))
    .token;
  tokens = [
    { label: 'A’s staff token', authorization: `Bearer ${staffA}`, headers: {}, own: () => a, other: () => b },
    { label: 'A’s client token', authorization: `Bearer ${await clientTokenOf(a)}`, headers: {}, own: () => a, other: () => b },
    { label: 'an operator without platform:manage', authorization: `Bearer ${noManage}`, headers: {}, own: () => a, other: () => b },
    {
      label: 'an operator acting for B',
      authorization: `Bearer ${noManage}`,
      headers: { 'x-merchant-id': b.merchantId },
      own: () => b,
      other: () => a,
    },
  ];
}, 60_000);

afterAll(async () => {
  await disposeAllClients();
  await closePlatformStack(stack, namespace);
});

/** Sends a row's operation: subscriptions as SSE (their first message), the rest as JSON. */
async function send(row: Row, variables: Record<string, unknown>, headers: Record<string, string>): Promise<GraphQLResponse<unknown>> {
  if (!row.query.startsWith('subscription')) return fetchGraphQL(stack.gateway, parse(row.query) as Doc, variables, headers);
  const res = await stack.gateway.server.yoga.fetch(`http://yoga${GRAPHQL_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ query: row.query, variables }),
  });
  // A refused subscription is one message (or a JSON answer): the first `data:` line, or the whole body.
  const reader = res.body!.getReader();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
    if (/data: .*\n/.test(text)) break;
  }
  await reader.cancel().catch(() => {});
  const data = /data: (.*)/.exec(text)?.[1] ?? text;
  const parsed = JSON.parse(data) as { data?: unknown; errors?: GraphQLResponse<unknown>['errors'] };
  return { status: res.status, data: parsed.data, errors: parsed.errors, raw: data };
}

/** A subscription row's first message over graphql-ws (a `next`, or the `error` of a refused operation). */
function sendOverWs(socket: TestClient, row: Row, variables: Record<string, unknown>): Promise<GraphQLResponse<unknown>> {
  return new Promise((resolve) => {
    let end = () => {};
    const answer = (payload: { data?: unknown; errors?: GraphQLResponse<unknown>['errors'] }) => {
      end();
      resolve({ status: 200, data: payload.data, errors: payload.errors, raw: JSON.stringify(payload) });
    };
    end = socket.client.subscribe(
      { query: row.query, variables },
      {
        next: (value) => answer(value as Parameters<typeof answer>[0]),
        error: (error) => answer({ errors: (Array.isArray(error) ? error : [{ message: String(error) }]) as never }),
        complete: () => answer({}),
      },
    );
  });
}

/** What two answers say, without what differs by request (its id). */
const shape = (res: GraphQLResponse<unknown>) => res.raw.replace(/"requestId":"[^"]+"/g, '');

/** Every reference and id of a merchant that must never reach another merchant's caller. */
const marks = (r: Resources) => [
  r.merchantId,
  r.merchantGlobalId,
  r.charge,
  r.chargeId,
  r.checkout,
  r.transfer,
  r.settlement,
  r.batch,
  r.endpoint,
  r.delivery,
  // An endpoint's own id (inside its global id) names its merchant's.
  Buffer.from(r.endpoint, 'base64url').toString('utf8').split(':')[1]!,
];

/** Whether the sandbox account of an API key holds a charge, transfer or settlement (asked over HTTP). */
async function holds(apiKey: string, path: string): Promise<boolean> {
  const res = await fetch(`${stack.sandbox.url}/v1/payment/${path}`, { headers: { 'x-api-key': apiKey, accept: 'application/json' } });
  return ((await res.json()) as { status: boolean }).status;
}

describe('no crossing between merchants, generated from the schema', () => {
  it('has a row for every root field of the schema, and none for a field that is gone', () => {
    const roots = { Query: schema.getQueryType(), Mutation: schema.getMutationType(), Subscription: schema.getSubscriptionType() };
    const fields = Object.entries(roots).flatMap(([root, type]) => Object.keys(type?.getFields() ?? {}).map((name) => `${root}.${name}`));
    expect(Object.keys(ROWS).sort()).toEqual(fields.sort());
  });

  it('answers no caller with the other merchant’s data, writes nothing into its account, and looks like not found', async () => {
    const crossings: string[] = [];
    for (const [field, row] of Object.entries(ROWS)) {
      for (const token of tokens) {
        const headers = { authorization: token.authorization, ...token.headers };
        const where = `${field} with ${token.label}`;
        const onOther = await send(row, row.variables?.(token.other()) ?? {}, headers);
        for (const mark of marks(token.other())) if (onOther.raw.includes(mark)) crossings.push(`${where}: answered ${mark}`);
        if (row.kind === 'not_yet')
          expect(String(onOther.errors?.[0]?.extensions?.code), `${where}: ${onOther.raw.slice(0, 300)}`).toMatch(
            /^(NOT_IN_THIS_MODE|FORBIDDEN)$/,
          );
        if (row.kind === 'operator') expect(onOther.errors?.[0]?.extensions?.code, where).toBe('FORBIDDEN');
        if (row.creates) {
          // Whatever it made is the caller's merchant's, never the other's (same idempotency key k1 on both sides).
          const made = /"reference":"((?:ch|tr|chk)_[^"]+|[0-9a-f-]{36})"/.exec(onOther.raw)?.[1];
          if (made?.startsWith('ch_') && (await holds(token.other().apiKey, `charges/${made}`))) crossings.push(`${where}: wrote ${made}`);
          if (made?.startsWith('tr_') && (await holds(token.other().apiKey, `transfers/${made}`)))
            crossings.push(`${where}: wrote ${made}`);
          continue;
        }
        if (!row.variables) continue;
        // The other merchant's resource and one that does not exist get the very same answer.
        const onUnknown = await send(row, row.variables(UNKNOWN), headers);
        if (shape(onOther) !== shape(onUnknown)) crossings.push(`${where}: ${shape(onOther)} ≠ unknown: ${shape(onUnknown)}`);
      }
    }
    expect(crossings).toEqual([]);
  }, 120_000);

  it('answers the subscription rows over WebSocket as over SSE: nothing of the other merchant, and not found', async () => {
    const crossings: string[] = [];
    for (const token of tokens) {
      // The operator names its merchant in connection_init, as the X-Merchant-Id header does over HTTP.
      const merchantId = token.headers['x-merchant-id'];
      const socket = wsClient(stack.gateway.graphqlUrl, {
        connectionParams: { authorization: token.authorization, ...(merchantId ? { merchantId } : {}) },
      });
      for (const [field, row] of Object.entries(ROWS)) {
        if (!field.startsWith('Subscription.')) continue;
        const where = `${field} over WebSocket with ${token.label}`;
        const onOther = await sendOverWs(socket, row, row.variables?.(token.other()) ?? {});
        for (const mark of marks(token.other())) if (onOther.raw.includes(mark)) crossings.push(`${where}: answered ${mark}`);
        const onUnknown = await sendOverWs(socket, row, row.variables?.(UNKNOWN) ?? {});
        // A staff token or a named merchant replays its own first event: the socket acts for the merchant it names.
        if (
          field === 'Subscription.paymentEvents' &&
          token.label !== 'A’s client token' &&
          token.label !== 'an operator without platform:manage'
        )
          expect(onOther.raw, where).toContain(token.own().charge);
        if (shape(onOther) !== shape(onUnknown)) crossings.push(`${where}: ${shape(onOther)} ≠ unknown: ${shape(onUnknown)}`);
      }
      await socket.dispose();
    }
    expect(crossings).toEqual([]);
  }, 60_000);

  it('finds by the same ext_id each merchant’s own charge only', async () => {
    const search = parse('{ charges(first: 10, filter: { extId: "order-1" }) { edges { node { reference } } } }') as Doc;
    for (const token of [tokens[0]!, tokens[3]!]) {
      const found = await fetchGraphQL(stack.gateway, search, {}, { authorization: token.authorization, ...token.headers });
      const references = (found.data!.charges.edges as Array<{ node: { reference: string } }>).map((e) => e.node.reference);
      expect(references, token.label).toEqual([token.own().charge]);
    }
  });

  it('left the two accounts as they were: each one’s resources are its own', async () => {
    for (const [own, other] of [
      [a, b],
      [b, a],
    ] as const) {
      expect(await holds(own.apiKey, `charges/${own.charge}`)).toBe(true);
      expect(await holds(other.apiKey, `charges/${own.charge}`)).toBe(false);
      expect(await holds(other.apiKey, `transfers/${own.transfer}`)).toBe(false);
      expect(await holds(other.apiKey, `settlements/${own.settlement}`)).toBe(false);
      // Its webhook endpoint is still there, as it made it, and listed for no one else.
      const endpoints = '{ webhookEndpoints(first: 50) { edges { node { id url } } } }';
      const listed = (await operatorCall(endpoints, {}, { 'x-merchant-id': own.merchantId })).raw;
      expect(listed).toContain(own.endpoint);
      expect(listed).not.toContain('evil.example');
      expect(listed).not.toContain(other.endpoint);
    }
  });
});
