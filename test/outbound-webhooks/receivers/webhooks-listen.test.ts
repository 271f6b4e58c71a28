// `npm run webhooks:listen` over real processes: a gateway started as `npm start` starts it (sandbox mode, its
// development secret in SANDBOX_DATA_DIR), the listener in a process of its own finding its token there, and a
// local app it forwards to. A charge confirmed by OTP reaches the listener, which prints it verified and forwards
// it with the gateway's body and signed headers; SIGTERM deletes its endpoint.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiled } from '../../helpers/compiled.js';
import { bareEnv, repoRoot, startAsNpmStart, type StartedGateway } from '../../helpers/npm-start.js';
import { waitFor, withTimeout } from '../../helpers/wait.js';

interface Listener {
  child: ChildProcess;
  output(): string;
  endpointId: string;
  secret: string;
}

async function startListener(env: Record<string, string>, args: string[]): Promise<Listener> {
  const child = spawn(process.execPath, [compiled('scripts/webhooks-listen.ts'), ...args], {
    cwd: repoRoot,
    env: bareEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => void (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => void (output += c.toString()));
  await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`the listener exited with ${child.exitCode}:\n${output}`);
      return output.includes('Ctrl-C deletes the endpoint.');
    },
    'the listener to be ready',
    20_000,
    10,
  );
  return {
    child,
    output: () => output,
    endpointId: /Ready: endpoint (\S+) -> /.exec(output)![1]!,
    secret: /^Signing secret of this temporary endpoint: (whsec_\S+)$/m.exec(output)![1]!,
  };
}

async function stopListener(listener: Listener): Promise<number | null> {
  if (listener.child.exitCode !== null) return listener.child.exitCode;
  const exited = new Promise<number | null>((resolve) => listener.child.once('exit', resolve));
  listener.child.kill('SIGTERM');
  return withTimeout(exited, 15_000, 'the listener to exit');
}

/** Runs the listener until it exits by itself; its exit code and stderr. */
async function runToExit(env: Record<string, string>, args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [compiled('scripts/webhooks-listen.ts'), ...args], {
    cwd: repoRoot,
    env: bareEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => void (stderr += c.toString()));
  const code = await withTimeout(new Promise<number | null>((resolve) => child.once('exit', resolve)), 15_000, 'the listener to exit');
  return { code, stderr };
}

/** A GraphQL operation with the gateway's development token; its data. */
async function graphql(gateway: StartedGateway, query: string, variables: Record<string, unknown>) {
  const res = await request(gateway.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: gateway.authorization },
    body: JSON.stringify({ query, variables }),
  });
  return ((await res.body.json()) as { data: Record<string, Record<string, unknown>> }).data;
}

/** The developer's app the listener forwards to: notes every request, answers 204. */
async function startApp(
  forwarded: Array<{ headers: IncomingHttpHeaders; body: string; path: string }>,
): Promise<{ app: Server; url: string }> {
  const app = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      forwarded.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '' });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  return { app, url: `http://127.0.0.1:${(app.address() as AddressInfo).port}/hooks` };
}

/** A charge on the sandbox's OPC_BF test number, confirmed with the test OTP; its reference. */
async function chargeConfirmedByOtp(gateway: StartedGateway): Promise<string> {
  const created = await graphql(
    gateway,
    'mutation($i: CreateChargeInput!) { createCharge(input: $i) { ... on CreateChargePayload { reference status } } }',
    { i: { amount: 2500, phone: '58000000', provider: 'OPC_BF', idempotencyKey: randomUUID() } },
  );
  const reference = created.createCharge!.reference as string;
  const otp = await graphql(gateway, 'mutation($i: SubmitChargeOtpInput!) { submitChargeOtp(input: $i) { __typename } }', {
    i: { chargeReference: reference, otp: '123456' },
  });
  expect(otp.submitChargeOtp!.__typename).toBe('SubmitChargeOtpPayload');
  return reference;
}

