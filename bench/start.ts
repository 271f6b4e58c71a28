// How long `npm start` takes to serve GraphiQL: on a fresh clone (no dist/: the
// first build emits everything) and on later starts (nothing changed: `tsc -b`
// finds dist/ up to date). Runs in a copy of the working tree (the files git
// would check out, node_modules linked), so this checkout's dist/ is untouched.
// Prints figures; asserts nothing (goals from issue 12: first < 30 s, later < 3 s).
//
//   npx tsx bench/start.ts            (also run by `npm run bench`)
//   BENCH_START_LATER=5 npx tsx bench/start.ts
import { spawn, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const LATER = Number(process.env.BENCH_START_LATER ?? 3);

function freshClone(): string {
  const dir = mkdtempSync(join(tmpdir(), 'momo-start-'));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '');
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    try {
      cpSync(join(ROOT, file), join(dir, file));
    } catch {
      // listed by git but deleted in the working tree
    }
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Resolves once no process of the group `pgid` is left (at most 10 s). */
async function groupGone(pgid: number): Promise<void> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Seconds from `npm start` to GraphiQL's page answering 200. */
function timeStart(cwd: string): Promise<number> {
  const started = performance.now();
  const child = spawn('npm', ['start'], {
    cwd,
    env: { ...process.env, PORT: '0', SANDBOX_PORT: '0', LOG_LEVEL: 'warn' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    let seen = false;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /GraphQL gateway ready: (\S+)/.exec(output);
      if (!ready || seen) return;
      seen = true;
      fetch(ready[1]!, { headers: { accept: 'text/html' } })
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`GraphiQL answered ${res.status}`);
          const seconds = (performance.now() - started) / 1000;
          // The next start (or the clean-up) waits for this one's whole process group (npm, the gateway) to be gone:
          // the gateway writes its sandbox data as it stops, after npm itself has exited.
          child.once('exit', () => void groupGone(child.pid!).then(() => resolve(seconds)));
        })
        .catch(reject)
        .finally(() => process.kill(-child.pid!, 'SIGTERM'));
    });
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.once('exit', (code) => {
      if (!seen) reject(new Error(`npm start exited with ${code}:\n${output.slice(-2000)}`));
    });
  });
}

const clone = freshClone();
try {
  const load = () => loadavg()[0]!.toFixed(1);
  console.log(`| start | seconds to GraphiQL | load average (1 min) |\n|---|---|---|`);
  console.log(`| first (fresh clone, no dist/) | ${(await timeStart(clone)).toFixed(2)} | ${load()} |`);
  for (let i = 1; i <= LATER; i++) console.log(`| later #${i} (nothing changed) | ${(await timeStart(clone)).toFixed(2)} | ${load()} |`);
} finally {
  rmSync(clone, { recursive: true, force: true });
}
