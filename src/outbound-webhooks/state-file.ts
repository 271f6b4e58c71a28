// The memory store's state in a file of SANDBOX_DATA_DIR (sandbox mode without
// Redis), as the event log's is (src/events/log-file.ts): writes coalesced, atomic
// (a temporary file renamed over the old one), flushed at shutdown.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { OutboundState, OutboundStatePersistence } from './memory-store.js';

const COALESCE_MS = 100;

/** Its name in the data folder. */
export const OUTBOUND_WEBHOOKS_FILE = 'webhook-endpoints.json';

export interface FileOutboundPersistence extends OutboundStatePersistence {
  flush(): void;
}

export function fileOutboundPersistence(file: string): FileOutboundPersistence {
  let initial: OutboundState | null = null;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<OutboundState>;
    if (Array.isArray(parsed.endpoints)) initial = { cursors: {}, inFlight: {}, deliveries: {}, ...parsed } as OutboundState;
  } catch {
    initial = null; // no file yet (or an unreadable one): no endpoints
  }
  let pending: OutboundState | null = null;
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!pending) return;
    mkdirSync(path.dirname(file), { recursive: true });
    // The signing secrets are in it: readable by its owner only.
    writeFileSync(`${file}.tmp`, JSON.stringify(pending), { mode: 0o600 });
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
