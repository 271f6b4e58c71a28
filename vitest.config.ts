import { existsSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer, TIMER_WAITERS } from './test/sequencer.js';
import { TRANSFORM_CACHE, transformCacheMark } from './test/transform-cache-mark.js';

const require = createRequire(import.meta.url);

/** Test files that mock a module (vi.mock): none today; list one here if it must. */
const MOCKING: string[] = [];

/**
 * The back office's suites in Chromium (journeys, operator journeys, OIDC sign-in, quality bars, platform mode): part of `npm test`;
 * `npm run test:console` (CONSOLE_BROWSER_SUITES=1) runs them alone, a shortcut while working on the console.
 */
const CONSOLE_BROWSER_SUITES = [
  'test/console/journeys.test.ts',
  'test/console/operator-journeys.test.ts',
  'test/console/sign-in.test.ts',
  'test/console/quality.test.ts',
  'test/console/platform.test.ts',
];
const consoleSuitesOnly = process.env.CONSOLE_BROWSER_SUITES === '1';

/**
 * CI's second pass, on the production Node (.ci/run sets SECOND_NODE=1): the suite without the files whose subject is
 * not the Node that runs them, so that both passes fit CI's 10 minutes on the 2-core machine: the back office in
 * Chromium (the browser's work), Redis Sentinel and Cluster failovers (redis-server's), and the files that mostly wait
 * on real default timers (timers are the same on either Node; the idle keep-alive file, Node's own HTTP server, stays).
 */
const SECOND_NODE_SKIPS =
  process.env.SECOND_NODE === '1'
    ? [
        ...CONSOLE_BROWSER_SUITES,
        'test/redis/cluster.test.ts',
        'test/redis/sentinel.test.ts',
        ...[...TIMER_WAITERS].filter((file) => file !== 'test/http/keep-alive.test.ts'),
      ]
    : [];

export default defineConfig({
  resolve: {
    // graphql 16 ships a CJS entry (`main`, what Node loads for us and for yoga)
    // and an ESM one (`module`, what Vite would pick for our sources). Two
    // copies break `instanceof GraphQLError`; make tests load the one Node loads.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    // Files that replace a module (vi.mock) need a fresh module graph; every other file shares its
    // worker's modules with the files before it, which saves most of the suite's time (importing the
    // schema, yoga and the sandbox once per worker instead of once per file). Each file still starts its
    // own servers on free ports and shares no state but loaded code.
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: consoleSuitesOnly ? CONSOLE_BROWSER_SUITES : ['test/**/*.test.ts'],
          exclude: consoleSuitesOnly ? [] : [...MOCKING, ...SECOND_NODE_SKIPS],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: [...MOCKING], isolate: true } },
    ],
    // expect.hasAssertions() before every test: a test that asserts nothing fails.
    setupFiles: ['test/setup.ts'],
    // Compiles the project once for the tests that start it in a process of its own (test/helpers/compiled.ts).
    globalSetup: ['test/compile-once.ts', 'test/transform-cache.ts'],
    // The files that wait longest start first (test/sequencer.ts): on a fresh clone vitest knows no durations.
    sequence: { sequencer: LongestFirstSequencer },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Servers bind real ports; files run in parallel forks, each picking free ports.
    pool: 'forks',
    // Most of a file's time is spent waiting on sockets, Redis, failovers and default timers (a takeover
    // test waits 20 s of real time), not on the CPU. With four forks the four longest waiters held every
    // fork at the start while the cores idled; eight overlap the waits with the CPU-bound files (measured
    // on this 2-core machine, warm: 109 s with four, 98-102 s with six, 86-88 s with eight). But before the
    // transform cache below exists (a fresh clone), each fork transforms the sources itself, and eight
    // then cost more than they save (fresh clone: 134 s with four, 151 s with eight); the cache is per Node
    // version and config (test/transform-cache.ts marks it after a run). Set here, not on the command line: each
    // project inherits it (`--maxWorkers` alone left the projects at four).
    maxWorkers: existsSync(path.join(TRANSFORM_CACHE, transformCacheMark())) ? 8 : 4,
    experimental: {
      // Keeps each module's transform on disk (node_modules/.experimental-vitest-cache, keyed on the file's
      // content and the config), so a run re-transforms only what changed: measured 10 s of transform down to
      // 1.5 s, CPU the 2-core machine otherwise takes from the tests while the workers start.
      fsModuleCache: true,
    },
  },
});
