// The merchants of platform mode: what the operator's operations do (create, update, rotate the API key,
// suspend, offboard), the purge of offboarded merchants after their grace, and the re-wrap of every secret after
// a rotation of the key-encryption key. Every write is a compare-and-set on the record's revision, so a re-wrap
// running beside an operator's change never undoes it. Each change is reported once through `changed`
// (the gateway turns it into a `merchant.*` event).
import type { KeyRing, SealedSecret } from './key-ring.js';
import {
  isApiKey,
  isLiveKey,
  last4,
  newMerchantId,
  newRouteId,
  viewOf,
  type MerchantRecord,
  type MerchantStatus,
  type MerchantView,
} from './model.js';
import { listCursor, type MerchantStore } from './store.js';
import { InternalError } from '../errors/internal-error.js';

/** The kinds of `merchant.*` events, declared once. */
export const MERCHANT_EVENT_KINDS = [
  'merchant.created',
  'merchant.updated',
  'merchant.api_key_rotated',
  'merchant.suspended',
  'merchant.reinstated',
  'merchant.offboarded',
  'merchant.purged',
] as const;
/** One of MERCHANT_EVENT_KINDS. */
export type MerchantEventKind = (typeof MERCHANT_EVENT_KINDS)[number];

/** Why a registry operation was refused; the schema maps each to a typed error. */
export type MerchantRefusal = 'not_found' | 'offboarded' | 'invalid_api_key' | 'invalid_name' | 'invalid_webhook_secret';

/** A refused registry operation, with its reason (never a secret). */
export class MerchantRefusedError extends InternalError {
  override readonly name = 'MerchantRefusedError';
  readonly code = 'MERCHANT_REFUSED';
  constructor(readonly reason: MerchantRefusal) {
    super(`merchant operation refused: ${reason}`);
  }
}

/** What a new merchant is made of. */
export interface NewMerchant {
  name: string;
  apiKey: string;
  webhookSecret: string;
}

/** A merchant's secrets, opened: only for the upstream client and the webhook check, never shown. */
export interface MerchantSecrets {
  apiKey: string;
  webhookSecret: string;
}

/** The operations on merchants, the purge, and the re-wrap after a key rotation. */
export interface MerchantRegistry {
  create(input: NewMerchant): Promise<MerchantView>;
  get(id: string): Promise<MerchantView | null>;
  /** The merchant a webhook route id belongs to; null when there is none. */
  byRoute(routeId: string): Promise<MerchantView | null>;
  /** Opens a merchant's secrets; null when there is no such merchant. */
  secrets(id: string): Promise<MerchantSecrets | null>;
  list(
    first: number,
    after: string | null,
  ): Promise<{ merchants: MerchantView[]; hasMore: boolean; cursorOf: (m: MerchantView) => string }>;
  count(): Promise<number>;
  update(id: string, change: { name?: string | null; webhookSecret?: string | null }): Promise<MerchantView>;
  rotateApiKey(id: string, apiKey: string): Promise<MerchantView>;
  /** Suspends (`suspended`) or reinstates a merchant. */
  setSuspended(id: string, suspended: boolean): Promise<MerchantView>;
  /** Refuses new work at once; the data is purged after the grace (`purgeDue`). */
  offboard(id: string): Promise<MerchantView>;
  /** Purges every offboarded merchant whose grace is over; returns their ids. */
  purgeDue(): Promise<string[]>;
  /** Re-wraps every secret still under a previous key-encryption key; returns how many records changed. */
  rewrapAll(): Promise<{ rewrapped: number; merchants: number }>;
  readonly store: MerchantStore;
  /** The key ring merchants' secrets are sealed with (the signing secrets of their webhook endpoints too). */
  readonly keys: KeyRing;
}

/** What the registry stands on. */
export interface MerchantRegistryOptions {
  store: MerchantStore;
  keys: KeyRing;
  /** MERCHANT_OFFBOARD_GRACE in ms. */
  offboardGraceMs: number;
  /** Told of every change (once it is stored). */
  changed?: (kind: MerchantEventKind, merchant: MerchantView) => void;
  now?: () => number;
}

const NAME_MAX = 200;
const PAGE = 200;

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > NAME_MAX) throw new MerchantRefusedError('invalid_name');
  return trimmed;
}
function checkApiKey(key: string): string {
  if (!isApiKey(key)) throw new MerchantRefusedError('invalid_api_key');
  return key;
}
function checkWebhookSecret(secret: string): string {
  if (secret.length < 8 || secret.length > 1_000) throw new MerchantRefusedError('invalid_webhook_secret');
  return secret;
}

/** Runs `visit` on every record, a page at a time, in creation order. */
async function forEachRecord(store: MerchantStore, visit: (record: MerchantRecord) => Promise<void>): Promise<void> {
  for (let after: string | null = null; ;) {
    const page = await store.list(PAGE, after);
    for (const record of page.records) await visit(record);
    if (!page.hasMore || page.records.length === 0) return;
    after = listCursor(page.records.at(-1)!);
  }
}

/** The registry's shared parts: the clock, the compare-and-set loop and the report of a change. */
function registryParts(options: MerchantRegistryOptions) {
  const { store } = options;
  const now = options.now ?? Date.now;
  const changed = options.changed ?? (() => {});
  const iso = () => new Date(now()).toISOString();
  /** Reads, changes and writes a record until the compare-and-set holds; `change` may refuse, or return null to write nothing. */
  async function modify(id: string, change: (record: MerchantRecord) => MerchantRecord | null): Promise<MerchantRecord | null> {
    for (;;) {
      const record = await store.get(id);
      if (!record) throw new MerchantRefusedError('not_found');
      const next = change(record);
      if (!next) return null;
      const written = { ...next, revision: record.revision + 1, updatedAt: iso() };
      if (await store.replace(written)) return written;
    }
  }
  const report = (kind: MerchantEventKind, record: MerchantRecord | null): MerchantView => {
    if (!record) throw new MerchantRefusedError('not_found');
    const view = viewOf(record);
    changed(kind, view);
    return view;
  };
  return { now, iso, modify, report, changed };
}

