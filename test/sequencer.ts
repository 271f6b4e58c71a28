// The order vitest starts test files in. Most of the suite's wall time is a few files that wait on real default
// timers (a keep-alive connection idle for 59 s, takeovers, orphaned claims); started last, one of them alone
// outlasts everything else. Vitest orders by the last run's durations, which a fresh clone (and CI) lacks, and then
// falls back to file size, which put the 59 s file last. This sequencer starts the longest known files first:
// vitest's own timings when it has them, else the committed ones (test/file-durations.json, written by
// scripts/record-test-durations.mjs from a run on a fresh clone), else by size as vitest does.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Each listed file's wall time in seconds, from a fresh clone's run on the 2-core machine. */
export const COMMITTED_DURATIONS: Readonly<Record<string, number>> = JSON.parse(
  readFileSync(new URL('./file-durations.json', import.meta.url), 'utf8'),
);

/** Longest first, by the best estimate of each file's duration in seconds; project order kept as vitest's. */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const estimate = (spec: TestSpecification): number => {
      const relative = path.relative(root, spec.moduleId).split(path.sep).join('/');
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path.relative(root, spec.moduleId)}`);
      if (cached) return cached.duration / 1000;
      return COMMITTED_DURATIONS[relative] ?? 0;
    };
    const size = (spec: TestSpecification): number => statSync(spec.moduleId).size;
    return [...files].sort((a, b) => {
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      return estimate(b) - estimate(a) || size(b) - size(a);
    });
  }
}
