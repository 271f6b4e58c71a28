// Gateway replicas as real child processes (replica-process.ts) sharing one Redis namespace and one sandbox, so a
// test can SIGKILL one of them (payout batches, idempotency claims, outbound webhooks). Each starts as `npm start`
// would, from the environment; a test adds its own settings. Replicas in the test's own process: ./replica.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { REDIS_URL } from '../events/redis-helpers.js';
import { compiled } from './compiled.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface ChildReplica {
  child: ChildProcess;
  /** Its GraphQL endpoint. */
  url: string;
  /** Where the payment service's webhooks reach it. */
  webhookUrl: string;
  /** Everything it printed (JSON log lines on stderr). */
  output: () => string;
  /** SIGTERM (a clean stop), unless it already exited; resolves once it has. */
  stop: () => Promise<void>;
}

export interface ChildReplicaSetup {
  sandboxUrl: string;
  apiKey: string;
  jwtSecret: string;
  namespace: string;
  /** Settings of the test (anything not given keeps its default). */
  env?: Record<string, string>;
}

export async function startChildReplica(setup: ChildReplicaSetup): Promise<ChildReplica> {
  const child = spawn(process.execPath, [compiled('test/helpers/replica-process.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      PAYMENT_BASE_URL: setup.sandboxUrl,
      PAYMENT_API_KEY: setup.apiKey,
      AUTH_JWT_SECRET: setup.jwtSecret,
      REDIS_URL,
      TEST_REDIS_NAMESPACE: setup.namespace,
      LOG_LEVEL: 'info',
      HEALTH_PROBE_MS: '3600000',
      RATE_LIMIT_PER_MINUTE: '100000',
      RATE_LIMIT_MONEY_PER_MINUTE: '100000',
      ...setup.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /REPLICA READY (\S+)/.exec(output);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`replica exited (${code}):\n${output}`)));
  });
  return { child, url, webhookUrl: url.replace(/\/graphql$/, '/webhooks/payment'), output: () => output, stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await gone;
}

/** SIGKILL: no goodbye, no lease or claim given back. Resolves once the process is gone. */
export async function killHard(replica: ChildReplica): Promise<void> {
  const gone = new Promise((resolve) => replica.child.once('exit', resolve));
  replica.child.kill('SIGKILL');
  await gone;
}

/** SIGTERM (a clean stop) for those still running. */
export async function stopChildReplicas(replicas: ChildReplica[]): Promise<void> {
  for (const replica of replicas) await replica.stop();
}
