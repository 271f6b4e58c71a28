// Relay cursor pagination over offset-addressed lists. A cursor is the
// position of an item in one particular list (the charges matching one filter,
// or all transfers...), so it carries a fingerprint of that list's scope: a
// cursor used with another filter is refused with a clear error instead of
// silently landing on the wrong page.
import { createHash } from 'node:crypto';
import { topLevelError } from '../errors/top-level.js';

/** The most items a connection returns at once; a larger `first` or `last` is refused. */
export const MAX_PAGE_SIZE = 100;
/** How many items a connection returns when neither `first` nor `last` is given. */
export const DEFAULT_PAGE_SIZE = 20;

/** The Relay connection arguments, as a query gives them. */
export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** A Relay connection: edges with their cursors, page info, and how many items match in all. */
export interface Connection<T> {
  edges: Array<{ cursor: string; node: T }>;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: number;
}

/** A stable fingerprint of what a list is: its name and, for filtered lists, the canonical filter. */
export function listScope(name: string, filter: Record<string, unknown> = {}): string {
  const canonical = Object.keys(filter)
    .filter((k) => filter[k] !== undefined && filter[k] !== null)
    .sort()
    .map((k) => [k, filter[k]]);
  return `${name}:${createHash('sha256').update(JSON.stringify(canonical)).digest('base64url').slice(0, 12)}`;
}

function encodeCursor(scope: string, offset: number): string {
  return Buffer.from(JSON.stringify({ s: scope, o: offset })).toString('base64url');
}

function decodeCursor(cursor: string, scope: string, argName: 'after' | 'before'): number {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = null;
  }
  const c = decoded as { s?: unknown; o?: unknown } | null;
  if (!c || typeof c.s !== 'string' || typeof c.o !== 'number' || !Number.isSafeInteger(c.o) || c.o < 0) {
    throw topLevelError('INVALID_CURSOR', { arg: argName, reason: 'malformed' });
  }
  if (c.s !== scope) throw topLevelError('INVALID_CURSOR', { arg: argName, reason: 'other_list' });
  return c.o;
}

/** Which absolute offsets [start, end) a request wants, once the list length is known. */
export interface WindowRequest {
  /** First offset the request may return (after the `after` cursor). */
  lowerBound: number;
  /** Offset the request may not reach (the `before` cursor), or null for the end of the list. */
  upperBound: number | null;
  first: number | null;
  last: number | null;
}

/**
 * Checks a connection's arguments and reads them as a window request. Throws a typed bad-input error for a `first` or `last` outside 1 to
 * MAX_PAGE_SIZE, both given, or a cursor that does not decode.
 */
export function parseConnectionArgs(args: ConnectionArgs, scope: string): WindowRequest {
  const { first, last } = args;
  for (const [name, value] of [
    ['first', first],
    ['last', last],
  ] as const) {
    if (value !== null && value !== undefined && (!Number.isInteger(value) || value < 1 || value > MAX_PAGE_SIZE)) {
      throw topLevelError('BAD_USER_INPUT', { kind: 'page_size', arg: name, max: MAX_PAGE_SIZE });
    }
  }
  if (first != null && last != null) {
    throw topLevelError('BAD_USER_INPUT', { kind: 'first_and_last' });
  }
  const lowerBound = args.after ? decodeCursor(args.after, scope, 'after') + 1 : 0;
  const upperBound = args.before ? decodeCursor(args.before, scope, 'before') : null;
  return {
    lowerBound,
    upperBound,
    first: first ?? (last == null ? DEFAULT_PAGE_SIZE : null),
    last: last ?? null,
  };
}

/** The offsets to return, given the list's total length. */
export function resolveWindow(request: WindowRequest, total: number): { start: number; end: number } {
  const lower = Math.min(request.lowerBound, total);
  const upper = Math.max(lower, Math.min(request.upperBound ?? total, total));
  if (request.last != null) return { start: Math.max(lower, upper - request.last), end: upper };
  return { start: lower, end: Math.min(upper, lower + (request.first ?? DEFAULT_PAGE_SIZE)) };
}

/** Builds the connection from the items at offsets [start, start + items.length). */
export function buildConnection<T>(scope: string, start: number, items: T[], total: number): Connection<T> {
  const edges = items.map((node, i) => ({ cursor: encodeCursor(scope, start + i), node }));
  const end = start + items.length;
  return {
    edges,
    // Exact in both directions: something exists before the first edge / after the last one.
    pageInfo: {
      hasPreviousPage: start > 0 && total > 0,
      hasNextPage: end < total,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: total,
  };
}
