// The one owner of the gateway's Redis connections. Each role gets settings
// that fit what it is for:
//
// - commands (idempotency keys, webhook de-duplication, later rate limits and
//   the event log) and publisher FAIL FAST: no offline queue, no retry of a
//   command, short connect and command timeouts. A money-moving mutation must
//   be refused at once when its guard is unreachable, never queued or run
//   without it. Commands in flight when the connection drops are failed, and
//   never re-sent after a reconnect: a write replayed late could overwrite a
//   newer state. The connection itself keeps reconnecting in the background.
// - subscriber reconnects forever and re-subscribes its channels, so pub/sub
//   resumes by itself after a Redis restart.
//
// - blocking connections (opened on demand, one per use: the event log's
//   XREAD BLOCK) fail their command when the connection drops, so the reader
//   sees the outage and reads on from its own position once Redis is back.
//
// Each role works on the three topologies (one node, a Sentinel-managed
// primary, a Cluster) through ioredis's own support; see open().
//
// Close order is blocking ones, subscriber, publisher, then commands: the last
// writes of requests still finishing (results being saved) go out before the end.
import { Cluster, Redis, type ChainableCommander, type ClusterOptions, type RedisOptions } from 'ioredis';
import { silentLogger, type Logger } from '../logger.js';
import { ClosedError, InternalError } from '../errors/internal-error.js';

export const DEFAULT_REDIS_NAMESPACE = 'momo-gateway';

export type RedisRole = 'commands' | 'publisher' | 'subscriber' | 'blocking';

/** One node, or a Redis Cluster: every role is one or the other, and both speak the same commands. */
export type RedisClient = Redis | Cluster;

export interface RedisAddress {
  host: string;
  port: number;
}

/** Where Redis is: one node (also a managed primary endpoint), a Sentinel-managed primary, or a Cluster. */
export type RedisTopology =
  { kind: 'node' } | { kind: 'sentinel'; sentinels: RedisAddress[]; name: string } | { kind: 'cluster'; nodes: RedisAddress[] };

/**
 * The gateway's Redis connections (commands, publisher, subscriber, blocking reads), its key namespace, and
 * durable writes that wait for replicas.
 */
export interface GatewayRedis {
  /** Prefix of every key and channel this gateway uses. */
  readonly namespace: string;
  readonly topology: RedisTopology['kind'];
  /**
   * `<namespace>:<part>:<part>...`: the only way keys and channel prefixes are formed. On a Cluster the
   * namespace is a hash tag, `{<namespace>}:<part>...`, so every key of the gateway is in one hash slot
   * and every Lua script and MULTI over several of them is legal there.
   */
  key(...parts: string[]): string;
  /**
   * `<namespace>:<part>...` on every topology: a key no script or MULTI shares with another (a rate-limit counter).
   * Untagged on a Cluster, such keys spread over every shard by their own names instead of pinning the gateway's slot.
   */
  soloKey(...parts: string[]): string;
  /**
   * `<namespace>:{<tag>}:<part>...` on every topology: keys that share a tag share a hash slot on a Cluster (one
   * merchant's keys, `{m:<id>}`), so a script or MULTI over them is legal, and different tags spread over the shards.
   */
  tagged(tag: string, ...parts: string[]): string;
  /** Fail-fast connection for ordinary commands. */
  readonly commands: RedisClient;
  /** Fail-fast connection for PUBLISH (a subscriber-mode connection cannot publish). */
  readonly publisher: RedisClient;
  /** Subscriber-mode connection; reconnects and re-subscribes forever. */
  readonly subscriber: RedisClient;
  /**
   * A new connection for blocking reads (XREAD BLOCK), named `<namespace>:blocking:<purpose>`: no command
   * timeout, queued while reconnecting, failed (never re-sent) when the connection drops. Closed with the rest.
   */
  blocking(purpose: string): RedisClient;
  /** Replicas that must hold a write before it counts as done (REDIS_MIN_REPLICAS). */
  readonly minReplicas: number;
  /** Runs a write on the commands connection and waits for `minReplicas` replicas to hold it (see durableWrite). */
  durable(write: (pipeline: ChainableCommander) => ChainableCommander): Promise<unknown>;
  /** Closes every connection (blocking ones, subscriber, publisher, commands). Idempotent. */
  close(): Promise<void>;
}

