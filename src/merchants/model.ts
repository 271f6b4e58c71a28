// What a merchant is in platform mode: a record with its status and its secrets sealed (key-ring.ts), and the
// view of it that may leave the registry (never a secret: the API key's last 4 characters at most).
import { randomBytes } from 'node:crypto';
import type { SealedSecret } from './key-ring.js';

/** ACTIVE: serves everything; SUSPENDED: reads answer, money moves are refused; OFFBOARDED: refused, purged after the grace. */
export type MerchantStatus = 'ACTIVE' | 'SUSPENDED' | 'OFFBOARDED';

/** A merchant as the registry keeps it. */
export interface MerchantRecord {
  /** `mer_<hex>`: what tokens carry in `merchant_id`. */
  id: string;
  name: string;
  status: MerchantStatus;
  /** From the API key: `sk_live_…` is live, `sk_test_…` test. */
  liveMode: boolean;
  apiKeyLast4: string;
  /** The path segment of its webhook URL (`/webhooks/payment/<routeId>`): random, unrelated to its id. */
  routeId: string;
  createdAt: string;
  updatedAt: string;
  /** When offboarded, and when its data is purged; null otherwise. */
  offboardedAt: string | null;
  purgeAfter: string | null;
  /** Incremented on every write: a write names the revision it read (compare-and-set). */
  revision: number;
  secrets: { apiKey: SealedSecret; webhookSecret: SealedSecret };
}

/** What may be shown of a merchant: the record without its secrets. */
export type MerchantView = Omit<MerchantRecord, 'secrets' | 'revision'>;

/** The record without its secrets. */
export function viewOf(record: MerchantRecord): MerchantView {
  const { secrets: _secrets, revision: _revision, ...view } = record;
  return view;
}

/** A new merchant id. */
export const newMerchantId = (): string => `mer_${randomBytes(10).toString('hex')}`;
/** A new webhook route id: 128 random bits, so a merchant's URL cannot be guessed from another's. */
export const newRouteId = (): string => randomBytes(16).toString('base64url');

const MERCHANT_ID = /^mer_[0-9a-f]{20}$/;
/** Whether a string has the shape of a merchant id (anything else is unknown without a lookup). */
export const isMerchantId = (id: string): boolean => MERCHANT_ID.test(id);
const ROUTE_ID = /^[A-Za-z0-9_-]{22}$/;
/** Whether a path segment has the shape of a route id. */
export const isRouteId = (id: string): boolean => ROUTE_ID.test(id);

const API_KEY = /^sk_(test|live)_\S{4,}$/;
/** Whether an API key has the service's shape (`sk_test_…` or `sk_live_…`). */
export const isApiKey = (key: string): boolean => API_KEY.test(key);
/** Live mode of an API key (the service's own rule: `sk_live_` keys make live resources). */
export const isLiveKey = (key: string): boolean => key.startsWith('sk_live_');
/** The last 4 characters of an API key: all that is ever shown of it. */
export const last4 = (key: string): string => key.slice(-4);
