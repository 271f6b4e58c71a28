// One connection, one request at a time, timed with the high-resolution clock:
// autocannon's histogram counts whole milliseconds, too coarse for added latency.
// Runs as its own process (see load.ts); prints one JSON line.
import { Pool } from 'undici';

const [url, count, spec] = process.argv.slice(2) as [string, string, string];
const { method, headers, body } = JSON.parse(spec) as { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string };
const target = new URL(url);
const pool = new Pool(target.origin, { connections: 1, pipelining: 1 });
const samples: number[] = [];
for (let i = 0; i < Number(count) + 200; i++) {
  const t0 = performance.now();
  const res = await pool.request({ path: target.pathname + target.search, method, headers, body });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
  if (i >= 200) samples.push(performance.now() - t0); // the first 200 warm the JIT and the connection
}
await pool.close();
// Every sample: the caller merges the rounds it alternated between targets before taking percentiles.
process.stdout.write(JSON.stringify({ samples }) + '\n');
