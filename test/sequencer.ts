// The order vitest starts test files in. Most of the suite's wall time is a few files that wait on real default
// timers (a keep-alive connection idle for 59 s, takeovers, orphaned claims); started last, one of them alone
// outlasts everything else. Vitest orders by the last run's durations, which a fresh clone (and CI) lacks, and then
// falls back to file size, which put the 59 s file last. This sequencer starts the longest known files first:
// vitest's own timings when it has them, else the committed ones (test/file-durations.json, written by
// scripts/record-test-durations.mjs from a run on a fresh clone), else by size as vitest does; and it spreads the
// files that mostly wait on timers among the others (TIMER_WAITERS).
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Each listed file's wall time in seconds, from a fresh clone's run on the 2-core machine. */
export const COMMITTED_DURATIONS: Readonly<Record<string, number>> = JSON.parse(
  readFileSync(new URL('./file-durations.json', import.meta.url), 'utf8'),
);

/**
 * The files that spend most of their time waiting on real default timers (a takeover's 20 s, an orphaned claim's
 * deadline, an idle connection's 59 s), with little CPU of their own. Longest first alone started them together: four
 * of them once held all four forks for 16 s while the two cores idled. They are spread among the others instead.
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
 * Longest first, by the best estimate of each file's duration in seconds; project order kept as vitest's. Within a
 * project, the timer waiters take every other place from the start, so that about half the forks wait while the
 * others keep the cores busy.
 */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const relative = (spec: TestSpecification) => path.relative(root, spec.moduleId).split(path.sep).join('/');
    const estimate = (spec: TestSpecification): number => {
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path.relative(root, spec.moduleId)}`);
      if (cached) return cached.duration / 1000;
      return COMMITTED_DURATIONS[relative(spec)] ?? 0;
    };
    const size = (spec: TestSpecification): number => statSync(spec.moduleId).size;
    const longestFirst = [...files].sort((a, b) => estimate(b) - estimate(a) || size(b) - size(a));
    const projects = [...new Set(files.map((spec) => spec.project.name))].sort();
    return projects.flatMap((project) => {
      const own = longestFirst.filter((spec) => spec.project.name === project);
      const waiters = own.filter((spec) => TIMER_WAITERS.has(relative(spec)));
      const others = own.filter((spec) => !TIMER_WAITERS.has(relative(spec)));
      // The longer of the two heads first (the longest file of all still starts at once), then each list in turn.
      const lists = estimate(waiters[0] ?? others[0]!) >= estimate(others[0] ?? waiters[0]!) ? [waiters, others] : [others, waiters];
      const spread: TestSpecification[] = [];
      while (lists.some((list) => list.length)) for (const list of lists) if (list.length) spread.push(list.shift()!);
      return spread;
    });
  }
}
