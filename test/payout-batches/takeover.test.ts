// The replica running a batch is killed with SIGKILL halfway; the other one
// takes over the batch's lease and finishes it; every item is paid exactly
// once (the sandbox holds one transfer per item, by ext_id). Both replicas are
// real processes sharing Redis; the sandbox is this test's, over HTTP.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mintStaffToken, SCOPES } from '../../src/auth/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { postGraphQL, testKey } from '../helpers/gateway.js';
import { Api } from '../helpers/sandbox-api.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait.js';
import { startChildReplica, stopChildReplicas, type ChildReplica } from '../helpers/child-replica.js';
import { BatchView } from './documents.js';
import { startedBatch } from './started-batch.js';

const namespace = uniqueNamespace('payout-takeover');
const jwtSecret = randomBytes(32).toString('hex');
const apiKey = testKey('takeover');

// Short times so the takeover happens within the test: the lease, a chunk's pending claim, the settle window.
// (takeover-defaults.test.ts runs one with every setting at its default.)
const SHORT_TIMES = {
  PAYOUT_BATCH_LEASE_MS: '1000',
  PAYMENT_TIMEOUT_MS: '1500',
  IDEMPOTENCY_PENDING_TTL_MS: '2000',
  PAYOUT_BATCH_SETTLE_MS: '1000',
  PAYOUT_BATCH_FOLLOW_POLL_MS: '300',
};

let sandbox: Sandbox;
let replicas: ChildReplica[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ delays: { transferMs: 50 } });
  replicas = await Promise.all(
    [0, 1].map(() => startChildReplica({ sandboxUrl: sandbox.url, apiKey, jwtSecret, namespace, env: SHORT_TIMES })),
  );
}, 60_000);
afterAll(async () => {
  await stopChildReplicas(replicas);
  await sandbox?.close();
  const redis = new Redis(REDIS_URL);
  await deleteByPrefix(redis, namespace);
  await redis.quit();
});

it('a replica killed halfway through a batch: the other finishes it, every item paid once', async () => {
  const [a, b] = replicas as [ChildReplica, ChildReplica];
  const { token } = await mintStaffToken({ secret: jwtSecret, scopes: SCOPES, subject: 'back-office', ttlSeconds: 600 });
  const auth = { authorization: `Bearer ${token}` };
  const bulk = () => sandbox.requests.count({ method: 'POST', path: '/v1/payment/transfers/bulk' });
  const { id, batchId } = await startedBatch(a.url, auth, 4);

  const taken = (r: ChildReplica) => r.output().includes(`"batchId":"${batchId}","runner"`);
  await waitFor(() => taken(a) || taken(b), 'a replica to take the batch', 10_000, 10).catch((err: unknown) => {
    throw new Error(`${String(err)}\n--- a:\n${a.output().slice(-3000)}\n--- b:\n${b.output().slice(-3000)}`);
  });
  await waitFor(() => bulk() >= 8, 'eight chunks to be sent', 30_000, 5);
  const [victim, survivor] = taken(a) ? [a, b] : [b, a];
  victim.child.kill('SIGKILL');
  await new Promise((resolve) => victim.child.once('exit', resolve));
  const sentBeforeKill = bulk();
  expect(sentBeforeKill).toBeLessThan(20);

  const view = async () => (await postGraphQL(survivor.url, BatchView, { id }, auth)).data!.payoutBatch!;
  await waitFor(async () => (await view()).settled, 'the survivor to finish the batch', 90_000, 100);
  expect(taken(survivor)).toBe(true);
  expect(await view()).toMatchObject({
    status: 'COMPLETED_WITH_FAILURES',
    sent: { items: 2000 },
    succeeded: { items: 1800 },
    failed: { items: 200 },
    notSent: { items: 0 },
  });
  const api = new Api(sandbox.url, apiKey);
  const transfers = (await api.get('/v1/payment/transfers')).body.data as Array<{ ext_id: string }>;
  await api.close();
  expect(transfers).toHaveLength(2000);
  expect(new Set(transfers.map((t) => t.ext_id)).size).toBe(2000);
}, 150_000);
