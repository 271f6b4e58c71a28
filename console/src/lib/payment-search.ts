// What the Payments page's search box and filters mean to the API: pure functions of the page's query string, so a
// bookmarked view always asks the same thing (and the unit tests read them without a browser).
import type { ChargeFilter, CheckoutFilter } from '../../../client/generated/graphql.js';
import { nationalNumber } from './phone.js';

/** What the search box searches: `auto` guesses from what was typed; ext_id exists on charges only. */
export const SEARCH_IN = ['auto', 'reference', 'phone', 'extId'] as const;
export type SearchIn = (typeof SEARCH_IN)[number];

const looksLikePhone = (q: string) => /^[\d\s+.\-()]+$/.test(q);
/** A charge reference as the service writes them: `ch_<hex>`, or a UUID in some lists. */
const looksLikeChargeReference = (q: string) => /^ch_[0-9a-f]+$/i.test(q) || /^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i.test(q);

/** Which filter the search box fills: the one chosen, else a phone, a reference, or (charges) an ext_id, by its look. */
export function searchField(q: string, chosen: string | null, kind: 'charges' | 'checkouts'): 'reference' | 'phone' | 'extId' {
  if (chosen === 'reference' || chosen === 'phone') return chosen;
  if (chosen === 'extId' && kind === 'charges') return 'extId';
  if (looksLikePhone(q)) return 'phone';
  return kind === 'charges' && !looksLikeChargeReference(q) ? 'extId' : 'reference';
}

/** The API's filter from the page's query string (the search box as searchField reads it). */
export function filterFrom(params: URLSearchParams): ChargeFilter & CheckoutFilter {
  const filter: Record<string, unknown> = {};
  const q = params.get('q')?.trim();
  if (q) {
    const field = searchField(q, params.get('in'), params.get('type') === 'checkouts' ? 'checkouts' : 'charges');
    filter[field] = field === 'phone' ? nationalNumber(q) : q;
  }
  for (const key of ['status', 'provider', 'dateFrom', 'dateTo'] as const) if (params.get(key)) filter[key] = params.get(key);
  if (params.get('phone')) filter.phone = nationalNumber(params.get('phone')!);
  for (const key of ['amountMin', 'amountMax'] as const) if (/^\d+$/.test(params.get(key) ?? '')) filter[key] = Number(params.get(key));
  return filter as ChargeFilter & CheckoutFilter;
}
