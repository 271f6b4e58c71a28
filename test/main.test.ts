// The entry point on its own, as `npm start` runs it: it starts the gateway
// with the embedded sandbox, serves GraphiQL, and the sandbox's webhooks reach
// the gateway, so a chargeUpdated subscription fires when the OTP is submitted.
// The entry point runs compiled to JavaScript, as `npm start` runs it (compiled
// once per test run: helpers/compiled.ts; `npm start` builds with tsc first), and
// we start it ourselves so the signal reaches our process, not npm's.
import { randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { print } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compiled } from './helpers/compiled.js';
import { postGraphQL } from './helpers/gateway.js';
import { waitFor } from './helpers/wait.js';
import { graphql } from './gql/index.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), 'main-test-'));
let child: ChildProcess;
let output = '';
let graphqlUrl = '';
let authorization = '';

beforeAll(async () => {
  const scripts = JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')).scripts as Record<string, string>;
  expect(scripts.start).toBe('node dist/bundle/main.mjs');
  child = spawn(process.execPath, [compiled('src/main.ts')], {
    cwd: repoRoot,
    // debug: the embedded sandbox logs each request it serves (how the test sees the subscription's baseline).
    // A data folder of its own: the project's .sandbox-data/ is the developer's.
    env: {
      ...process.env,
      PORT: '0',
      SANDBOX_PORT: '0',
      SHUTDOWN_GRACE_MS: '0',
      SUBSCRIPTION_POLL_MS: '0',
      LOG_LEVEL: 'debug',
      SANDBOX_DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /GraphQL gateway ready: (\S+)/.exec(output);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => void (output += c.toString()));
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
  graphqlUrl = await ready;
  await waitFor(() => /Authorization: Bearer \S+/.test(output), 'the development token line', 10_000);
  authorization = /Authorization: (Bearer \S+)/.exec(output)![1]!;
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const CreateCharge = graphql(`
  mutation StartCharge($input: CreateChargeInput!) {
    createCharge(input: $input) { __typename ... on CreateChargePayload { reference status nextAction } }
  }
`);
const SubmitOtp = graphql(`
  mutation ConfirmCharge($input: SubmitChargeOtpInput!) {
    submitChargeOtp(input: $input) { __typename ... on SubmitChargeOtpPayload { charge { status } } }
  }
`);
const ChargeUpdated = graphql(`
  subscription FollowCharge($reference: String!) { chargeUpdated(reference: $reference) { reference status amount } }
`);

it('serves GraphiQL', async () => {
  const res = await fetch(graphqlUrl, { headers: { accept: 'text/html' } });
  expect(res.status).toBe(200);
  expect(await res.text()).toContain('<title>Mobile-money payments gateway</title>');
});

it('delivers the sandbox webhook to a live subscription when the OTP is submitted', async () => {
  const created = await postGraphQL(
    graphqlUrl,
    CreateCharge,
    { input: { amount: 1500, phone: '70000000', provider: 'OPB_BF', idempotencyKey: randomUUID() } },
    { authorization },
  );
  expect(created.errors, created.raw).toBeUndefined();
  const charge = created.data!.createCharge;
  if (charge.__typename !== 'CreateChargePayload') throw new Error(charge.__typename);
  expect(charge).toMatchObject({ status: 'SEND_OTP', nextAction: 'ENTER_OTP' });

  const client = createClient({ url: graphqlUrl.replace(/^http/, 'ws'), webSocketImpl: WebSocket, connectionParams: { authorization } });
  const baselineGet = `GET /v1/payment/charges/${charge.reference} -> 200`;
  const seenBefore = output.split(baselineGet).length;
  try {
    const updates: Array<{ status: string }> = [];
    const done = new Promise<void>((resolve, reject) => {
      client.subscribe(
        { query: print(ChargeUpdated), variables: { reference: charge.reference } },
        {
          next: (r) => void updates.push((r.data as { chargeUpdated: { status: string } }).chargeUpdated),
          error: reject,
          complete: resolve,
        },
      );
    });
    // The subscription is live once its baseline GET reached the sandbox (it listens for changes before reading it).
    await waitFor(() => output.split(baselineGet).length > seenBefore, 'the subscription to read its baseline', 10_000);
    const submitted = await postGraphQL(
      graphqlUrl,
      SubmitOtp,
      { input: { chargeReference: charge.reference, otp: '123456' } },
      { authorization },
    );
    expect(submitted.data!.submitChargeOtp).toMatchObject({ charge: { status: 'SUCCESS' } });
    await done;
    // The current state first, then the change.
    expect(updates).toEqual([expect.objectContaining({ status: 'SEND_OTP' }), expect.objectContaining({ status: 'SUCCESS' })]);
  } finally {
    await client.dispose();
  }
});

it('stops cleanly on SIGTERM without ever printing a key or secret', async () => {
  child.kill('SIGTERM');
  const code = await new Promise((r) => child.once('exit', r));
  expect(code).toBe(0);
  expect(output).not.toMatch(/sk_test_[A-Za-z0-9]/);
  expect(output).toMatch(/Test numbers: .*OTP 123456/);
});
