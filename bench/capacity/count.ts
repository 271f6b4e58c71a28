// Exact Redis cost of one operation: `ops` operations run one after the other (so ioredis's auto-pipelining
// never merges two operations' commands), with the bench's Redis read before and after. What the replicas do
// on their own meanwhile (the event log's blocking read every 2 s, leases, health checks) is measured over an
// idle interval first and subtracted in proportion to the time.
import { join } from 'node:path';
import { request } from 'undici';
import { startChild, type Child } from '../lib/processes.js';
import { ROOT, TSX_LOADER } from '../lib/stack.js';
import { buildRequest, type LoadKind, type OperationSpec } from './operations.js';
import { delta, type BenchRedis, type Delta } from './redis.js';

export interface PathCost {
  label: string;
  ops: number;
  /** Per operation. */
  commands: number;
  roundTrips: number;
  cpuUsPerOp: number;
  /** Per operation, by command name (commands a Lua script runs included), largest first. */
  calls: Array<[string, number]>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function idleRate(redis: BenchRedis, ms = 3000): Promise<Delta> {
  const a = await redis.snapshot();
  await sleep(ms);
  return delta(a, await redis.snapshot());
}

/** Runs `op` `ops` times in sequence and returns the Redis cost of one, net of the idle rate. */
export async function countPath(
  redis: BenchRedis,
  idle: Delta,
  label: string,
  ops: number,
  op: (i: number) => Promise<void>,
): Promise<PathCost> {
  const a = await redis.snapshot();
  for (let i = 0; i < ops; i++) await op(i);
  // Let what the operations set off (the log's blocking read handing the last event out) land.
  await sleep(50);
  const d = delta(a, await redis.snapshot());
  const scale = d.seconds / idle.seconds;
  const net = (x: number, background: number) => (x - background * scale) / ops;
  const calls = [...d.calls]
    .map(([name, n]) => [name, net(n, idle.calls.get(name) ?? 0)] as [string, number])
    .filter(([, n]) => n >= 0.05)
    .sort((x, y) => y[1] - x[1]);
  return {
    label,
    ops,
    commands: net(d.commands, idle.commands),
    roundTrips: net(d.reads, idle.reads),
    cpuUsPerOp: net(d.cpuSec, idle.cpuSec) * 1e6,
    calls,
  };
}

/** Sends one request of `kind` and fails loudly on anything but success (a wrong set-up must not be measured). */
export async function sendOne(kind: LoadKind, spec: OperationSpec, marker?: string): Promise<void> {
  const built = buildRequest(kind, spec, marker);
  const res = await request(built.url, { method: 'POST', headers: built.headers, body: built.body });
  const text = await res.body.text();
  if (res.statusCode !== 200 || !text.includes(built.expect)) throw new Error(`${kind} answered ${res.statusCode}: ${text.slice(0, 300)}`);
}

/** A process holding `n` graphql-ws connections, each subscribed to paymentEvents (bench/lib/subscribers.ts). */
export async function startEventSubscribers(graphqlUrl: string, token: string, n: number): Promise<Child> {
  const spec = { url: graphqlUrl, token, connections: n, mode: 'events' };
  return startChild(process.execPath, ['--import', TSX_LOADER, join(ROOT, 'bench/lib/subscribers.ts'), JSON.stringify(spec)], {
    label: 'subscribers',
    ready: /SUBSCRIBERS READY/,
    timeoutMs: 120_000,
  });
}

/** Resolves once `n` subscribers received the event about `marker` (fails after 10 s). */
export async function delivered(subscribers: Child, marker: string, n: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Number((await subscribers.ask(`count ${marker}`, `count ${marker} `)).split(' ')[2]) < n) {
    if (Date.now() > deadline) throw new Error(`event ${marker} did not reach ${n} subscribers`);
    await sleep(2);
  }
}
