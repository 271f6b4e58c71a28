// The durable inbox: every accepted event is appended here BEFORE the webhook
// is answered 200, and every replica reads it back in order (src/events/tailer.ts).
//
// - With Redis: a Redis Stream. XADD trims by MINID what is older than the
//   retention (approximately, `~`, so Redis frees whole blocks at once).
//   Stream ids come from Redis's clock, so they keep increasing even when a
//   Redis restarted empty creates the stream again: a stream id alone cannot
//   tell an old log from a new one. Each entry therefore carries the log's
//   generation (`g`), chosen when the stream is created and copied from the
//   newest entry by every append (in the same script).
// - Without Redis: a bounded in-memory log of the same shape, lost on restart,
//   with a generation of its own.
import { randomBytes } from 'node:crypto';
import { durableWrite, type GatewayRedis, type RedisClient } from '../redis/index.js';
import type { Logger } from '../logger.js';
import type { LoggedPaymentEvent, PaymentEventRecord } from './payment-event.js';
import { ZERO_ID, compareStreamIds, parseStreamId, type StreamId } from './stream-id.js';
import { InternalError } from '../errors/internal-error.js';

/** How long the shared log keeps an event when the configuration does not say (72 hours): the furthest back a subscriber can resume. */
export const DEFAULT_EVENT_RETENTION_MS = 72 * 60 * 60 * 1000;
const DEFAULT_MEMORY_LOG_ENTRIES = 10_000;

/**
 * The append-only log of payment events: append once per delivery id, read ascending or by page; in Redis or in
 * memory.
 */
export interface EventLog {
  readonly mode: 'memory' | 'redis';
  /** Appends; resolves once the event is stored (rejects when Redis refuses it). */
  append(event: PaymentEventRecord): Promise<LoggedPaymentEvent>;
  /**
   * Appends unless `onceKey` was seen within `ttlMs`, in one atomic step: no moment exists where a
   * delivery is marked as seen but not logged (a crash or an outage there would lose it for good).
   */
  appendOnce(event: PaymentEventRecord, onceKey: string, ttlMs: number): Promise<AppendOnceResult>;
  /** Events after `from` (exclusive; null: from the oldest), oldest first. */
  ascending(from: StreamId | null, count: number): Promise<LoggedPaymentEvent[]>;
  /** Events before `from` (exclusive; null: from the newest), newest first. */
  descending(from: StreamId | null, count: number): Promise<LoggedPaymentEvent[]>;
  /** How many events the log holds. */
  length(): Promise<number>;
  /** The newest id ever appended (ZERO_ID when none). */
  lastId(): Promise<StreamId>;
  /** The log's current generation (null: the log does not exist, e.g. Redis lost it and nothing was appended since). */
  generation(): Promise<string | null>;
  /** The newest id removed by retention (ZERO_ID when none): a reader behind it has missed events. */
  trimmedThrough(): Promise<StreamId>;
  /** Waits (at most `blockMs`) for events after `from`; oldest first, possibly none. */
  waitAfter(from: StreamId, count: number, blockMs: number): Promise<LoggedPaymentEvent[]>;
  /** Releases waiters. The Redis connections belong to their owner. */
  close(): void;
}

/** Redis could not be read (down, failing over, a command timed out): the caller may retry in a moment. */
export class EventLogUnavailableError extends InternalError {
  override readonly name = 'EventLogUnavailableError';
  readonly code = 'EVENT_LOG_UNAVAILABLE';
}

/**
 * The event as logged, or a duplicate of a delivery id the log has already (a webhook the service sent again), with the first copy's id
 * when known.
 */
export type AppendOnceResult =
  | { duplicate: false; event: LoggedPaymentEvent }
  /** `seq`: the log id of the first copy, when known; `generation`: the log's. */
  | { duplicate: true; seq: StreamId | null; generation?: string | null };

interface MemoryEventLogOptions {
  retentionMs?: number;
  maxEntries?: number;
  now?: () => number;
  /** Keeps the log across restarts (the sandbox's data folder): state to start from, and a callback after each append. */
  persistence?: MemoryLogPersistence;
}

/** What a memory log needs to be the same log after a restart: its events and how far retention trimmed. */
export interface MemoryLogState {
  entries: LoggedPaymentEvent[];
  trimmed: StreamId;
}

/** Where an in-memory log saves its state to survive a restart (the state file), and what it starts from. */
export interface MemoryLogPersistence {
  initial: MemoryLogState | null;
  changed(state: MemoryLogState): void;
}

