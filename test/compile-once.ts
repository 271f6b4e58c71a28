// vitest globalSetup: compiles src/, scripts/ and the tests' helper programs to JavaScript once per run, so
// the tests that start a process (`npm start`, `npm run token`, a second replica) start it with plain
// `node`, as `npm start` runs the compiled gateway, instead of transpiling every module again through tsx
// in each process (which took twice the CPU of the start itself). esbuild is the transform tsx applies, so
// the code run is the same; the output sits inside the project (.scratch/, gitignored) so that packages and
// the project's files (package.json, client/) are found from it as from src/. The programs a test starts
// are then bundled as `npm run build` bundles the gateway (scripts/bundle.mjs), so a process starts as the
// production one does: one module to load instead of a thousand (about 1 s of CPU less per process on Node 20).
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { bundle } from '../scripts/bundle.mjs';
import { buildConsole } from '../scripts/build-console.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where test/compile-once.ts put this run's compiled project (src/main.ts -> <here>/src/main.js). */
    compiledRoot: string;
  }
}

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The files tests start as programs (test/helpers/compiled.ts hands out their bundle). */
const PROGRAMS = [
  'src/main.ts',
  'src/sandbox/main.ts',
  ...readdirSync(path.join(repoRoot, 'scripts'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `scripts/${f}`),
  'test/helpers/replica-process.ts',
  'test/events/fixtures/bus-exit.ts',
  'test/live/fixtures/memory-rounds.ts',
  'test/sandbox/fixtures/close-exits.ts',
];

function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(file);
    return file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.endsWith('.test.ts') ? [file] : [];
  });
}

/** The build shared by the root and each project (vitest calls a root globalSetup once for each of them). */
interface SharedBuild {
  outdir: Promise<string>;
  /** The back office's build in dist/console/ (skipped when up to date), which the console's browser suites serve. */
  console: Promise<boolean>;
  users: number;
}
const shared = globalThis as typeof globalThis & { compiledForTests?: SharedBuild };

async function compileInto(outdir: string): Promise<void> {
  await build({
    entryPoints: ['src', 'scripts', 'test'].flatMap((dir) => typeScriptFiles(path.join(repoRoot, dir))),
    outdir,
    outbase: repoRoot,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: path.join(repoRoot, 'tsconfig.json'),
    logLevel: 'error',
  });
  await bundle(
    Object.fromEntries(PROGRAMS.map((file) => [file.replace(/\.ts$/, ''), path.join(outdir, file.replace(/\.ts$/, '.js'))])),
    path.join(outdir, 'bundle'),
  );
}

async function compile(): Promise<string> {
  const scratch = path.join(repoRoot, '.scratch');
  mkdirSync(scratch, { recursive: true });
  // A run stopped before its teardown leaves its folder behind: those older than a day go.
  for (const entry of readdirSync(scratch)) {
    const folder = path.join(scratch, entry);
    if (entry.startsWith('compiled-') && Date.now() - statSync(folder).mtimeMs > 86_400_000)
      rmSync(folder, { recursive: true, force: true });
  }
  // One folder per run: two runs in one checkout never overwrite each other's files.
  const outdir = mkdtempSync(path.join(scratch, 'compiled-'));
  await compileInto(outdir);
  return outdir;
}

export default async function setup(project: TestProject): Promise<() => void> {
  const current = (shared.compiledForTests ??= { outdir: compile(), console: buildConsole(), users: 0 });
  current.users += 1;
  const [outdir] = await Promise.all([current.outdir, current.console]);
  project.provide('compiledRoot', outdir);
  // Watch mode: a rerun after an edit starts the edited code, not the build of the first run.
  project.onTestsRerun(() => compileInto(outdir));
  return () => {
    if (--current.users > 0) return;
    shared.compiledForTests = undefined;
    rmSync(outdir, { recursive: true, force: true });
  };
}
