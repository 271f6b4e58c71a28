// Webhooks to merchants' servers in platform mode, over a real Redis and real receivers: each merchant manages its
// own endpoints (another merchant's endpoint and deliveries are not found), each endpoint receives only its
// merchant's events, signed with its own secret, the secrets are sealed at rest (a dump of Redis holds none, and a
// sealed secret copied into another merchant's endpoint does not open), and an offboarded merchant's purge removes
// every key of its endpoints, found in its key index. In process: GraphQL through yoga.fetch; the receivers are
// real HTTP servers.
import { randomBytes, randomUUID } from 'node:crypto';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintStaffToken, SCOPES } from '../../src/auth/index.js';
import { createKeyRing, keyVersion, type SealedSecret } from '../../src/merchants/index.js';
import type { PaymentEventRecord } from '../../src/events/payment-event.js';
import { REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import type { TestStack } from '../helpers/gateway.js';
import { closePlatformStack, createMerchant, logOnce, startPlatformStack } from '../helpers/platform.js';
import { waitFor } from '../helpers/wait.js';
import { CREATE_ENDPOINT, startReceiver, type Receiver } from './helpers.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- ad-hoc documents of this suite
type Doc = TypedDocumentNode<any, Record<string, unknown>>;

const namespace = uniqueNamespace('outbound-platform');
/** The key-encryption key of the suite's gateway, and the one a rotation moves to. */
const oldKek = randomBytes(32);
const newKek = randomBytes(32);
let stack: TestStack;
let redis: Redis;
const receivers: Receiver[] = [];

/** A merchant, a staff token of its own, and an endpoint of its own with its secret. */
interface Merchant {
  id: string;
  token: string;
  endpointId: string;
  rawEndpointId: string;
  secret: string;
  receiver: Receiver;
  /** The creation's idempotency key. */
  created: string;
}
let a: Merchant;
let b: Merchant;

const as = (token: string, query: string, variables: Record<string, unknown> = {}) =>
  stack.gql(parse(query) as Doc, variables, { authorization: `Bearer ${token}` });
const rawOf = (globalId: string) => Buffer.from(globalId, 'base64url').toString('utf8').split(':')[1]!;

async function merchant(name: string): Promise<Merchant> {
  const id = await createMerchant(stack, name);
  const scopes = SCOPES.filter((s) => s !== 'platform:manage');
  const token = (await mintStaffToken({ secret: stack.jwtSecret, scopes, subject: `staff-${name}`, ttlSeconds: 600, merchantId: id }))
    .token;
  const receiver = await startReceiver();
  receivers.push(receiver);
  const creation = randomUUID();
  const made = await as(token, CREATE_ENDPOINT, { input: { url: receiver.url, idempotencyKey: creation } });
  const payload = made.data!.createWebhookEndpoint;
  if (payload.__typename !== 'CreateWebhookEndpointPayload') throw new Error(made.raw);
  return {
    id,
    token,
    endpointId: payload.endpoint.id,
    rawEndpointId: rawOf(payload.endpoint.id),
    secret: payload.secret,
    receiver,
    created: creation,
  };
}

const event = (merchantId: string | null, n: number): PaymentEventRecord => ({
  id: `${merchantId ?? 'none'}:evt_${n}_${randomUUID()}`,
  kind: 'charge.success',
  receivedAt: new Date().toISOString(),
  reference: `ch_${n}`,
  resourceType: null,
  payload: { event: 'charge.success', data: { n, merchant: merchantId } },
  ...(merchantId ? { merchantId } : {}),
});

/** Every key of the namespace with its values, as a dump would show them. */
async function dump(): Promise<Map<string, string>> {
  const all = new Map<string, string>();
  for (const key of await redis.keys(`${namespace}*`)) {
    const type = await redis.type(key);
    const value =
      type === 'hash'
        ? JSON.stringify(await redis.hgetall(key))
        : type === 'set'
          ? JSON.stringify(await redis.smembers(key))
          : type === 'zset'
            ? JSON.stringify(await redis.zrange(key, 0, -1))
            : type === 'string'
              ? ((await redis.get(key)) ?? '')
              : type === 'stream'
                ? JSON.stringify(await redis.xrange(key, '-', '+'))
                : '';
    all.set(key, value);
  }
  return all;
}

beforeAll(async () => {
  stack = await startPlatformStack(namespace, {
    inProcess: true,
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', MERCHANT_OFFBOARD_GRACE: '1s', MERCHANT_KEYS_KEK: oldKek.toString('base64') },
    outboundWebhooks: { pollMs: 50 },
  });
  redis = new Redis(REDIS_URL);
  a = await merchant('hooksa');
  b = await merchant('hooksb');
}, 30_000);

afterAll(async () => {
  await closePlatformStack(stack, namespace);
  for (const r of receivers) await r.close();
  await redis?.quit();
});

describe('webhook endpoints per merchant in platform mode', () => {
  it('lists each merchant’s own endpoints only, and answers another merchant’s endpoint as one that does not exist', async () => {
    const list = `{ webhookEndpoints(first: 10) { edges { node { id url } } } }`;
    const ids = async (token: string) =>
      (await as(token, list)).data!.webhookEndpoints.edges.map((e: { node: { id: string } }) => e.node.id);
    expect(await ids(a.token)).toEqual([a.endpointId]);
    expect(await ids(b.token)).toEqual([b.endpointId]);
    // A's endpoint id with another random part: an endpoint that does not exist, of the same shape.
    const unknown = Buffer.from(`WebhookEndpoint:${a.rawEndpointId.slice(0, -6)}abcdef`).toString('base64url');
    const probes = [
      `query($id: ID!) { node(id: $id) { id } }`,
      `query($id: ID!) { webhookDeliveries(endpointId: $id, first: 5) { totalCount } }`,
      `mutation($id: ID!) { updateWebhookEndpoint(input: { endpointId: $id, description: "mine" }) { __typename ... on PaymentError { code } } }`,
      `mutation($id: ID!) { rotateWebhookEndpointSecret(input: { endpointId: $id }) { __typename ... on PaymentError { code } } }`,
      `mutation($id: ID!) { sendTestWebhook(input: { endpointId: $id }) { __typename ... on PaymentError { code } } }`,
      `mutation($id: ID!) { replayWebhookEvents(input: { endpointId: $id, since: "2026-01-01T00:00:00Z" }) { __typename ... on PaymentError { code } } }`,
      `mutation($id: ID!) { deleteWebhookEndpoint(input: { endpointId: $id }) { __typename ... on PaymentError { code } } }`,
    ];
    for (const probe of probes) {
      const onOther = await as(b.token, probe, { id: a.endpointId });
      const onUnknown = await as(b.token, probe, { id: unknown });
      expect(onOther.raw, probe).toBe(onUnknown.raw.replace(unknown, a.endpointId));
      expect(onOther.raw).not.toContain('"id"');
    }
    // Still there, untouched, for its own merchant.
    expect(await ids(a.token)).toEqual([a.endpointId]);
  });

  it('delivers each merchant’s events to its own endpoint only, signed with its own secret', async () => {
    const owners = Array.from({ length: 60 }, (_, n) => (n % 10 === 0 ? null : n % 2 === 0 ? a.id : b.id));
    await Promise.all(owners.map((owner, n) => logOnce(stack.gateway.bus, event(owner, n))));
    const mine = (m: Merchant) => owners.flatMap((owner, n) => (owner === m.id ? [n] : []));
    const seen = (m: Merchant) => m.receiver.delivered().filter((d) => d.type === 'charge.success');
    await waitFor(() => seen(a).length >= mine(a).length && seen(b).length >= mine(b).length, 'each endpoint’s deliveries', 20_000, 20);
    for (const [m, other] of [
      [a, b],
      [b, a],
    ] as const) {
      expect(
        seen(m)
          .map((d) => d.data['n'] as number)
          .sort((x, y) => x - y),
      ).toEqual(mine(m));
      for (const r of m.receiver.received) {
        const headers = {
          'webhook-id': r.headers['webhook-id']!,
          'webhook-timestamp': r.headers['webhook-timestamp']!,
          'webhook-signature': r.headers['webhook-signature']!,
        };
        expect(() => new Webhook(m.secret).verify(r.body, headers)).not.toThrow();
        expect(() => new Webhook(other.secret).verify(r.body, headers)).toThrow();
      }
    }
  });

  it('keeps the endpoints under the merchant’s hash tag and in its key index, with no secret in clear', async () => {
    const keys = await dump();
    for (const m of [a, b]) {
      const own = [...keys.keys()].filter((key) => key.includes(m.rawEndpointId) && !key.includes(':events:'));
      expect(own.length).toBeGreaterThan(0);
      expect(own.every((key) => key.includes(`{m:${m.id}}`))).toBe(true);
      const index = await stack.gateway.merchants!.store.ownedKeys(m.id);
      expect(own.every((key) => index.includes(key))).toBe(true);
      const secretBytes = m.secret.slice('whsec_'.length);
      for (const [key, value] of keys) expect(value.includes(secretBytes), key).toBe(false);
      // The creation's answer is kept for its idempotency key, sealed: a repeat still shows the secret.
      const again = await as(m.token, CREATE_ENDPOINT, { input: { url: m.receiver.url, idempotencyKey: m.created } });
      expect(again.data!.createWebhookEndpoint.secret).toBe(m.secret);
    }
  });

  it('opens no secret copied into another merchant’s endpoint: that endpoint is then as good as absent', async () => {
    const keyOf = (m: Merchant) => `${namespace}:{m:${m.id}}:webhooks:ep:${m.rawEndpointId}`;
    const original = await redis.hget(keyOf(b), 'secrets');
    await redis.hset(keyOf(b), 'secrets', (await redis.hget(keyOf(a), 'secrets'))!);
    const list = `{ webhookEndpoints(first: 10) { totalCount } }`;
    expect((await as(b.token, list)).data!.webhookEndpoints.totalCount).toBe(0);
    await redis.hset(keyOf(b), 'secrets', original!);
    expect((await as(b.token, list)).data!.webhookEndpoints.totalCount).toBe(1);
  });

  it('purges an offboarded merchant’s endpoints and deliveries with it, and stops reading the log for them', async () => {
    const operator = (await mintStaffToken({ secret: stack.jwtSecret, scopes: SCOPES, subject: 'operator', ttlSeconds: 600 })).token;
    await as(operator, `mutation($i: OffboardMerchantInput!) { offboardMerchant(input: $i) { __typename } }`, { i: { merchantId: a.id } });
    // Purged once its grace (1 s here) is over, as the hourly sweep does.
    await waitFor(async () => (await stack.gateway.merchants!.purgeDue()).includes(a.id), 'A purged', 10_000, 200);
    const left = [...(await dump()).keys()].filter((key) => key.includes(`{m:${a.id}}`) || key.includes(a.rawEndpointId));
    expect(left).toEqual([]);
    // The worker drops the purged endpoint from its sets, and its consumer group from the log.
    await waitFor(
      async () => {
        const groups = (await redis.xinfo('GROUPS', `${namespace}:events:log`)) as unknown[][];
        return !groups.some((g) => g.includes(`webhooks:${a.rawEndpointId}`));
      },
      'the purged endpoint’s group gone',
      10_000,
      50,
    );
    // B is served as before.
    await logOnce(stack.gateway.bus, event(b.id, 1_000));
    await waitFor(() => b.receiver.delivered().some((d) => d.data['n'] === 1_000), 'B’s delivery after A’s purge', 10_000, 20);
  });

  it('re-wraps every endpoint secret under the new key-encryption key when a replica starts after a rotation (the last test: the suite’s gateway has the old key only)', async () => {
    const keyOf = (m: Merchant) => `${namespace}:{m:${m.id}}:webhooks:ep:${m.rawEndpointId}`;
    const sealedOf = async (m: Merchant) => {
      const { current } = JSON.parse((await redis.hget(keyOf(m), 'secrets'))!) as { current: string };
      return JSON.parse(Buffer.from(current.slice('sealed:'.length), 'base64').toString('utf8')) as SealedSecret;
    };
    expect((await sealedOf(b)).kek).toBe(keyVersion(oldKek));
    // A replica restarted with the new key, the old one still accepted.
    const rotated = await startPlatformStack(namespace, {
      inProcess: true,
      env: { MERCHANT_KEYS_KEK: newKek.toString('base64'), MERCHANT_KEYS_KEK_PREVIOUS: oldKek.toString('base64') },
    });
    try {
      await waitFor(async () => (await sealedOf(b)).kek === keyVersion(newKek), 're-wrapped', 10_000, 50);
    } finally {
      await rotated.close();
    }
    // Without the old key, each secret still opens, for its own merchant only.
    const ring = createKeyRing(newKek);
    const sealed = await sealedOf(b);
    expect(ring.open(b.id, sealed)).toBe(b.secret);
    expect(() => ring.open(a.id, sealed)).toThrow();
  });
});
