// Filters of the lists the service offers no filter for (checkouts, transfers,
// settlements): the gateway applies them itself, with the cursor rules of every
// connection (a cursor carries its list's scope, the filter included, so a
// cursor used with another filter is INVALID_CURSOR).
//
// Bound on what the service is asked: these three list endpoints answer the
// whole list in one response (the spec shows no paging parameters for them),
// so a filtered window, whatever it matches (nothing included), costs exactly
// one list call per operation, shared by every field of the operation that
// reads the same list (aliases, several filters). There is no further page to
// read, so no walk over the history can grow with a filter that matches
// little. The price is that one answer holds the whole history: if the service
// ever pages these lists, this module is where page-by-page reading would go.
import { topLevelError } from '../errors/top-level.js';
import type { GatewayContext } from './context.js';
import { buildConnection, listScope, parseConnectionArgs, resolveWindow, type Connection, type ConnectionArgs } from './pagination.js';

/** The conditions every filtered list shares; each list adds its own. */
export interface CommonFilter {
  reference?: string | null;
  dateFrom?: string | null;
  dateTo?: string | null;
  amountMin?: number | null;
  amountMax?: number | null;
}

/** Bounds that contradict each other or make no sense, refused before the service is asked anything. */
export function checkFilterBounds(filter: CommonFilter): void {
  if (filter.dateFrom && filter.dateTo && filter.dateFrom > filter.dateTo) throw topLevelError('BAD_USER_INPUT', { kind: 'filter_dates' });
  if (filter.amountMin != null && filter.amountMin < 0)
    throw topLevelError('BAD_USER_INPUT', { kind: 'filter_negative', field: 'amountMin' });
  if (filter.amountMax != null && filter.amountMax < 0)
    throw topLevelError('BAD_USER_INPUT', { kind: 'filter_negative', field: 'amountMax' });
  if (filter.amountMin != null && filter.amountMax != null && filter.amountMin > filter.amountMax) {
    throw topLevelError('BAD_USER_INPUT', { kind: 'filter_amounts' });
  }
}

/** The filter as it defines the list: absent and empty conditions dropped, so `{}` and `null` are the same list. */
export function canonicalFilter(filter: object | null | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(filter ?? {}).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

/** The UTC calendar day of a timestamp: how date ranges are read, as the service does for charges. */
export function utcDay(timestamp: string): string {
  return new Date(timestamp).toISOString().slice(0, 10);
}

/** Whether an item's creation day and amount fall within the filter's common bounds. */
export function withinBounds(filter: CommonFilter, item: { createdAt: string | null; amount: number }): boolean {
  if (filter.amountMin != null && item.amount < filter.amountMin) return false;
  if (filter.amountMax != null && item.amount > filter.amountMax) return false;
  if (filter.dateFrom || filter.dateTo) {
    if (item.createdAt === null) return false;
    const day = utcDay(item.createdAt);
    if (filter.dateFrom && day < filter.dateFrom) return false;
    if (filter.dateTo && day > filter.dateTo) return false;
  }
  return true;
}

const listsOfOperation = new WeakMap<object, Map<string, Promise<unknown[]>>>();

/** One call per list per operation, however many fields of the operation read it. */
export function listOnce<T>(ctx: GatewayContext, name: string, fetchAll: () => Promise<T[]>): Promise<T[]> {
  let lists = listsOfOperation.get(ctx);
  if (!lists) {
    lists = new Map();
    listsOfOperation.set(ctx, lists);
  }
  let list = lists.get(name) as Promise<T[]> | undefined;
  if (!list) {
    list = fetchAll();
    lists.set(name, list);
  }
  return list;
}

/**
 * A connection over a list the service returns whole, filtered by the gateway
 * (`fetchMatching` gives the items that match, in list order). Arguments and
 * cursors are checked before anything is fetched; the cursor's scope is the
 * list's name and its canonical filter.
 */
export async function filteredConnection<T>(
  args: ConnectionArgs,
  name: string,
  filter: Record<string, unknown>,
  fetchMatching: () => Promise<T[]>,
): Promise<Connection<T>> {
  const scope = listScope(name, filter);
  const request = parseConnectionArgs(args, scope);
  const matching = await fetchMatching();
  const { start, end } = resolveWindow(request, matching.length);
  return buildConnection(scope, start, matching.slice(start, end), matching.length);
}
