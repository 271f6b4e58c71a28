// The event log under the bus: ids that order events, atomic "append once"
// per delivery (in memory and on the real Redis, across replicas), retention
// that makes a too-old `after` a clear refusal, and a replay that hands over
// to live events without a gap or a repeat while appends keep coming.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createEventBus, ResumeTooOldError, type EventBus } from '../../src/events/bus.js';
import { memoryEventLog } from '../../src/events/log.js';
import { compareStreamIds, decodeEventCursor, decodeEventId, encodeEventId } from '../../src/events/stream-id.js';
import { connectRedis, type GatewayRedis } from '../../src/redis/index.js';
import { EventLogGapError, startTailer } from '../../src/events/tailer.js';
import { createLogger } from '../../src/logger.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace, logRecord } from './redis-helpers.js';

const record = logRecord;

const namespace = uniqueNamespace('log');
const opened: Array<{ bus: EventBus; redis: GatewayRedis | null }> = [];
async function bus(redis: boolean, options: Parameters<typeof createEventBus>[0] = {}) {
  const connection = redis ? await connectRedis({ url: REDIS_URL, namespace }) : null;
  const created = await createEventBus({ ...options, redis: connection });
  opened.push({ bus: created, redis: connection });
  return created;
}
afterAll(async () => {
  for (const { bus, redis } of opened) {
    await bus.close();
    await redis?.close();
  }
  const observer = new Redis(REDIS_URL);
  await deleteByPrefix(observer, namespace);
  await observer.quit();
});

describe.each([
  ['in memory', false],
  ['on Redis', true],
])('the event log %s', (_name, redis) => {
  it('gives each event an id that orders it; the opaque form round-trips', async () => {
    const events = await bus(redis);
    const seqs: string[] = [];
    for (let i = 0; i < 20; i++) seqs.push((await events.publishPaymentEvent(record(`order-${i}`))).seq);
    for (let i = 1; i < seqs.length; i++) expect(compareStreamIds(seqs[i]!, seqs[i - 1]!)).toBeGreaterThan(0);
    const opaque = encodeEventId(seqs[0]!);
    expect(opaque).toMatch(/^evt_[A-Za-z0-9_-]+$/);
    expect(decodeEventId(opaque)).toBe(seqs[0]);
    expect(decodeEventId('evt_bm90IGFuIGlk')).toBeNull();
    const withGeneration = encodeEventId(seqs[0]!, 'g3n-1');
    expect(decodeEventCursor(withGeneration)).toEqual({ seq: seqs[0], generation: 'g3n-1' });
    expect(decodeEventCursor(opaque)).toEqual({ seq: seqs[0], generation: null });
  });

  it('appends a delivery once however many copies arrive at once, on however many replicas', async () => {
    const replicas = [await bus(redis), ...(redis ? [await bus(true)] : [])];
    const delivery = record(`once-${Date.now()}`);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => replicas[i % replicas.length]!.publishPaymentEventOnce(delivery, 60_000)),
    );
    const appended = results.filter((r) => !r.duplicate);
    expect(appended).toHaveLength(1);
    const { seq, generation } = (appended[0] as { event: { seq: string; generation: string } }).event;
    for (const r of results.filter((x) => x.duplicate)) expect(r).toEqual({ duplicate: true, seq, generation });
  });

  it('replays after an id, then continues live: appends during the replay arrive once each, in order', async () => {
    const events = await bus(redis);
    const first = await events.publishPaymentEvent(record('replay-0'));
    for (let i = 1; i < 300; i++) await events.publishPaymentEvent(record(`replay-${i}`));
    const stream = events.subscribePaymentEvents({ after: first.seq });
    const got: string[] = [];
    const reading = (async () => {
      for await (const event of stream) {
        got.push(event.id);
        if (got.length === 399) return;
      }
    })();
    for (let i = 300; i < 400; i++) await events.publishPaymentEvent(record(`replay-${i}`));
    await reading;
    expect(got).toEqual(Array.from({ length: 399 }, (_, i) => `replay-${i + 1}`));
  });
});

