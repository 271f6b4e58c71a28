// The urql and Apollo set-ups of docs/frontends.md, taken from the guide itself (so
// the guide cannot drift from what works) and run as a newcomer would run them:
// each in its own Node process, against a gateway started as `npm start` starts
// it (sandbox mode, every default), with only the two constants the guide marks
// "← yours" set to the gateway's URL and the development token it printed.
// Each recipe creates a charge, reads a typed error's messageFr, and follows the
// charge live until the OTP it submits makes it SUCCESS; both also type-check.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareEnv, repoRoot, startAsNpmStart, type StartedGateway } from './helpers/npm-start.js';
import { withTimeout } from './helpers/wait.js';

/** Writes `text` unless the file holds it already (its time then stays that of the last change); says if it wrote. */
function writeIfChanged(file: string, text: string): boolean {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return false;
  writeFileSync(file, text);
  return true;
}

/** The first ```ts block after the paragraph that starts with `lead`. */
export function guideBlock(readme: string, lead: string): string {
  const at = readme.indexOf(lead);
  if (at < 0) throw new Error(`docs/frontends.md has no paragraph starting ${lead}`);
  const open = readme.indexOf('```ts\n', at);
  const close = readme.indexOf('\n```', open + 6);
  return readme.slice(open + 6, close + 1);
}

/** Sets the marked constants; nothing else of the block changes but where the kit is imported from. */
function runnable(block: string, graphqlUrl: string, token: string, folder: string): string {
  const marked = /^const (GATEWAY_URL|TOKEN) = '[^']*'; \/\/ ← yours$/gm;
  expect(block.match(marked)).toHaveLength(2);
  return block
    .replace(marked, (_line, name: string) => `const ${name} = ${JSON.stringify(name === 'TOKEN' ? token : graphqlUrl)};`)
    .replaceAll("from './client/", `from '${path.relative(folder, path.join(repoRoot, 'client'))}/`);
}

async function runRecipe(source: string, file: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  writeFileSync(file, source);
  // Built as a frontend's bundler builds it: the recipe and the client kit it imports in one module, the
  // packages left to node_modules (esbuild, which Vite uses for TypeScript; cheaper than tsx per process).
  const built = file.replace(/\.ts$/, '.mjs');
  await build({
    entryPoints: [file],
    outfile: built,
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
  });
  // Node 20's WebSocket is behind this flag; a browser has it (the guide says so).
  const child = spawn(process.execPath, ['--experimental-websocket', '--no-warnings', built], {
    cwd: repoRoot,
    env: bareEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => void (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => void (stderr += c.toString()));
  try {
    const code = await withTimeout(new Promise<number | null>((r) => child.once('exit', r)), 40_000, `${path.basename(file)} to finish`);
    return { code, stdout, stderr };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

describe('the frontend guide’s recipes against `npm start`', () => {
  const readme = readFileSync(path.join(repoRoot, 'docs', 'frontends.md'), 'utf8');
  // Inside the project, so the recipe's imports resolve from its node_modules (.scratch/ is gitignored).
  const folder = path.join(repoRoot, '.scratch', path.basename(mkdtempSync(path.join(tmpdir(), 'readme-'))));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'readme-sandbox-'));
  let gateway: StartedGateway;

  beforeAll(async () => {
    mkdirSync(folder, { recursive: true });
    gateway = await startAsNpmStart({ SANDBOX_DATA_DIR: dataDir });
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
    rmSync(folder, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  for (const [name, lead] of [
    ['urql', '**urql** (`@urql/core`'],
    ['Apollo Client', '**Apollo Client** (4.x'],
  ] as const) {
    it(`runs the ${name} set-up as written`, async () => {
      const block = guideBlock(readme, lead);
      const token = gateway.authorization.replace(/^Bearer /, '');
      const result = await runRecipe(runnable(block, gateway.graphqlUrl, token, folder), path.join(folder, `${name.replace(' ', '-')}.ts`));
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const lines = result.stdout.trim().split('\n');
      // The refused number's typed error, in French.
      expect(lines[0]).toBe('error INVALID_ACCOUNT Ce numéro n’est pas valide ou n’a pas de compte mobile money chez cet opérateur.');
      expect(lines[1]).toMatch(/^charge ch_\S+ SEND_OTP$/);
      // The current state, then the change the OTP made (urql repeats a stream's last result as it ends).
      expect(lines.slice(2, 4)).toEqual(['chargeUpdated SEND_OTP', 'chargeUpdated SUCCESS']);
    }, 60_000);
  }

  it('type-checks both as a frontend’s bundler reads them (tsc, strict, moduleResolution bundler)', async () => {
    // tsc in build mode, in a folder of its own that stays, its build info in node_modules/.cache: when no input is
    // newer than the last check's, it stands (3 s of CPU otherwise). Its inputs: the recipes, the client kit they
    // import (listed, as build mode compares only listed files), the project's tsconfig, and the installed packages'
    // types (the build info is named after package-lock.json's content).
    const checked = path.join(repoRoot, '.scratch', 'readme-typecheck');
    const packages = createHash('sha256')
      .update(readFileSync(path.join(repoRoot, 'package-lock.json')))
      .digest('hex');
    const buildInfo = path.join(repoRoot, 'node_modules', '.cache', 'tsc', `readme-recipes-${packages.slice(0, 16)}.tsbuildinfo`);
    const files: Array<[string, string]> = [
      ...(
        [
          ['urql', '**urql** (`@urql/core`'],
          ['apollo', '**Apollo Client** (4.x'],
        ] as const
      ).map(([name, lead]): [string, string] => [
        `typed-${name}.ts`,
        runnable(guideBlock(readme, lead), 'http://127.0.0.1:4000/graphql', 'a.b.c', checked),
      ]),
      [
        'tsconfig.json',
        JSON.stringify({
          extends: path.relative(checked, path.join(repoRoot, 'tsconfig.json')),
          compilerOptions: {
            noEmit: true,
            incremental: true,
            tsBuildInfoFile: path.relative(checked, buildInfo),
            rootDir: path.relative(checked, repoRoot),
            lib: ['ES2022', 'DOM'],
            module: 'ESNext',
            moduleResolution: 'bundler',
          },
          include: ['typed-*.ts', `${path.relative(checked, path.join(repoRoot, 'client'))}/**/*.ts`],
        }),
      ],
    ];
    mkdirSync(checked, { recursive: true });
    // A file written anew checks everything again (tsc -b keeps a build info whose inputs did not change in content).
    const written = files.map(([name, text]) => writeIfChanged(path.join(checked, name), text));
    if (written.some(Boolean)) rmSync(buildInfo, { force: true });
    const tsc = spawn(process.execPath, [path.join(repoRoot, 'node_modules', 'typescript-native', 'bin', 'tsc'), '-b', checked], {
      cwd: repoRoot,
    });
    let output = '';
    tsc.stdout.on('data', (c: Buffer) => void (output += c.toString()));
    tsc.stderr.on('data', (c: Buffer) => void (output += c.toString()));
    const code = await withTimeout(new Promise<number | null>((r) => tsc.once('exit', r)), 90_000, 'tsc');
    expect(output).toBe('');
    expect(code).toBe(0);
  }, 120_000);
});
