// Checks, at start in live mode, that Redis can be trusted with idempotency
// keys. An eviction policy would silently drop keys under memory pressure,
// and a dropped key is a payment that can be made twice: refused. A Redis that
// persists nothing loses every key on restart; the gateway copes (claims are
// reconciled until the store has been up for a whole key lifetime), at the
// cost of a lookup per payment for a day: warned.
import { Cluster, type Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import { InternalError } from '../errors/internal-error.js';

export type RedisPersistence = 'rdb' | 'aof' | 'rdb+aof' | 'none' | 'unknown';

export interface RedisDurability {
  maxmemoryPolicy: string;
  persistence: RedisPersistence;
}

export class RedisUnfitError extends InternalError {
  override readonly name = 'RedisUnfitError';
  readonly code = 'REDIS_UNFIT';
}

/**
 * Throws RedisUnfitError on an evicting policy; warns when nothing is persisted or persistence cannot be read.
 * On a Cluster every primary is checked (each holds some of the keys); the first unfit one is reported.
 */
export async function checkRedisForLiveMode(client: Redis | Cluster, log: Logger): Promise<RedisDurability> {
  if (!(client instanceof Cluster)) return checkNode(client, log);
  let last: RedisDurability | null = null;
  for (const node of client.nodes('master')) last = await checkNode(node, log);
  if (!last) throw new RedisUnfitError('Redis Cluster has no reachable primary');
  return last;
}

async function checkNode(client: Redis, log: Logger): Promise<RedisDurability> {
  // INFO works where CONFIG is disabled (managed Redis services often rename it).
  const memory = parseInfo(await client.info('memory'));
  const maxmemoryPolicy = memory.get('maxmemory_policy') ?? 'unknown';
  if (maxmemoryPolicy !== 'noeviction') {
    throw new RedisUnfitError(`Redis maxmemory-policy is "${maxmemoryPolicy}": it may evict idempotency keys; set it to "noeviction"`);
  }
  const persistence = await readPersistence(client);
  if (persistence === 'none') log.warn('Redis persists nothing (no RDB save, no AOF): a restart loses every idempotency key');
  if (persistence === 'unknown') log.warn('cannot tell whether Redis persists its data (CONFIG GET refused)');
  return { maxmemoryPolicy, persistence };
}

async function readPersistence(client: Redis): Promise<RedisPersistence> {
  const aof = parseInfo(await client.info('persistence')).get('aof_enabled') === '1';
  let save: string;
  try {
    const reply = (await client.config('GET', 'save')) as string[];
    save = reply[1] ?? '';
  } catch {
    return aof ? 'aof' : 'unknown';
  }
  const rdb = save.trim() !== '';
  return rdb && aof ? 'rdb+aof' : rdb ? 'rdb' : aof ? 'aof' : 'none';
}

function parseInfo(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return fields;
}
