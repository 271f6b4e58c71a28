// The order vitest starts test files in. Most of the suite's wall time is a few files that wait on real default
// timers (a keep-alive connection idle for 59 s, takeovers, orphaned claims); started last, one of them alone
// outlasts everything else. Vitest orders by the last run's durations, which a fresh clone (and CI) lacks, and then
// falls back to file size, which put the 59 s file last. This sequencer starts the longest known files first:
// vitest's own timings when it has them, else the committed ones (test/file-durations.json, written by
// scripts/record-test-durations.mjs from a run on a fresh clone), else by size as vitest does; and it keeps at most
// half the forks on the files that mostly wait (MOSTLY_WAITING), so that the others keep the two cores busy.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Each listed file's wall time in seconds, from a fresh clone's run on the 2-core machine. */
export const COMMITTED_DURATIONS: Readonly<Record<string, number>> = JSON.parse(
  readFileSync(new URL('./file-durations.json', import.meta.url), 'utf8'),
);

/**
 * The files that spend most of their time waiting on real default timers (a takeover's 20 s, an orphaned claim's
 * deadline, an idle connection's 59 s), with little CPU of their own: among MOSTLY_WAITING below, and left out of CI's
 * second pass (vitest.config.ts, SECOND_NODE_SKIPS).
 */
export const TIMER_WAITERS: ReadonlySet<string> = new Set([
  'test/http/keep-alive.test.ts',
  'test/outbound-webhooks/takeover-defaults.test.ts',
  'test/outbound-webhooks/takeover-not-before.test.ts',
  'test/payout-batches/takeover-defaults.test.ts',
  'test/payout-batches/money-rules.test.ts',
  'test/payout-batches/cancel.test.ts',
  'test/idempotency/orphaned-claim.test.ts',
]);

/**
 * The files that spend most of their wall time waiting (measured alone on the 2-core machine, 2026-11-29: CPU under a
 * quarter of their wall time, the 2 s of vitest's own start included): the timer waiters, and two files that wait on
 * the retry schedule and on Redis. The sequencer keeps at most half the forks on them at once.
 */
export const MOSTLY_WAITING: ReadonlySet<string> = new Set([
  ...TIMER_WAITERS,
  'test/outbound-webhooks/redelivery.test.ts',
  'test/outbound-webhooks/upgrade.test.ts',
]);

/** A file and the best estimate of its duration in seconds. */
interface Estimated {
  spec: TestSpecification;
  seconds: number;
  waits: boolean;
}

/**
 * The order that keeps at most half of `forks` on waiting files at once and otherwise starts the longest first: it
 * plays vitest's pool forward with the estimates (each file goes to the fork that frees up first) and, at each start,
 * takes the longest waiting file while fewer than half the forks run one, else the longest other file. Longest first
 * alone once held all four forks with waiting files for 20 s while the cores idled.
 */
function waitersAtMostHalf(files: readonly Estimated[], forks: number): TestSpecification[] {
  const longest = (a: Estimated, b: Estimated) => b.seconds - a.seconds;
  const waiters = files.filter((f) => f.waits).sort(longest);
  const others = files.filter((f) => !f.waits).sort(longest);
  const cap = Math.max(1, Math.floor(forks / 2));
  const freeAt = Array.from({ length: Math.max(1, forks) }, () => 0);
  const waitingUntil: number[] = [];
  const order: TestSpecification[] = [];
  while (waiters.length > 0 || others.length > 0) {
    const now = Math.min(...freeAt);
    const fork = freeAt.indexOf(now);
    const waitingNow = waitingUntil.filter((end) => end > now).length;
    const takeWaiter = waiters.length > 0 && (waitingNow < cap || others.length === 0);
    const next = (takeWaiter ? waiters : others).shift()!;
    // A file under a second (not in the committed list) still moves the clock, as it does in a run.
    freeAt[fork] = now + Math.max(next.seconds, 0.3);
    if (takeWaiter) waitingUntil.push(freeAt[fork]!);
    order.push(next.spec);
  }
  return order;
}

/** Longest first, by the best estimate of each file's duration in seconds, at most half the forks waiting; project order kept as vitest's. */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const relative = (spec: TestSpecification) => path.relative(root, spec.moduleId).split(path.sep).join('/');
    const estimate = (spec: TestSpecification): number => {
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path.relative(root, spec.moduleId)}`);
      if (cached) return cached.duration / 1000;
      return COMMITTED_DURATIONS[relative(spec)] ?? 0;
    };
    // Ties (files of no known duration) by size, as vitest orders files it knows nothing of.
    const bySize = [...files].sort((a, b) => statSync(b.moduleId).size - statSync(a.moduleId).size);
    const forks = this.ctx.config.maxWorkers ?? 4;
    const projects = [...new Set(files.map((spec) => spec.project.name))].sort();
    return projects.flatMap((project) =>
      waitersAtMostHalf(
        bySize
          .filter((spec) => spec.project.name === project)
          .map((spec) => ({ spec, seconds: estimate(spec), waits: MOSTLY_WAITING.has(relative(spec)) })),
        forks,
      ),
    );
  }
}
