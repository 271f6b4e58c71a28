// The idempotency engine under real faults: the sandbox behind a fault proxy
// (its answer lost, replaced by a 500 or an HTML 502 after it processed the
// transfer, or the connection refused), and a Redis of the test's own that is
// killed, filled to its maxmemory, or restarted empty. Payments are counted in
// the sandbox's own list, or by how often the money-moving call ran.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../../src/errors/payment-errors.js';
import { extIdForKey } from '../../src/idempotency/ext-id.js';
import { runIdempotent } from '../../src/idempotency/run.js';
import { IDEMPOTENCY_TTL_MS, memoryIdempotencyStore, redisIdempotencyStore, type IdempotencyStore } from '../../src/idempotency/store.js';
import { connectRedis, redisEpoch, type GatewayRedis } from '../../src/redis/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createUpstreamClient } from '../../src/upstream/client.js';
import { UpstreamCallError } from '../../src/upstream/call-error.js';
import type { Transfer, UpstreamClient } from '../../src/upstream/types.js';
import { startFaultProxy, type FaultAction, type FaultProxy } from '../helpers/fault-proxy.js';
import { startRedisServer, type TestRedisServer } from '../helpers/redis-server.js';
import { settledThisTurn, waitFor } from '../redis/wait.js';

const client = (baseUrl: string, apiKey: string) =>
  createUpstreamClient({ baseUrl, apiKey, timeoutMs: 5_000, pageParam: 'page', pageSizeParam: 'page_size', pageSize: 20 });

describe('transfers through a faulty network', () => {
  let sandbox: Sandbox;
  let proxy: FaultProxy;
  let viaProxy: UpstreamClient;
  let direct: UpstreamClient;
  const store = memoryIdempotencyStore();

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    proxy = await startFaultProxy(sandbox.url);
    const apiKey = `sk_test_faults_${randomBytes(6).toString('hex')}`;
    viaProxy = client(proxy.url, apiKey);
    direct = client(sandbox.url, apiKey);
  });
  afterAll(async () => {
    await viaProxy.close();
    await direct.close();
    await proxy.close();
    await sandbox.close();
  });

  const transfer = (key: string) => {
    const extId = extIdForKey(key);
    return () =>
      runIdempotent<Transfer>({
        store,
        principal: 'staff-1',
        operation: 'createTransfer',
        key,
        input: { amount: 1000, recipientPhone: '70000000', extId },
        meta: { extId },
        execute: () => viaProxy.createTransfer({ amount: 1000, recipientPhone: '70000000', extId }),
        reconcile: async (meta) => (await viaProxy.listTransfers()).find((t) => t.extId === meta.extId) ?? null,
      });
  };
  const transfersWith = async (extId: string) => (await direct.listTransfers()).filter((t) => t.extId === extId);

  it.each<[string, FaultAction]>([
    ['a 500 INTERNAL_ERROR', { kind: 'status500' }],
    ['an HTML 502', { kind: 'html502' }],
    ['a dropped connection', { kind: 'drop' }],
  ])('%s after the service processed it: the retry with the same key returns that transfer, 1 payment', async (_label, action) => {
    const key = `fault-${action.kind}-${randomBytes(4).toString('hex')}`;
    const fault = proxy.inject({ method: 'POST', path: '/v1/payment/transfers/', action });
    const first = await transfer(key)().catch((e: unknown) => e);
    expect(fault.hits).toBe(1);
    expect(first).toBeInstanceOf(UpstreamCallError);
    expect(first).toMatchObject({ outcomeUnknown: true });
    const retried = await transfer(key)();
    const atService = await transfersWith(extIdForKey(key));
    expect(atService).toHaveLength(1);
    expect(retried.reference).toBe(atService[0]!.reference);
    expect((await transfer(key)()).reference).toBe(atService[0]!.reference);
  });

  it('a refused connection releases the key: the retry sends it, 1 payment', async () => {
    const key = `refused-${randomBytes(4).toString('hex')}`;
    await proxy.refuseConnections();
    try {
      await expect(transfer(key)()).rejects.toMatchObject({ fault: 'refused', outcomeUnknown: false });
    } finally {
      await proxy.acceptConnections();
    }
    expect(await transfersWith(extIdForKey(key))).toHaveLength(0);
    const sent = await transfer(key)();
    expect(await transfersWith(extIdForKey(key))).toEqual([expect.objectContaining({ reference: sent.reference })]);
  });
});

