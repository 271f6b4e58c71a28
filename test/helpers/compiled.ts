// The project compiled once for this test run (test/compile-once.ts): a test that starts a program in a
// process of its own runs `node compiled('src/main.ts')` rather than `node --import tsx src/main.ts`.
import path from 'node:path';
import { inject } from 'vitest';

/** The compiled JavaScript of a .ts file of the project, given relative to the project's root. */
export function compiled(file: string): string {
  return path.join(inject('compiledRoot'), file.replace(/\.ts$/, '.js'));
}
