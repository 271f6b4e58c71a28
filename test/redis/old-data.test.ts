// A Redis that came back with OLD data (issue 26, point 5): the store has been continuous for a whole key
// lifetime, then Redis restarts from an older snapshot (a copy of its RDB file, or of its AOF), or a replica
// that missed the latest writes is promoted. The keys written since are gone without trace, and nothing in the
// data says so: the epoch hash came back too, with its old id. The next fresh claim must not be clean, so a
// payment whose key was lost is looked up before it is sent (1 payment), never sent again.
// (Redis restarted EMPTY is test/idempotency/faults.test.ts.) Each test runs a redis-server of its own on a
// spare port, stopped by PID.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { runIdempotent } from '../../src/idempotency/run.js';
import { IDEMPOTENCY_TTL_MS, redisIdempotencyStore, type IdempotencyStore } from '../../src/idempotency/store.js';
import { connectRedis, redisEpoch, type GatewayRedis, type RedisEpoch } from '../../src/redis/index.js';
import { launchRedis, sparePort, startRedisServer, type TestRedisServer } from '../helpers/redis-server.js';
import { waitFor } from './wait.js';

/** The store's clock, moved by the test: a whole key lifetime passes in one step. */
let t = 1_700_000_000_000;
const now = () => t;

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A money-moving call that counts how often it ran, and a look-up at the "service" that finds what it did. */
function payments() {
  const done = new Map<string, string>();
  let lookedUp = 0;
  return {
    done,
    lookedUp: () => lookedUp,
    run: (store: IdempotencyStore, key: string) =>
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
          return reference;
        },
        reconcile: async (meta) => {
          lookedUp += 1;
          return done.get(meta.extId!) ?? null;
        },
      }),
  };
}

async function gatewayOn(url: string): Promise<GatewayRedis> {
  // A loaded machine's slow fsync must not read as a refusal: not a test of the command timeout.
  const redis = await connectRedis({ url, namespace: 'old-data', commandTimeoutMs: 10_000 });
  cleanup.push(() => redis.close());
  return redis;
}

async function server(persistence: 'rdb' | 'aof'): Promise<TestRedisServer> {
  // A replica's first sync at once, not after the default 5 s diskless-sync delay.
  const redis = await startRedisServer({ persistence, extraArgs: ['--repl-diskless-sync-delay', '0'] });
  cleanup.push(() => redis.stop());
  return redis;
}

/** The server's data directory (where its RDB file and AOF directory are). */
async function dataDir(url: string): Promise<string> {
  const admin = new Redis(url);
  try {
    return ((await admin.config('GET', 'dir')) as string[])[1]!;
  } finally {
    admin.disconnect();
  }
}

/**
 * One store on `redis` whose memory has been continuous for a whole key lifetime, having made one payment
 * before and one after that (the second is on a clean claim: sent without a look-up).
 */
async function continuousStore(redis: GatewayRedis, epoch: RedisEpoch, p: ReturnType<typeof payments>) {
  const store = redisIdempotencyStore(redis, { now, epoch });
  expect(await p.run(store, 'first')).toBe('ch_1'); // a first deployment: looked up (nothing found), then sent
  expect(p.lookedUp()).toBe(1);
  t += IDEMPOTENCY_TTL_MS;
  expect(await store.claim('probe', 'fp', {})).toMatchObject({ kind: 'claimed', clean: true, lost: false });
  await store.release('probe');
  expect(await p.run(store, 'kept')).toBe('ch_2');
  expect(p.lookedUp()).toBe(1); // sent without a look-up
  return store;
}

