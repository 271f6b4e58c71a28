// Redis alone, kept busy: each hot path's Redis work issued by the gateway's own code (its rate limiter,
// idempotency store, reconciliation store, event log and tailer, pub/sub), not a re-typed copy of the commands,
// by many concurrent callers on one connection per role, as a busy replica's auto-pipelining sends them. No
// GraphQL or HTTP in front, so Redis gets far more work per second than this machine's gateways can give it,
// and its CPU per operation is what a busy primary pays (requests batched, not one read per command).
import { randomUUID } from 'node:crypto';
import { silentLogger } from '../../src/logger.js';
import { redisIdempotencyStore } from '../../src/idempotency/store.js';
import { redisRateLimiter } from '../../src/limits/rate-limiter.js';
import { redisReconcileStore } from '../../src/reconcile/store.js';
import { connectRedis, type GatewayRedis } from '../../src/redis/index.js';
import { redisEventLog } from '../../src/events/log.js';
import { startTailer } from '../../src/events/tailer.js';
import { delta, type BenchRedis } from './redis.js';

export type ReplayKind = 'read' | 'charge' | 'webhook';

export interface ReplayRow {
  kind: ReplayKind;
  perSecond: number;
  commandsPerOp: number;
  roundTripsPerOp: number;
  cpuUsPerOp: number;
  /** Share of one core the busiest primary used. */
  busiestPrimaryShare: number;
  /** Of which in `INFO` (the idempotency claim's generation check runs `INFO server` in its script), µs. */
  infoUsPerOp: number;
}

const SECONDS = Number(process.env.BENCH_CAPACITY_REPLAY_SECONDS ?? 4);
const CALLERS = 64;
const DAY_MS = 24 * 3_600_000;

/** One operation of each kind, as the gateway's code issues it (in the same order and with the same waits). */
function paths(redis: GatewayRedis): Record<ReplayKind, (i: number) => Promise<void>> {
  const limit = { points: 1e9, windowMs: 60_000 };
  const general = redisRateLimiter(redis, 'staff-general', limit, silentLogger);
  const money = redisRateLimiter(redis, 'staff-money', limit, silentLogger);
  const idempotency = redisIdempotencyStore(redis);
  const reconcile = redisReconcileStore(redis, { itemTtlMs: DAY_MS });
  const log = redisEventLog({ commands: redis.commands, blocking: redis.blocking('replay'), key: redis.key('events', 'log') });
  const caller = (i: number) => `sub:replay-${i % 500}`;
  return {
    read: async (i) => void (await general.consume(caller(i))),
    charge: async (i) => {
      // A money-moving document's two points, issued in the same tick (src/limits: generalAndMoney).
      await Promise.all([general.consume(caller(i)), money.consume(caller(i))]);
      const key = `replay:createCharge:${randomUUID()}`;
      await idempotency.claim(key, 'fp', {});
      const reference = `ch_replay_${randomUUID()}`;
      await Promise.all([
        idempotency.complete(key, 'fp', { reference, status: 'send_otp' }),
        reconcile.add({
          type: 'charge',
          reference,
          createdAt: Date.now(),
          lastStatus: null,
          intervalMs: 120_000,
          dueAt: Date.now() + DAY_MS,
        }),
      ]);
    },
    webhook: async () => {
      const reference = `ch_replay_${randomUUID()}`;
      const event = {
        id: `charge.success:${reference}`,
        kind: 'charge.success',
        receivedAt: new Date().toISOString(),
        reference,
        resourceType: 'charge' as const,
        payload: { event: 'charge.success', data: { reference, status: 'success' } },
      };
      await log.appendOnce(event, redis.key('events', 'seen', event.id), DAY_MS);
      // What follows the 200: the resource's refresh on pub/sub, and (on the replica that appended it) the reconciler's look.
      await Promise.all([
        redis.publisher.publish(redis.key('events', 'resourceChanged'), JSON.stringify(event)),
        reconcile.get('charge', reference),
      ]);
    },
  };
}

async function drive(op: (i: number) => Promise<void>): Promise<number> {
  const deadline = performance.now() + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CALLERS }, async (_, c) => {
      while (performance.now() < deadline) await op(c + CALLERS * done++);
    }),
  );
  return done;
}

export async function replayPaths(bench: BenchRedis): Promise<ReplayRow[]> {
  const env = bench.env;
  const redis = await connectRedis({
    url: env.REDIS_URL,
    clusterNodes: env.REDIS_CLUSTER_NODES?.split(',').map((a) => ({ host: a.split(':')[0]!, port: Number(a.split(':')[1]) })),
    namespace: 'capacity-replay',
  });
  // One replica's tailer reading every appended event, as the gateway's does.
  const tailer = await startTailer({
    log: redisEventLog({ commands: redis.commands, blocking: redis.blocking('tailer'), key: redis.key('events', 'log') }),
    logger: silentLogger,
  });
  const rows: ReplayRow[] = [];
  try {
    const ops = paths(redis);
    for (const kind of ['read', 'charge', 'webhook'] as const) {
      for (let i = 0; i < 200; i++) await ops[kind](i);
      const a = await bench.snapshot();
      const done = await drive(ops[kind]);
      const d = delta(a, await bench.snapshot());
      rows.push({
        kind,
        perSecond: done / d.seconds,
        commandsPerOp: d.commands / done,
        roundTripsPerOp: d.reads / done,
        cpuUsPerOp: (d.cpuMaxPrimarySec / done) * 1e6,
        busiestPrimaryShare: d.cpuMaxPrimarySec / d.seconds,
        infoUsPerOp: (d.usec.get('info') ?? 0) / done,
      });
    }
  } finally {
    await tailer.stop();
    await redis.close();
  }
  return rows;
}