/**
 * An event log in this process's memory, for a single replica: keeps events `retentionMs` and at most `maxEntries`, appends each delivery
 * id once, and keeps ids increasing across a restart when persisted.
 */
export function memoryEventLog(options: MemoryEventLogOptions = {}): EventLog {
  const retentionMs = options.retentionMs ?? DEFAULT_EVENT_RETENTION_MS;
  const maxEntries = options.maxEntries ?? DEFAULT_MEMORY_LOG_ENTRIES;
  const now = options.now ?? Date.now;
  const entries: LoggedPaymentEvent[] = [...(options.persistence?.initial?.entries ?? [])];
  let trimmed: StreamId = options.persistence?.initial?.trimmed ?? ZERO_ID;
  // Ids keep increasing across a restart: the next one follows the newest kept (or trimmed) one.
  let last: [number, number] = (parseStreamId(entries.at(-1)?.seq ?? trimmed) as [number, number] | null) ?? [0, 0];
  const waiters = wakeList();
  const seen = onceKeys(maxEntries);
  const generation = newGeneration();

  const nextId = (): StreamId => {
    const ms = Math.max(now(), last[0]);
    last = ms === last[0] ? [ms, last[1] + 1] : [ms, 0];
    return `${last[0]}-${last[1]}`;
  };
  const trim = () => {
    const drop = countExpired(entries, now() - retentionMs, maxEntries);
    if (drop > 0) trimmed = entries.splice(0, drop).at(-1)!.seq;
  };
  const append = (event: PaymentEventRecord): LoggedPaymentEvent => {
    const logged = { ...event, seq: nextId(), generation };
    entries.push(logged);
    trim();
    options.persistence?.changed({ entries, trimmed });
    waiters.wakeAll();
    return logged;
  };

  return {
    mode: 'memory',
    async append(event) {
      return append(event);
    },
    async appendOnce(event, onceKey, ttlMs) {
      const t = now();
      const first = seen.firstSeq(onceKey, t);
      if (first !== null) return { duplicate: true, seq: first, generation };
      const logged = append(event);
      seen.remember(onceKey, logged.seq, t + ttlMs);
      return { duplicate: false, event: logged };
    },
    async ascending(from, count) {
      return entriesAfter(entries, from, count);
    },
    async descending(from, count) {
      return entriesBefore(entries, from, count);
    },
    async length() {
      return entries.length;
    },
    async lastId() {
      return last[0] === 0 && last[1] === 0 ? ZERO_ID : `${last[0]}-${last[1]}`;
    },
    async generation() {
      return generation;
    },
    async trimmedThrough() {
      return trimmed;
    },
    async waitAfter(from, count, blockMs) {
      const ready = entriesAfter(entries, from, count);
      if (ready.length > 0) return ready;
      await waiters.wait(blockMs);
      return entriesAfter(entries, from, count);
    },
    close() {
      waiters.wakeAll();
    },
  };
}

/** How many of the oldest entries retention removes: beyond `maxEntries`, or older than `cutoff` (ms). */
function countExpired(entries: LoggedPaymentEvent[], cutoff: number, maxEntries: number): number {
  let drop = 0;
  while (drop < entries.length && (entries.length - drop > maxEntries || parseStreamId(entries[drop]!.seq)![0] < cutoff)) drop += 1;
  return drop;
}

/** Up to `count` entries after `from` (exclusive; null: from the oldest), oldest first. */
function entriesAfter(entries: LoggedPaymentEvent[], from: StreamId | null, count: number): LoggedPaymentEvent[] {
  const start = from === null ? 0 : firstIndexWhere(entries, (seq) => compareStreamIds(seq, from) > 0);
  return entries.slice(start, start + count);
}

/** Up to `count` entries before `from` (exclusive; null: from the newest), newest first. */
function entriesBefore(entries: LoggedPaymentEvent[], from: StreamId | null, count: number): LoggedPaymentEvent[] {
  const stop = from === null ? entries.length : firstIndexWhere(entries, (seq) => compareStreamIds(seq, from) >= 0);
  return entries.slice(Math.max(0, stop - count), stop).reverse();
}

/**
 * The index of the first entry whose id passes `test` (entries.length when none does), by binary search: the log is
 * in id order and `test` false then true along it. Every reader asks this at each append; a scan made a log of a few
 * thousand events (a payout batch's) cost the process most of its CPU.
 */
