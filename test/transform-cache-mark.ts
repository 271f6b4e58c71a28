// Where vitest's transform cache lives (`experimental.fsModuleCache`, its default folder) and the mark a run leaves
// in it (test/transform-cache.ts). Vitest keys each entry on the text of vitest.config.ts and on the Node version
// (vite's resolve options list the runtime's built-in modules), so the mark names both.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const TRANSFORM_CACHE = fileURLToPath(new URL('../node_modules/.experimental-vitest-cache', import.meta.url));

export function transformCacheMark(): string {
  const config = createHash('sha1')
    .update(readFileSync(new URL('../vitest.config.ts', import.meta.url)))
    .digest('hex')
    .slice(0, 12);
  return `.filled-on-node-${process.versions.node}-config-${config}`;
}
