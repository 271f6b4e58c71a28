// `charges(filter: { extId })` over the sandbox over HTTP and the real Redis (a namespace of this file's own): a
// charge made through the gateway is found by its ext_id; one made straight at the service is found once a webhook
// carried it, or once it was fetched through the gateway; an index entry the service contradicts is dropped from the
// answer and from the index; two API keys sharing a Redis namespace never see each other's charges; an index that
// cannot be read is a typed SERVICE_UNAVAILABLE, in both languages (a redis-server of the test's own). One gateway
// listens (the sandbox's webhooks need a socket); the second, of another merchant, runs in process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountPrefix, redisExtIdIndex } from '../../src/ext-id-index/index.js';
import { connectRedis, type GatewayRedis } from '../../src/redis/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { TEST_OTP } from '../../src/sandbox/index.js';
import { graphql } from '../gql/index.js';
import { REDIS_URL, deleteByPrefix, uniqueNamespace } from '../events/redis-helpers.js';
import { createOtpCharge } from '../helpers/charges.js';
import { startStack, testKey, type TestStack } from '../helpers/gateway.js';
import { startRedisServer } from '../helpers/redis-server.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { Api } from '../helpers/sandbox-api.js';
import { waitFor } from '../helpers/wait.js';

const ChargesByExtId = graphql(`
  query ChargesByExtId($filter: ChargeFilter, $first: Int, $after: String) {
    charges(filter: $filter, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { reference extId status } }
    }
  }
`);

const ChargeByReference = graphql(`
  query ChargeSeen($reference: String!) {
    charge(reference: $reference) { reference extId }
  }
`);

const namespace = uniqueNamespace('charges-by-ext-id');
let sandbox: Sandbox;
let stack: TestStack;
let other: TestStack;
let service: Api;
let redis: GatewayRedis;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  const apiKey = testKey('extid');
  const env = { REDIS_URL };
  [stack, other, redis] = await Promise.all([
    startStack({ sharedSandbox: sandbox, apiKey, env, redisNamespace: namespace, sandboxWebhooks: true }),
    startStack({ sharedSandbox: sandbox, apiKey: testKey('extid-other'), env, redisNamespace: namespace, inProcess: true }),
    connectRedis({ url: REDIS_URL, namespace }),
  ]);
  service = new Api(sandbox.url, apiKey);
});
afterAll(async () => {
  await Promise.all([stack?.close(), other?.close(), service?.close()]);
  await deleteByPrefix(redis.commands, namespace);
  await redis?.close();
  await sandbox?.close();
});

async function byExtId(on: TestStack, filter: Record<string, unknown>, page: { first?: number; after?: string } = {}) {
  const res = await on.gql(ChargesByExtId, { filter, first: page.first ?? 10, after: page.after });
  expect(res.errors, res.raw).toBeUndefined();
  return res.data!.charges;
}
const references = (connection: { edges: { node: { reference: string } }[] }) => connection.edges.map((e) => e.node.reference);