function firstIndexWhere(entries: LoggedPaymentEvent[], test: (seq: StreamId) => boolean): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (test(entries[mid]!.seq)) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** The memory log's waitAfter callers: each waits until the next append (or close), at most its block time. */
function wakeList() {
  let waiting: Array<() => void> = [];
  return {
    wait(blockMs: number): Promise<void> {
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, blockMs);
        timer.unref();
        waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    wakeAll(): void {
      const woken = waiting;
      waiting = [];
      woken.forEach((w) => w());
    },
  };
}

/** The memory log's once-keys (appendOnce), each with the id of its first copy until it expires. */
function onceKeys(maxEntries: number) {
  // onceKey -> [seq, expiry]; insertion order is expiry order (one TTL per caller in practice).
  const seen = new Map<string, [StreamId, number]>();
  return {
    /** The first copy's id when `onceKey` is still remembered at time `t`, else null; sweeps expired keys first. */
    firstSeq(onceKey: string, t: number): StreamId | null {
      for (const [key, [, expiry]] of seen) {
        if (expiry > t && seen.size <= maxEntries * 10) break;
        seen.delete(key);
      }
      const first = seen.get(onceKey);
      return first && first[1] > t ? first[0] : null;
    },
    remember(onceKey: string, seq: StreamId, expiry: number): void {
      seen.delete(onceKey);
      seen.set(onceKey, [seq, expiry]);
    },
  };
}

interface RedisEventLogOptions {
  /** Fail-fast connection for XADD and reads. */
  commands: RedisClient;
  /** Connection of its own for XREAD BLOCK (a blocked connection can serve nothing else). */
  blocking: RedisClient;
  /** The stream's key. */
  key: string;
  /** How a webhook's append waits for replicas (GatewayRedis.durable); default: no wait. */
  durable?: GatewayRedis['durable'];
  retentionMs?: number;
  now?: () => number;
  logger?: Logger;
}

type StreamEntry = [id: string, fields: string[]];

/** A new log generation: short, random. */
export function newGeneration(): string {
  return randomBytes(6).toString('base64url');
}

// Lua: the generation of the stream KEYS[1] (the newest entry's `g`), or `fresh` when the stream is new or
// its newest entry has none (written before generations, or not by us): a log starts its generation there.
const GENERATION_LUA = `
local function generation(stream, fresh)
  local newest = redis.call('XREVRANGE', stream, '+', '-', 'COUNT', 1)[1]
  if not newest then return fresh end
  local fields = newest[2]
  for i = 1, #fields, 2 do
    if fields[i] == 'g' and fields[i + 1] ~= '' then return fields[i + 1] end
  end
  return fresh
end
`;

// KEYS: stream. ARGV: MINID, event JSON, fresh generation. Returns {id, generation}.
const APPEND = `${GENERATION_LUA}
local g = generation(KEYS[1], ARGV[3])
local id = redis.call('XADD', KEYS[1], 'MINID', '~', ARGV[1], '*', 'e', ARGV[2], 'g', g)
return {id, g}`;

// KEYS: stream, once-key. ARGV: MINID, event JSON, fresh generation, TTL ms.
// Returns {1, id, generation} when appended, {0, first id, generation} when seen.
// A duplicate rewrites its once-key unchanged: a write, so the WAIT after it also covers the first copy
// (written by another connection, perhaps not yet on the replicas) before the duplicate is answered 200.
const APPEND_ONCE = `${GENERATION_LUA}
local g = generation(KEYS[1], ARGV[3])
local seen = redis.call('GET', KEYS[2])
if seen then
  redis.call('SET', KEYS[2], seen, 'KEEPTTL')
  return {0, seen, g}
end
local id = redis.call('XADD', KEYS[1], 'MINID', '~', ARGV[1], '*', 'e', ARGV[2], 'g', g)
redis.call('SET', KEYS[2], id, 'PX', ARGV[4])
return {1, id, g}`;

/**
 * The event log in a Redis stream, shared by every replica: appends each delivery id once (atomically), trims what is older than
 * `retentionMs`, and reads with blocking calls on their own connection.
 */
