// The memory index's state in a file of SANDBOX_DATA_DIR (sandbox mode without Redis), kept as the event log's is
// (src/files/state-file.ts): a restart still finds the charges seen before by their ext_id.
import { stateFile } from '../files/state-file.js';
import type { MemoryIndexPersistence, MemoryIndexState } from './store.js';

/** Its name in the data folder. */
export const EXT_ID_INDEX_FILE = 'ext-ids.json';

interface FileIndexPersistence extends MemoryIndexPersistence {
  flush(): void;
}

/** Keeps the memory index in a file (sandbox mode). */
export function fileExtIdPersistence(file: string): FileIndexPersistence {
  const accept = (parsed: unknown): MemoryIndexState | null =>
    parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as MemoryIndexState) : null;
  return stateFile(file, accept);
}
