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
// Close order is blocking ones, subscriber, publisher, then commands: the last
// writes of requests still finishing (results being saved) go out before the end.
import { Redis, type RedisOptions } from 'ioredis';
import { silentLogger, type Logger } from '../logger.js';

export const DEFAULT_REDIS_NAMESPACE = 'momo-gateway';

export type RedisRole = 'commands' | 'publisher' | 'subscriber' | 'blocking';

export interface GatewayRedis {
  /** Prefix of every key and channel this gateway uses. */
  readonly namespace: string;
  /** `<namespace>:<part>:<part>...`: the only way keys and channel prefixes are formed. */
  key(...parts: string[]): string;
  /** Fail-fast connection for ordinary commands. */
  readonly commands: Redis;
  /** Fail-fast connection for PUBLISH (a subscriber-mode connection cannot publish). */
  readonly publisher: Redis;
  /** Subscriber-mode connection; reconnects and re-subscribes forever. */
  readonly subscriber: Redis;
  /**
   * A new connection for blocking reads (XREAD BLOCK), named `<namespace>:blocking:<purpose>`: no command
   * timeout, queued while reconnecting, failed (never re-sent) when the connection drops. Closed with the rest.
   */
  blocking(purpose: string): Redis;
  /** Closes every connection (blocking ones, subscriber, publisher, commands). Idempotent. */
  close(): Promise<void>;
}

export interface ConnectRedisOptions {
  url: string;
  namespace?: string;
  log?: Logger;
  /** Deadline of one connection attempt of the fail-fast roles. Default 1000 ms. */
  connectTimeoutMs?: number;
  /** Deadline of one command on the fail-fast roles (a Redis that accepts but never answers). Default 1000 ms. */
  commandTimeoutMs?: number;
}

const MAX_RECONNECT_DELAY_MS = 1000;

/** Opens and verifies the three connections, so a wrong REDIS_URL fails at start. */
export async function connectRedis(options: ConnectRedisOptions): Promise<GatewayRedis> {
  const namespace = options.namespace ?? DEFAULT_REDIS_NAMESPACE;
  if (!/^[^\s:][^\s]*$/.test(namespace)) throw new RangeError('Redis namespace must be non-empty, without spaces');
  const log = options.log ?? silentLogger;
  const connectTimeout = options.connectTimeoutMs ?? 1000;
  const failFast: RedisOptions = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    connectTimeout,
    commandTimeout: options.commandTimeoutMs ?? 1000,
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
  const make = (role: RedisRole, purpose?: string) => {
    const client = new Redis(options.url, {
      ...settings[role],
      lazyConnect: true,
      connectionName: purpose ? `${namespace}:${role}:${purpose}` : `${namespace}:${role}`,
      retryStrategy: (attempt) => Math.min(50 * 2 ** Math.min(attempt, 5), MAX_RECONNECT_DELAY_MS),
    });
    watchConnection(client, role, log, () => closing !== null);
    return client;
  };
  let closing: Promise<void> | null = null;
  const commands = make('commands');
  const publisher = make('publisher');
  const subscriber = make('subscriber');
  const all = [subscriber, publisher, commands];
  const blocking: Redis[] = [];
  try {
    await Promise.all(all.map((c) => c.connect()));
  } catch (err) {
    all.forEach((c) => c.disconnect());
    // ioredis messages name host and port at most; the URL (which may hold a password) is never shown.
    throw new Error(`cannot connect to Redis: ${(err as Error).message}`);
  }

  return {
    namespace,
    key: (...parts) => [namespace, ...parts].join(':'),
    commands,
    publisher,
    subscriber,
    blocking(purpose) {
      if (closing) throw new Error('Redis connections are closed');
      const client = make('blocking', purpose);
      blocking.push(client);
      client.connect().catch(() => {}); // reconnects by itself; its reader sees the failures
      return client;
    },
    close: () =>
      (closing ??= (async () => {
        // A blocked read would hold QUIT back for its whole BLOCK time; there is nothing to flush.
        for (const client of blocking) client.disconnect();
        for (const client of all) await quit(client);
      })()),
  };
}

/**
 * One `error` listener per client (without one, ioredis prints errors itself).
 * An outage produces an error per reconnect attempt: the loss is a warning,
 * the rest debug lines, and the recovery is logged once.
 */
function watchConnection(client: Redis, role: RedisRole, log: Logger, closing: () => boolean): void {
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
}

async function quit(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  // QUIT would wait in the offline queue of a connection that is down; there is nothing left to flush.
  if (client.status !== 'ready') return client.disconnect();
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}
