// A sandbox that remembers: the gateway started as `npm start` starts it, on
// one data folder (SANDBOX_DATA_DIR), stopped and started twice. The charges
// made before are still listed, the balance still shows what they moved, the
// event log still holds their events (same ids), a charge is still found by its ext_id, the development token of the
// first start still works (GraphiQL keeps it), and `npm run token` with no
// secret set signs with the same development secret and says so. Then
// `npm run sandbox:reset` starts afresh.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compiled } from './helpers/compiled.js';
import { bareEnv, repoRoot, startAsNpmStart, type StartedGateway } from './helpers/npm-start.js';
import { waitFor } from './helpers/wait.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'sandbox-data-'));
let running: StartedGateway | null = null;
afterAll(async () => {
  await running?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function gql(gateway: StartedGateway, authorization: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(gateway.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify({ query, variables }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads a few known fields of untyped JSON
  return (await res.json()) as { data?: Record<string, any>; errors?: Array<{ extensions?: Record<string, unknown> }> };
}

function runScript(script: string, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // Only the data folder is set: no AUTH_JWT_SECRET, no PAYMENT_* (sandbox mode).
    execFile(
      process.execPath,
      [compiled(script), ...args],
      { cwd: repoRoot, env: bareEnv({ SANDBOX_DATA_DIR: dataDir }) },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const LIST = '{ charges(first: 50) { totalCount edges { node { reference status } } } balance { collection { available pending } } }';
const BY_EXT_ID = '{ charges(first: 5, filter: { extId: "order-kept" }) { edges { node { reference } } } }';
const EVENTS = '{ events(first: 50, filter: { kinds: ["charge.success"] }) { edges { node { id reference } } } }';

describe('the sandbox across restarts (SANDBOX_DATA_DIR)', () => {
  let firstToken = '';
  let reference = '';
  let eventId = '';
  let balanceAfter: unknown = null;

  it('first start: a charge, its webhook event, the balance it moved', async () => {
    running = await startAsNpmStart({ SANDBOX_DATA_DIR: dataDir });
    expect(running.output()).toMatch(/Sandbox data: .* \(new; npm run sandbox:reset starts fresh\)/);
    firstToken = running.authorization;
    const created = await gql(
      running,
      firstToken,
      'mutation ($input: CreateChargeInput!) { createCharge(input: $input) { ... on CreateChargePayload { reference } } }',
      { input: { amount: 2000, phone: '58000000', provider: 'OPC_BF', extId: 'order-kept', idempotencyKey: randomUUID() } },
    );
    reference = created.data!.createCharge.reference;
    const paid = await gql(
      running,
      firstToken,
      `mutation { submitChargeOtp(input: { chargeReference: "${reference}", otp: "123456" }) { __typename } }`,
    );
    expect(paid.data!.submitChargeOtp.__typename).toBe('SubmitChargeOtpPayload');
    // The sandbox's webhook reaches the gateway's log.
    await waitFor(
      async () => ((await gql(running!, firstToken, EVENTS)).data?.events.edges.length ?? 0) > 0,
      'the charge.success event',
      10_000,
      // Each check is a GraphQL request to the gateway's process: a step of 20 ms, not the default 2.
      20,
    );
    eventId = (await gql(running, firstToken, EVENTS)).data!.events.edges[0].node.id;
    const listed = await gql(running, firstToken, LIST);
    balanceAfter = listed.data!.balance.collection;
    expect(balanceAfter).toMatchObject({ available: expect.any(Number) });
    expect(balanceAfter).not.toEqual({ available: 0, pending: 0 });
    expect(listed.data!.charges.totalCount).toBe(1);
    await running.stop();
    running = null;
    expect(existsSync(path.join(dataDir, 'sandbox.json'))).toBe(true);
  }, 60_000);

  for (const round of ['second', 'third']) {
    it(`${round} start: the same charge, balance, event and development token`, async () => {
      running ??= await startAsNpmStart({ SANDBOX_DATA_DIR: dataDir });
      expect(running.output()).toMatch(/Sandbox data: .* \(kept from the last run; npm run sandbox:reset starts fresh\)/);
      // The ext_id index came back from the data folder (asked before anything lists the charge again).
      expect((await gql(running, firstToken, BY_EXT_ID)).data!.charges.edges).toEqual([{ node: { reference } }]);
      // The token printed by the first start (what GraphiQL stored) still verifies.
      const listed = await gql(running, firstToken, LIST);
      expect(listed.errors).toBeUndefined();
      expect(listed.data!.charges).toEqual({ totalCount: 1, edges: [{ node: { reference, status: 'SUCCESS' } }] });
      expect(listed.data!.balance.collection).toEqual(balanceAfter);
      const events = await gql(running, firstToken, EVENTS);
      expect(events.data!.events.edges).toEqual([{ node: { id: eventId, reference } }]);
      // The third start stays up for the next test: it is a start with no secret set, on the same data.
      if (round === 'second') {
        await running.stop();
        running = null;
      }
    }, 60_000);
  }

  it('npm run token with no secret set signs with the development secret, and says so', async () => {
    const minted = await runScript('scripts/token.ts', ['--scope', 'payments:read', '--sub', 'me']);
    expect(minted.code).toBe(0);
    expect(minted.stderr).toMatch(/signed with the sandbox's development secret/);
    running ??= await startAsNpmStart({ SANDBOX_DATA_DIR: dataDir });
    const listed = await gql(running, `Bearer ${minted.stdout.trim()}`, '{ charges(first: 1) { totalCount } }');
    expect(listed).toEqual({ data: { charges: { totalCount: 1 } } });
    await running.stop();
    running = null;
  }, 60_000);

  it('npm run sandbox:reset starts afresh: a new account, and the old development token no longer verifies', async () => {
    const reset = await runScript('scripts/sandbox-reset.ts');
    expect(reset.code).toBe(0);
    expect(existsSync(path.join(dataDir, 'development.json'))).toBe(false);
    running = await startAsNpmStart({ SANDBOX_DATA_DIR: dataDir });
    expect(running.output()).toMatch(/Sandbox data: .* \(new;/);
    expect((await gql(running, firstToken, '{ charges(first: 1) { totalCount } }')).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(await gql(running, running.authorization, '{ charges(first: 1) { totalCount } }')).toEqual({
      data: { charges: { totalCount: 0 } },
    });
  }, 60_000);
});
