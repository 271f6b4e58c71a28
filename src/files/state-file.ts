// A state kept in a JSON file of SANDBOX_DATA_DIR (sandbox mode without Redis): read once at start, writes
// coalesced (one per burst of changes) and atomic (a temporary file renamed over the old one), and flush()
// writes what is pending at shutdown. The event log and the outbound webhooks' memory store keep theirs here.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const COALESCE_MS = 100;

interface StateFile<S> {
  /** The state the file held at start (null: no file, or one that `accept` refused). */
  initial: S | null;
  changed(state: S): void;
  flush(): void;
}

/** `accept` turns what the file holds into a state, or null when it is not one; `mode`: the file's permissions. */
export function stateFile<S>(file: string, accept: (parsed: unknown) => S | null, mode = 0o644): StateFile<S> {
  let initial: S | null = null;
  try {
    initial = accept(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    initial = null; // no file yet (or an unreadable one): a fresh state
  }
  let pending: S | null = null;
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!pending) return;
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, JSON.stringify(pending), { mode });
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