// The one "already seen" of webhook deliveries (the receiver's acceptIntoLog): what the deleted
// webhooks/dedupe.ts tests asked of their de-duplicator, asked of the log's own append-once.
describe('append once', () => {
  it('in memory: a re-send within the TTL is a duplicate naming the first copy, one after it is a new event', async () => {
    let now = 1_000_000;
    const log = memoryEventLog({ now: () => now });
    const first = await log.appendOnce(record('resent'), 'resent', 1_000);
    expect(first.duplicate).toBe(false);
    const { seq, generation } = (first as { event: { seq: string; generation: string } }).event;
    now += 999;
    expect(await log.appendOnce(record('resent'), 'resent', 1_000)).toEqual({ duplicate: true, seq, generation });
    // Another delivery is not held up by it.
    expect((await log.appendOnce(record('other'), 'other', 1_000)).duplicate).toBe(false);
    now += 1;
    expect((await log.appendOnce(record('resent'), 'resent', 1_000)).duplicate).toBe(false);
    expect((await log.ascending(null, 10)).map((e) => e.id)).toEqual(['resent', 'other', 'resent']);
  });

  it('on Redis: the seen mark is kept under the namespace for the TTL it was given (no wait: its PTTL says so)', async () => {
    const events = await bus(true);
    const observer = new Redis(REDIS_URL);
    try {
      const id = `ttl-${Date.now()}`;
      expect((await events.publishPaymentEventOnce(record(id), 60_000)).duplicate).toBe(false);
      const ttl = await observer.pttl(`${namespace}:webhook-delivery:${id}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      expect((await events.publishPaymentEventOnce(record(id), 60_000)).duplicate).toBe(true);
    } finally {
      await observer.quit();
    }
  });
});

describe('retention', () => {
  it('an `after` whose followers were trimmed away is refused; one still followed by everything is accepted', async () => {
    const events = await bus(false, { memoryLogEntries: 5 });
    const seqs: string[] = [];
    let generation: string | undefined;
    for (let i = 0; i < 8; i++) {
      const event = await events.publishPaymentEvent(record(`keep-${i}`));
      seqs.push(event.seq);
      generation = event.generation;
    }
    expect(await events.log.length()).toBe(5);
    expect(await events.log.trimmedThrough()).toBe(seqs[2]);
    await expect(events.checkResumable(seqs[1]!, generation)).rejects.toBeInstanceOf(ResumeTooOldError);
    await expect(events.checkResumable(seqs[2]!, generation)).resolves.toBeUndefined();
    // An id the log never reached: refused too.
    await expect(events.checkResumable(`${Date.now() + 60_000}-0`, generation)).rejects.toBeInstanceOf(ResumeTooOldError);
    // An id of another log (one lost with its Redis, a previous process), or from before generations: refused,
    // although the log holds ids after it.
    await expect(events.checkResumable(seqs[2]!, 'another')).rejects.toBeInstanceOf(ResumeTooOldError);
    await expect(events.checkResumable(seqs[2]!, null)).rejects.toBeInstanceOf(ResumeTooOldError);
  });

  it('the in-memory log also drops what is older than the retention', async () => {
    let now = 1_000_000;
    const log = memoryEventLog({ retentionMs: 1_000, now: () => now });
    await log.append(record('old'));
    now += 2_000;
    const fresh = await log.append(record('fresh'));
    expect((await log.ascending(null, 10)).map((e) => e.id)).toEqual(['fresh']);
    expect(compareStreamIds(await log.trimmedThrough(), fresh.seq)).toBeLessThan(0);
  });
});

describe('a reader that fell behind the retention', () => {
  it('tells its listeners that events were lost, instead of going on as if complete', async () => {
    const inner = memoryEventLog();
    await inner.append(record('before'));
    let failures = 1;
    let trimmed = '0-0';
    // A log whose first read fails (an outage) and which, meanwhile, trimmed past the reader.
    const log = {
      ...inner,
      async waitAfter(from: string, count: number, blockMs: number) {
        if (failures-- > 0) {
          const later = await inner.append(record('trimmed-while-away'));
          trimmed = later.seq;
          throw new Error('connection lost');
        }
        return inner.waitAfter(from, count, blockMs);
      },
      trimmedThrough: async () => trimmed,
    };
    const lines: string[] = [];
    const tailer = await startTailer({ log, logger: createLogger('debug', { write: (l) => lines.push(l) }), retryMs: 1, blockMs: 50 });
    const gap = new Promise<Error>((resolve) => tailer.listen({ onEvent: () => {}, onGap: resolve }));
    expect(await gap).toBeInstanceOf(EventLogGapError);
    expect(lines.some((l) => l.includes('events were lost'))).toBe(true);
    await tailer.stop();
  });
});

describe('the in-memory log read after or before any id', () => {
  it('answers every id (present, trimmed, between two, beyond the newest) as a scan of the log would', async () => {
    let t = 1_000;
    // Several events per millisecond and gaps between milliseconds: ids such as 1000-0, 1000-1, 1003-0.
    const log = memoryEventLog({ now: () => t, maxEntries: 40 });
    for (let i = 0; i < 60; i++) {
      if (i % 3 === 0) t += 1 + (i % 4);
      await log.append(record(`ref-${i}`));
    }
    const all = await log.ascending(null, 1_000);
    expect(all).toHaveLength(40);
    const seqs = all.map((e) => e.seq);
    const probes = new Set<string>(['0-0', seqs[0]!, seqs.at(-1)!, `${t + 10}-0`]);
    for (const seq of seqs) {
      const [ms, n] = seq.split('-').map(Number) as [number, number];
      for (const probe of [seq, `${ms}-${n + 1}`, `${ms - 1}-99`, `${ms + 1}-0`]) probes.add(probe);
    }
    for (const from of probes) {
      const after = seqs.filter((s) => compareStreamIds(s, from) > 0);
      const before = seqs.filter((s) => compareStreamIds(s, from) < 0).reverse();
      expect(
        (await log.ascending(from, 5)).map((e) => e.seq),
        `after ${from}`,
      ).toEqual(after.slice(0, 5));
      expect(
        (await log.descending(from, 5)).map((e) => e.seq),
        `before ${from}`,
      ).toEqual(before.slice(0, 5));
    }
    expect((await log.descending(null, 3)).map((e) => e.seq)).toEqual(seqs.slice(-3).reverse());
  });
});
