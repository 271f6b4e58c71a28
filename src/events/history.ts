// Pages of the event log, newest first, for the `events` query. Positions are
// log ids, not offsets: events keep arriving at the head of the list, and an
// offset would shift under a client paging through it; an id never does.
import type { EventLog } from './log.js';
import type { LoggedPaymentEvent } from './payment-event.js';
import { compareStreamIds, justBefore, parseStreamId, type StreamId } from './stream-id.js';

/** What the `events` history keeps: kinds, one reference, and a time window (inclusive). */
export interface EventFilter {
  kinds?: readonly string[] | null;
  reference?: string | null;
  /** Received at or after (epoch ms). */
  since?: number | null;
  /** Received at or before (epoch ms). */
  until?: number | null;
  /** Platform mode: only this merchant's events (those its webhook route received); absent: every event. */
  merchantId?: string | null;
  /** Only events of no merchant: the platform's own (`merchant.*`), which no merchant's webhook route can log. */
  ofNoMerchant?: boolean;
}

interface EventPageRequest {
  first: number | null;
  last: number | null;
  /** Items after this one in the list: older events. */
  after: StreamId | null;
  /** Items before this one in the list: newer events. */
  before: StreamId | null;
}

interface EventPage {
  /** Newest first. */
  items: LoggedPaymentEvent[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  totalCount: number;
}

const BATCH = 200;

function matchesFilter(event: LoggedPaymentEvent, filter: EventFilter): boolean {
  if (filter.merchantId != null && event.merchantId !== filter.merchantId) return false;
  if (filter.ofNoMerchant && event.merchantId) return false;
  if (filter.kinds && filter.kinds.length > 0 && !filter.kinds.includes(event.kind)) return false;
  if (filter.reference && event.reference !== filter.reference) return false;
  if (filter.since != null || filter.until != null) {
    const at = Date.parse(event.receivedAt);
    if (filter.since != null && at < filter.since) return false;
    if (filter.until != null && at > filter.until) return false;
  }
  return true;
}

/** Matching events going `older` (descending) or `newer` (ascending) from `from` (exclusive; null: the end). */
async function* scan(log: EventLog, direction: 'older' | 'newer', from: StreamId | null, filter: EventFilter) {
  let position = from;
  for (;;) {
    const batch = direction === 'older' ? await log.descending(position, BATCH) : await log.ascending(position, BATCH);
    for (const event of batch) if (matchesFilter(event, filter)) yield event;
    if (batch.length < BATCH) return;
    position = batch.at(-1)!.seq;
  }
}

async function collect(
  log: EventLog,
  direction: 'older' | 'newer',
  from: StreamId | null,
  bound: StreamId | null,
  filter: EventFilter,
  count: number,
): Promise<LoggedPaymentEvent[]> {
  const out: LoggedPaymentEvent[] = [];
  if (count <= 0) return out;
  for await (const event of scan(log, direction, from, filter)) {
    const beyond =
      bound !== null && (direction === 'older' ? compareStreamIds(event.seq, bound) <= 0 : compareStreamIds(event.seq, bound) >= 0);
    if (beyond) break;
    out.push(event);
    if (out.length >= count) break;
  }
  return out;
}

/** The id just after `id`. */
function justAfter(id: StreamId): StreamId {
  const [ms, seq] = parseStreamId(id)!;
  return `${ms}-${seq + 1}`;
}

/**
 * One Relay page of the log, newest first, with cursors bound to the filter; throws EVENT_CURSOR_EXPIRED for a
 * cursor of a log that was lost.
 */
export async function pageEvents(log: EventLog, request: EventPageRequest, filter: EventFilter): Promise<EventPage> {
  const { after, before } = request;
  let items: LoggedPaymentEvent[];
  let hasNextPage: boolean;
  let hasPreviousPage: boolean;
  if (request.last != null) {
    // The `last` items of the window: the oldest ones, found going up from its lower end.
    const found = await collect(log, 'newer', before, after, filter, request.last + 1);
    hasPreviousPage = found.length > request.last;
    const window = found.slice(0, request.last);
    items = window.reverse();
    const oldest = items.at(-1)?.seq ?? (before ? justAfter(before) : null);
    hasNextPage = oldest !== null && (await collect(log, 'older', oldest, null, filter, 1)).length > 0;
  } else {
    const first = request.first ?? 20;
    const found = await collect(log, 'older', after, before, filter, first + 1);
    hasNextPage = found.length > first;
    items = found.slice(0, first);
    const newest = items[0]?.seq ?? (after ? justBefore(after) : null);
    hasPreviousPage = newest !== null && (await collect(log, 'newer', newest, null, filter, 1)).length > 0;
  }
  return { items, hasNextPage, hasPreviousPage, totalCount: await countEvents(log, filter) };
}

async function countEvents(log: EventLog, filter: EventFilter): Promise<number> {
  const unfiltered =
    !(filter.kinds && filter.kinds.length > 0) &&
    !filter.reference &&
    filter.since == null &&
    filter.until == null &&
    filter.merchantId == null;
  if (unfiltered) return log.length();
  let count = 0;
  for await (const _event of scan(log, 'older', null, filter)) count += 1;
  return count;
}
