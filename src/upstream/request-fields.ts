// The checks and encodings of what the client sends: snake_case keys, integer
// amounts (JSON numbers), optional fields omitted when null/undefined, path
// segments URL-encoded. A value that fails is VALIDATION_FAILED, before anything
// is sent.
import { UpstreamCallError } from './call-error.js';
import type { ChargeListFilter, CreateTransferInput } from './types.js';

export function invalid(message: string): UpstreamCallError {
  return new UpstreamCallError({ code: 'VALIDATION_FAILED', message });
}

/** One URL path segment; `chk_<hex>` and UUID references pass through, anything else is encoded. */
export function segment(reference: string): string {
  if (typeof reference !== 'string' || reference.trim() === '' || reference === '.' || reference === '..') {
    throw invalid('reference must be a non-empty string');
  }
  return encodeURIComponent(reference);
}

export function amount(value: number, field: string): number {
  if (!Number.isSafeInteger(value)) throw invalid(`${field} must be an integer amount`);
  return value;
}

export function positive(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw invalid(`${field} must be a positive integer`);
  return value;
}

/** Drops null/undefined members: optional fields are omitted, never sent as null. */
export function compact<T extends Record<string, unknown>>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}

export function transferBody(input: CreateTransferInput, prefix = '') {
  return compact({
    amount: amount(input.amount, `${prefix}amount`),
    recipient_phone: input.recipientPhone,
    recipient_wallet: input.recipientWallet,
    ext_id: input.extId,
  });
}

/** The charge-list filters as the service's snake_case query parameters; empty values are left out. */
export function chargeQuery(filter: ChargeListFilter): URLSearchParams {
  const q = new URLSearchParams();
  const add = (key: string, value: string | number | undefined | null) => {
    if (value !== undefined && value !== null && value !== '') q.set(key, String(value));
  };
  add('reference', filter.reference);
  add('status', filter.status);
  add('provider', filter.provider);
  add('phone', filter.phone);
  add('date_from', filter.dateFrom);
  add('date_to', filter.dateTo);
  add('amount_min', filter.amountMin === undefined || filter.amountMin === null ? undefined : amount(filter.amountMin, 'amountMin'));
  add('amount_max', filter.amountMax === undefined || filter.amountMax === null ? undefined : amount(filter.amountMax, 'amountMax'));
  return q;
}
