// The checks that need no server, run side by side (the machine has two cores and
// each is single-threaded): type check, lint with the layering rules, format check.
// Each one's output is printed whole when it ends; the exit code is non-zero when any failed.
//
// Each keeps a cache in node_modules/.cache (absent on a fresh clone, so the first run checks everything):
// tsc runs in build mode on tsconfig.check.json (tsconfig.json, no emit), whose build info records every
// file's hash, what depends on it and the errors found, so a run with nothing changed stops after comparing
// them and a run with changes re-checks what they can affect; prettier and ESLint key each file's
// result on its content and the config. ESLint's cross-file rules stay sound with a per-file cache: a new
// import cycle always has its new import in a changed file (no-cycle reports it there), and an import
// whose target disappeared is a type error (TS2307) even when the importing file is unchanged.
import { spawn } from 'node:child_process';

const checks = [
  // TypeScript 7, the native compiler (package typescript-native): the same checks in a quarter of the CPU. The
  // package named typescript stays at 5.x for typescript-eslint's parser; both ship a `tsc` bin, so it is called by path.
  ['typecheck', process.execPath, ['node_modules/typescript-native/bin/tsc', '-b', 'tsconfig.check.json', 'console/tsconfig.json']],
  ['eslint', 'npx', ['eslint', '--cache', '--cache-strategy', 'content', '--cache-location', 'node_modules/.cache/eslint/', '.']],
  ['prettier', 'npx', ['prettier', '--check', '--cache', '--cache-strategy', 'content', '.']],
];

// `node scripts/static-checks.mjs prettier` runs the checks named (npm test runs the format check beside the tests'
// code generation, which the other two need); none named: all three.
const named = process.argv.slice(2);
const results = await Promise.all(
  checks
    .filter(([name]) => named.length === 0 || named.includes(name))
    .map(
      ([name, command, args]) =>
        new Promise((resolve) => {
          const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
          let output = '';
          child.stdout.on('data', (chunk) => (output += chunk));
          child.stderr.on('data', (chunk) => (output += chunk));
          child.on('close', (code) => {
            const lines = output.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('npm warn'));
            process.stdout.write(
              `== ${name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`}\n${code === 0 ? '' : lines.join('\n') + '\n'}`,
            );
            resolve(code === 0);
          });
        }),
    ),
);
process.exit(results.every(Boolean) ? 0 : 1);
