// The keys of the Redis store of outbound webhooks (redis-store.ts describes them): single mode's, under the
// gateway's namespace, or platform mode's, under each merchant's hash tag, each recorded in the merchant's key index.
import { createHash } from 'node:crypto';
import type { GatewayRedis } from '../redis/index.js';
import { merchantOfEndpoint } from './model.js';

/** Platform mode's keys: recorded in the merchant's index (what its purge deletes) before they are written. */
export interface MerchantKeys {
  /** The hash tag of the merchant's keys (`m:<id>`, src/merchants/redis-store.ts). */
  tag(merchantId: string): string;
  own(merchantId: string, keys: string[]): Promise<void>;
}

/** Sets the worker reads every merchant's endpoints from (platform mode), by merchant. */
const WORKER_SHARDS = 16;

/** The name of an endpoint's consumer group, on the log it reads (its place there and its events in flight). */
export const groupOf = (endpointId: string): string => `webhooks:${endpointId}`;

/** A merchant's own event log (platform mode): its events, copied from the shared log (merchant-log-router.ts). */
export const merchantLogKey = (redis: Pick<GatewayRedis, 'tagged'>, tag: string): string => redis.tagged(tag, 'webhooks', 'log');

/**
 * Where the merchant-log router's copying stands (platform mode): the furthest position of the shared log a router
 * reached, every event up to it copied (merchant-log-router.ts).
 */
export const routerCursorKey = (redis: Pick<GatewayRedis, 'key'>): string => redis.key('webhooks', 'merchant-log-router');

/**
 * The keys of endpoints: single mode's, under the gateway's namespace, or platform mode's, under each merchant's tag.
 * `logKey`: the shared event log (the bus's), which single mode's endpoints read.
 */
export function keyspace(redis: GatewayRedis, logKey: string, merchantKeys: MerchantKeys | null) {
  const platform = merchantKeys !== null;
  const merchantOf = (endpointId: string) => (platform ? merchantOfEndpoint(endpointId) : null);
  const of = (endpointId: string, ...parts: string[]) => {
    const merchant = merchantOf(endpointId);
    return merchant ? redis.tagged(merchantKeys!.tag(merchant), 'webhooks', ...parts) : redis.key('webhooks', ...parts);
  };
  const shardOf = (merchantId: string) =>
    redis.soloKey('webhooks', 'endpoints', String(createHash('sha256').update(merchantId).digest()[0]! % WORKER_SHARDS));
  return {
    platform,
    merchantKeys,
    /** The shared event log. */
    sharedLog: logKey,
    /** The log the endpoint reads: its merchant's own (platform mode), else the shared one. */
    log: (endpointId: string) => {
      const merchant = merchantOf(endpointId);
      return merchant ? merchantLogKey(redis, merchantKeys!.tag(merchant)) : logKey;
    },
    /** The listing of the endpoint's merchant (single mode: the only one). */
    endpoints: (endpointId: string) => of(endpointId, 'endpoints'),
    /** A merchant's listing (single mode, or null: the only one). */
    listing: (merchantId: string | null) =>
      platform && merchantId ? redis.tagged(merchantKeys!.tag(merchantId), 'webhooks', 'endpoints') : redis.key('webhooks', 'endpoints'),
    /** Platform mode: the worker's set the endpoint is in. */
    shard: (endpointId: string) => shardOf(merchantOfEndpoint(endpointId) ?? ''),
    shards: Array.from({ length: WORKER_SHARDS }, (_, i) => redis.soloKey('webhooks', 'endpoints', String(i))),
    endpoint: (id: string) => of(id, 'ep', id),
    retry: (id: string) => of(id, 'retry', id),
    recent: (id: string) => of(id, 'recent', id),
    deliveries: (id: string) => of(id, 'deliveries', id),
    leases: (id: string) => of(id, 'leases', id),
    again: (id: string) => of(id, 'again', id),
  };
}

/** The keys of a store: keyspace's answer. */
export type Keyspace = ReturnType<typeof keyspace>;

/** Every key an endpoint may have (its listing's and its merchant's log too): what its merchant's index records. */
export const keysOfEndpoint = (k: Keyspace, id: string): string[] => [
  k.endpoints(id),
  k.log(id),
  k.endpoint(id),
  k.retry(id),
  k.recent(id),
  k.deliveries(id),
  k.leases(id),
  k.again(id),
];

/** A reply of Redis in pairs (a group of XINFO GROUPS) as a map: what the store's modules read of their groups. */
export function toMap(flat: unknown[]): Map<string, unknown> {
  const map = new Map<string, unknown>();
  for (let i = 0; i + 1 < flat.length; i += 2) map.set(String(flat[i]), flat[i + 1]);
  return map;
}
