// `npm run bench`: every benchmark of bench/, one after the other (never side by side:
// each one's figures would include the others' load). Each prints its own table of
// figures, goals and ratios; nothing here asserts a speed.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const BENCHMARKS = [
  'throughput.ts',
  'fanout.ts',
  'fanout-health.ts',
  'limits.ts',
  'start.ts',
  'payout-batch.ts',
  'platform.ts',
  'platform-fairness.ts',
  'refusal-cost.ts',
  'merchant-log-router.ts',
];

execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
for (const file of BENCHMARKS) {
  const path = join(ROOT, 'bench', file);
  if (!existsSync(path)) continue;
  console.log(`\n## bench/${file}\n`);
  execFileSync(process.execPath, ['--import', join(ROOT, 'node_modules/tsx/dist/loader.mjs'), path], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, BENCH_SKIP_BUILD: '1' },
  });
}
