// Payments never wait for a connection behind reads, and a payment still waiting
// for one at its deadline provably never left: it is reported as not sent (not
// outcomeUnknown) and its idempotency key is released. The service sits behind a
// fault proxy that holds its answers, so how many requests reached it is known
// exactly; payments are counted in the sandbox's own list.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { extIdForKey } from '../../src/idempotency/ext-id.js';
import { runIdempotent } from '../../src/idempotency/run.js';
import { memoryIdempotencyStore } from '../../src/idempotency/store.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { createUpstreamClient } from '../../src/upstream/client.js';
import { UpstreamCallError } from '../../src/upstream/call-error.js';
import type { UpstreamClient } from '../../src/upstream/types.js';
import { graphql } from '../gql/index.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { startStack, testKey, type TestStack } from '../helpers/gateway.js';

const TRANSFER_POST = { method: 'POST', path: '/v1/payment/transfers/' } as const;

let sandbox: Sandbox;
let proxy: FaultProxy;
let direct: UpstreamClient;
const apiKey = `sk_test_pools_${randomBytes(6).toString('hex')}`;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  proxy = await startFaultProxy(sandbox.url);
  direct = createUpstreamClient({
    baseUrl: sandbox.url,
    apiKey,
    timeoutMs: 5_000,
    pageParam: 'page',
    pageSizeParam: 'page_size',
    pageSize: 20,
  });
});
afterAll(async () => {
  await direct?.close();
  await proxy?.close();
  await sandbox?.close();
});

const transfersWith = async (extId: string) => (await direct.listTransfers()).filter((t) => t.extId === extId);

describe('a payment still waiting for a connection at its deadline', () => {
  it('is reported as not sent and releases its key (the retry sends it once); those written are outcomeUnknown and reconcile', async () => {
    // Two sockets for payments and a service that holds its answers: of twelve payments started at once, at
    // most a few get a socket before their deadline (the held ones free theirs only at theirs).
    const client = createUpstreamClient(
      { baseUrl: proxy.url, apiKey, timeoutMs: 300, pageParam: 'page', pageSizeParam: 'page_size', pageSize: 20 },
      { writeConnections: 2 },
    );
    const store = memoryIdempotencyStore();
    const keys = Array.from({ length: 12 }, () => randomUUID());
    const pay = (key: string) =>
      runIdempotent({
        store,
        principal: 'staff-1',
        operation: 'createTransfer',
        key,
        input: { amount: 1000, recipientPhone: '70000000', extId: extIdForKey(key) },
        meta: { extId: extIdForKey(key) },
        settleWindowMs: 0,
        execute: () => client.createTransfer({ amount: 1000, recipientPhone: '70000000', extId: extIdForKey(key) }),
        reconcile: async (meta) => (await direct.listTransfers()).find((t) => t.extId === meta.extId) ?? null,
      });
    try {
      const held = proxy.inject({ ...TRANSFER_POST, action: { kind: 'hold' }, times: 12 });
      const results = await Promise.all(
        keys.map((key) =>
          pay(key).then(
            () => ({}) as Record<string, unknown>,
            (err: unknown) => err as Record<string, unknown>,
          ),
        ),
      );
      held.release();

      const notSent = keys.filter((_, i) => results[i]!.neverSent === true);
      const unknown = keys.filter((_, i) => results[i]!.outcomeUnknown === true);
      expect(notSent.length + unknown.length).toBe(12);
      // (How many got a socket before their deadline depends on when the held ones free theirs: usually 2 to 4.)
      for (const key of notSent) {
        expect(results[keys.indexOf(key)]).toMatchObject({
          fault: 'timeout',
          outcomeUnknown: false,
          message: expect.stringMatching(/not sent/),
        });
      }
      // What was reported not sent is not at the service, and never reaches it later.
      await held.handled(unknown.length).catch(() => undefined);
      for (const key of notSent) expect(await transfersWith(extIdForKey(key))).toHaveLength(0);

      // Released keys send on retry, once; the others reconcile to what reached the service: 1 payment each.
      for (const key of keys) {
        const retried = await pay(key);
        expect(await transfersWith(extIdForKey(key))).toEqual([expect.objectContaining({ reference: retried.reference })]);
      }
    } finally {
      await client.close();
    }
  }, 60_000);
});

const Transfer = graphql(`
  mutation PoolTransfer($input: CreateTransferInput!) {
    createTransfer(input: $input) {
      __typename
      ... on CreateTransferPayload { transfer { reference } }
      ... on UpstreamError { outcomeUnknown }
      ... on PaymentError { code message }
    }
  }
`);

