// Reads of the event log "after an id" never include that id. A read that did would make every reader
// that starts from the last id it saw (the bus's replay, the tailer) read that id again forever, and the
// in-memory tailer would spin without yielding: a hang, not a failure. This file starts no bus (hence no
// tailer) and bounds every read, so such a bug fails here by assertion.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryEventLog, redisEventLog, type EventLog } from '../../src/events/log.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace, logRecord } from './redis-helpers.js';

const namespace = uniqueNamespace('log-reads');
afterAll(async () => {
  const observer = new Redis(REDIS_URL);
  await deleteByPrefix(observer, namespace);
  await observer.quit();
});

const record = logRecord;

describe.each([
  ['in memory', false],
  ['on Redis', true],
])('reads after an id, %s', (_name, onRedis) => {
  async function openLog(): Promise<{ log: EventLog; close(): Promise<void> }> {
    if (!onRedis) return { log: memoryEventLog(), close: async () => {} };
    const commands = new Redis(REDIS_URL);
    const blocking = new Redis(REDIS_URL);
    const log = redisEventLog({ commands, blocking, key: `${namespace}:stream` });
    return { log, close: async () => void (await Promise.all([commands.quit(), blocking.quit()])) };
  }

  it('exclude that id: ascending, descending and waitAfter', async () => {
    const { log, close } = await openLog();
    try {
      const [a, b, c] = [await log.append(record('x-a')), await log.append(record('x-b')), await log.append(record('x-c'))];
      expect((await log.ascending(a.seq, 10)).map((e) => e.id)).toEqual(['x-b', 'x-c']);
      expect(await log.ascending(c.seq, 10)).toEqual([]);
      expect((await log.descending(c.seq, 10)).map((e) => e.id)).toEqual(['x-b', 'x-a']);
      expect(await log.descending(a.seq, 10)).toEqual([]);
      expect((await log.waitAfter(b.seq, 10, 1)).map((e) => e.id)).toEqual(['x-c']);
      // Nothing after the newest id: the wait ends empty (after 1 ms), it does not hand the newest back.
      expect(await log.waitAfter(c.seq, 10, 1)).toEqual([]);
    } finally {
      await close();
    }
  });
});
