// Asks GET /health/live again and again on one kept-alive connection and keeps every answer's latency with the
// time it was sent, so a benchmark can read the worst wait of a window (a fan-out) next to an idle one.
// Commands on stdin, one line each:
//   window <fromEpochMs> <toEpochMs>  ->  window {"count":n,"failures":n,"p50Ms":..,"p99Ms":..,"maxMs":..}
//   quit
import { createInterface } from 'node:readline';
import { Pool } from 'undici';

const target = new URL(process.argv[2]!);
const pool = new Pool(target.origin, { connections: 1, pipelining: 1 });
const now = () => performance.timeOrigin + performance.now();
const samples: Array<[sentAt: number, latencyMs: number]> = [];
let running = true;

let failures = 0;

async function loop(): Promise<void> {
  while (running) {
    const sentAt = now();
    try {
      const res = await pool.request({ path: target.pathname, method: 'GET' });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
      samples.push([sentAt, now() - sentAt]);
    } catch (err) {
      // Counted and reported, never fatal: a probe that died would leave the benchmark waiting for its answers.
      failures += 1;
      process.stderr.write(`probe failed: ${String(err)}\n`);
    }
    // A few ms between probes: the probe itself must not become the load.
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const done = loop();
process.stdout.write('PROBE READY\n');

createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, from, to] = line.trim().split(' ');
  if (command === 'window') {
    // A request sent before the window that was still waiting inside it counts too.
    const inside = samples.filter(([at, ms]) => at + ms >= Number(from) && at <= Number(to)).map(([, ms]) => ms);
    inside.sort((a, b) => a - b);
    const at = (p: number) => inside[Math.min(inside.length - 1, Math.floor((p / 100) * inside.length))] ?? NaN;
    process.stdout.write(
      `window ${JSON.stringify({ count: inside.length, failures, p50Ms: at(50), p99Ms: at(99), maxMs: inside.at(-1) ?? NaN })}\n`,
    );
  } else if (command === 'quit') {
    running = false;
    void done.finally(() => pool.close().then(() => process.exit(0)));
  }
});
