// Platform mode: copies each merchant's events from the shared event log into the merchant's own log
// (`{m:<id>}:webhooks:log`, redis-store.ts), where its endpoints' consumer groups read them, so that an endpoint
// never reads past another merchant's events. The shared log stays the source of truth; a copy keeps its event's
// stream id (its webhook-id and every cursor stay the same).
//
// Why a copy is never lost, on any number of replicas:
// - Redis refuses an XADD whose id is not above the stream's last one. Every router reads the shared log IN ORDER,
//   from a durable cursor (`webhooks:merchant-log-router`, the newest position a router reached, every event up to
//   it copied), and copies each merchant's events in that order: so a copy refused is one already made (by itself
//   before a crash, or by a router ahead of it). The copy is thus idempotent, and two routers at once only repeat
//   each other's work. (A consumer group shared by the replicas would hand them events out of order, and an event
//   handed to the slower one would be refused for good.)
// - A merchant's log is copied into only once it exists (the copy script checks it, in the merchant's slot): the
//   creation of its first endpoint makes it (redis-endpoints.ts), then places the endpoint's group at the shared
//   log's end read after that; every event logged later is therefore copied, and a merchant without endpoints
//   costs one check per batch of its events. A purge deletes the log (it is in the merchant's key index), and no
//   router makes it again.
// - Each copy trims what is older than the event log's retention (MINID), as an append to the shared log does; and
//   the holder trims the log of every merchant with endpoints at its first turn with the lease and every
//   TRIM_EVERY_MS after, so a merchant that logs nothing more keeps no event much past the retention either.
// - The groups a build before the merchants' logs left on the shared log are moved into the merchants' logs each
//   time a router takes the lease, before it reads its cursor (redis-upgrade.ts): the first router then starts where
//   the oldest of them still needs the shared log rather than at its end, so their events not yet read are copied.
// Every replica runs a router, but one copies at a time: the holder of a lease (`webhooks:merchant-log-router:lease`,
// a key with a time to live, renewed while it copies); the others try to take it every third of that time, so one
// takes over within about a lease's time of a holder that died without releasing it. The lease saves the work only
// (each router would otherwise read every event and try every copy): should two routers ever copy at once (a holder
// paused past its lease), the in-order cursor above keeps their copies right. The holder wakes its replica's endpoints
// as soon as a copy exists (`routed`); another replica's endpoints hear of the event from the bus, and read its copy
// on their next pass.
import { randomUUID } from 'node:crypto';
import { eventOfStreamEntry } from '../events/log.js';
import type { LoggedPaymentEvent } from '../events/payment-event.js';
import { ZERO_ID } from '../events/stream-id.js';
import type { Logger } from '../logger.js';
import type { GatewayRedis, RedisClient } from '../redis/index.js';
import type { StreamEntry } from './redis-context.js';
import { routerCursorKey } from './redis-keys.js';

const BATCH = 500;
/** How often the holder trims every merchant's log (a quiet merchant's log is trimmed by no copy). */
export const TRIM_EVERY_MS = 10 * 60_000;
/** Merchants' logs trimmed at once. */
const TRIM_BATCH = 100;

// KEYS: the merchant's log. ARGV: MINID, then per event its id, its `e` and its `g` fields. Copies the events into
// the log if it exists (else 0); an id the log already passed is one copied before (see above).
const COPY = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local copied = 0
for i = 2, #ARGV, 3 do
  local added = redis.pcall('XADD', KEYS[1], 'MINID', '~', ARGV[1], ARGV[i], 'e', ARGV[i + 1], 'g', ARGV[i + 2])
  if type(added) == 'table' and added.err then
    if not string.find(added.err, 'equal or smaller', 1, true) then return redis.error_reply(added.err) end
  else
    copied = copied + 1
  end
end
return copied`;

// KEYS: the lease. ARGV: this router's token, the lease's time to live (ms). Takes the lease when free, renews it when
// held by this router; 1 when this router holds it now.
const HOLD_LEASE = `
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

// KEYS: the lease. ARGV: this router's token. Lets the lease go if this router holds it.
const RELEASE_LEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

// KEYS: the cursor. ARGV: a position. Moves the cursor there unless it is already as far.
const ADVANCE = `
local current = redis.call('GET', KEYS[1])
if current then
  local cm, cs = string.match(current, '^(%d+)-(%d+)$')
  local nm, ns = string.match(ARGV[1], '^(%d+)-(%d+)$')
  cm, cs, nm, ns = tonumber(cm), tonumber(cs), tonumber(nm), tonumber(ns)
  if cm and (cm > nm or (cm == nm and cs >= ns)) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1])
return 1`;

