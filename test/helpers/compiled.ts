// The project compiled once for this test run (test/compile-once.ts): a test that starts a program in a
// process of its own runs `node compiled('src/main.ts')` rather than `node --import tsx src/main.ts`.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

/**
 * The compiled JavaScript of a .ts file of the project, given relative to the project's root: for a program
 * that tests start (test/compile-once.ts, PROGRAMS), its bundle, as `npm start` runs the gateway's.
 */
export function compiled(file: string): string {
  const bundled = path.join(inject('compiledRoot'), 'bundle', file.replace(/\.ts$/, '.mjs'));
  return existsSync(bundled) ? bundled : path.join(inject('compiledRoot'), file.replace(/\.ts$/, '.js'));
}
