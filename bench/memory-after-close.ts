// Memory comes back when 10,000 subscribers leave: one gateway, 200 real graphql-ws connections x 50 paymentEvents
// subscriptions, 5 events delivered to each, then every socket closed. Runs test/live/fixtures/memory-rounds.ts (the
// fixture of test/live/memory.test.ts, which does the same with 1,000 subscriptions in three rounds) in a process
// of its own with --expose-gc, and prints the heap after full collections and the RSS, at the start, connected and
// closed. The heap is the measure of what is kept; RSS is printed for the record (the allocator need not give freed
// pages back to the system).
//
//   npx tsx bench/memory-after-close.ts
//   BENCH_CONNECTIONS=20 npx tsx bench/memory-after-close.ts     (1,000 subscriptions)
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, TSX_LOADER } from './lib/stack.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 200);

const started = performance.now();
const out = execFileSync(process.execPath, ['--expose-gc', '--import', TSX_LOADER, join(ROOT, 'test/live/fixtures/memory-rounds.ts')], {
  cwd: ROOT,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, MEMORY_CONNECTIONS: String(CONNECTIONS), MEMORY_ROUNDS: '1' },
});
const { base, rounds } = JSON.parse(out.trim().split('\n').at(-1)!) as {
  base: number;
  rounds: Array<{ connected: number; closed: number; rssConnected: number; rssClosed: number }>;
};
const [round] = rounds as [(typeof rounds)[0]];
const mb = (n: number) => `${n.toFixed(1)} MB`.padStart(10);

console.log(`memory after close: ${CONNECTIONS * 50} subscriptions (${CONNECTIONS} connections x 50), 5 events each`);
console.log(`                     heap (after full GC)   RSS`);
console.log(`  before subscribing ${mb(base)}`);
console.log(`  connected          ${mb(round.connected)}          ${mb(round.rssConnected)}`);
console.log(`  closed             ${mb(round.closed)}          ${mb(round.rssClosed)}`);
console.log(`  kept after close   ${mb(round.closed - base)}   (of ${(round.connected - base).toFixed(1)} MB taken while connected)`);
console.log(`  took ${((performance.now() - started) / 1000).toFixed(1)} s`);
