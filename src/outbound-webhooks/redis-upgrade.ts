// Platform mode, the upgrade from a build before the merchants' logs: such a build kept each endpoint's consumer
// group on the shared event log (`webhooks:<endpoint id>` on `events:log`), and acknowledged an event there only
// after the script that saved its delivery. Moving the groups into the merchants' logs loses nothing and sends
// nothing twice:
// - The merchant-log router's cursor is set first, where the oldest of those groups still needs the shared log (its
//   oldest event in flight, else the last event it read; never older than the log's retention), unless a router
//   set one already: the router then copies into the merchants' logs every event the groups had not read.
// - Each group is made again in its merchant's log at the old group's place (it reads the copies after it), in one
//   script with its events in flight. Those the old build never settled (no delivery record: read and never
//   attempted, or attempted and cut short) become deliveries due now in the endpoint's retry set. One whose record
//   says it succeeded (saved, then a crash came before the acknowledgement) is not sent again; one waiting for its
//   retry is left to that retry; one given up on (FAILED: only a replay reads such an event again) is queued again,
//   as a redelivery would.
// - The old group is removed only once the new one exists.
// Any step may run again after a crash between two of them: the cursor is set only where none is, a group already in
// the merchant's log is left as it is (its events in flight were queued with it, in its script), and a delivery
// record changed since it was read is never replaced. The router runs it each time it takes its lease, before it
// reads its cursor, and an endpoint's read that finds no group runs it first (redis-context.ts), whichever comes
// first; once the shared log holds no endpoint's group, it costs one XINFO GROUPS.
//
// A replica of the earlier build still running would make a removed group again from the shared log's start (its
// reaction to a group lost with Redis): every replica of it stops before the first of this build starts.
import { eventOfStreamEntry } from '../events/log.js';
import { compareStreamIds, encodeEventId, justBefore, ZERO_ID, type StreamId } from '../events/stream-id.js';
import { merchantOfEndpoint, newDeliveryRecord, redeliveryOf, takesEvent, type DeliveryRecord, type StoredEndpoint } from './model.js';
import type { GroupMover, StreamEntry } from './redis-context.js';
import { endpointOf } from './redis-endpoints.js';
import { groupOf, routerCursorKey, toMap } from './redis-keys.js';

/** Entries of a pending list read at once. */
const PENDING_PAGE = 500;

// KEYS: the merchant's log, the endpoint, its deliveries, its retry set, its recent list. ARGV: the group, its place,
// then per delivery owed: its id, the record it replaces ('' for none), the record, its due time. 'gone' (no
// endpoint: nothing made), 'there' (the group was made before: nothing more), or 'moved'.
const MOVE = `
if redis.call('EXISTS', KEYS[2]) == 0 then return 'gone' end
local made = redis.pcall('XGROUP', 'CREATE', KEYS[1], ARGV[1], ARGV[2], 'MKSTREAM')
if type(made) == 'table' and made.err then
  if string.find(made.err, 'BUSYGROUP', 1, true) then return 'there' end
  return redis.error_reply(made.err)
end
for i = 3, #ARGV, 4 do
  if (redis.call('HGET', KEYS[3], ARGV[i]) or '') == ARGV[i + 1] then
    redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 2])
    redis.call('ZADD', KEYS[4], ARGV[i + 3], ARGV[i])
    redis.call('ZREM', KEYS[5], ARGV[i])
  end
end
return 'moved'`;

/** An endpoint's group an earlier build left on the shared log. */
interface EarlierGroup {
  name: string;
  endpointId: string;
  merchantId: string;
  /** The last event it read. */
  lastRead: StreamId;
  /** Its events in flight within the retention, oldest first. */
  inFlight: StreamId[];
}

/**
 * Moves every endpoint's group an earlier build left on the shared log into its merchant's log (see above); resolves
 * once none is left. Calls while one runs share it.
 */
