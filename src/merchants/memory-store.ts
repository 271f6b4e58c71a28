// The merchants of one process without Redis (sandbox mode only: config.ts refuses platform mode in live mode
// without Redis), saved to a file of SANDBOX_DATA_DIR through `persistence` so they survive a restart. The file
// holds the secrets sealed, as Redis would.
import type { MerchantRecord } from './model.js';
import { listCursor, type MerchantStore } from './store.js';

/** What the memory store keeps across restarts. */
export interface MerchantState {
  records: MerchantRecord[];
  ownedKeys: Record<string, string[]>;
}

/** Where the state is saved (a state file of SANDBOX_DATA_DIR) and what it starts from. */
export interface MerchantStatePersistence {
  initial: MerchantState | null;
  changed(state: MerchantState): void;
}

/** A MerchantStore in this process's memory. */
export function memoryMerchantStore(persistence?: MerchantStatePersistence): MerchantStore {
  const records = new Map<string, MerchantRecord>();
  const routes = new Map<string, string>();
  const owned = new Map<string, Set<string>>();
  for (const record of persistence?.initial?.records ?? []) {
    records.set(record.id, record);
    routes.set(record.routeId, record.id);
  }
  for (const [id, keys] of Object.entries(persistence?.initial?.ownedKeys ?? {})) owned.set(id, new Set(keys));
  const save = () =>
    persistence?.changed({
      records: [...records.values()],
      ownedKeys: Object.fromEntries([...owned].map(([id, keys]) => [id, [...keys]])),
    });
  const copy = (record: MerchantRecord): MerchantRecord => structuredClone(record);

  return {
    kind: 'memory',
    get: async (id) => {
      const record = records.get(id);
      return record ? copy(record) : null;
    },
    idOfRoute: async (routeId) => routes.get(routeId) ?? null,
    async insert(record) {
      records.set(record.id, copy(record));
      routes.set(record.routeId, record.id);
      save();
    },
    async replace(record) {
      const current = records.get(record.id);
      if (!current || current.revision !== record.revision - 1) return false;
      records.set(record.id, copy(record));
      save();
      return true;
    },
    async list(first, after) {
      const sorted = [...records.values()].map((r) => [listCursor(r), r] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const rest = sorted.filter(([cursor]) => after === null || cursor > after);
      return { records: rest.slice(0, first).map(([, r]) => copy(r)), hasMore: rest.length > first };
    },
    count: async () => records.size,
    async ownKey(merchantId, key) {
      let keys = owned.get(merchantId);
      if (!keys) owned.set(merchantId, (keys = new Set()));
      keys.add(key);
      save();
    },
    ownedKeys: async (merchantId) => [...(owned.get(merchantId) ?? [])],
    async purge(record) {
      owned.delete(record.id);
      routes.delete(record.routeId);
      records.delete(record.id);
      save();
    },
    async close() {},
  };
}
