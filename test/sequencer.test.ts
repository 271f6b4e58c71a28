import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { COMMITTED_DURATIONS, LongestFirstSequencer, TIMER_WAITERS } from './sequencer.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const spec = (file: string) => ({ moduleId: path.join(root, file), project: { name: 'shared' } }) as unknown as TestSpecification;
const sequencer = (cached: Record<string, number> = {}) =>
  new LongestFirstSequencer({
    config: { root },
    cache: { getFileTestResults: (key: string) => (key in cached ? { duration: cached[key], failed: false } : undefined) },
  } as unknown as Vitest);
const order = async (files: string[], cached?: Record<string, number>) =>
  (await sequencer(cached).sort(files.map(spec))).map((s) => path.relative(root, s.moduleId));

describe('the order test files start in', () => {
  it('names only files that exist, so a renamed slow file is not silently left to start last', () => {
    const missing = [...Object.keys(COMMITTED_DURATIONS), ...TIMER_WAITERS].filter((file) => !existsSync(path.join(root, file)));
    expect(missing).toEqual([]);
    expect(COMMITTED_DURATIONS['test/http/keep-alive.test.ts']).toBeGreaterThan(50);
  });

  it('starts the longest committed file first on a fresh clone, before larger files vitest would pick by size', async () => {
    const files = ['test/docs.test.ts', 'test/schema/access.test.ts', 'test/http/keep-alive.test.ts', 'test/sequencer.test.ts'];
    const sorted = await order(files);
    expect(sorted[0]).toBe('test/http/keep-alive.test.ts');
    expect(sorted.indexOf('test/schema/access.test.ts')).toBeLessThan(sorted.indexOf('test/sequencer.test.ts'));
  });

  it("prefers vitest's own timing of the last run on this machine over the committed one", async () => {
    const sorted = await order(['test/http/keep-alive.test.ts', 'test/sequencer.test.ts'], { 'shared:test/sequencer.test.ts': 120_000 });
    expect(sorted).toEqual(['test/sequencer.test.ts', 'test/http/keep-alive.test.ts']);
  });

  it('spreads the files that wait on timers among the others: never two of them side by side in the order', async () => {
    const files = [
      ...TIMER_WAITERS,
      'test/console/journeys.test.ts',
      'test/console/operator-journeys.test.ts',
      'test/outbound-webhooks/replicas.test.ts',
      'test/docs.test.ts',
      'test/schema/access.test.ts',
      'test/sequencer.test.ts',
      'test/outbound-webhooks/platform-events.test.ts',
    ];
    const sorted = await order(files);
    expect(sorted[0]).toBe('test/http/keep-alive.test.ts');
    const waits = sorted.map((file) => TIMER_WAITERS.has(file));
    expect(waits.slice(0, 14)).toEqual([true, false, true, false, true, false, true, false, true, false, true, false, true, false]);
    // The others keep their longest-first order (by the committed durations, which a new recording changes).
    const others = files.filter((file) => !TIMER_WAITERS.has(file));
    const longestOthers = [...others].sort((x, y) => (COMMITTED_DURATIONS[y] ?? 0) - (COMMITTED_DURATIONS[x] ?? 0));
    expect(sorted.filter((file) => !TIMER_WAITERS.has(file))).toEqual(longestOthers);
  });
});
