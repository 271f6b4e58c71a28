// The memory store's state in a file of SANDBOX_DATA_DIR (sandbox mode without Redis), kept as the event
// log's is (src/files/state-file.ts).
import { stateFile } from '../files/state-file.js';
import type { OutboundState, OutboundStatePersistence } from './memory-store.js';

/** Its name in the data folder. */
export const OUTBOUND_WEBHOOKS_FILE = 'webhook-endpoints.json';

interface FileOutboundPersistence extends OutboundStatePersistence {
  flush(): void;
}

/** Keeps the memory store's endpoints and deliveries in a file (sandbox mode). */
export function fileOutboundPersistence(file: string): FileOutboundPersistence {
  const accept = (parsed: unknown): OutboundState | null => {
    const state = parsed as Partial<OutboundState>;
    return Array.isArray(state.endpoints) ? ({ cursors: {}, inFlight: {}, deliveries: {}, ...state } as OutboundState) : null;
  };
  // The signing secrets are in it: readable by its owner only.
  return stateFile(file, accept, 0o600);
}
