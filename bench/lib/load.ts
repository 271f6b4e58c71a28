// The load generator: autocannon in a process of its own, so its CPU is never the
// gateway's. Several rounds of each target, alternated (direct, gateway, direct, ...),
// so that a noisy neighbour on this shared machine hits both sides alike.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

export interface Target {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Requests answered in the round. */
  total: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export async function load(target: Target, connections: number, seconds: number): Promise<LoadResult> {
  const args = [autocannonBin, '--json', '-c', String(connections), '-d', String(seconds), '-m', target.method ?? 'GET'];
  for (const [name, value] of Object.entries(target.headers ?? {})) args.push('-H', `${name}=${value}`);
  if (target.body !== undefined) args.push('-b', target.body);
  args.push(target.url);
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`autocannon exited ${code}`))));
  });
  const result = JSON.parse(output) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
  };
  return {
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/** Median of each figure over the rounds. */
export function median(results: LoadResult[]): LoadResult {
  const mid = <K extends keyof LoadResult>(key: K) => {
    const sorted = results.map((r) => r[key]).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  };
  return {
    requestsPerSecond: mid('requestsPerSecond'),
    total: mid('total'),
    p50Ms: mid('p50Ms'),
    p99Ms: mid('p99Ms'),
    errors: results.reduce((n, r) => n + r.errors, 0),
    non2xx: results.reduce((n, r) => n + r.non2xx, 0),
  };
}

const tsxLoader = createRequire(import.meta.url).resolve('tsx');
const latencyClient = new URL('./latency-client.ts', import.meta.url).pathname;

/** The latency samples (ms) of `count` requests at one connection, one at a time, measured in a process of its own. */
export async function latencySamples(target: Target, count: number): Promise<number[]> {
  const spec = JSON.stringify({ method: target.method ?? 'GET', headers: target.headers ?? {}, body: target.body });
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsxLoader, latencyClient, target.url, String(count), spec], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`latency client exited ${code}`))));
  });
  return (JSON.parse(output) as { samples: number[] }).samples;
}

export function percentiles(samples: number[]): { p50Ms: number; p99Ms: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  return { p50Ms: at(50), p99Ms: at(99) };
}

/** p50 and p99 at one connection, one request at a time, measured in a process of its own. */
export async function latency(target: Target, count: number): Promise<{ p50Ms: number; p99Ms: number }> {
  return percentiles(await latencySamples(target, count));
}