describe('a Redis restarted from an older copy of its data', () => {
  const files = { rdb: 'dump.rdb', aof: 'appendonlydir' } as const;

  it.each(['rdb', 'aof'] as const)(
    'from an older %s copy: the key written since is lost, the next fresh claim is not clean, the retry is looked up: 1 payment',
    async (persistence) => {
      const redis = await server(persistence);
      const gateway = await gatewayOn(redis.url);
      const epoch = redisEpoch(gateway);
      const p = payments();
      const store = await continuousStore(gateway, epoch, p);

      // The snapshot: a copy of the data as it is now (the RDB file after SAVE; the AOF, written on every command).
      const dir = await dataDir(redis.url);
      const copy = join(dir, '..', `${files[persistence]}.older-${redis.port}`);
      if (persistence === 'rdb') await gateway.commands.save();
      cpSync(join(dir, files[persistence]), copy, { recursive: true });
      cleanup.push(() => rmSync(copy, { recursive: true, force: true }));

      // Written on after the copy: this payment's key is in Redis, not in the copy.
      expect(await p.run(store, 'after-copy')).toBe('ch_3');

      // Redis comes back from the older copy.
      await redis.kill();
      rmSync(join(dir, files[persistence]), { recursive: true, force: true });
      cpSync(copy, join(dir, files[persistence]), { recursive: true });
      await redis.restart();
      await waitFor(() => gateway.commands.status === 'ready', 'the commands connection to reconnect');
      // The older data is back: the key written before the copy replays, the epoch kept its id.
      expect(await gateway.commands.exists(gateway.key('idem', 'staff-1:createCharge:kept'))).toBe(1);
      expect(await gateway.commands.exists(gateway.key('idem', 'staff-1:createCharge:after-copy'))).toBe(0);
      expect(await gateway.commands.hget(epoch.key, 'id')).toBe(epoch.current!.id);

      // The client retries the payment whose key was lost: looked up first, found, not sent again.
      expect(await p.run(store, 'after-copy')).toBe('ch_3');
      expect(p.lookedUp()).toBe(2);
      expect(p.done.size).toBe(3);
      // And any fresh claim is not clean for a whole key lifetime from the restart.
      expect(await store.claim('fresh', 'fp', {})).toMatchObject({ kind: 'claimed', clean: false });
      t += IDEMPOTENCY_TTL_MS;
      expect(await store.claim('much-later', 'fp', {})).toMatchObject({ kind: 'claimed', clean: true });
    },
  );
});

describe('a replica that missed writes, promoted', () => {
  it('the primary lost, its replica (behind by one payment) promoted: the retry of that payment is looked up, 1 payment', async () => {
    const primary = await server('aof');
    const replicaPort = await sparePort();
    const replicaDir = mkdtempSync(join(tmpdir(), 'test-redis-replica-'));
    cleanup.push(() => rmSync(replicaDir, { recursive: true, force: true }));
    const replica = await launchRedis([
      '--port',
      String(replicaPort),
      '--bind',
      '127.0.0.1',
      '--dir',
      replicaDir,
      '--save',
      '',
      '--replicaof',
      '127.0.0.1',
      String(primary.port),
    ]);
    cleanup.push(async () => {
      const exited = new Promise((resolve) => replica.once('exit', resolve));
      process.kill(replica.pid!, 'SIGKILL');
      await exited;
    });
    const admin = new Redis(replicaPort, '127.0.0.1');
    cleanup.push(() => admin.disconnect());
    const p = payments();
    const onPrimary = await gatewayOn(primary.url);
    const epoch = redisEpoch(onPrimary); // the process's view of the generation, kept across the switch
    const store = await continuousStore(onPrimary, epoch, p);
    // The replica holds everything so far, then stops following (a partition): the next payment misses it.
    await waitFor(async () => (await admin.exists('old-data:idem:staff-1:createCharge:kept')) === 1, 'the replica to hold the key');
    await admin.replicaof('NO', 'ONE');
    expect(await p.run(store, 'missed')).toBe('ch_3');
    expect(await admin.exists('old-data:idem:staff-1:createCharge:missed')).toBe(0);
    expect(await admin.hget(epoch.key, 'id')).toBe(epoch.current!.id); // the same generation: nothing says it is behind

    // The primary is lost; the gateway's process goes on against the promoted replica (as Sentinel would switch it).
    await primary.kill();
    const onReplica = await gatewayOn(`redis://127.0.0.1:${replicaPort}`);
    const promoted = redisIdempotencyStore(onReplica, { now, epoch });
    expect(await p.run(promoted, 'missed')).toBe('ch_3');
    expect(p.lookedUp()).toBe(2);
    expect(p.done.size).toBe(3);
    expect(await promoted.claim('fresh', 'fp', {})).toMatchObject({ kind: 'claimed', clean: false });
  });
});