/** What the router needs: Redis, the shared log, where each merchant's log is, and whom to tell of copies. */
export interface MerchantLogRouterOptions {
  redis: GatewayRedis;
  /** The shared event log's stream key. */
  logKey: string;
  /** A merchant's own log. */
  merchantLog(merchantId: string): string;
  /** The event log's retention: what a copy trims. */
  retentionMs: number;
  /**
   * Moves the groups of endpoints an earlier build left on the shared log into the merchants' logs (setting the
   * cursor where they need it, should there be none): run before the cursor is read (redis-upgrade.ts).
   */
  adoptEarlierGroups?: () => Promise<void>;
  /** The merchants whose logs the holder trims to the retention every `trimEveryMs` (those with endpoints). */
  merchantsWithLogs?: () => Promise<string[]>;
  /** Default TRIM_EVERY_MS. */
  trimEveryMs?: number;
  /** The events of merchants just copied (or found copied): their endpoints may read them now. */
  routed(events: LoggedPaymentEvent[]): void;
  log: Logger;
  /** Longest wait of one blocking read. Default 2000 ms. */
  blockMs?: number;
  /** Pause after a failed read or copy. Default 500 ms. */
  retryMs?: number;
  /** How long the lease lasts unrenewed: a router that stops without releasing it is replaced within about this. Default 5000 ms. */
  leaseMs?: number;
}

/** How long the router's lease lasts unrenewed, by default: a router that died is replaced within about this. */
export const ROUTER_LEASE_MS = 5_000;

/** A running router. */
export interface MerchantLogRouter {
  /** Whether this router holds the lease (it copies, and tells of its copies by `routed`). */
  holding(): boolean;
  /** Resolves once its last batch is copied and its lease let go. */
  stop(): Promise<void>;
}

/** Runs the router until `stop()`. */
export function startMerchantLogRouter(options: MerchantLogRouterOptions): MerchantLogRouter {
  const { redis, logKey } = options;
  const cursorKey = routerCursorKey(redis);
  const lease = routerLease(redis, options.leaseMs ?? ROUTER_LEASE_MS);
  const trimWhenDue = logTrimmer(options);
  // A blocking read never outlasts a renewal's turn.
  const blockMs = Math.min(options.blockMs ?? 2_000, lease.renewMs);
  const blocking: RedisClient = redis.blocking('webhooks-merchant-log-router');
  let running = true;
  let warned = false;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

  const copyBatch = async (entries: StreamEntry[]) => {
    const minId = String(Math.max(0, Date.now() - options.retentionMs));
    const byMerchant = new Map<string, StreamEntry[]>();
    const events: LoggedPaymentEvent[] = [];
    for (const entry of entries) {
      const event = eventOfStreamEntry(entry[0], entry[1]);
      if (!event?.merchantId) continue;
      events.push(event);
      byMerchant.set(event.merchantId, [...(byMerchant.get(event.merchantId) ?? []), entry]);
    }
    // In order within a merchant (one script), merchants side by side (their logs are in different slots).
    await Promise.all(
      [...byMerchant].map(([merchantId, mine]) => {
        const args = mine.flatMap(([id, fields]) => [id, fieldOf(fields, 'e'), fieldOf(fields, 'g')]);
        return redis.durable((p) => p.eval(COPY, 1, options.merchantLog(merchantId), minId, ...args));
      }),
    );
    if (events.length > 0) options.routed(events);
  };

  /**
   * Where the fleet's routers reached, once the groups an earlier build left on the shared log are moved (which set
   * the cursor where the oldest of them needs it). None yet (a first start with no such group): the shared log's
   * end, kept as the cursor at once (its older events are not copied: no merchant log exists yet to need them).
   */
  const startingPoint = async (): Promise<string> => {
    await options.adoptEarlierGroups?.();
    const saved = await redis.commands.get(cursorKey);
    if (saved) return saved;
    const [newest] = (await redis.commands.xrevrange(logKey, '+', '-', 'COUNT', 1)) as StreamEntry[];
    const end = newest?.[0] ?? ZERO_ID;
    await redis.commands.eval(ADVANCE, 1, cursorKey, end);
    return end;
  };

  const run = async () => {
    // Null while another router holds the lease: read again from the durable cursor once this one takes it.
    let position: string | null = null;
    while (running) {
      try {
        if (!(await lease.hold())) {
          position = null;
          await sleep(lease.renewMs);
          continue;
        }
        position ??= await startingPoint();
        await trimWhenDue();
        const read = blocking.xread('COUNT', BATCH, 'BLOCK', blockMs, 'STREAMS', logKey, position);
        const reply = (await halt.unlessStopped(read)) as Array<[string, StreamEntry[]]> | null;
        const entries = reply?.[0]?.[1] ?? [];
        if (entries.length === 0) continue;
        await copyBatch(entries);
        position = entries.at(-1)![0];
        await redis.commands.eval(ADVANCE, 1, cursorKey, position);
        if (warned) options.log.info('merchant event logs: copying resumed');
        warned = false;
      } catch (err) {
        if (!running) return;
        if (!warned) options.log.warn('merchant event logs: copying paused, retrying', { error: (err as Error).message });
        warned = true;
        lease.doubt();
        await sleep(options.retryMs ?? 500);
        // From the durable cursor again: Redis may have lost the logs (restarted empty), the cursor with them (the
        // new shared log is then copied from its start).
        if (position !== null) position = (await redis.commands.get(cursorKey).catch(() => position)) ?? ZERO_ID;
      }
    }
  };
  const halt = stopSignal();
  const done = run();
  return {
    holding: () => lease.holding(),
    async stop() {
      running = false;
      halt.stop();
      blocking.disconnect();
      await done;
      await lease.release();
    },
  };
}

