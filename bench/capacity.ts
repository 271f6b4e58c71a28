// The capacity model (issue 29): what each hot path costs Redis, what one Redis primary carries of each kind,
// and what 1, 2, 4 and 8 replicas of the gateway carry on one Redis and on a 3-primary Redis Cluster. Every
// Redis here is the bench's own (spare ports, stopped by PID), so nothing else counts. See docs/performance.md, "Capacity".
//
//   npm run bench:capacity
//   BENCH_CAPACITY_REPLICAS=1,2 BENCH_CAPACITY_SECONDS=10 BENCH_CAPACITY_OPS=500 npm run bench:capacity
//   BENCH_CAPACITY_REPLICAS=0 BENCH_CAPACITY_TOPOLOGIES=node npm run bench:capacity   (per operation and replay, one node)
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import type { PathCost } from './capacity/count.js';
import { recordCapacityFixtures } from './capacity/fixtures.js';
import { startStub } from './capacity/fleet.js';
import { countHotPaths } from './capacity/paths.js';
import { countPayoutItem } from './capacity/payout.js';
import { startClusterRedis, startNodeRedis, type BenchRedis } from './capacity/redis.js';
import { replayPaths, type ReplayRow } from './capacity/replay.js';
import { printPathCosts, printReplay, printScale } from './capacity/report.js';
import { scaleRuns, type ScaleRow } from './capacity/scale.js';
import { ROOT } from './lib/stack.js';

// 0: no replica runs.
const REPLICAS = (process.env.BENCH_CAPACITY_REPLICAS ?? '1,2,4,8')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const STARTS = { node: startNodeRedis, cluster: startClusterRedis };
const TOPOLOGIES = (process.env.BENCH_CAPACITY_TOPOLOGIES ?? 'node,cluster').split(',') as Array<keyof typeof STARTS>;

const load = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;

interface Results {
  costs: PathCost[];
  replay: Array<ReplayRow & { topology: string }>;
  scale: ScaleRow[];
}

/** Everything measured on one topology; the per-path counts on the single node only (they are exact there). */
async function onTopology(redis: BenchRedis, stubUrl: string, results: Results): Promise<void> {
  await redis.seedEpoch();
  if (redis.topology === 'node') {
    results.costs.push(...(await countHotPaths(redis, stubUrl)));
    results.costs.push(await countPayoutItem(redis));
    console.log(`counted the hot paths (${load()})`);
  }
  for (const row of await replayPaths(redis)) results.replay.push({ ...row, topology: redis.topology });
  console.log(`replayed on ${redis.topology} (${load()})`);
  if (REPLICAS.length === 0) return;
  await scaleRuns(redis, stubUrl, REPLICAS, (row) => {
    results.scale.push(row);
    console.log(`  ${row.topology}, ${row.replicas} replica(s), ${row.kind}: ${Math.round(row.perSecond)}/s (${load()})`);
  });
}

async function main(): Promise<void> {
  if (process.env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  console.log(`capacity bench, ${new Date().toISOString()}, Node ${process.version}, ${load()}`);
  const stub = await startStub(await recordCapacityFixtures());
  const results: Results = { costs: [], replay: [], scale: [] };
  try {
    for (const topology of TOPOLOGIES) {
      const redis = await STARTS[topology]();
      try {
        await onTopology(redis, stub.ready[1]!, results);
      } finally {
        await redis.stop();
      }
    }
  } finally {
    await stub.stop();
  }
  printPathCosts(results.costs);
  printReplay(results.replay);
  if (REPLICAS.length > 0) printScale(results.scale, REPLICAS);
  console.log(`\nend: ${load()}`);
}

await main();
process.exit(0);
