// Registered for every test file (vitest.config.ts, setupFiles): a test that
// makes no assertion fails, so a check that silently never runs (a loop over
// nothing, an early return) cannot pass for one that holds.
import { beforeEach, expect } from 'vitest';

beforeEach(() => {
  expect.hasAssertions();
});
