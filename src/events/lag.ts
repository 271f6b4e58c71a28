// How far this replica's reading of the event log is behind the log's head: every
// replica delivers events from its own tail (src/events/tailer.ts), so a replica that
// lags delivers late, and one that lags past the retention loses events.
import type { EventLog } from './log.js';
import { compareStreamIds, parseStreamId, type StreamId } from './stream-id.js';

/** Entries are counted up to this many (a reader this far behind is alarming at any exact number). */
export const LAG_COUNT_LIMIT = 10_000;

/** How far the log's tail is behind its head: in events (at most LAG_COUNT_LIMIT) and in seconds. */
export interface LogLag {
  /** Events appended after the tail's position (at most LAG_COUNT_LIMIT). */
  entries: number;
  /** Time between the tail's position and the head (ids carry their append time in ms). */
  seconds: number;
}

/** Measures how far `tail` is behind the log's head; zero when it is at or past it. */
export async function logLag(log: Pick<EventLog, 'lastId' | 'ascending'>, tail: StreamId): Promise<LogLag> {
  const head = await log.lastId();
  if (compareStreamIds(head, tail) <= 0) return { entries: 0, seconds: 0 };
  const behind = await log.ascending(tail, LAG_COUNT_LIMIT);
  const [headMs] = parseStreamId(head) ?? [0];
  const [tailMs] = parseStreamId(tail) ?? [0];
  return { entries: behind.length, seconds: Math.max(0, headMs - tailMs) / 1000 };
}