describe('charges(filter: { extId })', () => {
  it('finds the charges made through the gateway with an ext_id, newest first, with the other conditions and cursors', async () => {
    const first = await createOtpCharge(stack, { extId: 'order-gw-1' });
    const second = await createOtpCharge(stack, { extId: 'order-gw-1', amount: 2500 });
    await createOtpCharge(stack, { extId: 'order-gw-2' });

    const found = await byExtId(stack, { extId: 'order-gw-1' });
    expect(references(found)).toEqual([second.reference, first.reference]);
    expect(found.totalCount).toBe(2);
    expect(found.edges.every((e) => e.node.extId === 'order-gw-1')).toBe(true);

    // The other conditions hold as on the service's list: PENDING covers SEND_OTP; amounts and status narrow.
    expect(references(await byExtId(stack, { extId: 'order-gw-1', status: 'PENDING', amountMin: 2000 }))).toEqual([second.reference]);
    expect(references(await byExtId(stack, { extId: 'order-gw-1', status: 'SUCCESS' }))).toEqual([]);

    // Relay cursors over the answer, bound to this filter.
    const page1 = await byExtId(stack, { extId: 'order-gw-1' }, { first: 1 });
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const page2 = await byExtId(stack, { extId: 'order-gw-1' }, { first: 1, after: page1.pageInfo.endCursor! });
    expect(references(page2)).toEqual([first.reference]);
    const reused = await stack.gql(ChargesByExtId, { filter: { extId: 'order-gw-2' }, first: 1, after: page1.pageInfo.endCursor! });
    expect(reused.errors?.[0]?.extensions?.code, reused.raw).toBe('INVALID_CURSOR');

    expect(references(await byExtId(stack, { extId: 'order-never-made' }))).toEqual([]);
  });

  it('finds a charge made straight at the service once a webhook carried it, or once it was fetched or listed through the gateway', async () => {
    const announced = await service.newCharge('opa_bf', '76000000', 1000, { ext_id: 'order-direct-1' });
    const fetched = await service.newCharge('opa_bf', '76000000', 1000, { ext_id: 'order-direct-2' });
    // The gateway has seen neither: the service itself cannot search by ext_id.
    expect(references(await byExtId(stack, { extId: 'order-direct-1' }))).toEqual([]);

    // Paid at the service: its charge.success webhook carries the charge, ext_id included.
    expect((await service.submitOtp(announced, TEST_OTP)).status).toBe(200);
    await waitFor(async () => references(await byExtId(stack, { extId: 'order-direct-1' })).length === 1, 'the webhook indexed');
    expect(references(await byExtId(stack, { extId: 'order-direct-1', status: 'SUCCESS' }))).toEqual([announced]);

    expect(references(await byExtId(stack, { extId: 'order-direct-2' }))).toEqual([]);
    const read = await stack.gql(ChargeByReference, { reference: fetched });
    expect(read.data?.charge?.extId, read.raw).toBe('order-direct-2');
    expect(references(await byExtId(stack, { extId: 'order-direct-2' }))).toEqual([fetched]);

    const listed = await service.newCharge('opa_bf', '76000000', 1000, { ext_id: 'order-direct-3' });
    expect(references(await byExtId(stack, { extId: 'order-direct-3' }))).toEqual([]);
    expect(references(await byExtId(stack, {}, { first: 1 }))).toEqual([listed]);
    expect(references(await byExtId(stack, { extId: 'order-direct-3' }))).toEqual([listed]);
  });

  it('drops an entry the service contradicts, from the answer and from the index', async () => {
    const real = await createOtpCharge(stack, { extId: 'order-real' });
    const other = await createOtpCharge(stack, { extId: 'order-other' });
    // Entries no charge backs: one naming a charge that carries another ext_id, one naming no charge at all.
    const index = redisExtIdIndex(redis, { account: accountPrefix(stack.apiKey), retentionMs: 3_600_000 });
    await index.record([
      { extId: 'order-real', reference: other.reference },
      { extId: 'order-real', reference: 'ch_000000000000000000000000' },
    ]);
    expect(await index.references('order-real')).toHaveLength(3);

    const found = await byExtId(stack, { extId: 'order-real' });
    expect(references(found)).toEqual([real.reference]);
    expect(found.totalCount).toBe(1);
    expect(await index.references('order-real')).toEqual([real.reference]);
  });

  it("never answers another API key's charges, though both gateways share one Redis namespace", async () => {
    const mine = await createOtpCharge(stack, { extId: 'order-shared' });
    const theirs = await createOtpCharge(other, { extId: 'order-shared' });
    expect(references(await byExtId(stack, { extId: 'order-shared' }))).toEqual([mine.reference]);
    expect(references(await byExtId(other, { extId: 'order-shared' }))).toEqual([theirs.reference]);
  });

  it('answers SERVICE_UNAVAILABLE, in English and French, while its index cannot be read', async () => {
    const own = await startRedisServer();
    const cut = await startStack({ sharedSandbox: sandbox, env: { REDIS_URL: own.url }, inProcess: true });
    try {
      await createOtpCharge(cut, { extId: 'order-outage' });
      expect(references(await byExtId(cut, { extId: 'order-outage' }))).toHaveLength(1);
      await own.kill();
      const res = await cut.gql(ChargesByExtId, { filter: { extId: 'order-outage' }, first: 10 });
      expect(res.errors?.[0]?.extensions, res.raw).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        retryable: true,
        messageFr: expect.stringMatching(/momentanément indisponible/),
      });
      expect(res.errors?.[0]?.message).toMatch(/temporarily unavailable/);
    } finally {
      await cut.close();
      await own.stop();
    }
  });
});
