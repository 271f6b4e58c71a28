// The Redis store of outbound webhooks (see store.ts for the model). Keys, all under the gateway's namespace (one
// hash slot on a Cluster) in single mode:
//   webhooks:endpoints          ZSET  endpoint id -> creation time
//   webhooks:ep:<id>            HASH  the endpoint's fields (secrets, health)
//   webhooks:retry:<id>         ZSET  delivery id -> due time (the retry set)
//   webhooks:recent:<id>        ZSET  delivery id -> creation time (settled, newest RECENT_DELIVERIES_KEPT)
//   webhooks:deliveries:<id>    HASH  delivery id -> record (those of the two sets)
//   webhooks:leases:<id>        ZSET  delivery id -> lease end, while a claimed retry's attempt is under way
//   webhooks:again:<id>         SET   deliveries redelivered during an attempt (due at once should it fail)
// and on the event log's stream (`events:log`) the consumer group `webhooks:<id>`: the endpoint's place in the log
// and its events in flight. Writes that decide a delivery's fate go through `durable` (REDIS_MIN_REPLICAS), like
// idempotency keys.
//
// Platform mode (`merchantKeys`): an endpoint's keys are under its merchant's hash tag instead,
// `{m:<merchant>}:webhooks:…` (the listing `webhooks:endpoints` becomes the merchant's own), each recorded in the
// merchant's key index before it is written, so an offboarding's purge removes them without a SCAN; and so is the
// log its endpoints read, `{m:<merchant>}:webhooks:log`: the merchant's events only, copied there from the shared
// log with their ids by merchant-log-router.ts from the moment the merchant's first endpoint made it. Its endpoints'
// groups are there, so an endpoint reads none of another merchant's events and the shared log holds no group of
// theirs; and every script of a delivery runs in the merchant's slot, the log included, as in single mode (an event
// acknowledged in the script that saves its attempt, a redelivery that reads the pending list). The worker finds
// every merchant's endpoints in WORKER_SHARDS sets (`webhooks:endpoints:<n>`, by merchant), and drops from there what
// a purge left behind.
//
// The store is made of three parts, by what they keep: the endpoints (redis-endpoints.ts), their deliveries
// (redis-deliveries.ts) and their places in the log (redis-places.ts); their keys are redis-keys.ts's. In platform
// mode, redis-upgrade.ts moves the groups a build before the merchants' logs left on the shared log.
import { redisContext, type RedisOutboundStoreOptions } from './redis-context.js';
import { redisDeliveries } from './redis-deliveries.js';
import { redisEndpoints } from './redis-endpoints.js';
import { redisPlaces } from './redis-places.js';
import { earlierGroupsMover } from './redis-upgrade.js';
import type { OutboundStore } from './store.js';

export type { MerchantKeys } from './redis-keys.js';

/**
 * An OutboundStore in Redis, shared by every replica: each endpoint reads its log (the shared one, or its merchant's
 * own) through its own consumer group, so an event goes to one replica at a time.
 */
export function redisOutboundStore(options: RedisOutboundStoreOptions): OutboundStore {
  const ctx = redisContext(options, earlierGroupsMover);
  const adopt = ctx.k.platform ? { adoptEarlierGroups: ctx.adoptEarlierGroups } : {};
  return { mode: 'redis', ...redisEndpoints(ctx), ...redisDeliveries(ctx), ...redisPlaces(ctx), ...adopt, async close() {} };
}
