// Positions in the event log. Redis Stream ids ("<ms>-<seq>") order the log;
// the in-memory log makes ids of the same shape, so both compare alike.
// Clients see them only wrapped (`evt_…`, see encodeEventId): opaque, so the
// gateway may change how it numbers events without breaking stored ids.

/** A position in the log, `<ms>-<n>` (a Redis Stream id). */
export type StreamId = string;

/** The id before every event of a log: reading after it reads all. */
export const ZERO_ID: StreamId = '0-0';

const STREAM_ID = /^(\d{1,16})-(\d{1,16})$/;

/** The two integers of a stream id, or null when it is not one. */
export function parseStreamId(id: string): [number, number] | null {
  const match = STREAM_ID.exec(id);
  if (!match) return null;
  const ms = Number(match[1]);
  const seq = Number(match[2]);
  return Number.isSafeInteger(ms) && Number.isSafeInteger(seq) ? [ms, seq] : null;
}

/** The id just before `id` (`0-0` for itself), so that an exclusive read from it includes `id` itself. */
export function justBefore(id: StreamId): StreamId {
  const [ms, seq] = parseStreamId(id) ?? [0, 0];
  return seq > 0 ? `${ms}-${seq - 1}` : ms > 0 ? `${ms - 1}-${Number.MAX_SAFE_INTEGER}` : ZERO_ID;
}

/** Negative when a is before b, 0 when equal, positive when after. Both must be valid ids. */
export function compareStreamIds(a: StreamId, b: StreamId): number {
  const [am, as] = parseStreamId(a) ?? [0, 0];
  const [bm, bs] = parseStreamId(b) ?? [0, 0];
  return am !== bm ? am - bm : as - bs;
}

const EVENT_ID_PREFIX = 'evt_';

/** The id clients see for the event at `id` in the log of that generation (`<ms>-<seq>.<generation>`, wrapped). */
export function encodeEventId(id: StreamId, generation?: string | null): string {
  return EVENT_ID_PREFIX + Buffer.from(generation ? `${id}.${generation}` : id, 'utf8').toString('base64url');
}

/** A client-held event id: its log position and the generation of the log it came from (null: an id from before generations). */
export interface EventCursor {
  seq: StreamId;
  generation: string | null;
}

/** The log position and generation of a client-held event id, or null when it is not one this gateway issued. */
export function decodeEventCursor(eventId: string): EventCursor | null {
  if (!eventId.startsWith(EVENT_ID_PREFIX)) return null;
  const text = Buffer.from(eventId.slice(EVENT_ID_PREFIX.length), 'base64url').toString('utf8');
  const dot = text.indexOf('.');
  const seq = dot < 0 ? text : text.slice(0, dot);
  const generation = dot < 0 ? null : text.slice(dot + 1);
  if (!parseStreamId(seq) || generation === '' || (generation !== null && !/^[\w-]{1,64}$/.test(generation))) return null;
  return { seq, generation };
}

/** The log position of a client-held event id, or null when it is not one this gateway issued. */
export function decodeEventId(eventId: string): StreamId | null {
  return decodeEventCursor(eventId)?.seq ?? null;
}
