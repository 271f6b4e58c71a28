// The back office's build (console/, Vite): `npm run build` and `npm start` run it into dist/console/, which the
// gateway serves at /console (src/console/serve.ts) with no node_modules needed at run time. Like scripts/bundle.mjs,
// it skips the work when no input changed since the last build: an `npm start` with the console untouched costs a
// few stat calls. The tests build it once per run through the same function (test/compile-once.ts).
//
//   node scripts/build-console.mjs            # skips the work when no input changed since the last build
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
export const CONSOLE_OUTDIR = path.join(repoRoot, 'dist', 'console');
// Beside the build, not in it: the gateway serves dist/console/ whole.
const STAMP = path.join(repoRoot, 'dist', 'console-inputs.json');

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(file) : [file];
  });
}

/** What the build reads: the console's sources and config, the client kit's typed documents, the locked dependencies. */
function inputs() {
  return [
    ...filesUnder(path.join(repoRoot, 'console')),
    path.join(repoRoot, 'client', 'generated', 'graphql.ts'),
    path.join(repoRoot, 'package-lock.json'),
    fileURLToPath(import.meta.url),
  ];
}

/** True when the last build is there and newer than every input, and no input was added or removed since. */
export function consoleUpToDate() {
  if (!existsSync(STAMP) || !existsSync(path.join(CONSOLE_OUTDIR, 'index.html'))) return false;
  const made = statSync(STAMP).mtimeMs;
  const recorded = JSON.parse(readFileSync(STAMP, 'utf8'));
  const now = inputs();
  if (recorded.length !== now.length || now.some((file, i) => recorded[i] !== file)) return false;
  return now.every((file) => statSync(file).mtimeMs <= made);
}

/** Builds the console into dist/console/ unless it is up to date (or `force`). Returns whether it built. */
export async function buildConsole({ force = false } = {}) {
  if (!force && consoleUpToDate()) return false;
  const list = inputs();
  // Loaded only to build: an `npm start` with nothing changed skips it.
  const { build } = await import('vite');
  // Vite builds for the NODE_ENV it finds set (vitest sets `test`), and React then ships its development build:
  // slower, larger, and served by a later `npm start`, since the stamp says the build is up to date. The console
  // is only ever built for production.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: path.join(repoRoot, 'console', 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  writeFileSync(STAMP, JSON.stringify(list));
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildConsole();
}
