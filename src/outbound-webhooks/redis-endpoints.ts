// The endpoints of the Redis store of outbound webhooks (redis-store.ts describes the keys): their hashes and
// listings, and each one's consumer group, made with it at the end of the log it reads.
import { merchantOfEndpoint, type StoredEndpoint } from './model.js';
import type { RedisContext } from './redis-context.js';
import { groupOf, keysOfEndpoint } from './redis-keys.js';
import type { OutboundStore } from './store.js';

// KEYS: the listing, the endpoint, and (single mode) the log, whose group is made in the same step.
const CREATE = `
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('HSET', KEYS[2], unpack(ARGV, 5))
if KEYS[3] then redis.pcall('XGROUP', 'CREATE', KEYS[3], ARGV[4], '$', 'MKSTREAM') end
return 1`;

const UPDATE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1`;

const REPLACE_SECRETS = `
if redis.call('HGET', KEYS[1], 'secrets') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'secrets', ARGV[2])
return 1`;

const DISABLE = `
if redis.call('HGET', KEYS[1], 'enabled') ~= '1' then return 0 end
redis.call('HSET', KEYS[1], 'enabled', '0', 'disabledReason', ARGV[1])
return 1`;

/** The hash fields of an endpoint (null as ''). */
function endpointFields(e: Partial<StoredEndpoint>): string[] {
  const fields: string[] = [];
  const put = (name: string, value: string | null | undefined) => value !== undefined && fields.push(name, value ?? '');
  put('id', e.id);
  put('url', e.url);
  put('description', e.description);
  if (e.kinds) put('kinds', JSON.stringify(e.kinds));
  if (e.enabled !== undefined) put('enabled', e.enabled ? '1' : '0');
  put('disabledReason', e.disabledReason);
  put('createdAt', e.createdAt);
  if (e.secrets) put('secrets', JSON.stringify(e.secrets));
  put('lastSuccessAt', e.lastSuccessAt);
  put('failingSince', e.failingSince);
  if (e.consecutiveFailures !== undefined) put('consecutiveFailures', String(e.consecutiveFailures));
  return fields;
}

/** An endpoint read from its hash; null when there is none. */
export function endpointOf(hash: Record<string, string>): StoredEndpoint | null {
  if (!hash['id']) return null;
  const orNull = (v: string | undefined) => (v ? v : null);
  return {
    id: hash['id'],
    url: hash['url'] ?? '',
    description: orNull(hash['description']),
    kinds: JSON.parse(hash['kinds'] || '[]') as string[],
    enabled: hash['enabled'] === '1',
    disabledReason: orNull(hash['disabledReason']),
    createdAt: hash['createdAt'] ?? '',
    secrets: JSON.parse(hash['secrets'] || '{}') as StoredEndpoint['secrets'],
    lastSuccessAt: orNull(hash['lastSuccessAt']),
    failingSince: orNull(hash['failingSince']),
    consecutiveFailures: Number(hash['consecutiveFailures'] ?? 0),
  };
}

/** The newest id the stream ever had (its end, where a new group starts); null when there is no such stream. */
async function endOf({ c }: RedisContext, key: string): Promise<string | null> {
  try {
    const flat = (await c.xinfo('STREAM', key)) as unknown[];
    const at = flat.indexOf('last-generated-id');
    return at >= 0 ? String(flat[at + 1]) : null;
  } catch (err) {
    if (/no such key/i.test((err as Error).message)) return null;
    throw err;
  }
}

/**
 * Platform mode: the endpoint's group on its merchant's log, at the shared log's end. The merchant's log exists
 * first (the router copies the merchant's events into it only once it does: merchant-log-router.ts), and the
 * shared log's end is read after: every event logged after that end is then copied where the group reads it, and
 * none logged before the endpoint's creation is ever delivered to it.
 */
async function placeInMerchantLog(ctx: RedisContext, id: string): Promise<void> {
  await ctx.placeGroup(id, '$', true);
  const end = await endOf(ctx, ctx.k.sharedLog);
  if (end) await ctx.placeGroup(id, end, false);
}

type EndpointMethods =
  | 'createEndpoint'
  | 'listEndpoints'
  | 'getEndpoint'
  | 'updateEndpoint'
  | 'deleteEndpoint'
  | 'disableOnce'
  | 'replaceSecrets'
  | 'endpointMerchants';

/** The endpoints' half of the Redis store: their hashes, listings and groups. */
export function redisEndpoints(ctx: RedisContext): Pick<OutboundStore, EndpointMethods> {
  const { redis, c, k } = ctx;
  const read = async (ids: string[]) =>
    (await Promise.all(ids.map((id) => c.hgetall(k.endpoint(id))))).map(endpointOf).filter((e): e is StoredEndpoint => e !== null);
  const dropGroup = (id: string) => c.xgroup('DESTROY', k.log(id), groupOf(id)).catch(() => {});
  /** Every endpoint id of every merchant (platform mode: the worker's sets). */
  const allIds = async () => (await Promise.all(k.shards.map((shard) => c.zrange(shard, 0, -1)))).flat();
  return {
    async createEndpoint(endpoint, max) {
      const id = endpoint.id;
      const merchant = k.platform ? merchantOfEndpoint(id) : null;
      if (merchant) {
        // In the merchant's index before anything is written, its group before its endpoint (read only once listed).
        await k.merchantKeys!.own(merchant, keysOfEndpoint(k, id));
        await placeInMerchantLog(ctx, id);
      }
      const keys = merchant ? [k.endpoints(id), k.endpoint(id)] : [k.endpoints(id), k.endpoint(id), k.log(id)];
      const args = [String(max), id, String(Date.parse(endpoint.createdAt)), groupOf(id), ...endpointFields(endpoint)];
      const created = Number(await redis.durable((p) => p.eval(CREATE, keys.length, ...keys, ...args))) === 1;
      if (!merchant) return created;
      if (created) await redis.durable((p) => p.zadd(k.shard(id), 0, id));
      else await dropGroup(id);
      return created;
    },
    async listEndpoints(merchantId) {
      if (!k.platform || merchantId) return read(await c.zrange(k.listing(merchantId ?? null), 0, -1));
      // The worker: every merchant's; an id whose endpoint a purge removed is dropped from its set, its group too.
      const ids = await allIds();
      const found = await read(ids);
      const gone = ids.filter((id) => !found.some((e) => e.id === id));
      for (const id of gone) {
        await c.zrem(k.shard(id), id);
        await dropGroup(id);
      }
      return found.sort((x, y) => x.createdAt.localeCompare(y.createdAt));
    },
    async getEndpoint(id) {
      return endpointOf(await c.hgetall(k.endpoint(id)));
    },
    async updateEndpoint(id, patch) {
      const { resetHealth, ...fields } = patch;
      const all = endpointFields({ ...fields, ...(resetHealth ? { failingSince: null, consecutiveFailures: 0 } : {}) });
      if (all.length > 0 && Number(await redis.durable((p) => p.eval(UPDATE, 1, k.endpoint(id), ...all))) === 0) return null;
      return this.getEndpoint(id);
    },
    async deleteEndpoint(id) {
      const removed = Number(await redis.durable((p) => p.zrem(k.endpoints(id), id)));
      if (k.platform) await c.zrem(k.shard(id), id);
      await c.del(k.endpoint(id), k.retry(id), k.recent(id), k.deliveries(id), k.leases(id), k.again(id));
      await dropGroup(id);
      return removed === 1;
    },
    async disableOnce(id, reason) {
      return Number(await redis.durable((p) => p.eval(DISABLE, 1, k.endpoint(id), reason))) === 1;
    },
    async endpointMerchants() {
      return k.platform ? [...new Set((await allIds()).map(merchantOfEndpoint).filter((m): m is string => m !== null))] : [];
    },
    async replaceSecrets(id, expected, next) {
      const args = [JSON.stringify(expected), JSON.stringify(next)];
      return Number(await redis.durable((p) => p.eval(REPLACE_SECRETS, 1, k.endpoint(id), ...args))) === 1;
    },
  };
}
