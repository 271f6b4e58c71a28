// Reads an offset window of the charge list out of the service's page-based
// listing. We ask for pages of a size that makes any window of up to 100
// items straddle at most two pages; if the service ignores our page size
// (its paging parameter names are not documented), we learn its real page
// size from the first answer and read the pages that cover the window.
import type { Charge, ChargeListFilter, ChargePage, UpstreamClient } from '../upstream/types.js';
import { MAX_PAGE_SIZE, resolveWindow, type WindowRequest } from './pagination.js';

/** A window of the charge list: its items, where it starts among all charges, and how many match. */
export interface ChargeWindow {
  start: number;
  items: Charge[];
  total: number;
}

/**
 * Fetches the charges a connection asks for (first/after or last/before) from the service's numbered pages, in as few calls as the page
 * size allows. Rejects with the service's failure as an UpstreamCallError.
 */
export async function fetchChargeWindow(
  upstream: UpstreamClient,
  filter: ChargeListFilter,
  request: WindowRequest,
  preferredPageSize: number,
): Promise<ChargeWindow> {
  const wanted = request.first ?? request.last ?? 1;
  const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(wanted, preferredPageSize));

  // Forward windows are known before the first call; backward ones without a
  // `before` cursor need the total first, which any page reports.
  let total: number | null = null;
  let firstAnswer: ChargePage | null = null;
  if (request.last != null && request.upperBound === null) {
    firstAnswer = await upstream.listCharges(filter, { page: 1, pageSize });
    total = firstAnswer.pagination.totalRecords;
  }
  const provisional = resolveWindow(request, total ?? Number.MAX_SAFE_INTEGER);
  let pages = await readRange(upstream, filter, provisional.start, provisional.end, pageSize, firstAnswer);
  const { start, end } = resolveWindow(request, pages.total);
  // A filtered list can shrink under a cursor (charges leave PENDING): a `before` past the new end moves the
  // window to the list's end, outside the pages read for the provisional one. Read the window itself then.
  if (start < pages.start || end > pages.start + pages.items.length) {
    pages = await readRange(upstream, filter, start, end, pageSize, null);
  }
  return { start, items: pages.items.slice(start - pages.start, end - pages.start), total: pages.total };
}

interface Range {
  start: number;
  items: Charge[];
  total: number;
}

async function readRange(
  upstream: UpstreamClient,
  filter: ChargeListFilter,
  start: number,
  end: number,
  pageSize: number,
  known: ChargePage | null,
): Promise<Range> {
  const cache = new Map<number, Promise<ChargePage>>();
  if (known) cache.set(1, Promise.resolve(known));
  const page = (n: number, size: number) => {
    let p = cache.get(n);
    if (!p) {
      p = upstream.listCharges(filter, { page: n, pageSize: size });
      cache.set(n, p);
    }
    return p;
  };

  const firstPage = Math.floor(start / pageSize) + 1;
  const head = await page(firstPage, pageSize);
  const total = head.pagination.totalRecords;
  const stop = Math.min(end, total);
  const effectiveSize = await observedPageSize(head, firstPage, pageSize, (n) => page(n, pageSize));

  if (effectiveSize !== pageSize) {
    // The service used its own page size: address its pages in its units.
    const from = Math.floor(start / effectiveSize) + 1;
    const to = Math.max(from, Math.ceil(Math.max(stop, start + 1) / effectiveSize));
    const answers = await Promise.all(Array.from({ length: to - from + 1 }, (_, i) => page(from + i, pageSize)));
    return { start: (from - 1) * effectiveSize, items: answers.flatMap((a) => a.items), total };
  }
  if (stop <= firstPage * pageSize || stop <= start) {
    return { start: (firstPage - 1) * pageSize, items: head.items, total };
  }
  const tail = await page(firstPage + 1, pageSize);
  return { start: (firstPage - 1) * pageSize, items: [...head.items, ...tail.items], total };
}

/**
 * The page size the service really used. When it honoured our size, its page
 * count and the length of the page it answered (`pageNumber`) are the ones
 * our size gives. The page count alone can agree by chance (35 records make
 * 2 pages of 30 and 2 pages of 20); both together cannot, for a page that
 * holds any of the records. Otherwise page 1, when not the last, is full and
 * its length is the size (when it is the last, everything fits on it).
 */
async function observedPageSize(
  answer: ChargePage,
  pageNumber: number,
  requested: number,
  page: (n: number) => Promise<ChargePage>,
): Promise<number> {
  const { totalRecords, totalPages } = answer.pagination;
  if (totalRecords === 0) return requested;
  const lengthWithOurSize = Math.max(0, Math.min(requested, totalRecords - (pageNumber - 1) * requested));
  if (Math.ceil(totalRecords / requested) === totalPages && answer.items.length === lengthWithOurSize) return requested;
  const first = await page(1);
  return first.pagination.hasNext ? Math.max(1, first.items.length) : Math.max(1, totalRecords);
}