describe('npm run webhooks:listen', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'webhooks-listen-'));
  let gateway: StartedGateway;
  const forwarded: Array<{ headers: IncomingHttpHeaders; body: string; path: string }> = [];
  let app: Server;
  let appUrl: string;

  const gql = (query: string, variables: Record<string, unknown> = {}) => graphql(gateway, query, variables);

  beforeAll(async () => {
    gateway = await startAsNpmStart({ SANDBOX_DATA_DIR: dataDir });
    ({ app, url: appUrl } = await startApp(forwarded));
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
    await new Promise((resolve) => app?.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints a charge confirmed by OTP as verified, forwards it signed as the gateway sent it, and deletes its endpoint on SIGTERM', async () => {
    const listener = await startListener({ GATEWAY_URL: gateway.graphqlUrl, SANDBOX_DATA_DIR: dataDir }, [
      '--forward-to',
      appUrl,
      '--kinds',
      'charge.success',
    ]);
    try {
      const reference = await chargeConfirmedByOtp(gateway);

      const printed = new RegExp(`^\\d\\d:\\d\\d:\\d\\d  charge\\.success  ${reference}  SUCCESS  verified -> 204$`, 'm');
      await waitFor(() => printed.test(listener.output()), `the listener's line for ${reference}`, 20_000, 20);
      const hit = forwarded.find((f) => f.body.includes(reference));
      expect(hit).toBeDefined();
      expect(hit!.path).toBe('/hooks');
      // The gateway's own body and signed headers: they verify with the endpoint's secret the listener printed.
      expect(hit!.headers['content-type']).toMatch(/^application\/json/);
      const event = new Webhook(listener.secret).verify(hit!.body, hit!.headers as Record<string, string>) as {
        type: string;
        data: Record<string, unknown>;
      };
      expect(event.type).toBe('charge.success');
      expect(event.data).toMatchObject({ reference, status: 'SUCCESS', amount: 2500 });
      expect(hit!.headers['webhook-id']).toBe(event.data.eventId);
      // --kinds charge.success: nothing else of the charge's life came.
      expect(listener.output()).not.toMatch(/ {2}charge\.(?!success)/);
    } finally {
      expect(await stopListener(listener)).toBe(0);
    }
    expect(listener.output()).toContain(`SIGTERM: deleted endpoint ${listener.endpointId}`);
    const left = await gql('{ webhookEndpoints(first: 50) { edges { node { id } } } }');
    expect(JSON.stringify(left.webhookEndpoints)).not.toContain(listener.endpointId);
  }, 60_000);

  it('without --forward-to only prints: a test webhook sent to its endpoint', async () => {
    const listener = await startListener({ GATEWAY_URL: gateway.graphqlUrl, SANDBOX_DATA_DIR: dataDir }, []);
    try {
      expect(listener.output()).toContain('Printing only (no --forward-to)');
      // The secret first, with what to do with it (as `stripe listen` starts).
      const lines = listener.output().split('\n');
      expect(lines[0]).toBe(`Signing secret of this temporary endpoint: ${listener.secret}`);
      expect(lines[1]).toContain(`verify with it while you test (e.g. GATEWAY_WEBHOOK_SECRET=${listener.secret})`);
      const sent = await gql('mutation($id: ID!) { sendTestWebhook(input: { endpointId: $id }) { __typename } }', {
        id: listener.endpointId,
      });
      expect(sent.sendTestWebhook!.__typename).toBe('SendTestWebhookPayload');
      await waitFor(
        () => /^\d\d:\d\d:\d\d {2}webhook\.test {2}\S+ {2}\S+ {2}verified$/m.test(listener.output()),
        'the test webhook line',
        20_000,
        20,
      );
    } finally {
      expect(await stopListener(listener)).toBe(0);
    }
  }, 60_000);

  it('without a gateway, names the URL it tried and GATEWAY_URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const nowhere = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/graphql`;
    await new Promise((resolve) => closed.close(resolve));
    const { code, stderr } = await runToExit({ GATEWAY_URL: nowhere }, ['--token', 'a.b.c']);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      `no gateway answers at ${nowhere} (ECONNREFUSED): start one with npm start, or set GATEWAY_URL to your gateway's GraphQL URL`,
    );
  });

  it('says what is wrong when the gateway refuses its token, and creates nothing', async () => {
    const { code, stderr } = await runToExit({ GATEWAY_URL: gateway.graphqlUrl, SANDBOX_DATA_DIR: dataDir }, ['--token', 'not.a.token']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^CreateWebhookEndpoint: UNAUTHENTICATED /);
    expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
    const left = await gql('{ webhookEndpoints(first: 50) { edges { node { description } } } }');
    expect(JSON.stringify(left.webhookEndpoints)).not.toContain('webhooks:listen');
  });
});
