// The capacity model (issue 29): what each hot path costs Redis, and what 1, 2, 4 and 8 replicas of the gateway
// carry on one Redis and on a 3-primary Redis Cluster. See README "Capacity".
//
//   npm run bench:capacity
//   BENCH_CAPACITY_OPS=500 BENCH_CAPACITY_SECONDS=10 BENCH_CAPACITY_REPLICAS=1,2 npm run bench:capacity
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { recordCapacityFixtures } from './capacity/fixtures.js';
import { startStub } from './capacity/fleet.js';
import { countHotPaths } from './capacity/paths.js';
import { countPayoutItem } from './capacity/payout.js';
import { startNodeRedis } from './capacity/redis.js';
import { ROOT } from './lib/stack.js';

async function main(): Promise<void> {
  if (process.env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  console.log(`load average at start: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const stub = await startStub(await recordCapacityFixtures());
  const redis = await startNodeRedis();
  try {
    await redis.seedEpoch();
    const costs = process.env.ONLY_PAYOUT ? [] : await countHotPaths(redis, stub.ready[1]!);
    costs.push(await countPayoutItem(redis));
    for (const c of costs)
      console.log(
        `${c.label}: ${c.commands.toFixed(2)} commands, ${c.roundTrips.toFixed(2)} round trips, ${c.cpuUsPerOp.toFixed(0)} us; ${c.calls.map(([n, k]) => `${n} ${k.toFixed(2)}`).join(', ')}`,
      );
  } finally {
    await redis.stop();
    await stub.stop();
  }
}

await main();
