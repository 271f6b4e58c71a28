// The production recipe, performed step by step as the Dockerfile does it (no container
// runtime here): build, `npm pack`, a production install of the packed project in a
// temporary folder (`npm ci --omit=dev`, offline from the npm cache when it can), then the
// Dockerfile's own CMD in live mode against a payment service (a sandbox started here),
// an authenticated query answered, and SIGTERM exits 0. Nothing dev-only is installed,
// so a module reaching for one (or a static import of the sandbox's dev tooling) fails here.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SCOPES, mintStaffToken } from '../src/auth/index.js';
import type { Sandbox } from '../src/sandbox/index.js';
import { startTestSandbox } from './helpers/sandbox.js';
import { newKey } from './helpers/sandbox-api.js';
import { waitFor, withTimeout } from './helpers/wait.js';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let workDir = '';
let app = '';
let sandbox: Sandbox;
let child: ChildProcess | undefined;

/** The Dockerfile's CMD, as argv: what the test runs is what the image runs. */
function dockerCmd(): string[] {
  const line = readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith('CMD '));
  return JSON.parse(line!.slice(4)) as string[];
}

/**
 * `npm ci --omit=dev` for the packed package.json and lockfile, run once per content of those two files (the
 * cache key of the Dockerfile's own install layer, which copies just them before the install) and kept in
 * node_modules/.cache: the install is ten seconds of CPU on a 2-core machine, and what it produces depends on
 * nothing else. Returns the installed node_modules folder.
 */
async function productionInstall(app: string): Promise<string> {
  const manifests = ['package.json', 'package-lock.json'].map((file) => readFileSync(path.join(app, file)));
  const key = createHash('sha256').update(Buffer.concat(manifests)).digest('hex').slice(0, 16);
  const cache = path.join(repoRoot, 'node_modules', '.cache', 'recipe-production-install');
  const installed = path.join(cache, key, 'node_modules');
  if (existsSync(installed)) return installed;
  mkdirSync(cache, { recursive: true });
  // Installed aside and renamed into place whole: a run stopped mid-install leaves no half-filled folder behind.
  const staging = mkdtempSync(path.join(cache, 'staging-'));
  for (const file of ['package.json', 'package-lock.json']) cpSync(path.join(app, file), path.join(staging, file));
  await run(npm, ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: staging, maxBuffer: 16 * 1024 * 1024 });
  try {
    renameSync(staging, path.join(cache, key));
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another run put the same install in place first
  }
  return installed;
}

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'momo-recipe-'));
  // Build stage: compile (incremental: quick when dist/ is current), then pack what package.json's "files" lists.
  await run(npm, ['run', 'build'], { cwd: repoRoot });
  const { stdout } = await run(npm, ['pack', '--pack-destination', workDir, '--silent'], { cwd: repoRoot });
  const tarball = stdout.trim().split('\n').at(-1)!;
  await run('tar', ['xzf', path.join(workDir, tarball), '-C', workDir]);
  app = path.join(workDir, 'package');
  // Runtime stage: the lockfile beside package.json (the Dockerfile copies both), production dependencies only.
  cpSync(path.join(repoRoot, 'package-lock.json'), path.join(app, 'package-lock.json'));
  symlinkSync(await productionInstall(app), path.join(app, 'node_modules'), 'dir');
  sandbox = await startTestSandbox();
}, 240_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await sandbox?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

it('packs, installs without dev dependencies, runs the documented command in live mode, answers, and exits 0 on SIGTERM', async () => {
  // What a production install holds: no TypeScript, no test tooling, no sources.
  expect(existsSync(path.join(app, 'node_modules', 'typescript'))).toBe(false);
  expect(existsSync(path.join(app, 'node_modules', 'vitest'))).toBe(false);
  expect(existsSync(path.join(app, 'src'))).toBe(false);
  expect(readdirSync(path.join(app, 'client'))).toContain('operations');
  const scripts = (JSON.parse(readFileSync(path.join(app, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const cmd = dockerCmd();
  expect(scripts['start:prod']).toBe(cmd.join(' '));

  // Live mode never loads the simulator (it is imported only when sandbox mode starts it): without it, the start still works.
  rmSync(path.join(app, 'dist', 'src', 'sandbox'), { recursive: true });

  const jwtSecret = randomBytes(32).toString('hex');
  let output = '';
  child = spawn(cmd[0] === 'node' ? process.execPath : cmd[0]!, cmd.slice(1), {
    cwd: app,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      // The image listens on 0.0.0.0; the test stays on loopback.
      HOST: '127.0.0.1',
      PORT: '0',
      PAYMENT_BASE_URL: sandbox.url,
      PAYMENT_API_KEY: newKey('recipe'),
      WEBHOOK_SECRET: randomBytes(24).toString('hex'),
      AUTH_JWT_SECRET: jwtSecret,
      SHUTDOWN_GRACE_MS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => void (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => void (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
  await waitFor(() => /GraphQL gateway ready: \S+/.test(output) || child!.exitCode !== null, 'the gateway to start', 30_000, 20);
  expect(output).toMatch(/Payment service: http:\/\/127\.0\.0\.1/);
  const graphqlUrl = /GraphQL gateway ready: (\S+)/.exec(output)![1]!;

  const { token } = await mintStaffToken({ secret: jwtSecret, scopes: SCOPES, subject: 'recipe', ttlSeconds: 600 });
  const res = await fetch(graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: '{ balance { currency } }' }),
  });
  expect(await res.json()).toEqual({ data: { balance: { currency: 'XOF' } } });

  child.kill('SIGTERM');
  expect(await withTimeout(exited, 30_000, 'the gateway to exit')).toBe(0);
}, 60_000);
