// The checks that need no server, run side by side (the machine has two cores and
// each is single-threaded): type check, lint with the layering rules, format check.
// Each one's output is printed whole when it ends; the exit code is non-zero when any failed.
import { spawn } from 'node:child_process';

const checks = [
  ['typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['eslint', 'npx', ['eslint', '.']],
  ['prettier', 'npx', ['prettier', '--check', '.']],
];

const results = await Promise.all(
  checks.map(
    ([name, command, args]) =>
      new Promise((resolve) => {
        const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        child.on('close', (code) => {
          const lines = output.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('npm warn'));
          process.stdout.write(`== ${name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`}\n${code === 0 ? '' : lines.join('\n') + '\n'}`);
          resolve(code === 0);
        });
      }),
  ),
);
process.exit(results.every(Boolean) ? 0 : 1);
