// Each endpoint's place in the log it reads (the Redis store of outbound webhooks; redis-store.ts describes the
// keys): its consumer group there, the events it reads and holds in flight, how far behind it is, and a replay's
// move back. The log is the shared one in single mode, its merchant's own in platform mode.
import { compareStreamIds, decodeEventId, justBefore, parseStreamId } from '../events/stream-id.js';
import type { RedisContext, StreamEntry } from './redis-context.js';
import { groupOf, toMap } from './redis-keys.js';
import type { OutboundStore } from './store.js';

type PlaceMethods = 'readNew' | 'claimStale' | 'release' | 'waiting' | 'eventsAfter' | 'rewind';

/** The endpoints' places in their logs. */
export function redisPlaces({ c, k, events, withGroup, placeGroup }: RedisContext): Pick<OutboundStore, PlaceMethods> {
  return {
    async readNew(id, consumer, count) {
      const reply = (await withGroup(id, () =>
        c.xreadgroup('GROUP', groupOf(id), consumer, 'COUNT', count, 'STREAMS', k.log(id), '>'),
      )) as Array<[string, StreamEntry[]]> | null;
      return events(reply?.[0]?.[1] ?? []);
    },
    async claimStale(id, consumer, minIdleMs, count) {
      const reply = (await withGroup(id, () => c.xautoclaim(k.log(id), groupOf(id), consumer, minIdleMs, '0-0', 'COUNT', count))) as [
        string,
        StreamEntry[],
      ];
      return events(reply[1] ?? []);
    },
    async release(id, seqs) {
      if (seqs.length > 0) await c.xack(k.log(id), groupOf(id), ...seqs);
    },
    async waiting(endpointId) {
      const [retryIds, pending] = await Promise.all([
        c.zrange(k.retry(endpointId), 0, -1),
        withGroup(endpointId, () => c.xpending(k.log(endpointId), groupOf(endpointId))) as Promise<
          [number, string | null, string | null, unknown]
        >,
      ]);
      const times = retryIds.map((d) => parseStreamId(decodeEventId(d.slice(d.indexOf('.') + 1)) ?? '')?.[0] ?? Infinity);
      if (pending[1]) times.push(parseStreamId(pending[1])?.[0] ?? Infinity);
      const oldest = Math.min(...times);
      return { retrying: retryIds.length, inFlight: Number(pending[0]), oldestMs: Number.isFinite(oldest) ? oldest : null };
    },
    async eventsAfter(id, after, count) {
      return events((await c.xrange(k.log(id), after === null ? '-' : `(${after}`, '+', 'COUNT', count)) as StreamEntry[]);
    },
    async rewind(id, seq) {
      const groups = (await c.xinfo('GROUPS', k.log(id))) as unknown[][];
      const mine = groups.map(toMap).find((g) => g.get('name') === groupOf(id));
      const current = String(mine?.get('last-delivered-id') ?? '0-0');
      const before = justBefore(seq);
      const target = compareStreamIds(current, before) < 0 ? current : before;
      await placeGroup(id, target, false);
    },
  };
}
