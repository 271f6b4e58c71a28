// A noisy merchant's flood, in a process of its own with its own undici pool, so that what it sends is not limited
// by the gateway's share of the benchmark's process (bench/platform-fairness.ts). Paced at a rate the parent asks
// for, `CONCURRENCY` requests at a time. Commands on stdin, one line each: `start`, then `stop`, which prints one
// line `stopped {"ok":…,"rateLimited":…,"other":…,"seconds":…}`; `exit` ends it.
//
//   node --import tsx bench/lib/flood-client.ts <graphql url> <bearer> <query> <requests per second> <concurrency>
import { createInterface } from 'node:readline';
import { Pool } from 'undici';

const [url, bearer, query, rate, concurrency] = process.argv.slice(2) as [string, string, string, string, string];
const target = new URL(url);
const pool = new Pool(target.origin, { connections: Number(concurrency), keepAliveTimeout: 10_000 });
const body = JSON.stringify({ query });
const headers = { 'content-type': 'application/json', authorization: `Bearer ${bearer}` };

let running: { stop: () => Promise<string> } | null = null;

/** Sends request n at t0 + n / rate (at once when behind), until stopped; counts the answers by kind. */
function flood() {
  let on = true;
  let n = 0;
  const counts = { ok: 0, rateLimited: 0, other: 0 };
  const t0 = performance.now();
  const worker = async () => {
    while (on) {
      const due = t0 + (n++ * 1000) / Number(rate);
      const wait = due - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      if (!on) return;
      const res = await pool.request({ path: target.pathname, method: 'POST', headers, body });
      const text = await res.body.text();
      if (text.includes('"RATE_LIMITED"')) counts.rateLimited += 1;
      else if (res.statusCode === 200 && !text.includes('"errors"')) counts.ok += 1;
      else counts.other += 1;
    }
  };
  const done = Promise.all(Array.from({ length: Number(concurrency) }, worker));
  return {
    async stop() {
      on = false;
      const seconds = (performance.now() - t0) / 1000;
      await done;
      return JSON.stringify({ ...counts, seconds });
    },
  };
}

createInterface({ input: process.stdin }).on('line', (line) => {
  void (async () => {
    if (line === 'start' && !running) {
      running = flood();
      process.stdout.write('started\n');
    } else if (line === 'stop' && running) {
      const counts = await running.stop();
      running = null;
      process.stdout.write(`stopped ${counts}\n`);
    } else if (line === 'exit') {
      await pool.close();
      process.exit(0);
    }
  })();
});
process.stdout.write('flood ready\n');
