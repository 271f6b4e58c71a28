// Throughput of 1, 2, 4 and 8 replicas on the bench's Redis, per kind of operation, with what Redis spent on it:
// commands, round trips (socket reads) and CPU per operation, read from Redis before and after each run.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, TSX_LOADER } from '../lib/stack.js';
import { idleRate, sendOne } from './count.js';
import { startFleet, WEBHOOK_PATH, type Fleet } from './fleet.js';
import type { LoadTotals } from './load-many.js';
import { LOAD_KINDS, type LoadKind } from './operations.js';
import { delta, type BenchRedis, type Delta } from './redis.js';

const SECONDS = Number(process.env.BENCH_CAPACITY_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CAPACITY_CONNECTIONS ?? 16);

export interface ScaleRow {
  topology: BenchRedis['topology'];
  replicas: number;
  kind: LoadKind;
  perSecond: number;
  failed: number;
  p99Ms: number;
  commandsPerOp: number;
  roundTripsPerOp: number;
  /** Redis CPU (every node) per 1,000 operations, ms; and the busiest primary's. */
  cpuMsPer1000: number;
  busiestPrimaryCpuMsPer1000: number;
  /** Share of one core Redis used during the run (every node). */
  redisCpuShare: number;
}

async function runLoad(fleet: Fleet, kind: LoadKind): Promise<LoadTotals> {
  const args = {
    urls: fleet.urls,
    connections: CONNECTIONS,
    seconds: SECONDS,
    kind,
    spec: { token: fleet.token, webhookSecret: fleet.webhookSecret, webhookPath: WEBHOOK_PATH },
  };
  const child = spawn(process.execPath, ['--import', TSX_LOADER, join(ROOT, 'bench/capacity/load-many.ts'), JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`load generator (${kind}) exited ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as LoadTotals;
}

/** One run of `kind` on every replica; Redis's figures net of what the idle fleet does in the same time. */
async function measure(redis: BenchRedis, fleet: Fleet, kind: LoadKind, idle: Delta): Promise<ScaleRow> {
  const a = await redis.snapshot();
  const load = await runLoad(fleet, kind);
  const d = delta(a, await redis.snapshot());
  const scale = d.seconds / idle.seconds;
  const net = (x: number, background: number) => x - background * scale;
  const per = (x: number) => (load.ok > 0 ? x / load.ok : NaN);
  return {
    topology: redis.topology,
    replicas: fleet.urls.length,
    kind,
    perSecond: load.perSecond,
    failed: load.failed,
    p99Ms: load.p99Ms,
    commandsPerOp: per(net(d.commands, idle.commands)),
    roundTripsPerOp: per(net(d.reads, idle.reads)),
    cpuMsPer1000: per(net(d.cpuSec, idle.cpuSec)) * 1e6,
    busiestPrimaryCpuMsPer1000: per(net(d.cpuMaxPrimarySec, idle.cpuMaxPrimarySec)) * 1e6,
    redisCpuShare: d.cpuSec / d.seconds,
  };
}

export async function scaleRuns(
  redis: BenchRedis,
  stubUrl: string,
  replicaCounts: number[],
  onRow: (row: ScaleRow) => void,
): Promise<void> {
  for (const count of replicaCounts) {
    // Created charges are watched for reconciliation; the bench sends no webhook for them, so the first look (after
    // RECONCILE_AFTER_MS) would poll the stub for each one during later runs: pushed past the bench's end.
    const fleet = await startFleet(count, stubUrl, redis.env, { RECONCILE_AFTER_MS: '3600000' });
    try {
      for (const url of fleet.urls) {
        const spec = { graphqlUrl: url, token: fleet.token, webhookSecret: fleet.webhookSecret, webhookPath: WEBHOOK_PATH };
        for (const kind of LOAD_KINDS) for (let i = 0; i < 10; i++) await sendOne(kind, spec);
      }
      const idle = await idleRate(redis, 2000);
      for (const kind of LOAD_KINDS) onRow(await measure(redis, fleet, kind, idle));
    } finally {
      await fleet.stop();
    }
  }
}
