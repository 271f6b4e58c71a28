// `npm test`: the static checks (scripts/static-checks.mjs) and the tests (vitest, with any arguments given to
// `npm test -- ...`) side by side. The suite is bound by the machine's two cores, and the checks fill the moments
// the tests wait on sockets, Redis and child processes: measured on the idle machine, warm caches: 49 s one after the other, 42 s side by side.
// The checks' report is printed after the tests' own; the exit code is non-zero when either failed.
import { spawn } from 'node:child_process';

const run = (command, args, stdio) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });

const [checks, tests] = await Promise.all([
  run(process.execPath, ['scripts/static-checks.mjs'], ['ignore', 'pipe', 'pipe']),
  run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)], 'inherit'),
]);
process.stdout.write(`\n${checks.output}`);
process.exit(checks.code === 0 && tests.code === 0 ? 0 : 1);
