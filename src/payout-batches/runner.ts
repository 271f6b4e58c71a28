// Runs payout batches: on every replica a loop looks for batches set to run and
// takes a batch's lease (one replica at a time runs it; a replica that dies
// loses it within the lease time and another takes over, PAYOUT_BATCH_LEASE_MS).
// What a run does with its batch: batch-run.ts.
import { randomUUID } from 'node:crypto';
import { BatchRun, type RunnerOptions } from './batch-run.js';
import { listIds } from './batch-operations.js';

export type { RunnerOptions } from './batch-run.js';

/** The loop that finds batches to run and runs each on the replica that holds its lease. */
export interface Runner {
  /** Looks for work now (after a start, an approval, a resume). */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * Starts the runner: every `tickMs` (and when woken) it takes the lease of each active batch it can and runs it. `stop()` ends the loop
 * and waits for the runs under way.
 */
export function startRunner(options: RunnerOptions): Runner {
  const { docs, log } = options;
  const holder = randomUUID();
  const tickMs = options.tickMs ?? 500;
  const running = new Map<string, Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const stopWaiters = new Set<() => void>();

  /** Resolves after `ms`, or at once when the runner stops. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopped) return resolve();
      const done = () => {
        clearTimeout(t);
        stopWaiters.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      stopWaiters.add(done);
    });

  const tick = async () => {
    if (stopped) return;
    try {
      for (const id of await listIds(docs, 'active')) {
        if (stopped || running.has(id)) continue;
        // Reserved before the lease is asked for: a tick that overlaps this one (wake()) must not start a second run.
        running.set(id, Promise.resolve());
        let held = false;
        try {
          held = await docs.acquireLease(`batch:${id}`, holder, options.leaseMs);
        } finally {
          if (!held) running.delete(id);
        }
        if (!held) continue;
        // Which replica runs which batch (after a crash: which one took it over).
        log.info('payout batch taken', { batchId: id, runner: holder });
        const run = new BatchRun(id, options, holder, () => stopped, pause)
          .run()
          .catch((err: unknown) => log.warn('payout batch run stopped', { batchId: id, error: err }))
          .finally(() => {
            running.delete(id);
            void docs.releaseLease(`batch:${id}`, holder).catch(() => {});
          });
        running.set(id, run);
      }
    } catch (err) {
      log.warn('payout batch scan failed', { error: err });
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void tick().finally(schedule), tickMs);
  };
  schedule();

  return {
    wake() {
      void tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      for (const wake of [...stopWaiters]) wake();
      await Promise.allSettled([...running.values()]);
    },
  };
}