export function redisEventLog(options: RedisEventLogOptions): EventLog {
  const { commands, blocking, key } = options;
  const durable = options.durable ?? ((write) => durableWrite(commands, write, 0, 0));
  const retentionMs = options.retentionMs ?? DEFAULT_EVENT_RETENTION_MS;
  const now = options.now ?? Date.now;

  const toEvent = ([id, fields]: StreamEntry): LoggedPaymentEvent | null => {
    const event = eventOfStreamEntry(id, fields);
    // Not ours (someone wrote to our key by hand): skipped, never thrown inside a reader.
    if (!event) options.logger?.warn('skipped a malformed event log entry', { seq: id });
    return event;
  };
  const toEvents = (entries: StreamEntry[]) => entries.map(toEvent).filter((e): e is LoggedPaymentEvent => e !== null);
  const info = () => streamInfo(commands, key);

  /** A read of the log whose failure is Redis's, told apart from a bug so a client hears "try again". */
  const read = async <T>(command: () => Promise<T>): Promise<T> => {
    try {
      return await command();
    } catch (err) {
      throw new EventLogUnavailableError('the event log could not be read', { cause: err });
    }
  };

  return {
    mode: 'redis',
    async append(event) {
      const minId = Math.max(0, now() - retentionMs);
      const [seq, generation] = (await commands.eval(APPEND, 1, key, String(minId), JSON.stringify(event), newGeneration())) as [
        string,
        string,
      ];
      return withGeneration({ ...event, seq }, generation);
    },
    async appendOnce(event, onceKey, ttlMs) {
      const minId = Math.max(0, now() - retentionMs);
      const [appended, id, generation] = (await durable((p) =>
        p.eval(APPEND_ONCE, 2, key, onceKey, String(minId), JSON.stringify(event), newGeneration(), String(ttlMs)),
      )) as [number, string, string];
      if (appended === 1) return { duplicate: false, event: withGeneration({ ...event, seq: id }, generation) };
      // A key set by an older gateway holds "1", not an id.
      return { duplicate: true, seq: parseStreamId(id) ? id : null, generation: generation || null };
    },
    async ascending(from, count) {
      return toEvents((await read(() => commands.xrange(key, from === null ? '-' : `(${from}`, '+', 'COUNT', count))) as StreamEntry[]);
    },
    async descending(from, count) {
      return toEvents((await read(() => commands.xrevrange(key, from === null ? '+' : `(${from}`, '-', 'COUNT', count))) as StreamEntry[]);
    },
    async length() {
      return read(() => commands.xlen(key));
    },
    async lastId() {
      return String((await read(info))?.get('last-generated-id') ?? ZERO_ID);
    },
    async generation() {
      const newest = (await read(() => commands.xrevrange(key, '+', '-', 'COUNT', 1))) as StreamEntry[];
      if (newest.length === 0) return null;
      const fields = newest[0]![1];
      const g = fields.indexOf('g');
      return g >= 0 ? (fields[g + 1] ?? '') : '';
    },
    async trimmedThrough() {
      // Redis ≥ 7.0 tracks it; older servers do not report it (then a too-old `after` is found by its age).
      return String((await read(info))?.get('max-deleted-entry-id') ?? ZERO_ID);
    },
    async waitAfter(from, count, blockMs) {
      const reply = (await blocking.xread('COUNT', count, 'BLOCK', blockMs, 'STREAMS', key, from)) as Array<[string, StreamEntry[]]> | null;
      return reply ? toEvents(reply[0]?.[1] ?? []) : [];
    },
    close() {},
  };
}

/** XINFO STREAM as a map; null when the stream does not exist (nothing appended yet, or Redis lost it). */
async function streamInfo(commands: RedisClient, key: string): Promise<Map<string, unknown> | null> {
  try {
    const flat = (await commands.xinfo('STREAM', key)) as unknown[];
    const map = new Map<string, unknown>();
    for (let i = 0; i + 1 < flat.length; i += 2) map.set(String(flat[i]), flat[i + 1]);
    return map;
  } catch (err) {
    if (/no such key/i.test((err as Error).message)) return null;
    throw err;
  }
}

/** One entry of the log's stream as its event; null when it is not one (also for the log's consumer groups, src/outbound-webhooks). */
export function eventOfStreamEntry(id: string, fields: string[]): LoggedPaymentEvent | null {
  const json = fields[fields.indexOf('e') + 1];
  const g = fields.indexOf('g');
  try {
    const event: LoggedPaymentEvent = { ...(JSON.parse(json ?? '') as PaymentEventRecord), seq: id };
    if (g >= 0 && fields[g + 1]) event.generation = fields[g + 1];
    return event;
  } catch {
    return null;
  }
}

function withGeneration(event: LoggedPaymentEvent, generation: string): LoggedPaymentEvent {
  return generation ? { ...event, generation } : event;
}
