// The production recipe, performed step by step as the Dockerfile does it (no container
// runtime here): build (tsc, then the bundle: scripts/bundle.mjs), `npm pack`, the packed project
// unpacked in a temporary folder with nothing installed beside it (the image installs no
// node_modules: the bundle holds every dependency), then the Dockerfile's own CMD in live mode
// against a payment service (a sandbox started here), an authenticated query answered, and
// SIGTERM exits 0. A module the bundle left outside it, or a static import of the sandbox's dev
// tooling, fails here.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
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

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'momo-recipe-'));
  // Build stage: compile (incremental: quick when dist/ is current), then pack what package.json's "files" lists.
  await run(npm, ['run', 'build'], { cwd: repoRoot });
  const { stdout } = await run(npm, ['pack', '--pack-destination', workDir, '--silent'], { cwd: repoRoot });
  const tarball = stdout.trim().split('\n').at(-1)!;
  await run('tar', ['xzf', path.join(workDir, tarball), '-C', workDir]);
  app = path.join(workDir, 'package');
  sandbox = await startTestSandbox();
}, 240_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await sandbox?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

it('packs, runs the documented command in live mode with no node_modules, answers, and exits 0 on SIGTERM', async () => {
  // What the image holds: the bundle, package.json and the client kit; no dependencies installed, no sources, no tsc output.
  expect(existsSync(path.join(app, 'node_modules'))).toBe(false);
  expect(existsSync(path.join(app, 'src'))).toBe(false);
  // The back office's static build beside the bundle (served at /console with CONSOLE=true).
  expect(readdirSync(path.join(app, 'dist')).sort()).toEqual(['bundle', 'console']);
  expect(readdirSync(path.join(app, 'client'))).toContain('operations');
  const scripts = (JSON.parse(readFileSync(path.join(app, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const cmd = dockerCmd();
  expect(scripts['start:prod']).toBe(cmd.join(' '));

  // Live mode never loads the simulator (it is imported only when sandbox mode starts it, and is a chunk of its own
  // in the bundle): without it, the start still works.
  const chunks = path.join(app, 'dist', 'bundle', 'chunks');
  const simulator = readdirSync(chunks).filter((file) => file.startsWith('sandbox-'));
  expect(simulator).toHaveLength(1);
  rmSync(path.join(chunks, simulator[0]!));

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
      CONSOLE: 'true',
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

  // The back office, from the packed static files with nothing installed: its page and the script it loads.
  const consoleUrl = graphqlUrl.replace(/\/graphql$/, '/console/');
  const page = await fetch(consoleUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('id="console-settings"');
  expect(JSON.parse(/<script type="application\/json" id="console-settings">(.*?)<\/script>/.exec(html)![1]!).personas).toEqual([]);
  const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)![1]!;
  expect((await fetch(new URL(script, consoleUrl))).status).toBe(200);

  child.kill('SIGTERM');
  expect(await withTimeout(exited, 30_000, 'the gateway to exit')).toBe(0);
}, 60_000);