/**
 * What stops the router's reads: a blocking read queued while its connection is reconnecting (Redis gone) is never
 * settled by ioredis once disconnect() ends that connection, and a stop that waited for it would wait forever.
 */
function stopSignal(): { stop(): void; unlessStopped<T>(read: Promise<T>): Promise<T | null> } {
  let stop = () => {};
  const stopped = new Promise<null>((resolve) => (stop = () => resolve(null)));
  return {
    stop,
    unlessStopped(read) {
      read.catch(() => {}); // lost to the stop, it must not reject unhandled later
      return Promise.race([read, stopped]);
    },
  };
}

/**
 * Trims every merchant's log to the retention, exactly (a copy's trim is approximate, and needs a copy), when last
 * done `trimEveryMs` ago or never; a failure is tried again next time (copying goes on meanwhile).
 */
function logTrimmer(options: MerchantLogRouterOptions): () => Promise<void> {
  let trimmedAt = 0;
  const trim = async () => {
    const minId = `${Math.max(0, Date.now() - options.retentionMs)}-0`;
    const merchants = (await options.merchantsWithLogs?.()) ?? [];
    for (let i = 0; i < merchants.length; i += TRIM_BATCH) {
      const batch = merchants.slice(i, i + TRIM_BATCH);
      await Promise.all(batch.map((merchantId) => options.redis.commands.xtrim(options.merchantLog(merchantId), 'MINID', minId)));
    }
  };
  return async () => {
    if (!options.merchantsWithLogs || Date.now() - trimmedAt < (options.trimEveryMs ?? TRIM_EVERY_MS)) return;
    trimmedAt = Date.now();
    await trim().catch((err: unknown) => options.log.warn('merchant event logs: trim failed', { error: (err as Error).message }));
  };
}

/** The routers' lease: one router copies at a time (see the head of this file). */
function routerLease(redis: GatewayRedis, leaseMs: number) {
  const key = redis.key('webhooks', 'merchant-log-router', 'lease');
  const token = randomUUID();
  // Renewed every third of the lease: two renewals may fail before it lapses.
  const renewMs = Math.floor(leaseMs / 3);
  let renewedAt = 0;
  return {
    renewMs,
    /** Whether this router holds the lease: taken or renewed once a third of it passed since the last time. */
    async hold(): Promise<boolean> {
      if (Date.now() - renewedAt < renewMs) return true;
      const held = Number(await redis.commands.eval(HOLD_LEASE, 1, key, token, leaseMs)) === 1;
      renewedAt = held ? Date.now() : 0;
      return held;
    },
    holding: () => renewedAt > 0 && Date.now() - renewedAt < leaseMs,
    /** Asked again before the next copy (a command failed: the lease may have lapsed). */
    doubt: () => void (renewedAt = 0),
    /** Lets the lease go: another replica's router takes over at once rather than when it runs out. */
    release: async () => {
      renewedAt = 0;
      await redis.commands.eval(RELEASE_LEASE, 1, key, token).catch(() => {});
    },
  };
}

/** A field of a stream entry ('' when absent). */
function fieldOf(fields: string[], name: string): string {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1]!;
  return '';
}