export interface ConnectRedisOptions {
  /**
   * `redis://` or `rediss://` URL. With `sentinels` or `clusterNodes` only its credentials, TLS and
   * database are used (the nodes come from the topology).
   */
  url?: string;
  /** Sentinel addresses (the primary is asked of them), with the name of the monitored primary. */
  sentinels?: RedisAddress[];
  sentinelName?: string;
  /** Some nodes of a Redis Cluster (the rest is discovered). */
  clusterNodes?: RedisAddress[];
  namespace?: string;
  /** Replicas that must acknowledge a durable write (Redis WAIT). Default 0. */
  minReplicas?: number;
  /** How long a durable write waits for those replicas before it counts as failed. Default 500 ms. */
  replicaTimeoutMs?: number;
  log?: Logger;
  /** Deadline of one connection attempt of the fail-fast roles. Default 1000 ms. */
  connectTimeoutMs?: number;
  /** Deadline of one command on the fail-fast roles (a Redis that accepts but never answers). Default 1000 ms. */
  commandTimeoutMs?: number;
}

/** A durable write that the primary accepted but too few replicas acknowledged in time. */
/** Redis could not be reached at start (wrong URL, nothing listening, refused credentials). */
export class RedisUnreachableError extends InternalError {
  readonly code = 'REDIS_UNREACHABLE';
}

/** A write fewer replicas acknowledged in time than REDIS_MIN_REPLICAS asks: refused, the caller answers 503. */
export class ReplicasBehindError extends InternalError {
  override readonly name = 'ReplicasBehindError';
  readonly code = 'REDIS_REPLICAS_BEHIND';
  constructor(
    readonly acknowledged: number,
    readonly required: number,
    /** What the write itself answered (it is on the primary, and may still reach the replicas). */
    readonly reply: unknown,
  ) {
    super(`Redis write acknowledged by ${acknowledged} of the ${required} replicas required`);
  }
}

const MAX_RECONNECT_DELAY_MS = 1000;
const reconnectDelay = (attempt: number) => Math.min(50 * 2 ** Math.min(attempt, 5), MAX_RECONNECT_DELAY_MS);

export function topologyOf(options: Pick<ConnectRedisOptions, 'sentinels' | 'sentinelName' | 'clusterNodes'>): RedisTopology {
  if (options.sentinels?.length && options.clusterNodes?.length) throw new RangeError('Redis: sentinels and cluster nodes are exclusive');
  if (options.sentinels?.length) return { kind: 'sentinel', sentinels: options.sentinels, name: options.sentinelName ?? 'mymaster' };
  if (options.clusterNodes?.length) return { kind: 'cluster', nodes: options.clusterNodes };
  return { kind: 'node' };
}

