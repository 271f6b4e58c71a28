// Sandbox mode keeps platform mode's state in SANDBOX_DATA_DIR: a generated key-encryption key (when
// MERCHANT_KEYS_KEK is unset) and, without Redis, the merchants themselves (their secrets sealed, as in Redis).
// Both files are readable by their owner only.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stateFile } from '../files/state-file.js';
import type { MerchantState } from './memory-store.js';

const KEK_FILE = 'merchant-kek';
/** The file of SANDBOX_DATA_DIR that keeps the merchants without Redis. */
export const MERCHANTS_FILE = 'merchants.json';

/** The sandbox's key-encryption key: read from SANDBOX_DATA_DIR, or generated there at the first start. */
export function sandboxKeyEncryptionKey(dir: string): { key: Buffer; created: boolean } {
  const file = path.join(dir, KEK_FILE);
  try {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length === 32) return { key, created: false };
  } catch {
    // none yet: made below
  }
  const key = randomBytes(32);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600 });
  return { key, created: true };
}

/** The state file the sandbox keeps its merchants in, without Redis (`file`: SANDBOX_DATA_DIR's MERCHANTS_FILE). */
export function merchantStateFile(file: string) {
  return stateFile<MerchantState>(
    file,
    (parsed) => {
      const state = parsed as Partial<MerchantState> | null;
      return state && Array.isArray(state.records) && typeof state.ownedKeys === 'object' ? (state as MerchantState) : null;
    },
    0o600,
  );
}
