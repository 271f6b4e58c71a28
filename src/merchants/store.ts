// Where merchants are kept: Redis (redis-store.ts, written as durably as idempotency keys) or, in sandbox mode
// without Redis, this process's memory saved in SANDBOX_DATA_DIR (memory-store.ts). Both keep the same things:
// the records (secrets sealed), the route of each merchant's webhook URL, a listing in creation order, and the
// index of every key a merchant owns, so that a purge removes them without a SCAN.
import type { MerchantRecord } from './model.js';

/** One page of the listing, in creation order. */
export interface MerchantPage {
  records: MerchantRecord[];
  /** Whether more follow the last one. */
  hasMore: boolean;
}

/** The merchants' records, by id, by webhook route, and in creation order. */
export interface MerchantStore {
  readonly kind: 'redis' | 'memory';
  get(id: string): Promise<MerchantRecord | null>;
  /** The merchant id a webhook route id belongs to; null: no such route (or purged). */
  idOfRoute(routeId: string): Promise<string | null>;
  /** Adds a new record (its id and route id are fresh); durable once it resolves. */
  insert(record: MerchantRecord): Promise<void>;
  /** Replaces a record if it is still at `record.revision - 1`; false: it changed meanwhile (read again). */
  replace(record: MerchantRecord): Promise<boolean>;
  /** Up to `first` records after the cursor (`listCursor` of the last one seen), oldest first. */
  list(first: number, after: string | null): Promise<MerchantPage>;
  count(): Promise<number>;
  /** Records a key a merchant owns (another layer's data), so that `purge` finds it. */
  ownKey(merchantId: string, key: string): Promise<void>;
  /** The keys `ownKey` recorded for a merchant. */
  ownedKeys(merchantId: string): Promise<string[]>;
  /** Removes the merchant's owned keys, its route, its place in the listing and its record. */
  purge(record: MerchantRecord): Promise<void>;
  close(): Promise<void>;
}

/** The listing's order and cursor: creation time, then id (two merchants made in the same millisecond). */
export function listCursor(record: Pick<MerchantRecord, 'createdAt' | 'id'>): string {
  return `${String(Date.parse(record.createdAt)).padStart(15, '0')}:${record.id}`;
}