/** Opens and verifies the three connections, so a wrong REDIS_URL fails at start. */
export async function connectRedis(options: ConnectRedisOptions): Promise<GatewayRedis> {
  const namespace = options.namespace ?? DEFAULT_REDIS_NAMESPACE;
  // Braces would change which part of a key is hashed on a Cluster.
  if (!/^[^\s:{}][^\s{}]*$/.test(namespace)) throw new RangeError('Redis namespace must be non-empty, without spaces or braces');
  const topology = topologyOf(options);
  if (topology.kind === 'node' && !options.url) throw new RangeError('Redis: a URL, sentinels or cluster nodes are required');
  const log = options.log ?? silentLogger;
  const minReplicas = options.minReplicas ?? 0;
  const replicaTimeoutMs = options.replicaTimeoutMs ?? 500;
  const connectTimeout = options.connectTimeoutMs ?? 1000;
  const failFast: RedisOptions = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    connectTimeout,
    // A durable write's WAIT must be able to run its whole course.
    commandTimeout: Math.max(options.commandTimeoutMs ?? 1000, minReplicas > 0 ? replicaTimeoutMs + 500 : 0),
  };
  // Commands issued in the same tick (rate limits and idempotency of concurrent requests) share one
  // write and one round trip instead of one each.
  const commandSettings: RedisOptions = { ...failFast, enableAutoPipelining: true };
  const settings: Record<RedisRole, RedisOptions> = {
    commands: commandSettings,
    publisher: failFast,
    subscriber: { maxRetriesPerRequest: null, autoResubscribe: true },
    blocking: { maxRetriesPerRequest: 0, autoResendUnfulfilledCommands: false, connectTimeout },
  };
  const make = (role: RedisRole, purpose?: string): RedisClient => {
    const connectionName = purpose ? `${namespace}:${role}:${purpose}` : `${namespace}:${role}`;
    const client = open(topology, options.url, { ...settings[role], connectionName });
    watchConnection(client, role, log, () => closing !== null);
    return client;
  };
  let closing: Promise<void> | null = null;
  const commands = make('commands');
  const publisher = make('publisher');
  const subscriber = make('subscriber');
  const all = [subscriber, publisher, commands];
  const blocking: RedisClient[] = [];
  try {
    await Promise.all(all.map((c) => c.connect()));
  } catch (err) {
    all.forEach((c) => c.disconnect());
    // ioredis messages name host and port at most; the URL (which may hold a password) is never shown.
    throw new RedisUnreachableError(`cannot connect to Redis: ${(err as Error).message}`, { cause: err });
  }

  return {
    namespace,
    topology: topology.kind,
    key: topology.kind === 'cluster' ? (...parts) => [`{${namespace}}`, ...parts].join(':') : (...parts) => [namespace, ...parts].join(':'),
    soloKey: (...parts) => [namespace, ...parts].join(':'),
    tagged: (tag, ...parts) => [namespace, `{${tag}}`, ...parts].join(':'),
    commands,
    publisher,
    subscriber,
    blocking(purpose) {
      if (closing) throw new ClosedError('Redis connections are closed');
      const client = make('blocking', purpose);
      blocking.push(client);
      client.connect().catch(() => {}); // reconnects by itself; its reader sees the failures
      return client;
    },
    minReplicas,
    durable: (write) => durableWrite(commands, write, minReplicas, replicaTimeoutMs),
    close: () =>
      (closing ??= (async () => {
        // A blocked read would hold QUIT back for its whole BLOCK time; there is nothing to flush.
        for (const client of blocking) client.disconnect();
        for (const client of all) await quit(client);
      })()),
  };
}

/**
 * Sends `write` and, when replicas are required, `WAIT <minReplicas> <timeout>` in one pipeline: both go
 * down the same connection to the same node (on a Cluster, the node of the write's hash slot), so WAIT
 * covers this write and a failover between the two cannot make it count another primary's replicas.
 * Resolves with the write's reply; rejects with the write's error, or ReplicasBehindError.
 */
export async function durableWrite(
  client: RedisClient,
  write: (pipeline: ChainableCommander) => ChainableCommander,
  minReplicas: number,
  timeoutMs: number,
): Promise<unknown> {
  const pipeline = write(client.pipeline());
  if (minReplicas > 0) pipeline.call('WAIT', minReplicas, timeoutMs);
  const replies = (await pipeline.exec()) ?? [];
  const [writeError, reply] = replies[0] ?? [new Error('Redis answered nothing'), null];
  if (writeError) throw writeError;
  if (minReplicas > 0) {
    const [waitError, acknowledged] = replies[1] ?? [new Error('Redis did not answer WAIT'), null];
    if (waitError) throw waitError;
    if (Number(acknowledged) < minReplicas) throw new ReplicasBehindError(Number(acknowledged), minReplicas, reply);
  }
  return reply;
}

