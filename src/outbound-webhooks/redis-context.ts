// What the modules of the Redis store of outbound webhooks share (redis-store.ts assembles them): the keys, the
// readers of log entries and records, and the group commands that make a lost group again.
import type { GatewayRedis } from '../redis/index.js';
import { eventOfStreamEntry } from '../events/log.js';
import type { LoggedPaymentEvent } from '../events/payment-event.js';
import type { DeliveryRecord } from './model.js';
import { groupOf, keyspace, type Keyspace, type MerchantKeys } from './redis-keys.js';
import { RECENT_DELIVERIES_KEPT } from './store.js';

/** One entry of a stream as Redis answers it. */
export type StreamEntry = [id: string, fields: string[]];

/** What the Redis store is made with. */
export interface RedisOutboundStoreOptions {
  redis: GatewayRedis;
  /** The event log's stream key (the bus's). */
  logKey: string;
  recentKept?: number;
  /** Platform mode: each endpoint's keys under its merchant's tag, each recorded in the merchant's key index first. */
  merchantKeys?: MerchantKeys | null;
  /** The event log's retention: how far back the groups of an earlier build are moved (redis-upgrade.ts). */
  retentionMs?: number | null;
}

// KEYS: a log. ARGV: a group, a position, and 'make' to make the group (and the log) there should it not exist.
// A script, so that on a Cluster it runs on the node of the log's slot (a durable write's XGROUP in a pipeline may
// be sent to another node, and refused there with MOVED).
const PLACE_GROUP = `
if ARGV[3] == 'make' then
  local made = redis.pcall('XGROUP', 'CREATE', KEYS[1], ARGV[1], ARGV[2], 'MKSTREAM')
  if not (type(made) == 'table' and made.err) then return 'OK' end
end
return redis.call('XGROUP', 'SETID', KEYS[1], ARGV[1], ARGV[2])`;

/**
 * Platform mode: what moves the groups an earlier build left on the shared log (redis-upgrade.ts, handed in by
 * redis-store.ts).
 */
export type GroupMover = (parts: { redis: GatewayRedis; k: Keyspace; retentionMs: number | null }) => () => Promise<void>;

/** The keys, the readers and the group commands every part of the store shares. */
export function redisContext(options: RedisOutboundStoreOptions, mover?: GroupMover) {
  const { redis } = options;
  const c = redis.commands;
  const recentKept = options.recentKept ?? RECENT_DELIVERIES_KEPT;
  const k = keyspace(redis, options.logKey, options.merchantKeys ?? null);
  const events = (entries: StreamEntry[]) =>
    entries.map(([id, fields]) => (fields ? eventOfStreamEntry(id, fields) : null)).filter((e): e is LoggedPaymentEvent => e !== null);
  const parse = (json: string) => JSON.parse(json) as DeliveryRecord;
  /** Platform mode: moves the groups an earlier build left on the shared log into the merchants' logs. */
  const adoptEarlierGroups = k.platform && mover ? mover({ redis, k, retentionMs: options.retentionMs ?? null }) : async () => {};

  /**
   * Runs a group command; a group lost with its log (Redis restarted empty) is made again from the new log's start.
   * Platform mode: an endpoint of an earlier build has its group on the shared log, moved rather than made anew.
   */
  const withGroup = async <T>(id: string, command: () => Promise<T>): Promise<T> => {
    try {
      return await command();
    } catch (err) {
      if (!/NOGROUP/.test((err as Error).message) || !(await c.exists(k.endpoint(id)))) throw err;
      await adoptEarlierGroups();
      await c.xgroup('CREATE', k.log(id), groupOf(id), '0', 'MKSTREAM').catch(() => {});
      return command();
    }
  };
  /** Moves the endpoint's group to `position` (`make`: made there, with its log, should it not exist), durably. */
  const placeGroup = (id: string, position: string, make: boolean) =>
    redis.durable((p) => p.eval(PLACE_GROUP, 1, k.log(id), groupOf(id), position, make ? 'make' : ''));
  return { redis, c, recentKept, k, events, parse, withGroup, placeGroup, adoptEarlierGroups };
}

/** What redisContext makes. */
export type RedisContext = ReturnType<typeof redisContext>;
