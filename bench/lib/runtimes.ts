// The Node binaries a benchmark runs the gateway on: the one running the benchmark (the machine's) and the
// production one (the Dockerfile's NODE_VERSION), taken from the npm registry's `node` package as .ci/run
// takes it, so that one run prints both side by side against the same direct baseline.
//   BENCH_NODES=current          only the running node
//   BENCH_NODES=current,/x/node  these binaries ("current" is the running one)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Runtime {
  /** The binary's path. */
  node: string;
  /** e.g. v24.21.0 */
  version: string;
}

/** The Dockerfile's NODE_VERSION (what the image runs). */
export function productionNodeVersion(root: string): string {
  const match = /^ARG NODE_VERSION=(\S+)$/m.exec(readFileSync(join(root, 'Dockerfile'), 'utf8'));
  if (!match) throw new Error('Dockerfile has no ARG NODE_VERSION line');
  return match[1]!;
}

/** The binary of the registry's `node` package at `version` (npx installs it once into the npm cache). */
export function registryNode(version: string): string {
  return execFileSync('npx', ['-y', '-p', `node@${version}`, 'node', '-p', 'process.execPath'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

const versionOf = (node: string) => execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();

export function benchRuntimes(root: string): Runtime[] {
  const spec = process.env.BENCH_NODES;
  const paths = spec
    ? spec.split(',').map((entry) => (entry === 'current' ? process.execPath : entry))
    : [process.execPath, registryNode(productionNodeVersion(root))];
  const runtimes = paths.map((node) => ({ node, version: versionOf(node) }));
  // The same binary twice (the machine already runs the production node) is measured once.
  return runtimes.filter((r, i) => runtimes.findIndex((o) => o.version === r.version) === i);
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); null elsewhere. */
export function cpuSecondsOf(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after "pid (comm) ", in clock ticks (100 per second).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}