/**
 * One client of a role on the topology, through ioredis's own support: Sentinel (asks the sentinels for
 * the primary, follows a switch) or Cluster (slots, MOVED, failover). On a Cluster the fail-fast roles
 * do not re-send a command whose connection closed, nor wait out CLUSTERDOWN: like a single node's,
 * they fail at once and the caller answers 503 (a write re-sent late could land twice).
 */
function open(topology: RedisTopology, url: string | undefined, role: RedisOptions): RedisClient {
  const common: RedisOptions = { ...role, lazyConnect: true, retryStrategy: reconnectDelay };
  if (topology.kind === 'node') return new Redis(url!, common);
  if (topology.kind === 'sentinel') {
    const sentinelOptions: RedisOptions = {
      ...common,
      sentinels: topology.sentinels,
      name: topology.name,
      sentinelRetryStrategy: reconnectDelay,
      // A demoted primary refuses writes: reconnect (the sentinels name the new one), never re-send. (No
      // `failoverDetector`: its disconnect on +switch-master, landing while a connection is being re-made
      // after a primary died, ends the client for good; and moving earlier gains nothing, as the new
      // primary has no replica to acknowledge writes until the old one rejoins.)
      reconnectOnError: (err) => err.message.startsWith('READONLY'),
      // ioredis uses TLS to the primary in Sentinel mode only when told (a `rediss://` URL says so).
      ...(url?.startsWith('rediss:') ? { enableTLSForSentinelMode: true } : {}),
    };
    return url ? new Redis(url, sentinelOptions) : new Redis(sentinelOptions);
  }
  // The Cluster has its own offline queue, pipelining and reconnection; the rest applies to each node.
  const { enableOfflineQueue, enableAutoPipelining, ...perNode } = role;
  const failFast = enableOfflineQueue === false;
  const clusterOptions: ClusterOptions = {
    lazyConnect: true,
    enableOfflineQueue: enableOfflineQueue ?? true,
    enableAutoPipelining,
    redisOptions: { ...perNode, ...credentials(url) },
    clusterRetryStrategy: reconnectDelay,
    retryDelayOnFailover: failFast ? 0 : 100,
    retryDelayOnClusterDown: failFast ? 0 : 100,
  };
  return new Cluster(topology.nodes, clusterOptions);
}

/** Username, password and TLS of a URL, for the nodes of a Cluster (which has no databases). */
function credentials(url: string | undefined): RedisOptions {
  if (!url) return {};
  const parsed = new URL(url);
  return {
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

/**
 * One `error` listener per client (without one, ioredis prints errors itself).
 * An outage produces an error per reconnect attempt: the loss is a warning,
 * the rest debug lines, and the recovery is logged once.
 */
function watchConnection(client: RedisClient, role: RedisRole, log: Logger, closing: () => boolean): void {
  let down = false;
  const lost = (error?: string) => {
    if (down || closing()) return;
    down = true;
    log.warn('redis connection lost', { role, ...(error ? { error } : {}) });
  };
  client.on('error', (err: Error) => {
    if (down) log.debug('redis connection error', { role, error: err.message });
    else lost(err.message);
  });
  client.on('close', () => lost());
  client.on('ready', () => {
    if (down) log.info('redis connection restored', { role });
    down = false;
  });
  // ioredis gives a client up when its connector fails outright (e.g. every sentinel unreachable at once):
  // a gateway keeps trying, as it does after any other outage.
  client.on('end', () => {
    if (closing()) return;
    log.warn('redis connection ended; reconnecting', { role });
    setTimeout(() => {
      if (!closing() && client.status === 'end') client.connect().catch(() => {});
    }, MAX_RECONNECT_DELAY_MS).unref();
  });
}

async function quit(client: RedisClient): Promise<void> {
  if (client.status === 'end') return;
  // QUIT would wait in the offline queue of a connection that is down; there is nothing left to flush.
  if (client.status !== 'ready') return client.disconnect();
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}
