// The capacity bench's own Redis: one node, or a Cluster of three primaries with a replica each, started on
// spare ports from `redis-server` (the tests' helpers, stopped by PID), never the shared Redis. Its counters
// are read with one `INFO all` per node: commands by name (`commandstats`, which also counts the commands a
// Lua script runs), the commands processed, socket reads (`total_reads_processed`: one per request arriving,
// so a pipeline or a MULTI...EXEC sent in one write is one round trip) and CPU (`used_cpu_sys` + `used_cpu_user`).
import { Redis } from 'ioredis';
import { startRedisServer, type TestRedisServer } from '../../test/helpers/redis-server.js';
import { startCluster } from '../../test/helpers/redis-topology.js';

export interface Snapshot {
  /** performance.now() when read. */
  at: number;
  /** Calls per command name, summed over the primaries. */
  calls: Map<string, number>;
  /** Microseconds spent executing each command (a script's includes the commands it runs). */
  usec: Map<string, number>;
  commands: number;
  reads: number;
  /** CPU seconds of every node, and of the busiest primary. */
  cpuSec: number;
  cpuByPrimary: number[];
}

export interface Delta {
  seconds: number;
  calls: Map<string, number>;
  usec: Map<string, number>;
  commands: number;
  reads: number;
  cpuSec: number;
  /** CPU of the busiest primary over the interval. */
  cpuMaxPrimarySec: number;
}

export interface BenchRedis {
  readonly topology: 'node' | 'cluster';
  /** What the gateway is given to use it. */
  readonly env: Record<string, string>;
  snapshot(): Promise<Snapshot>;
  /**
   * Writes the gateway's generation hash as a Redis up for a day leaves it, so idempotency claims are clean (no
   * lookup at the service before each payment, as in the first 24 h of a fresh Redis: src/redis/epoch.ts).
   */
  seedEpoch(): Promise<void>;
  stop(): Promise<void>;
}

const parse = (text: string) =>
  new Map(
    text
      .split(/\r?\n/)
      .filter((l) => l.includes(':') && !l.startsWith('#'))
      .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()] as [string, string]),
  );

async function probe(ports: number[]): Promise<{ clients: Redis[]; primaries: boolean[] }> {
  const clients = ports.map((port) => new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1 }));
  // Production's durability (AOF, fsync each second), so a write's cost includes its append to the file.
  await Promise.all(clients.map((c) => c.config('SET', 'appendonly', 'yes', 'appendfsync', 'everysec')));
  const primaries = await Promise.all(clients.map(async (c) => parse(await c.info('replication')).get('role') === 'master'));
  return { clients, primaries };
}

const SEED = `local runId = string.match(redis.call('INFO', 'server'), 'run_id:(%w+)')
redis.call('HSET', KEYS[1], 'id', 'capacity-bench', 'since', ARGV[1], 'runId', runId)
return 1`;

/** Runs the seed on the primary holding the key (the others answer MOVED). */
function epochSeeder(clients: Redis[], primaries: boolean[], key: string): () => Promise<void> {
  return async () => {
    const dayAgo = String(Date.now() - 25 * 3_600_000);
    const done = await Promise.all(clients.map((c, i) => (primaries[i] ? c.eval(SEED, 1, key, dayAgo).catch(() => 0) : 0)));
    if (!done.includes(1)) throw new Error(`no primary took ${key}`);
  };
}

function snapshotter(clients: Redis[], primaries: boolean[]): () => Promise<Snapshot> {
  return async () => {
    const infos = (await Promise.all(clients.map((c) => c.info('all')))).map(parse);
    const at = performance.now();
    const calls = new Map<string, number>();
    const usec = new Map<string, number>();
    let commands = 0;
    let reads = 0;
    let cpuSec = 0;
    const cpuByPrimary: number[] = [];
    infos.forEach((info, i) => {
      const cpu = Number(info.get('used_cpu_sys')) + Number(info.get('used_cpu_user'));
      cpuSec += cpu;
      if (!primaries[i]) return;
      cpuByPrimary.push(cpu);
      commands += Number(info.get('total_commands_processed'));
      reads += Number(info.get('total_reads_processed'));
      for (const [field, value] of info) {
        if (!field.startsWith('cmdstat_')) continue;
        const name = field.slice('cmdstat_'.length);
        calls.set(name, (calls.get(name) ?? 0) + Number(/calls=(\d+)/.exec(value)![1]));
        usec.set(name, (usec.get(name) ?? 0) + Number(/usec=(\d+)/.exec(value)![1]));
      }
    });
    return { at, calls, usec, commands, reads, cpuSec, cpuByPrimary };
  };
}

/** b - a, without the probe's own INFO (one command and one read per primary per interval). */
export function delta(a: Snapshot, b: Snapshot): Delta {
  const probes = a.cpuByPrimary.length;
  const calls = new Map<string, number>();
  const usec = new Map<string, number>();
  for (const [name, n] of b.calls) {
    const d = n - (a.calls.get(name) ?? 0) - (name === 'info' ? probes : 0);
    if (d !== 0) calls.set(name, d);
    // The probe's own INFO is not told apart here: scripts' INFO calls are what this is read for.
    const t = (b.usec.get(name) ?? 0) - (a.usec.get(name) ?? 0);
    if (t !== 0) usec.set(name, t);
  }
  return {
    seconds: (b.at - a.at) / 1000,
    calls,
    usec,
    commands: b.commands - a.commands - probes,
    reads: b.reads - a.reads - probes,
    cpuSec: b.cpuSec - a.cpuSec,
    cpuMaxPrimarySec: Math.max(...b.cpuByPrimary.map((cpu, i) => cpu - a.cpuByPrimary[i]!)),
  };
}

export async function startNodeRedis(): Promise<BenchRedis> {
  const server: TestRedisServer = await startRedisServer();
  const { clients, primaries } = await probe([server.port]);
  return {
    topology: 'node',
    env: { REDIS_URL: server.url },
    snapshot: snapshotter(clients, primaries),
    seedEpoch: epochSeeder(clients, primaries, 'momo-gateway:epoch'),
    stop: async () => {
      clients.forEach((c) => c.disconnect());
      await server.stop();
    },
  };
}

export async function startClusterRedis(): Promise<BenchRedis> {
  const cluster = await startCluster();
  const { clients, primaries } = await probe(cluster.nodes.map((n) => n.port));
  return {
    topology: 'cluster',
    env: {
      REDIS_URL: cluster.nodes[0]!.url,
      REDIS_CLUSTER_NODES: cluster.addresses.map((a) => `${a.host}:${a.port}`).join(','),
    },
    snapshot: snapshotter(clients, primaries),
    seedEpoch: epochSeeder(clients, primaries, '{momo-gateway}:epoch'),
    stop: async () => {
      clients.forEach((c) => c.disconnect());
      await cluster.stop();
    },
  };
}
