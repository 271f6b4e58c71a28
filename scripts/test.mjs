// `npm test`: the static checks (scripts/static-checks.mjs) and the tests (vitest, with any arguments given to
// `npm test -- ...`) side by side, after the tests' code generation. The suite is bound by the machine's two cores,
// and the checks, at the lowest priority, fill the moments the tests wait on sockets, Redis and child processes
// without slowing the tests' own work (docs/performance.md, the test suite).
// The checks' report is printed after the tests' own; the exit code is non-zero when either failed.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

/** The lowest priority: a process that runs only on what the tests leave of the cores. */
const BACKGROUND = 19;

const run = (command, args, stdio, priority) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio });
    // Set before the checks start their own processes (ESLint, tsc, prettier), which inherit it.
    if (priority !== undefined && child.pid !== undefined) setPriority(child.pid, priority);
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });

// The tests' typed documents first (scripts/test-codegen.mjs: the type check, ESLint's import rules and the tests
// read them); the format check needs none of them, so it runs beside the generation, on the core it leaves idle.
const formatCheck = run(process.execPath, ['scripts/static-checks.mjs', 'prettier'], ['ignore', 'pipe', 'pipe'], BACKGROUND);
const codegen = await run(process.execPath, ['scripts/test-codegen.mjs'], 'inherit');
if (codegen.code !== 0) process.exit(1);
const [format, checks, tests] = await Promise.all([
  formatCheck,
  run(process.execPath, ['scripts/static-checks.mjs', 'typecheck', 'eslint'], ['ignore', 'pipe', 'pipe'], BACKGROUND),
  run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)], 'inherit'),
]);
process.stdout.write(`\n${checks.output}${format.output}`);
process.exit(format.code === 0 && checks.code === 0 && tests.code === 0 ? 0 : 1);
