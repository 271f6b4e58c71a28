// vitest globalSetup: after a run, marks the transform cache (vitest.config.ts, `fsModuleCache`) as filled for this
// Node and this config (test/transform-cache-mark.ts): a cache filled on another Node, or before the config changed,
// is cold. vitest.config.ts reads the mark to choose how many forks to start.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TRANSFORM_CACHE, transformCacheMark } from './transform-cache-mark.js';

export default function setup(): () => void {
  return () => {
    mkdirSync(TRANSFORM_CACHE, { recursive: true });
    writeFileSync(path.join(TRANSFORM_CACHE, transformCacheMark()), new Date().toISOString());
  };
}
