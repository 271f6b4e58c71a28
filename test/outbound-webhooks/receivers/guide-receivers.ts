// The webhook receivers of docs/webhooks.md ("Webhooks to your server"), taken from the guide itself so it cannot
// drift from what works, run as a merchant would run them (their own process, the secret in the environment),
// and the signed requests both must accept or refuse. Signed with the `standardwebhooks` package, the
// specification's own library, so the receivers are checked against an implementation that is not theirs.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { request } from 'undici';
import { bareEnv, repoRoot } from '../../helpers/npm-start.js';
import { waitFor } from '../../helpers/wait.js';

/** The first ```<language> block after the paragraph that starts with `lead`, exactly as docs/webhooks.md shows it. */
export function guideSnippet(lead: string, language: string): string {
  const readme = readFileSync(path.join(repoRoot, 'docs', 'webhooks.md'), 'utf8');
  const at = readme.indexOf(lead);
  if (at < 0) throw new Error(`docs/webhooks.md has no paragraph starting ${lead}`);
  const fence = '```' + language + '\n';
  const open = readme.indexOf(fence, at);
  const close = readme.indexOf('\n```', open + fence.length);
  return readme.slice(open + fence.length, close + 1);
}

export interface RunningReceiver {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `command` and waits until something answers HTTP at `url` (any status). */
export async function startReceiver(
  command: string,
  args: string[],
  cwd: string,
  url: string,
  env: Record<string, string>,
): Promise<RunningReceiver> {
  const child: ChildProcess = spawn(command, args, { cwd, env: bareEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => void (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => void (output += c.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await gone;
  };
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode}:\n${output}`);
        return request(url, { method: 'GET' }).then(
          async (res) => (await res.body.dump(), true),
          () => false,
        );
      },
      `${command} to answer at ${url}`,
      15_000,
      20,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, output: () => output, stop };
}

/** A secret as createWebhookEndpoint hands it out: whsec_ and the base64 of 32 random bytes. */
export function newSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;
}

export interface SignedDelivery {
  id: string;
  body: string;
  headers: Record<string, string>;
}

let counter = 0;

/**
 * A delivery as the gateway sends it, signed at `at` with every secret given (space-separated, as during a
 * rotation). `data.sequence` is the log's position as the gateway writes it, `<ms>-<n>`, unless `data` sets one.
 */
export function signedDelivery(secrets: string[], data: Record<string, unknown>, at = new Date(), type = 'charge.success'): SignedDelivery {
  const id = `evt_${crypto.randomUUID()}`;
  const sequence = `${Date.now()}-${counter++}`;
  const body = JSON.stringify({ type, timestamp: at.toISOString(), data: { eventId: id, source: 'WEBHOOK', sequence, ...data } });
  const signature = secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' ');
  return {
    id,
    body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    },
  };
}

/** POSTs a delivery; the receiver's status. */
export async function send(url: string, delivery: Pick<SignedDelivery, 'body' | 'headers'>): Promise<number> {
  const res = await request(url, { method: 'POST', headers: delivery.headers, body: delivery.body });
  await res.body.dump();
  return res.statusCode;
}

/**
 * Requests every receiver must refuse, signed otherwise correctly for `secret`: the wrong secret, a body
 * altered after signing, a timestamp outside the 5 minutes either way, a header missing, no v1 entry.
 */
export function refusedDeliveries(secret: string): Array<[string, SignedDelivery]> {
  const data = { reference: 'ch_refused', status: 'SUCCESS', amount: 2500, currency: 'XOF' };
  const tampered = signedDelivery([secret], data);
  tampered.body = tampered.body.replace('2500', '25000');
  const unsigned = signedDelivery([secret], data);
  delete unsigned.headers['webhook-signature'];
  const otherVersion = signedDelivery([secret], data);
  otherVersion.headers['webhook-signature'] = otherVersion.headers['webhook-signature']!.replace(/^v1,/, 'v2,');
  return [
    ['signed with another secret', signedDelivery([newSecret()], data)],
    ['a body altered after signing', tampered],
    ['signed 10 minutes ago (stale timestamp)', signedDelivery([secret], data, new Date(Date.now() - 600_000))],
    ['signed 10 minutes ahead', signedDelivery([secret], data, new Date(Date.now() + 600_000))],
    ['without webhook-signature', unsigned],
    ['its signature under another version than v1', otherVersion],
  ];
}

/** The two orders of a rotation's header: the receiver's secret first or second beside another one. */
export function rotationDeliveries(secret: string): Array<[string, SignedDelivery]> {
  const other = newSecret();
  return [
    ['the receiver’s secret first', signedDelivery([secret, other], { reference: 'ch_rotation_1', status: 'SUCCESS' })],
    ['the receiver’s secret second', signedDelivery([other, secret], { reference: 'ch_rotation_2', status: 'SUCCESS' })],
  ];
}

export const SCRATCH = path.join(repoRoot, '.scratch');
