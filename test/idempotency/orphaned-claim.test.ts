// A payout whose replica dies while its call is at the service: with every setting at its default, a retry with the
// same key on another replica gets the payout once the dead holder's call has surely ended (within
// PAYMENT_TIMEOUT_MS + 10 s), not after IDEMPOTENCY_PENDING_TTL_MS; paid once. A holder alive but slow keeps its
// claim: the retry is IN_PROGRESS. Two replicas are real processes sharing Redis; a proxy in front of the sandbox
// holds the payout's answer once the service has carried it out, instead of the gateway's settings being shortened.
import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mintStaffToken, SCOPES } from '../../src/auth/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { graphql } from '../gql/index.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { postGraphQL, testKey } from '../helpers/gateway.js';
import { Api } from '../helpers/sandbox-api.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait.js';
import { killHard, startChildReplica, stopChildReplicas, type ChildReplica } from '../helpers/child-replica.js';

const PAYMENT_TIMEOUT_MS = 15_000; // the default
const Transfer = graphql(`
  mutation OrphanedClaimTransfer($input: CreateTransferInput!) {
    createTransfer(input: $input) {
      __typename
      ... on CreateTransferPayload { transfer { reference extId amount } }
      ... on IdempotencyConflictError { reason retryAfterMs }
      ... on PaymentError { code message }
    }
  }
`);

const namespace = uniqueNamespace('orphaned-claim');
const jwtSecret = randomBytes(32).toString('hex');
const apiKey = testKey('orphaned');
const TRANSFER_POST = { method: 'POST', path: /^\/v1\/payment\/transfers\/?$/ } as const;
let sandbox: Sandbox;
let proxy: FaultProxy;
let a: ChildReplica;
let b: ChildReplica;
let auth: Record<string, string>;

beforeAll(async () => {
  sandbox = await startTestSandbox({ delays: { transferMs: 50 } });
  proxy = await startFaultProxy(sandbox.url);
  const started = await Promise.all([0, 1].map(() => startChildReplica({ sandboxUrl: proxy.url, apiKey, jwtSecret, namespace })));
  [a, b] = started as [ChildReplica, ChildReplica];
  const { token } = await mintStaffToken({ secret: jwtSecret, scopes: SCOPES, subject: 'treasury', ttlSeconds: 600 });
  auth = { authorization: `Bearer ${token}` };
}, 60_000);
afterAll(async () => {
  await stopChildReplicas([a, b].filter(Boolean));
  await proxy?.close();
  await sandbox?.close();
  const redis = new Redis(REDIS_URL);
  await deleteByPrefix(redis, namespace);
  await redis.quit();
});

const send = async (replica: ChildReplica, key: string, recipientPhone: string) =>
  (await postGraphQL(replica.url, Transfer, { input: { amount: 2_500, recipientPhone, idempotencyKey: key } }, auth)).data!.createTransfer;
const posts = () => sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers' });

async function transfersTo(phone: string) {
  const api = new Api(sandbox.url, apiKey);
  const all = (await api.get('/v1/payment/transfers')).body.data as Array<{ recipient_phone: string; reference: string }>;
  await api.close();
  return all.filter((t) => t.recipient_phone.endsWith(phone.slice(-8)));
}

it('a holder alive but slow keeps its claim: a retry elsewhere is IN_PROGRESS, then gets the one payout', async () => {
  const key = randomUUID();
  const before = posts();
  const held = proxy.inject({ ...TRANSFER_POST, action: { kind: 'hold' } });
  const first = send(a, key, '70111111');
  await held.handled(1);
  expect(posts() - before).toBe(1);
  // Its call is on its way (within PAYMENT_TIMEOUT_MS), its holder alive: the retry on the other replica waits.
  for (let k = 0; k < 3; k++) {
    expect(await send(b, key, '70111111')).toMatchObject({ __typename: 'IdempotencyConflictError', reason: 'IN_PROGRESS' });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  held.release();
  const paid = await first;
  expect(paid.__typename).toBe('CreateTransferPayload');
  expect(await send(b, key, '70111111')).toEqual(paid);
  expect(await transfersTo('70111111')).toHaveLength(1);
}, 60_000);

it('a holder SIGKILLed while its payout is at the service: a retry on the other replica gets it within PAYMENT_TIMEOUT_MS + 10 s, paid once', async () => {
  const key = randomUUID();
  const before = posts();
  // Carried out by the service; its answer never reaches the holder, killed meanwhile.
  const held = proxy.inject({ ...TRANSFER_POST, action: { kind: 'hold' } });
  void send(a, key, '70222222').catch(() => {});
  await held.handled(1);
  expect(posts() - before).toBe(1);
  const killedAt = Date.now();
  await killHard(a);
  const early = await send(b, key, '70222222');
  expect(early).toMatchObject({ __typename: 'IdempotencyConflictError', reason: 'IN_PROGRESS' });

  let answer = early;
  await waitFor(
    async () => (answer = await send(b, key, '70222222')).__typename === 'CreateTransferPayload',
    'the retry to get the payout',
    PAYMENT_TIMEOUT_MS + 10_000,
    500,
  ).catch((err: unknown) => {
    throw new Error(`${String(err)}: last answer ${JSON.stringify(answer)}\n${b.output().slice(-2000)}`);
  });
  console.log(`orphaned claim: kill -> payout on the other replica ${Date.now() - killedAt} ms`);
  const paid = await transfersTo('70222222');
  expect(paid).toHaveLength(1);
  expect(answer).toMatchObject({ __typename: 'CreateTransferPayload', transfer: { reference: paid[0]!.reference, amount: 2_500 } });
  expect(posts() - before).toBe(1);
  held.release();
}, 60_000);
