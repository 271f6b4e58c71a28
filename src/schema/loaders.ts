// Per-operation DataLoaders: within one GraphQL operation each reference is
// fetched from the payment service at most once, and distinct references are
// fetched concurrently, a bounded number at a time (the service has no batch
// endpoint and we must not flood it). Charges whose time window is known (the
// charge of a checkout was made between the checkout's creation and its last
// update) are first looked up together in one page of the charge list filtered
// to that window: a page of checkouts with their charges costs two round trips
// instead of one call per charge.
import DataLoader from 'dataloader';
import { isNotFound } from '../upstream/call-error.js';
import type { Charge, Checkout, Settlement, Transfer, UpstreamClient } from '../upstream/types.js';

/** At most this many calls to the service at once from one request's loaders. */
export const LOADER_CONCURRENCY = 8;
/** Fewer charges than this are fetched one by one: a list call would not save a round trip. */
const LIST_LOOKUP_MIN = 3;
const LIST_PAGE_SIZE = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

/** When a charge was made, at the earliest and at the latest. */
export interface ChargeWindow {
  from: Date;
  to: Date;
}

/** One request's loaders of the service's resources: each reference fetched once per request, a missing one as null. */
export interface ResourceLoaders {
  checkout: DataLoader<string, Checkout | null>;
  charge: DataLoader<string, Charge | null>;
  transfer: DataLoader<string, Transfer | null>;
  settlement: DataLoader<string, Settlement | null>;
  /** Tells the charge loader when a charge was made, before `charge.load` of it. */
  hintChargeWindow(reference: string, window: ChargeWindow): void;
}

/**
 * The loaders of one request. Charges hinted with their window are fetched by a list call when there are enough of them; the rest one by
 * one, at most LOADER_CONCURRENCY at once. A not-found is null; another failure rejects that one load.
 */
export function createLoaders(upstream: UpstreamClient): ResourceLoaders {
  const chargeWindows = new Map<string, ChargeWindow>();
  const fetchCharges = async (references: readonly string[]): Promise<Array<Charge | null | Error>> => {
    const windowed = references.filter((ref) => chargeWindows.has(ref));
    const listed =
      windowed.length >= LIST_LOOKUP_MIN ? await chargesInWindow(upstream, windowed, chargeWindows) : new Map<string, Charge>();
    const rest = references.filter((ref) => !listed.has(ref));
    const fetched = new Map((await fetchEach(rest, (ref) => upstream.fetchCharge(ref))).map((result, i) => [rest[i]!, result] as const));
    return references.map((ref) => listed.get(ref) ?? fetched.get(ref)!);
  };
  // Made on first use: most operations read one kind of resource, and a context is built per request.
  const checkout = once(() => byReference<Checkout>((refs) => fetchEach(refs, (ref) => upstream.fetchCheckout(ref))));
  const charge = once(() => byReference<Charge>(fetchCharges));
  const transfer = once(() => byReference<Transfer>((refs) => fetchEach(refs, (ref) => upstream.fetchTransfer(ref))));
  const settlement = once(() => byReference<Settlement>((refs) => fetchEach(refs, (ref) => upstream.fetchSettlement(ref))));
  return {
    get checkout() {
      return checkout();
    },
    get charge() {
      return charge();
    },
    get transfer() {
      return transfer();
    },
    get settlement() {
      return settlement();
    },
    hintChargeWindow: (reference, window) => void chargeWindows.set(reference, window),
  };
}

function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

function byReference<T>(fetchBatch: (references: readonly string[]) => Promise<Array<T | null | Error>>): DataLoader<string, T | null> {
  // Batch across one tick so sibling fields' lookups share one batch (and its concurrency limit).
  return new DataLoader<string, T | null>(fetchBatch, { maxBatchSize: 100 });
}

/** One call per reference, a bounded number in flight; not found is null, any other failure that reference's error. */
function fetchEach<T>(references: readonly string[], fetchOne: (reference: string) => Promise<T>): Promise<Array<T | null | Error>> {
  return mapWithConcurrency(references, LOADER_CONCURRENCY, (ref) =>
    fetchOne(ref).then(
      (value) => value,
      (err: unknown) => (isNotFound(err) ? null : (err as Error)),
    ),
  );
}

/**
 * The charges among `references` found on one page of the charge list filtered to the days they were
 * made in (widened by a day each way: the service's days may not be UTC days). What is not on that page
 * (a busy window, or a failed list call) is left to single fetches.
 */
async function chargesInWindow(
  upstream: UpstreamClient,
  references: readonly string[],
  windows: ReadonlyMap<string, ChargeWindow>,
): Promise<Map<string, Charge>> {
  const spans = references.map((ref) => windows.get(ref)!);
  const from = Math.min(...spans.map((w) => w.from.getTime())) - DAY_MS;
  const to = Math.max(...spans.map((w) => w.to.getTime())) + DAY_MS;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const wanted = new Set(references);
  try {
    const page = await upstream.listCharges({ dateFrom: day(from), dateTo: day(to) }, { page: 1, pageSize: LIST_PAGE_SIZE });
    return new Map(page.items.filter((charge) => wanted.has(charge.reference)).map((charge) => [charge.reference, charge]));
  } catch {
    return new Map();
  }
}

/** Runs `fn` over `items` with at most `limit` calls in flight; results keep the input order. */
export async function mapWithConcurrency<I, O>(items: readonly I[], limit: number, fn: (item: I) => Promise<O>): Promise<O[]> {
  const results = new Array<O>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