describe('20 payouts at once with a slow service', () => {
  let stack: TestStack;
  // A proxy of its own: the rules above may have matches left.
  let slow: FaultProxy;
  const stackKey = testKey('pools');

  beforeAll(async () => {
    slow = await startFaultProxy(sandbox.url);
    stack = await startStack({ sharedSandbox: sandbox, apiKey: stackKey, env: { PAYMENT_BASE_URL: slow.url } });
  });
  afterAll(async () => {
    await stack?.close();
    await slow?.close();
  });

  it('all 20 reach the service at once (none waits for a socket), none is outcomeUnknown, 20 payments', async () => {
    const payouts = slow.inject({ ...TRANSFER_POST, action: { kind: 'hold' }, times: 20 });
    const amounts = Array.from({ length: 20 }, (_, i) => 2_000 + i);
    const sent = Promise.all(
      amounts.map((amount) => stack.gql(Transfer, { input: { amount, recipientPhone: '70000000', idempotencyKey: randomUUID() } })),
    );
    // Every payout is at the service at the same time: none is queued behind another for a socket.
    await payouts.handled(20);
    payouts.release();
    const answers = (await sent).map((r) => r.data!.createTransfer);
    expect(answers.map((a) => a.__typename)).toEqual(amounts.map(() => 'CreateTransferPayload'));
    const listed = await createUpstreamClient({
      baseUrl: sandbox.url,
      apiKey: stackKey,
      timeoutMs: 5_000,
      pageParam: 'page',
      pageSizeParam: 'page_size',
      pageSize: 20,
    }).listTransfers();
    expect(amounts.map((a) => listed.filter((t) => t.amount === a).length)).toEqual(amounts.map(() => 1));
  }, 60_000);
});

describe('every payment connection held by a service that does not answer', () => {
  afterEach(() => void vi.useRealTimers());

  it('a further payment waiting for a connection at its deadline is reported not sent, its key released; the retry pays once', async () => {
    const stub = await startFaultProxy(sandbox.url);
    // Two sockets for payments, both taken by payments the service holds (forwarded, answers held until released).
    const client = createUpstreamClient(
      { baseUrl: stub.url, apiKey, timeoutMs: 2_000, pageParam: 'page', pageSizeParam: 'page_size', pageSize: 20 },
      { writeConnections: 2 },
    );
    const store = memoryIdempotencyStore();
    const input = (key: string) => ({ amount: 1000, recipientPhone: '70000000', extId: extIdForKey(key) });
    const dispatched = new Set<string>();
    // The default settle window: a key that was not released would refuse the retry as in_progress.
    const pay = (key: string) =>
      runIdempotent({
        store,
        principal: 'staff-1',
        operation: 'createTransfer',
        key,
        input: input(key),
        meta: { extId: extIdForKey(key) },
        execute: () => {
          const sending = client.createTransfer(input(key));
          dispatched.add(key); // the request is in the pool's hands (its deadline armed) once the call returns
          return sending;
        },
        reconcile: async (meta) => (await direct.listTransfers()).find((t) => t.extId === meta.extId) ?? null,
      });
    const outcome = (p: Promise<unknown>) =>
      p.then(
        () => ({}) as Record<string, unknown>,
        (err: unknown) => err as Record<string, unknown>,
      );
    const transferPosts = () => stub.requests.filter((r) => r.method === 'POST' && r.path === TRANSFER_POST.path).length;
    try {
      const held = stub.inject({ ...TRANSFER_POST, action: { kind: 'hold' }, times: 2 });
      const [holderA, holderB, waiting] = [randomUUID(), randomUUID(), randomUUID()];
      // A controlled clock for the deadlines: all three fall due in one step, in the order they were armed, with no
      // I/O in between, so the sockets the holders free at theirs cannot reach the waiting payment before its own.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const results: Array<Promise<Record<string, unknown>>> = [];
      for (const key of [holderA, holderB, waiting]) {
        results.push(outcome(pay(key)));
        await waitUntil(() => dispatched.has(key), `the payment ${key} to be dispatched`);
      }
      await held.handled(2); // both holders are at the service, their answers held: the waiting one has no socket
      vi.advanceTimersByTime(2_000);
      const [a, b, c] = await Promise.all(results);
      vi.useRealTimers();
      held.release();

      expect(c).toBeInstanceOf(UpstreamCallError);
      expect(c).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', fault: 'timeout', neverSent: true, outcomeUnknown: false });
      expect(c!.message).toMatch(/not sent/);
      // The holders were written: their outcome is unknown, not "not sent".
      for (const holder of [a, b]) expect(holder).toMatchObject({ neverSent: false, outcomeUnknown: true });
      // Nothing of the waiting payment reached the service.
      expect(transferPosts()).toBe(2);
      expect(await transfersWith(extIdForKey(waiting))).toHaveLength(0);

      // Its key was released: the retry with the same key is sent at once (the hold rule is spent), and pays once.
      const retried = await pay(waiting);
      expect(transferPosts()).toBe(3);
      expect(await transfersWith(extIdForKey(waiting))).toEqual([expect.objectContaining({ reference: retried.reference })]);
      // The holders reconcile to the one payment each made; nothing is sent again.
      for (const holder of [holderA, holderB]) {
        const found = await pay(holder);
        expect(await transfersWith(extIdForKey(holder))).toEqual([expect.objectContaining({ reference: found.reference })]);
      }
      expect(transferPosts()).toBe(3);
    } finally {
      vi.useRealTimers();
      await client.close();
      await stub.close();
    }
  }, 60_000);
});

/** Waits on a condition across turns of the event loop (setImmediate: not a timer, so the controlled clock does not stop it). */
async function waitUntil(condition: () => boolean, what: string, turns = 100_000): Promise<void> {
  for (let i = 0; !condition(); i++) {
    if (i >= turns) throw new Error(`gave up waiting for ${what}`);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
