// Redis as production runs it, started by the test itself from `redis-server`
// on spare ports (never the shared Redis at 6379), and stopped by PID:
// - a Sentinel set: one primary, one replica (`--replicaof`), three sentinels
//   (`redis-server <conf> --sentinel`) monitoring it with quorum 2;
// - a Cluster: six `--cluster-enabled yes` nodes joined by
//   `redis-cli --cluster create ... --cluster-replicas 1`.
// Both fail over fast (a primary is declared down after 1 s) and say when a
// failover is complete by asking the topology itself, so tests wait on that.
import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { launchRedis, sparePort, startRedisServer, type TestRedisServer } from './redis-server.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);
/** A topology change (sync, election, gossip) takes a few seconds: longer than the shared default. */
const SETTLE_MS = 20_000;
/** Fast initial sync between a primary and its replica. */
const SYNC_ARGS = ['--repl-diskless-sync', 'yes', '--repl-diskless-sync-delay', '0'];

export interface RedisAddress {
  host: string;
  port: number;
}

const address = (server: TestRedisServer): RedisAddress => ({ host: '127.0.0.1', port: server.port });

/** Runs one command on a short-lived connection (fails fast when the node is down). */
async function ask<T>(port: number, ...args: Array<string | number>): Promise<T> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 500,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.call(String(args[0]), ...args.slice(1))) as T;
  } finally {
    client.disconnect();
  }
}

const info = async (port: number, section: string): Promise<Map<string, string>> =>
  new Map(
    (await ask<string>(port, 'INFO', section))
      .split(/\r?\n/)
      .filter((l) => l.includes(':'))
      .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()] as [string, string]),
  );

/** True once `port` is a primary with `replicas` replicas online. */
async function primaryWithReplicas(port: number, replicas: number): Promise<boolean> {
  try {
    const replication = await info(port, 'replication');
    if (replication.get('role') !== 'master') return false;
    const online = [...replication.entries()].filter(([k, v]) => /^slave\d+$/.test(k) && v.includes('state=online')).length;
    return online >= replicas;
  } catch {
    return false;
  }
}

// ------------------------------------------------------------------ Sentinel

