// The production bundle: `npm run build` (and `npm start`) turns what tsc emitted (dist/src/) into
// dist/bundle/main.mjs, the gateway and its dependencies in one ES module, plus chunks for what only some starts
// load (the sandbox, GraphiQL's page, tracing). Node 20's loader resolves, reads and compiles each of the ~1,000
// modules of dist/src/ and its dependencies one by one: about 1 s before the first answer, where the bundle takes
// a third of that.
// The code is not minified (names and esbuild's `// node_modules/<package>/<file>` markers stay readable in a
// profile), and no source map is written: no stack trace is ever logged or answered.
//
//   node scripts/bundle.mjs            # skips the work when no input changed since the last bundle
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

// esbuild's ES-module output has no `require`, `__filename` or `__dirname`, which bundled CommonJS packages
// reach for (Node's own modules, ws's optional native helpers): each output file defines them for its place.
const COMMONJS_GLOBALS = [
  "import { createRequire as __bundleRequire } from 'node:module';",
  "import { fileURLToPath as __bundlePath } from 'node:url';",
  "import { dirname as __bundleDir } from 'node:path';",
  'const require = __bundleRequire(import.meta.url);',
  'const __filename = __bundlePath(import.meta.url);',
  'const __dirname = __bundleDir(__filename);',
].join(' ');

/**
 * Bundles each entry (compiled JavaScript; `entries` maps an output name to its file) into `outdir` as
 * `<name>.mjs`, with what is loaded later or shared between entries in `outdir/chunks/`. Returns esbuild's
 * metafile, whose `inputs` are relative to the project root.
 */
export async function bundle(entries, outdir) {
  rmSync(outdir, { recursive: true, force: true });
  // Loaded only to bundle: an `npm start` with nothing changed skips it.
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: entries,
    absWorkingDir: repoRoot,
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    // The oldest Node package.json's `engines` accepts.
    target: 'node20.19',
    banner: { js: COMMONJS_GLOBALS },
    metafile: true,
    logLevel: 'error',
  });
  return result.metafile;
}

const OUTDIR = path.join(repoRoot, 'dist', 'bundle');
// Beside the bundle, not in it: the image copies dist/bundle/ whole.
const INPUTS = path.join(repoRoot, 'dist', 'bundle-inputs.json');

/** True when the last bundle is there and newer than every file it was made from (and than this script). */
function upToDate() {
  if (!existsSync(INPUTS) || !existsSync(path.join(OUTDIR, 'main.mjs'))) return false;
  const made = statSync(INPUTS).mtimeMs;
  const inputs = [...JSON.parse(readFileSync(INPUTS, 'utf8')), fileURLToPath(import.meta.url)];
  return inputs.every((file) => existsSync(file) && statSync(file).mtimeMs <= made);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!upToDate()) {
    const metafile = await bundle({ main: path.join(repoRoot, 'dist', 'src', 'main.js') }, OUTDIR);
    writeFileSync(INPUTS, JSON.stringify(Object.keys(metafile.inputs).map((file) => path.resolve(repoRoot, file))));
  }
}