describe('a Redis that fails', () => {
  /** A clock the test moves, starting late enough that the store's continuity can be established. */
  let t = 1_700_000_000_000;
  const now = () => t;

  /** A money-moving call that counts how often it ran, with a reconcile that finds what it did. */
  const payments = () => {
    const done = new Map<string, string>();
    return {
      done,
      run: (store: IdempotencyStore, key: string, during?: () => Promise<void>) =>
        runIdempotent({
          store,
          principal: 'staff-1',
          operation: 'createCharge',
          key,
          input: { amount: 2500 },
          meta: { extId: `idem_${key}` },
          execute: async () => {
            const reference = `ch_${done.size + 1}`;
            done.set(`idem_${key}`, reference);
            await during?.();
            return reference;
          },
          reconcile: async (meta) => done.get(meta.extId!) ?? null,
        }),
    };
  };

  const withServer = async (
    options: Parameters<typeof startRedisServer>[0],
    body: (server: TestRedisServer, redis: GatewayRedis) => Promise<void>,
  ) => {
    const server = await startRedisServer(options);
    // Not a test of the command timeout: a loaded machine (AOF written on every command) must not turn an
    // expected refusal into a timed-out SERVICE_UNAVAILABLE.
    const redis = await connectRedis({ url: server.url, namespace: 'faults', commandTimeoutMs: 10_000 });
    try {
      await body(server, redis);
    } finally {
      await redis.close();
      await server.stop();
    }
  };

  it('refuses at once with SERVICE_UNAVAILABLE while Redis is down, without running the call; recovers when it returns', async () => {
    await withServer({}, async (server, redis) => {
      const store = redisIdempotencyStore(redis, { now });
      const p = payments();
      await server.kill();
      await waitFor(() => redis.commands.status !== 'ready', 'the client to see the connection drop');
      // At once: refused within this turn of the event loop, not after a reconnection or a timeout.
      const refused = await settledThisTurn(p.run(store, 'down'));
      expect(refused).toMatchObject({ settled: 'error', error: expect.any(ServiceUnavailableError) });
      expect((refused as { error: ServiceUnavailableError }).error.retryable).toBe(true);
      expect(p.done.size).toBe(0);
      await server.restart();
      await waitFor(() => redis.commands.status === 'ready', 'the commands connection to reconnect');
      expect(await p.run(store, 'down')).toBe('ch_1');
    });
  });

  it('Redis killed between the call and saving its result: the client gets its success, the retry reconciles, 1 payment', async () => {
    await withServer({ persistence: 'aof' }, async (server, redis) => {
      const store = redisIdempotencyStore(redis, { now });
      const p = payments();
      expect(await p.run(store, 'killed', () => server.kill())).toBe('ch_1');
      await server.restart();
      await waitFor(() => redis.commands.status === 'ready', 'the commands connection to reconnect');
      // The pending claim survived (AOF). Another replica (a book of its own) sees it in progress: no holder of it has died.
      const other = redisIdempotencyStore(redis, { now });
      await expect(p.run(other, 'killed')).rejects.toMatchObject({ reason: 'in_progress' });
      // This one saw its call end without saving the outcome: its retry looks the payment up at once.
      expect(await p.run(store, 'killed')).toBe('ch_1');
      expect(await p.run(store, 'killed')).toBe('ch_1');
      expect(await p.run(other, 'killed')).toBe('ch_1');
      expect(p.done.size).toBe(1);
    });
  });

  it('Redis killed after the claim and the call refused before sending: the key it could not release is taken back at once by a retry here', async () => {
    await withServer({ persistence: 'aof' }, async (server, redis) => {
      const store = redisIdempotencyStore(redis, { now });
      const sent: string[] = [];
      const attempt = (kill: boolean) =>
        runIdempotent({
          store,
          principal: 'staff-1',
          operation: 'createCharge',
          key: 'not-sent',
          input: { amount: 500 },
          execute: async () => {
            if (kill) {
              await server.kill();
              // Nothing left this process: the call is refused before it is made.
              throw new UpstreamCallError({ code: 'UPSTREAM_UNAVAILABLE', message: 'not sent', fault: 'refused' });
            }
            sent.push('ch_once');
            return 'ch_once';
          },
        });
      // The release fails too (Redis is down): the pending claim stays in Redis (AOF).
      await expect(attempt(true)).rejects.toMatchObject({ fault: 'refused', outcomeUnknown: false });
      await server.restart();
      await waitFor(() => redis.commands.status === 'ready', 'the commands connection to reconnect');
      // Not "in progress" for IDEMPOTENCY_PENDING_TTL_MS: this process knows it sent nothing under that claim.
      expect(await attempt(false)).toBe('ch_once');
      expect(await attempt(false)).toBe('ch_once');
      expect(sent).toEqual(['ch_once']);
    });
  });

  it('Redis at maxmemory (noeviction) when saving: the key is kept, the retry reconciles, 1 payment', async () => {
    await withServer({ maxmemory: '4mb', maxmemoryPolicy: 'noeviction' }, async (server, redis) => {
      const store = redisIdempotencyStore(redis, { now });
      const p = payments();
      const filler = new Redis(server.url);
      try {
        // Between the call and the saving of its result, Redis reaches its maxmemory: every write is refused.
        // (Data up to just under the limit, then the limit lowered below it: small writes then fail for sure.)
        const fill = async () => {
          await filler.set('filler', 'x'.repeat(1024 * 1024));
          await filler.config('SET', 'maxmemory', '1mb');
          await expect(redis.commands.set('probe', '1')).rejects.toThrow(/OOM/);
        };
        expect(await p.run(store, 'full', fill)).toBe('ch_1');
        await filler.del('filler');
        await filler.config('SET', 'maxmemory', '4mb');
        // Another replica sees the claim in progress; this one saw its call end and looks the payment up at once.
        await expect(p.run(redisIdempotencyStore(redis, { now }), 'full')).rejects.toMatchObject({ reason: 'in_progress' });
        expect(await p.run(store, 'full')).toBe('ch_1');
        expect(p.done.size).toBe(1);
      } finally {
        filler.disconnect();
      }
    });
  });

  it('a key lost with a restart (Redis empty again): the fresh claim is not clean and reconciles before sending, 1 payment', async () => {
    await withServer({ persistence: 'none' }, async (server, redis) => {
      const store = redisIdempotencyStore(redis, { now });
      const p = payments();
      expect(await p.run(store, 'warmup')).toBe('ch_1');
      t += IDEMPOTENCY_TTL_MS; // the store has now been continuous for a whole key lifetime
      let reconciled = 0;
      const counted = countingUnclean(store, () => reconciled++);
      expect(await p.run(counted, 'lost')).toBe('ch_2');
      expect(reconciled).toBe(0);
      await server.restart();
      await waitFor(() => redis.commands.status === 'ready', 'the commands connection to reconnect');
      expect(await p.run(counted, 'lost')).toBe('ch_2');
      expect(reconciled).toBe(1);
      expect(p.done.size).toBe(2);
    });
  });
});

