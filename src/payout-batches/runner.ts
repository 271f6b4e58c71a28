// Runs payout batches: on every replica a loop looks for batches set to run and
// takes a batch's lease (one replica at a time runs it; a replica that dies
// loses it within the lease time and another takes over, PAYOUT_BATCH_LEASE_MS).
// What a run does with its batch: batch-run.ts. In platform mode the loop goes
// over the merchants with batches to run, each batch run with its merchant's
// own documents, pacer and client of the service.
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.js';
import { BatchRun, type RunnerOptions } from './batch-run.js';
import { listIds } from './batch-operations.js';

export type { RunnerOptions } from './batch-run.js';

/** The loop that finds batches to run and runs each on the replica that holds its lease. */
export interface Runner {
  /** Looks for work now (after a start, an approval, a resume). */
  wake(): void;
  stop(): Promise<void>;
}

/** What the loop needs: where to find batches (one scope in single mode, one per merchant with batches to run in platform mode). */
export interface RunnerLoop {
  log: Logger;
  leaseMs: number;
  /** How often each replica looks for batches to run. */
  tickMs?: number;
  /** The scopes to look in now, each with what its runs need. */
  scopes(): Promise<RunnerOptions[]>;
  /** A scope had no batch left to run (platform mode: the merchant leaves the list of those with work). */
  emptied?(scope: RunnerOptions): Promise<void>;
}

/** Starts the runner of one scope (single mode): see startRunnerLoop. */
export function startRunner(options: RunnerOptions): Runner {
  return startRunnerLoop({ log: options.log, leaseMs: options.leaseMs, tickMs: options.tickMs, scopes: async () => [options] });
}

/**
 * Starts the runner: every `tickMs` (and when woken) it takes the lease of each active batch of each scope it can and runs it. `stop()`
 * ends the loop and waits for the runs under way.
 */
export function startRunnerLoop(loop: RunnerLoop): Runner {
  const { log } = loop;
  const holder = randomUUID();
  const tickMs = loop.tickMs ?? 500;
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

  const runScope = async (options: RunnerOptions) => {
    const { docs } = options;
    const ids = await listIds(docs, 'active');
    if (ids.length === 0) return loop.emptied?.(options);
    for (const id of ids) {
      // Two merchants' batch ids never meet (each derives from its merchant's scoped key), but runs are kept by both.
      const runKey = `${options.merchantId ?? ''}/${id}`;
      if (stopped || running.has(runKey)) continue;
      // Reserved before the lease is asked for: a tick that overlaps this one (wake()) must not start a second run.
      running.set(runKey, Promise.resolve());
      let held = false;
      try {
        held = await docs.acquireLease(`batch:${id}`, holder, options.leaseMs);
      } finally {
        if (!held) running.delete(runKey);
      }
      if (!held) continue;
      // Which replica runs which batch (after a crash: which one took it over).
      log.info('payout batch taken', { batchId: id, runner: holder, ...(options.merchantId ? { merchantId: options.merchantId } : {}) });
      const run = new BatchRun(id, options, holder, () => stopped, pause)
        .run()
        .catch((err: unknown) => log.warn('payout batch run stopped', { batchId: id, error: err }))
        .finally(() => {
          running.delete(runKey);
          void docs.releaseLease(`batch:${id}`, holder).catch(() => {});
        });
      running.set(runKey, run);
    }
  };

  const tick = async () => {
    if (stopped) return;
    try {
      // Each scope on its own: one merchant whose documents cannot be read holds back no other.
      const failures = (await Promise.allSettled((await loop.scopes()).map(runScope))).flatMap((r) =>
        r.status === 'rejected' ? [r.reason as unknown] : [],
      );
      if (failures.length > 0) log.warn('payout batch scan failed', { error: failures[0] });
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
