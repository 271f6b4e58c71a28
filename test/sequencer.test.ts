import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { COMMITTED_DURATIONS, LongestFirstSequencer, MOSTLY_WAITING } from './sequencer.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const spec = (file: string) => ({ moduleId: path.join(root, file), project: { name: 'shared' } }) as unknown as TestSpecification;
const sequencer = (cached: Record<string, number> = {}, maxWorkers = 4) =>
  new LongestFirstSequencer({
    config: { root, maxWorkers },
    cache: { getFileTestResults: (key: string) => (key in cached ? { duration: cached[key], failed: false } : undefined) },
  } as unknown as Vitest);
const order = async (files: string[], cached?: Record<string, number>, maxWorkers?: number) =>
  (await sequencer(cached, maxWorkers).sort(files.map(spec))).map((s) => path.relative(root, s.moduleId));

describe('the order test files start in', () => {
  it('names only files that exist, so a renamed slow file is not silently left to start last', () => {
    const missing = [...Object.keys(COMMITTED_DURATIONS), ...MOSTLY_WAITING].filter((file) => !existsSync(path.join(root, file)));
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
    const sorted = await order(['test/console/journeys.test.ts', 'test/sequencer.test.ts'], { 'shared:test/sequencer.test.ts': 120_000 });
    expect(sorted).toEqual(['test/sequencer.test.ts', 'test/console/journeys.test.ts']);
  });

  it('keeps at most half the forks on waiting files while others remain, in a run of the whole suite played forward', async () => {
    const files = readdirSync(path.join(root, 'test'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => path.join('test', file).split(path.sep).join('/'));
    for (const forks of [4, 8]) {
      const sorted = await order(files, {}, forks);
      expect(sorted[0]).toBe('test/http/keep-alive.test.ts');
      expect([...sorted].sort()).toEqual([...files].sort());
      // Vitest's pool: each file in order to the fork that frees up first.
      const freeAt = Array.from({ length: forks }, () => 0);
      const waiting: Array<{ from: number; to: number }> = [];
      for (const file of sorted) {
        const from = Math.min(...freeAt);
        const fork = freeAt.indexOf(from);
        freeAt[fork] = from + Math.max(COMMITTED_DURATIONS[file] ?? 0, 0.3);
        if (MOSTLY_WAITING.has(file)) waiting.push({ from, to: freeAt[fork]! });
      }
      const most = Math.max(...waiting.map(({ from }) => waiting.filter((w) => w.from <= from && w.to > from).length));
      expect(most).toBe(forks / 2);
    }
  });

  it('starts the longest waiting file and the longest other one first', async () => {
    const sorted = await order(
      ['test/docs.test.ts', 'test/console/journeys.test.ts', 'test/payout-batches/cancel.test.ts', 'test/http/keep-alive.test.ts'],
      {},
      4,
    );
    expect(sorted.slice(0, 3)).toEqual([
      'test/http/keep-alive.test.ts',
      'test/payout-batches/cancel.test.ts',
      'test/console/journeys.test.ts',
    ]);
  });
});
