// Gateway replicas in processes of their own (test/payout-batches/replica-process.ts, configured from the
// environment as `npm start` is), so a test can SIGKILL one; and webhooks from the payment service, signed as
// the service signs them, posted to a replica: the real way events reach the log.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { compiled } from '../helpers/compiled.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface Replica {
  child: ChildProcess;
  graphqlUrl: string;
  webhookUrl: string;
  output: () => string;
  stop(): Promise<void>;
}

export async function startReplica(env: Record<string, string>): Promise<Replica> {
  const child = spawn(process.execPath, [compiled('test/payout-batches/replica-process.ts')], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', HEALTH_PROBE_MS: '3600000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const graphqlUrl = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /REPLICA READY (\S+)/.exec(output);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`replica exited (${code}):\n${output}`)));
  });
  return {
    child,
    graphqlUrl,
    webhookUrl: graphqlUrl.replace(/\/graphql$/, '/webhooks/payment'),
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Posts the service's webhook for event `i` (a charge.success unless `event` says otherwise) to a replica; resolves with its HTTP status. */
export async function postServiceWebhook(
  webhookUrl: string,
  secret: string,
  i: number,
  tag: string,
  event = 'charge.success',
): Promise<number> {
  const body = JSON.stringify({
    id: `${tag}-${i}`,
    event,
    data: { reference: `${tag}-ref-${i}`, status: 'success', amount: 100 + i },
  });
  const res = await request(webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-webhook-hash': createHmac('sha256', secret).update(body).digest('hex') },
    body,
  });
  await res.body.dump();
  return res.statusCode;
}
