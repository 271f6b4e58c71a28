// REDIS_MIN_REPLICAS: a webhook is answered 200, and a money-moving call sent, only once its record is on the
// primary and acknowledged by that many replicas (Redis WAIT). A primary without its replica: the webhook gets
// 503 (the sender retries) and the payment SERVICE_UNAVAILABLE before anything reaches the service. Once the
// replica is back, both go through, and the refused payment's retry (same key) is made once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../gql/index.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { startRedisServer, type TestRedisServer } from '../helpers/redis-server.js';
import { Api } from '../helpers/sandbox-api.js';
import { waitFor } from '../helpers/wait.js';
import { postWebhook } from '../live/helpers.js';
import { AddItems, BatchView, CreateBatch, item } from '../payout-batches/documents.js';
import { chargesByAmount, historyReferenceList } from './failover-traffic.js';

const Charge = graphql(`
  mutation MinReplicasCharge($input: CreateChargeInput!) {
    createCharge(input: $input) {
      __typename
      ... on CreateChargePayload { reference }
      ... on PaymentError { code }
    }
  }
`);

let primary: TestRedisServer;
let replica: TestRedisServer | null = null;
let stack: TestStack;
let rest: Api;

beforeAll(async () => {
  // A replica that connects is sent the data set at once (no 5 s wait for more replicas to share it).
  primary = await startRedisServer({ extraArgs: ['--repl-diskless-sync-delay', '0'] });
  stack = await startStack({
    env: { REDIS_URL: primary.url, REDIS_MIN_REPLICAS: '1', REDIS_REPLICA_TIMEOUT_MS: '100', SUBSCRIPTION_POLL_MS: '0' },
  });
  rest = new Api(stack.sandbox.url, stack.apiKey);
});

afterAll(async () => {
  await stack?.close();
  await replica?.stop();
  await primary?.stop();
});

const pay = (amount: number, idempotencyKey: string) =>
  stack.gql(Charge, { input: { amount, phone: '58000000', provider: 'OPC_BF', idempotencyKey } }).then((r) => r.data?.createCharge);

describe('REDIS_MIN_REPLICAS=1', () => {
  it('without a replica: webhooks 503, payments SERVICE_UNAVAILABLE and not sent; with one: both go through, once', async () => {
    const reference = `ch_min_replicas_${randomUUID()}`;
    const body = JSON.stringify({ id: `evt_${reference}`, event: 'charge.success', data: { reference, status: 'success' } });
    const key = randomUUID();

    expect((await postWebhook(stack.gateway.webhookUrl!, stack.webhookSecret, body)).status).toBe(503);
    expect(await pay(701, key)).toMatchObject({ __typename: 'ServiceUnavailableError', code: 'SERVICE_UNAVAILABLE' });
    expect((await chargesByAmount(rest)).get(701)).toBeUndefined();
    expect(stack.logLines.some((l) => l.includes('acknowledged by 0 of the 1 replicas'))).toBe(true);

    replica = await startRedisServer({ extraArgs: ['--replicaof', '127.0.0.1', String(primary.port)] });
    let acknowledged: Awaited<ReturnType<typeof postWebhook>> | null = null;
    await waitFor(
      async () => (acknowledged = await postWebhook(stack.gateway.webhookUrl!, stack.webhookSecret, body)).status === 200,
      'the webhook to be acknowledged once the replica has synced',
      10_000,
      20,
    );
    // The refused delivery was appended on the primary: the re-sent one is its duplicate, acknowledged only
    // once that first copy is on the replica, and the log holds it once.
    expect(acknowledged!.json).toMatchObject({ duplicate: true });
    expect((await historyReferenceList(stack)).filter((r) => r === reference)).toEqual([reference]);
    // The refused payment's retry, as a client makes it (same key, SERVICE_UNAVAILABLE means nothing was sent):
    // a WAIT just after the replica's sync may still time out once.
    let paid: Awaited<ReturnType<typeof pay>>;
    await waitFor(
      async () => (paid = await pay(701, key))?.__typename !== 'ServiceUnavailableError',
      'the retried payment to go through',
      10_000,
      20,
    );
    expect(paid!).toMatchObject({ __typename: 'CreateChargePayload' });
    expect(await pay(701, key)).toEqual(paid);
    expect((await chargesByAmount(rest)).get(701)).toBe(1);
  });

  it('a payout batch record is written as durably: a page is acknowledged only once a replica holds it', async () => {
    // The replica of the test above is in sync: the draft is created.
    const create = () => stack.gql(CreateBatch, { input: { idempotencyKey: key, label: 'durable' } });
    let created: Awaited<ReturnType<typeof create>>['data'];
    const key = randomUUID();
    await waitFor(async () => (created = (await create()).data) != null, 'the draft to be created', 10_000, 20);
    const draft = created!.createPayoutBatch;
    if (draft.__typename !== 'CreatePayoutBatchPayload') throw new Error(draft.__typename);
    const batchId = draft.batch.id;
    const items = [0, 1, 2].map((i) => item(i));
    const addPage = () => stack.gql(AddItems, { input: { batchId, page: 1, items } });

    // Without its replica the page is refused, as a payment is: the client is told nothing was kept and retries.
    await replica!.stop();
    replica = null;
    const refused = await addPage();
    expect(refused.data?.addPayoutBatchItems ?? null).toBeNull();
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryable: true, messageFr: expect.any(String) });

    // The replica back, the same page (retried as a client does) is added once.
    replica = await startRedisServer({ extraArgs: ['--replicaof', '127.0.0.1', String(primary.port)] });
    let added: Awaited<ReturnType<typeof addPage>>['data'];
    await waitFor(async () => (added = (await addPage()).data) != null, 'the page to be acknowledged', 10_000, 20);
    expect(added!.addPayoutBatchItems.__typename).toBe('AddPayoutBatchItemsPayload');
    expect((await stack.gql(BatchView, { id: batchId })).data!.payoutBatch!.added.items).toBe(3);
  });
});