describe('a Redis that forgets (the generation of its data set)', () => {
  let t = 1_700_000_000_000;
  const now = () => t;

  /** A settlement-like call: no lookup at the service; counts how often it was sent. */
  const settlements = () => {
    let sent = 0;
    return {
      sent: () => sent,
      run: (store: IdempotencyStore, key: string) =>
        runIdempotent({
          store,
          principal: 'staff-1',
          operation: 'createSettlement',
          key,
          input: { amount: 5000 },
          execute: async () => `st_${++sent}`,
        }),
    };
  };

  const withServer = async (body: (server: TestRedisServer, redis: GatewayRedis) => Promise<void>) => {
    const server = await startRedisServer({ persistence: 'none' });
    const redis = await connectRedis({ url: server.url, namespace: 'forgets' });
    try {
      await body(server, redis);
    } finally {
      await redis.close();
      await server.stop();
    }
  };

  it('a first deployment (nothing known before) sends; a restart empty under a running gateway refuses the retry as outcome_unknown, never sending it', async () => {
    await withServer(async (server, redis) => {
      const store = redisIdempotencyStore(redis, { now });
      const s = settlements();
      expect(await s.run(store, 'before')).toBe('st_1');
      expect(await s.run(store, 'before')).toBe('st_1');

      await server.restart();
      await waitFor(() => redis.commands.status === 'ready', 'the commands connection to reconnect');
      await expect(s.run(store, 'before')).rejects.toMatchObject({ reason: 'outcome_unknown' });
      await expect(s.run(store, 'before')).rejects.toMatchObject({ reason: 'outcome_unknown' });
      expect(s.sent()).toBe(1);
      // Another replica that never saw the old generation learns of the loss from the shared epoch.
      const other = redisIdempotencyStore(redis, { now });
      await expect(s.run(other, 'before-too')).rejects.toMatchObject({ reason: 'outcome_unknown' });
      expect(s.sent()).toBe(1);
      // A whole key lifetime after the loss, nothing can be a forgotten retry any more.
      t += IDEMPOTENCY_TTL_MS;
      expect(await s.run(store, 'after')).toBe('st_2');
    });
  });

  it('evictions recorded in the epoch make every replica refuse keys without a lookup, and clearing lostAt (the operator) lifts it', async () => {
    await withServer(async (_server, redis) => {
      const epoch = redisEpoch(redis);
      const store = redisIdempotencyStore(redis, { now, epoch });
      const other = redisIdempotencyStore(redis, { now });
      const s = settlements();
      expect(await s.run(store, 'one')).toBe('st_1');
      expect(await s.run(other, 'two')).toBe('st_2');
      const before = epoch.current!.id;
      await epoch.check(t, true);
      expect(epoch.current!.id).not.toBe(before);
      await expect(s.run(other, 'three')).rejects.toMatchObject({ reason: 'outcome_unknown' });
      await expect(s.run(store, 'four')).rejects.toMatchObject({ reason: 'outcome_unknown' });
      // Keys that survived still replay.
      expect(await s.run(store, 'one')).toBe('st_1');
      expect(s.sent()).toBe(2);
      await redis.commands.hdel(epoch.key, 'lostAt');
      expect(await s.run(other, 'five')).toBe('st_3');
    });
  });

  it('while Redis may evict keys (unsafe), claims are refused with SERVICE_UNAVAILABLE before anything is sent', async () => {
    await withServer(async (_server, redis) => {
      let problem: string | null = 'Redis maxmemory-policy is allkeys-lru';
      const store = redisIdempotencyStore(redis, { now, unsafe: () => problem });
      const s = settlements();
      await expect(s.run(store, 'k')).rejects.toBeInstanceOf(ServiceUnavailableError);
      expect(s.sent()).toBe(0);
      problem = null;
      expect(await s.run(store, 'k')).toBe('st_1');
    });
  });
});

/** The same store, counting the claims that come back not clean (each one makes run.ts reconcile first). */
function countingUnclean(store: IdempotencyStore, onUnclean: () => void): IdempotencyStore {
  return {
    ...store,
    claim: async (...args) => {
      const result = await store.claim(...args);
      if (result.kind === 'claimed' && !result.clean) onUnclean();
      return result;
    },
  };
}