const active = (record: MerchantRecord): MerchantRecord => {
  if (record.status === 'OFFBOARDED') throw new MerchantRefusedError('offboarded');
  return record;
};

/** The operator's changes to an existing merchant. */
function merchantChanges(options: MerchantRegistryOptions, parts: ReturnType<typeof registryParts>) {
  const { store, keys, offboardGraceMs } = options;
  const { now, iso, modify, report } = parts;
  return {
    async update(id: string, change: { name?: string | null; webhookSecret?: string | null }) {
      const name = change.name == null ? null : checkName(change.name);
      const webhookSecret = change.webhookSecret == null ? null : checkWebhookSecret(change.webhookSecret);
      const record = await modify(id, (r) => ({
        ...active(r),
        ...(name !== null ? { name } : {}),
        secrets: webhookSecret !== null ? { ...r.secrets, webhookSecret: keys.seal(id, webhookSecret) } : r.secrets,
      }));
      return report('merchant.updated', record);
    },
    async rotateApiKey(id: string, apiKey: string) {
      checkApiKey(apiKey);
      const record = await modify(id, (r) => ({
        ...active(r),
        liveMode: isLiveKey(apiKey),
        apiKeyLast4: last4(apiKey),
        secrets: { ...r.secrets, apiKey: keys.seal(id, apiKey) },
      }));
      return report('merchant.api_key_rotated', record);
    },
    async setSuspended(id: string, suspended: boolean) {
      const status: MerchantStatus = suspended ? 'SUSPENDED' : 'ACTIVE';
      const record = await modify(id, (r) => ({ ...active(r), status }));
      return report(suspended ? 'merchant.suspended' : 'merchant.reinstated', record);
    },
    async offboard(id: string) {
      let already = false;
      const record = await modify(id, (r) => {
        already = r.status === 'OFFBOARDED';
        if (already) return null;
        return { ...r, status: 'OFFBOARDED', offboardedAt: iso(), purgeAfter: new Date(now() + offboardGraceMs).toISOString() };
      });
      // Offboarding twice changes nothing (the first grace stands) and reports nothing new.
      if (already) return viewOf((await store.get(id))!);
      return report('merchant.offboarded', record);
    },
  };
}

/** The sweeps over every merchant: the purge after the grace, the re-wrap after a key rotation. */
function merchantSweeps(options: MerchantRegistryOptions, parts: ReturnType<typeof registryParts>) {
  const { store, keys } = options;
  const { now, modify, changed } = parts;
  const current = (sealed: SealedSecret) => sealed.kek === keys.currentVersion;
  return {
    async purgeDue() {
      const purged: string[] = [];
      await forEachRecord(store, async (record) => {
        if (record.status !== 'OFFBOARDED' || !record.purgeAfter || Date.parse(record.purgeAfter) > now()) return;
        await store.purge(record);
        purged.push(record.id);
        changed('merchant.purged', viewOf(record));
      });
      return purged;
    },
    async rewrapAll() {
      let rewrapped = 0;
      let merchants = 0;
      await forEachRecord(store, async (record) => {
        merchants += 1;
        if (current(record.secrets.apiKey) && current(record.secrets.webhookSecret)) return;
        await modify(record.id, (r) => ({
          ...r,
          secrets: { apiKey: keys.rewrap(r.id, r.secrets.apiKey), webhookSecret: keys.rewrap(r.id, r.secrets.webhookSecret) },
        }));
        rewrapped += 1;
      });
      return { rewrapped, merchants };
    },
  };
}

/** The registry over a store and a key ring. */
export function createMerchantRegistry(options: MerchantRegistryOptions): MerchantRegistry {
  const { store, keys } = options;
  const parts = registryParts(options);
  return {
    store,
    keys,
    async create(input) {
      const name = checkName(input.name);
      const apiKey = checkApiKey(input.apiKey);
      const webhookSecret = checkWebhookSecret(input.webhookSecret);
      const id = newMerchantId();
      const at = parts.iso();
      const record: MerchantRecord = {
        id,
        name,
        status: 'ACTIVE',
        liveMode: isLiveKey(apiKey),
        apiKeyLast4: last4(apiKey),
        routeId: newRouteId(),
        createdAt: at,
        updatedAt: at,
        offboardedAt: null,
        purgeAfter: null,
        revision: 1,
        secrets: { apiKey: keys.seal(id, apiKey), webhookSecret: keys.seal(id, webhookSecret) },
      };
      await store.insert(record);
      return parts.report('merchant.created', record);
    },
    async get(id) {
      const record = await store.get(id);
      return record ? viewOf(record) : null;
    },
    async byRoute(routeId) {
      const id = await store.idOfRoute(routeId);
      const record = id ? await store.get(id) : null;
      return record && record.routeId === routeId ? viewOf(record) : null;
    },
    async secrets(id) {
      const record = await store.get(id);
      if (!record) return null;
      return { apiKey: keys.open(id, record.secrets.apiKey), webhookSecret: keys.open(id, record.secrets.webhookSecret) };
    },
    async list(first, after) {
      const page = await store.list(first, after);
      return { merchants: page.records.map(viewOf), hasMore: page.hasMore, cursorOf: listCursor };
    },
    count: () => store.count(),
    ...merchantChanges(options, parts),
    ...merchantSweeps(options, parts),
  };
}
