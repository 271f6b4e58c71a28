// The in-memory event log kept in a file, for sandbox mode's data folder
// (SANDBOX_DATA_DIR): `paymentEvents(after:)` and the `events` history still
// know the events of the previous run after a restart. Writes are coalesced
// (one write per burst of events) and atomic (a temporary file renamed over
// the old one), and flush() writes what is pending at shutdown. With Redis the
// log lives in Redis and this is not used.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { MemoryLogPersistence, MemoryLogState } from './log.js';

const COALESCE_MS = 100;

/** Its name in the data folder. */
export const EVENT_LOG_FILE = 'events.json';

export interface FileLogPersistence extends MemoryLogPersistence {
  flush(): void;
}

export function fileLogPersistence(file: string): FileLogPersistence {
  let initial: MemoryLogState | null = null;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<MemoryLogState>;
    if (Array.isArray(parsed.entries) && typeof parsed.trimmed === 'string') initial = { entries: parsed.entries, trimmed: parsed.trimmed };
  } catch {
    initial = null; // no file yet (or an unreadable one): a fresh log
  }
  let pending: MemoryLogState | null = null;
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!pending) return;
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, JSON.stringify(pending));
    renameSync(`${file}.tmp`, file);
    pending = null;
  };
  return {
    initial,
    changed(state) {
      pending = state;
      timer ??= setTimeout(flush, COALESCE_MS);
      timer.unref();
    },
    flush,
  };
}
