// The sandbox's memory across restarts (sandbox mode's SANDBOX_DATA_DIR): the
// accounts and everything in them (checkouts, charges, transfers, balances,
// settlements), and the development identity `npm start` uses with it (the
// sandbox account's API key, the development token secret, the webhook secret),
// so a restarted gateway finds the same account and GraphiQL's stored token
// still verifies. Writes are coalesced and atomic (a temporary file renamed).
// A timer in flight at a stop (a transfer or settlement moving on) does not
// survive it: that resource stays where it was.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Wallet } from './contract.js';
import {
  Account,
  type AccountStore,
  type Bucket,
  type ChargeRecord,
  type CheckoutRecord,
  type PaymentAccount,
  type SettlementRecord,
  type TransferRecord,
} from './store.js';

export const STATE_FILE = 'sandbox.json';
export const DEVELOPMENT_FILE = 'development.json';

interface SavedAccount {
  key: string;
  id: string;
  paymentAccount: PaymentAccount | null;
  lastSeq: number;
  collection: Bucket;
  wallets: Record<Wallet, Bucket>;
  charges: ChargeRecord[];
  checkouts: CheckoutRecord[];
  transfers: TransferRecord[];
  transferExtIds: string[];
  settlements: Array<Omit<SettlementRecord, 'nextMove'>>;
}

function snapshot(store: AccountStore): { accounts: SavedAccount[] } {
  return {
    accounts: store.entries().map(([key, a]) => ({
      key,
      id: a.id,
      paymentAccount: a.paymentAccount,
      lastSeq: a.lastSeq,
      collection: a.collection,
      wallets: a.wallets,
      charges: [...a.charges.values()],
      checkouts: [...a.checkouts.values()],
      transfers: [...a.transfers.values()],
      transferExtIds: [...a.transferExtIds],
      settlements: [...a.settlements.values()].map(({ nextMove: _timer, ...rest }) => rest),
    })),
  };
}

function restore(store: AccountStore, saved: { accounts: SavedAccount[] }): void {
  for (const s of saved.accounts) {
    const account = new Account(s.id, s.paymentAccount);
    account.lastSeq = s.lastSeq;
    Object.assign(account.collection, s.collection);
    for (const [wallet, bucket] of Object.entries(s.wallets)) Object.assign(account.wallets[wallet as Wallet], bucket);
    for (const c of s.charges) account.charges.set(c.reference, c);
    for (const c of s.checkouts) account.checkouts.set(c.uuid, c);
    for (const t of s.transfers) account.transfers.set(t.reference, t);
    for (const id of s.transferExtIds) account.transferExtIds.add(id);
    for (const st of s.settlements) account.settlements.set(st.reference, { ...st, nextMove: null });
    store.restore(s.key, account);
  }
}

function writeAtomically(file: string, data: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(data), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

export interface StatePersistence {
  /** Schedules a save (coalesced: one write per burst of changes). */
  changed(): void;
  /** Writes now (at close). */
  flush(): void;
}

/** Loads the saved accounts into `store` (when the file exists) and returns how to save them. */
export function persistAccounts(store: AccountStore, file: string): StatePersistence {
  if (existsSync(file)) restore(store, JSON.parse(readFileSync(file, 'utf8')) as { accounts: SavedAccount[] });
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    writeAtomically(file, snapshot(store));
  };
  return {
    changed() {
      timer ??= setTimeout(flush, 100);
      timer.unref();
    },
    flush,
  };
}

/** What `npm start` uses with the embedded sandbox, the same on every start until `npm run sandbox:reset`. */
export interface DevelopmentIdentity {
  /** The sandbox account's API key (sk_test_…). */
  apiKey: string;
  /** HS256 secret of the development token and of `npm run token` (≥ 32 bytes). */
  authJwtSecret: string;
  webhookSecret: string;
}

/** The saved identity of `dataDir`, or a new one saved there; `created` says which. */
export function developmentIdentity(dataDir: string): DevelopmentIdentity & { created: boolean } {
  const file = path.join(dataDir, DEVELOPMENT_FILE);
  if (existsSync(file)) return { ...(JSON.parse(readFileSync(file, 'utf8')) as DevelopmentIdentity), created: false };
  const identity: DevelopmentIdentity = {
    apiKey: `sk_test_${randomBytes(12).toString('hex')}`,
    authJwtSecret: randomBytes(32).toString('base64url'),
    webhookSecret: randomBytes(24).toString('base64url'),
  };
  writeAtomically(file, identity);
  return { ...identity, created: true };
}

/** The saved identity, or null when the folder has none (nothing started there yet). */
export function savedDevelopmentIdentity(dataDir: string): DevelopmentIdentity | null {
  const file = path.join(dataDir, DEVELOPMENT_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DevelopmentIdentity) : null;
}