export interface SentinelSet {
  readonly name: string;
  readonly sentinels: RedisAddress[];
  /** The data nodes (the first started as primary). */
  readonly nodes: TestRedisServer[];
  /** The node the sentinels name as primary now. */
  primary(): Promise<TestRedisServer>;
  /** `SENTINEL FAILOVER`: resolves once the sentinels name the other node and it serves as primary. */
  failover(): Promise<void>;
  /** SIGKILLs the primary; resolves once the other node is promoted. The killed one is restarted (it rejoins as a replica). */
  killPrimary(): Promise<void>;
  /** Resolves once the current primary has every replica back online. */
  replicated(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `replicas`: 1 by default. With REDIS_MIN_REPLICAS=1 a test wants 2: after a failover the promoted replica
 * then has the other one at once, instead of waiting for the sentinels to turn the old primary into a
 * replica (they notice on their 10 s INFO round).
 */
export async function startSentinelSet(options: { name?: string; replicas?: number } = {}): Promise<SentinelSet> {
  const name = options.name ?? 'gateway-primary';
  const first = await startRedisServer({ extraArgs: SYNC_ARGS });
  const nodes = [first];
  for (let i = 0; i < (options.replicas ?? 1); i++) {
    nodes.push(await startRedisServer({ extraArgs: [...SYNC_ARGS, '--replicaof', '127.0.0.1', String(first.port)] }));
  }
  const dir = mkdtempSync(join(tmpdir(), 'test-sentinel-'));
  const sentinels: Array<{ port: number; child: ChildProcess }> = [];
  const stopAll = async () => {
    for (const { child } of sentinels) await killChild(child);
    for (const node of nodes) await node.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(() => primaryWithReplicas(first.port, nodes.length - 1), 'the replicas to sync', SETTLE_MS, 20);
    for (let i = 0; i < 3; i++) {
      const port = await sparePort();
      const conf = join(dir, `sentinel-${i}.conf`);
      writeFileSync(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor ${name} 127.0.0.1 ${first.port} 2`,
          `sentinel down-after-milliseconds ${name} 1000`,
          `sentinel failover-timeout ${name} 5000`,
          `sentinel parallel-syncs ${name} 1`,
          '',
        ].join('\n'),
      );
      sentinels.push({ port, child: await launchRedis([conf, '--sentinel'], /\+monitor master/) });
      // A primary demoted by a failover is turned into a replica of the new one only once it has reported its
      // old role for 4 publish periods (8 s), on an INFO round (every 10 s): until then the new primary has no
      // replica and a gateway with REDIS_MIN_REPLICAS=1 refuses writes (see the README). Redis >= 7's knob for
      // tests shortens both here (2 s, every second), so the suites do not wait 8-18 s per failover.
      await ask(port, 'SENTINEL', 'DEBUG', 'info-period', 1000, 'publish-period', 500);
    }
    // A forced failover needs a known replica; a failover after a kill needs the sentinels to know each other (quorum).
    await waitFor(
      async () => {
        for (const { port } of sentinels) {
          const replicas = await ask<unknown[]>(port, 'SENTINEL', 'REPLICAS', name).catch(() => []);
          const peers = await ask<unknown[]>(port, 'SENTINEL', 'SENTINELS', name).catch(() => []);
          if (replicas.length < nodes.length - 1 || peers.length < 2) return false;
        }
        return true;
      },
      'the sentinels to know the replica and each other',
      SETTLE_MS,
      50,
    );
  } catch (err) {
    await stopAll();
    throw err;
  }

  const primaryPort = async () => Number((await ask<[string, string]>(sentinels[0]!.port, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name))[1]);
  const primary = async () => byPort(nodes, await primaryPort());
  const promotedFrom = async (old: number) => {
    await waitFor(
      async () => {
        for (const { port } of sentinels) {
          const addr = await ask<[string, string]>(port, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name).catch(() => null);
          if (!addr || Number(addr[1]) === old) return false;
        }
        return (await info(await primaryPort(), 'replication').catch(() => null))?.get('role') === 'master';
      },
      'the sentinels to promote the replica',
      SETTLE_MS,
      20,
    );
  };
  return {
    name,
    sentinels: sentinels.map(({ port }) => ({ host: '127.0.0.1', port })),
    nodes,
    primary,
    async failover() {
      const old = await primaryPort();
      await ask(sentinels[0]!.port, 'SENTINEL', 'FAILOVER', name);
      await promotedFrom(old);
    },
    async killPrimary() {
      const old = await primary();
      await old.kill();
      await promotedFrom(old.port);
      await old.restart();
    },
    async replicated() {
      await waitFor(
        async () => primaryWithReplicas(await primaryPort(), nodes.length - 1),
        'the primary to have its replicas back',
        SETTLE_MS,
        20,
      );
    },
    stop: stopAll,
  };
}

function byPort(nodes: TestRedisServer[], port: number): TestRedisServer {
  const node = nodes.find((n) => n.port === port);
  if (!node) throw new Error(`no node of this topology listens on ${port}`);
  return node;
}

async function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(child.pid!, 'SIGKILL');
  await exited;
}

// ------------------------------------------------------------------- Cluster

export interface TestCluster {
  readonly nodes: TestRedisServer[];
  readonly addresses: RedisAddress[];
  /** The primary serving `key`'s hash slot now, and its replica. */
  shardOf(key: string): Promise<{ primary: TestRedisServer; replica: TestRedisServer }>;
  /** `CLUSTER FAILOVER` on the replica of `key`'s slot: resolves once every node routes the slot to it. */
  failover(key: string): Promise<void>;
  /** SIGKILLs the primary of `key`'s slot; resolves once its replica took over. The killed node is restarted (it rejoins as a replica). */
  killPrimary(key: string): Promise<void>;
  /** Resolves once the primary of `key`'s slot has its replica online. */
  replicated(key: string): Promise<void>;
  stop(): Promise<void>;
}

type SlotRange = [number, number, ...Array<[string, number, string]>];

export async function startCluster(): Promise<TestCluster> {
  const nodes: TestRedisServer[] = [];
  const stop = async () => {
    for (const node of nodes) await node.stop();
  };
  try {
    for (let i = 0; i < 6; i++) {
      nodes.push(
        await startRedisServer({
          extraArgs: [
            ...SYNC_ARGS,
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            'nodes.conf',
            '--cluster-node-timeout',
            '1000',
            // A replica may always be promoted: its link state says nothing about data a test wrote a moment ago.
            '--cluster-replica-validity-factor',
            '0',
          ],
        }),
      );
    }
    await run('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '1', '--cluster-yes']);
    await waitFor(
      async () => {
        for (const node of nodes) {
          const cluster = await ask<string>(node.port, 'CLUSTER', 'INFO').catch(() => '');
          if (!cluster.includes('cluster_state:ok')) return false;
        }
        // Three shards, each primary with its replica attached and in sync (other nodes learn of the
        // replicas by gossip; shardOf() waits for that where it matters).
        const ranges = await ask<SlotRange[]>(nodes[0]!.port, 'CLUSTER', 'SLOTS').catch(() => []);
        if (ranges.length < 3) return false;
        for (const range of ranges) if (!(await primaryWithReplicas(Number((range[2] as [string, number, string])[1]), 1))) return false;
        return true;
      },
      'the cluster to be formed, every primary with its replica',
      SETTLE_MS,
      50,
    );
  } catch (err) {
    await stop();
    throw err;
  }

  const slotOf = (key: string) => ask<number>(nodes[0]!.port, 'CLUSTER', 'KEYSLOT', key);
  /** [primary port, replica ports] of `slot` as `port`'s node sees it. */
  const routeAt = async (port: number, slot: number): Promise<[number, number[]] | null> => {
    const ranges = await ask<SlotRange[]>(port, 'CLUSTER', 'SLOTS').catch(() => null);
    const range = ranges?.find(([from, to]) => slot >= from && slot <= to);
    if (!range) return null;
    const [, , primary, ...replicas] = range as [number, number, [string, number, string], ...Array<[string, number, string]>];
    return [Number(primary[1]), replicas.map((r) => Number(r[1]))];
  };
  const live = () => nodes.filter((n) => n.pid !== undefined);
  const shardOf = async (key: string) => {
    const slot = await slotOf(key);
    let route: [number, number[]] | null = null;
    // Right after a change, gossip may not have told every node about the new replica yet.
    await waitFor(
      async () => (route = await routeAt(live()[0]!.port, slot)) !== null && route[1].length > 0,
      `slot ${slot} to have a primary with a replica`,
      SETTLE_MS,
      20,
    );
    const [primary, replicas] = route!;
    return { primary: byPort(nodes, primary), replica: byPort(nodes, replicas[0]!) };
  };
  /** Every live node routes `slot` to `port`, and the cluster is up. */
  const routedTo = async (slot: number, port: number) => {
    for (const node of live()) {
      const route = await routeAt(node.port, slot);
      if (!route || route[0] !== port) return false;
      if (!(await ask<string>(node.port, 'CLUSTER', 'INFO').catch(() => '')).includes('cluster_state:ok')) return false;
    }
    return true;
  };
  return {
    nodes,
    addresses: nodes.map(address),
    shardOf,
    async failover(key) {
      const slot = await slotOf(key);
      const { replica } = await shardOf(key);
      await ask(replica.port, 'CLUSTER', 'FAILOVER');
      await waitFor(() => routedTo(slot, replica.port), 'every node to route the slot to the promoted replica', SETTLE_MS, 20);
    },
    async killPrimary(key) {
      const slot = await slotOf(key);
      const { primary, replica } = await shardOf(key);
      await primary.kill();
      await waitFor(() => routedTo(slot, replica.port), 'the replica to take over the killed primary', SETTLE_MS, 20);
      await primary.restart();
    },
    async replicated(key) {
      await waitFor(
        async () => {
          const slot = await slotOf(key);
          const route = await routeAt(live()[0]!.port, slot);
          return route !== null && (await primaryWithReplicas(route[0], 1));
        },
        'the primary to have its replica back',
        SETTLE_MS,
        20,
      );
    },
    stop,
  };
}
