// What a load balancer sees when a replica is rolled: the entry point (as `npm start`
// runs it) gets SIGTERM with SHUTDOWN_GRACE_MS=1000. /health/ready turns 503 as soon as
// the signal is handled while the gateway keeps answering, then it stops accepting;
// every graphql-ws subscriber gets `complete` before its socket closes with 1001, no
// request is cut (each one is answered, or refused at connect once the listener is
// closed), and the process exits 0. (A balancer stops routing once readiness says 503; a new
// connection racing the listener's close can always be reset by the kernel, so traffic here
// follows readiness as a balancer's would.)
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compiled } from '../helpers/compiled.js';
import { waitFor, withTimeout } from '../helpers/wait.js';
import { PaymentEvents } from '../live/documents.js';
import { disposeAllClients, subscribe, wsClient, type LiveSubscription, type TestClient } from '../live/helpers.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const SUBSCRIBERS = 3;
let child: ChildProcess;
let output = '';
let baseUrl = '';
let authorization = '';
let exited: Promise<number | null>;

beforeAll(async () => {
  child = spawn(process.execPath, [compiled('src/main.ts')], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', SANDBOX_PORT: '0', SHUTDOWN_GRACE_MS: '1000', LOG_LEVEL: 'info', SUBSCRIPTION_POLL_MS: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  child.stdout!.on('data', (c: Buffer) => void (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => void (output += c.toString()));
  await waitFor(() => /Authorization: Bearer \S+/.test(output) || child.exitCode !== null, 'the gateway to start', 60_000, 20);
  baseUrl = /GraphQL gateway ready: (\S+)\/graphql/.exec(output)![1]!;
  authorization = /Authorization: (Bearer \S+)/.exec(output)![1]!;
}, 90_000);

afterAll(async () => {
  await disposeAllClients();
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
});

type Outcome = 'answered' | 'shutting_down' | 'refused' | `cut: ${string}`;

async function query(): Promise<Outcome> {
  try {
    const res = await request(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    const body = (await res.body.json()) as { data?: { __typename?: string }; errors?: Array<{ extensions?: { code?: string } }> };
    if (res.statusCode === 200 && body.data?.__typename === 'Query') return 'answered';
    if (res.statusCode === 503 && body.errors?.[0]?.extensions?.code === 'SERVICE_UNAVAILABLE') return 'shutting_down';
    return `cut: ${res.statusCode} ${JSON.stringify(body)}`;
  } catch (err) {
    const code = (err as { code?: string }).code;
    return code === 'ECONNREFUSED' ? 'refused' : `cut: ${code ?? String(err)}`;
  }
}

const readiness = async () => {
  const res = await request(`${baseUrl}/health/ready`);
  return { status: res.statusCode, body: (await res.body.json()) as { ready: boolean; draining?: boolean } };
};

const activeSubscriptions = async () => {
  const text = await (await request(`${baseUrl}/metrics`)).body.text();
  return Number(/^gateway_active_subscriptions(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1] ?? 0);
};

it('says 503 at once on SIGTERM, keeps serving for the grace, completes every subscriber before 1001, cuts nothing, exits 0', async () => {
  await waitFor(async () => (await readiness()).status === 200, 'the replica to be ready', 15_000, 20);

  const clients: TestClient[] = [];
  const subs: Array<LiveSubscription<unknown>> = [];
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const ws = wsClient(`${baseUrl}/graphql`, { connectionParams: { authorization } });
    await ws.connected;
    clients.push(ws);
    subs.push(subscribe(ws, PaymentEvents, {}));
  }
  await waitFor(async () => (await activeSubscriptions()) >= SUBSCRIBERS, 'every subscription to be live', 10_000, 10);

  // Traffic as a balancer sends it: on kept-alive connections, until readiness says 503, then a little longer
  // (its next health check is some time away), then nothing more: none of it may be cut.
  const outcomes: Outcome[] = [];
  for (let i = 0; i < 5; i++) outcomes.push(await query());
  expect(outcomes).toEqual(Array.from({ length: 5 }, () => 'answered'));

  const stopping = new Promise<void>((resolve) => {
    const onData = (c: Buffer) => {
      if (/"msg":"stopping"/.test(c.toString())) resolve(void child.stderr!.off('data', onData));
    };
    child.stderr!.on('data', onData);
  });
  child.kill('SIGTERM');
  await withTimeout(stopping, 10_000, 'the stopping line');

  // The first readiness check after the signal was handled already says 503 ...
  const leaving = await readiness();
  expect(leaving.status).toBe(503);
  expect(leaving.body).toMatchObject({ ready: false, draining: true });
  // ... while operations are still answered (the grace period), and subscriptions stay open.
  const duringGrace = [await query(), await query(), await query()];
  expect(duringGrace).toEqual(['answered', 'answered', 'answered']);
  expect(subs.every((s) => !s.isEnded)).toBe(true);
  expect(clients.every((c) => c.closes.length === 0)).toBe(true);

  // Every subscriber: `complete` (graphql-ws would report an error had the socket closed first), then 1001.
  for (const sub of subs) await expect(withTimeout(sub.ended, 15_000, 'complete')).resolves.toEqual({ kind: 'complete' });
  for (const ws of clients) await waitFor(() => ws.closes.length > 0, 'the socket to close', 15_000);
  expect(clients.map((c) => c.closes.map((close) => close.code))).toEqual(Array.from({ length: SUBSCRIBERS }, () => [1001]));

  expect(await withTimeout(exited, 15_000, 'the process to exit')).toBe(0);
  expect(await query()).toBe('refused');
}, 90_000);