export const earlierGroupsMover: GroupMover = ({ redis, k, retentionMs }) => {
  const c = redis.commands;
  let running: Promise<void> | null = null;

  const namesOnSharedLog = async (): Promise<Array<Map<string, unknown>>> => {
    try {
      return ((await c.xinfo('GROUPS', k.sharedLog)) as unknown[][]).map(toMap);
    } catch (err) {
      if (/no such key/i.test((err as Error).message)) return [];
      throw err;
    }
  };

  const inFlightOf = async (name: string, floor: StreamId): Promise<StreamId[]> => {
    const ids: StreamId[] = [];
    for (let from = '-'; ;) {
      const page = (await c.xpending(k.sharedLog, name, from, '+', PENDING_PAGE)) as Array<[string, ...unknown[]]>;
      ids.push(...page.map(([id]) => id));
      if (page.length < PENDING_PAGE) return ids.filter((id) => compareStreamIds(id, floor) > 0);
      from = `(${page.at(-1)![0]}`;
    }
  };

  const earlierGroups = async (floor: StreamId): Promise<EarlierGroup[]> => {
    const found: EarlierGroup[] = [];
    for (const group of await namesOnSharedLog()) {
      const name = String(group.get('name'));
      const endpointId = name.slice(name.indexOf(':') + 1);
      const merchantId = merchantOfEndpoint(endpointId);
      if (!merchantId || groupOf(endpointId) !== name) continue;
      const lastRead = String(group.get('last-delivered-id') ?? ZERO_ID);
      found.push({ name, endpointId, merchantId, lastRead, inFlight: await inFlightOf(name, floor) });
    }
    return found;
  };

  /** The deliveries the group's events in flight still owe, each with the record it replaces ('' for none). */
  const owedBy = async (endpoint: StoredEndpoint, inFlight: StreamId[], now: number): Promise<Array<[string, DeliveryRecord]>> => {
    const entries = (await Promise.all(inFlight.map((id) => c.xrange(k.sharedLog, id, id)))).flat() as StreamEntry[];
    const fresh = entries
      .map(([id, fields]) => eventOfStreamEntry(id, fields))
      .filter((event) => event !== null && takesEvent(endpoint, event))
      .map((event) => newDeliveryRecord(endpoint.id, event!, encodeEventId(event!.seq, event!.generation), now));
    if (fresh.length === 0) return [];
    const stored = await c.hmget(k.deliveries(endpoint.id), ...fresh.map((record) => record.id));
    return fresh.flatMap((record, i): Array<[string, DeliveryRecord]> => {
      const json = stored[i];
      if (!json) return [['', record]];
      const existing = JSON.parse(json) as DeliveryRecord;
      return existing.status === 'FAILED' ? [[json, redeliveryOf(existing, now)]] : [];
    });
  };

  const move = async (group: EarlierGroup, now: number): Promise<void> => {
    const id = group.endpointId;
    const endpoint = endpointOf(await c.hgetall(k.endpoint(id)));
    if (endpoint) {
      // In the merchant's index before it is written (an earlier build's endpoint did not list the log).
      await k.merchantKeys!.own(group.merchantId, [k.log(id)]);
      const owed = await owedBy(endpoint, group.inFlight, now);
      const args = owed.flatMap(([expected, record]) => [record.id, expected, JSON.stringify(record), String(record.nextAttemptAt)]);
      const keys = [k.log(id), k.endpoint(id), k.deliveries(id), k.retry(id), k.recent(id)];
      await redis.durable((p) => p.eval(MOVE, keys.length, ...keys, group.name, group.lastRead, ...args));
    }
    // Only now that the new group exists (or that no endpoint is left to read it).
    await c.xgroup('DESTROY', k.sharedLog, group.name);
  };

  const run = async () => {
    const now = Date.now();
    const floor = retentionMs === null ? ZERO_ID : `${Math.max(0, now - retentionMs)}-0`;
    const groups = await earlierGroups(floor);
    if (groups.length === 0) return;
    const needs = groups.map((g) => (g.inFlight[0] ? earliest(g.lastRead, justBefore(g.inFlight[0])) : g.lastRead));
    const start = needs.reduce(earliest);
    await redis.durable((p) => p.set(routerCursorKey(redis), compareStreamIds(start, floor) < 0 ? floor : start, 'NX'));
    for (const group of groups) await move(group, now);
  };

  return () => (running ??= run().finally(() => (running = null)));
};

const earliest = (a: StreamId, b: StreamId): StreamId => (compareStreamIds(a, b) <= 0 ? a : b);
