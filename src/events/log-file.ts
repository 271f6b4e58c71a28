// The in-memory event log kept in a file, for sandbox mode's data folder
// (SANDBOX_DATA_DIR): `paymentEvents(after:)` and the `events` history still
// know the events of the previous run after a restart. Writes are coalesced
// (one write per burst of events) and atomic (a temporary file renamed over
// the old one), and flush() writes what is pending at shutdown. With Redis the
// log lives in Redis and this is not used.
import { stateFile } from '../files/state-file.js';
import type { MemoryLogPersistence, MemoryLogState } from './log.js';

/** Its name in the data folder. */
export const EVENT_LOG_FILE = 'events.json';

interface FileLogPersistence extends MemoryLogPersistence {
  flush(): void;
}

/** Keeps the in-memory event log in a file (sandbox mode), so a restart resumes it. */
export function fileLogPersistence(file: string): FileLogPersistence {
  const accept = (parsed: unknown): MemoryLogState | null => {
    const state = parsed as Partial<MemoryLogState>;
    return Array.isArray(state.entries) && typeof state.trimmed === 'string' ? { entries: state.entries, trimmed: state.trimmed } : null;
  };
  return stateFile(file, accept);
}
