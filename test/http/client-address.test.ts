// Behind a load balancer (TRUST_PROXY): every customer reaches the gateway from the
// balancer's address, so the client address comes from X-Forwarded-For (or Forwarded),
// read only through trusted hops. Shown over real connections: two customers behind one
// proxy have separate rate limits and WebSocket caps, the audit line names the forwarded
// address, a spoofed entry cannot choose it, X-Forwarded-Proto decides the gateway's own
// origin for the WebSocket Origin check; without TRUST_PROXY the headers change nothing.
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../src/config.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { postDocument } from '../security/support.js';

const CREATE_CHARGE = `mutation ($input: CreateChargeInput!) {
  createCharge(input: $input) { __typename ... on CreateChargePayload { reference clientToken } }
}`;
const SUBMIT_OTP = `mutation ($input: SubmitChargeOtpInput!) {
  submitChargeOtp(input: $input) { __typename }
}`;

/** A customer: the client token of a charge (OTP flow) the merchant's server created. */
async function customer(stack: TestStack): Promise<{ reference: string; authorization: string }> {
  const input = { amount: 2500, phone: '58000000', provider: 'OPC_BF', idempotencyKey: randomUUID() };
  const res = await postDocument(stack, { query: CREATE_CHARGE, variables: { input } });
  const created = res.body.data?.createCharge as { reference: string; clientToken: string };
  expect(created, res.raw).toMatchObject({ reference: expect.any(String), clientToken: expect.any(String) });
  return { reference: created.reference, authorization: `Bearer ${created.clientToken}` };
}

/** The audit line of the last submitChargeOtp of this charge. */
function auditOf(stack: TestStack, reference: string): Record<string, unknown> {
  const lines = stack.logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
  const line = lines.filter((l) => l.audit === true && JSON.stringify(l.references ?? '').includes(reference)).at(-1);
  expect(line, `an audit line for ${reference}`).toBeDefined();
  return line!;
}

async function submitOtp(stack: TestStack, who: { reference: string; authorization: string }, headers: Record<string, string>) {
  const input = { chargeReference: who.reference, otp: '123456' };
  return postDocument(stack, { query: SUBMIT_OTP, variables: { input } }, { authorization: who.authorization, ...headers });
}

/** Opens a WebSocket upgrade with these headers: 'open', or the HTTP status it was refused with. */
function upgrade(stack: TestStack, headers: Record<string, string>): Promise<{ outcome: 'open' | number; socket: WebSocket }> {
  const socket = new WebSocket(stack.gateway.graphqlUrl.replace(/^http/, 'ws'), 'graphql-transport-ws', { headers });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ outcome: 'open', socket }));
    socket.once('unexpected-response', (_req, res) => {
      resolve({ outcome: res.statusCode ?? 0, socket });
      res.resume();
    });
    socket.once('error', reject);
  });
}

const QUERY = { query: '{ __typename }' };
const opened: WebSocket[] = [];

let trusted: TestStack;
let untrusted: TestStack;
let forwarded: TestStack;
beforeAll(async () => {
  // Three customers' operations a minute per client address; one WebSocket per address.
  const limits = { RATE_LIMIT_PER_MINUTE: '3', WS_MAX_CONNECTIONS_PER_IP: '1' };
  trusted = await startStack({ env: { ...limits, TRUST_PROXY: '1' } });
  untrusted = await startStack({ env: limits, sharedSandbox: trusted.sandbox });
  forwarded = await startStack({
    env: { ...limits, TRUST_PROXY: 'loopback', TRUST_PROXY_HEADER: 'forwarded' },
    sharedSandbox: trusted.sandbox,
  });
});
afterAll(async () => {
  for (const socket of opened) socket.terminate();
  await forwarded?.close();
  await untrusted?.close();
  await trusted?.close();
});

describe('TRUST_PROXY=1 (one balancer in front)', () => {
  it('gives two customers behind one proxy address their own rate limits', async () => {
    const [one, two] = [await customer(trusted), await customer(trusted)];
    const asOne = { authorization: one.authorization, 'x-forwarded-for': '203.0.113.7' };
    const asTwo = { authorization: two.authorization, 'x-forwarded-for': '203.0.113.8' };
    const first = [
      await postDocument(trusted, QUERY, asOne),
      await postDocument(trusted, QUERY, asOne),
      await postDocument(trusted, QUERY, asOne),
    ];
    expect(first.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await postDocument(trusted, QUERY, asOne)).status).toBe(429);
    // The other customer, through the same proxy (same socket address), still has its whole budget.
    expect((await postDocument(trusted, QUERY, asTwo)).status).toBe(200);
  });

  it('writes the forwarded address in the audit line; a spoofed entry before it is not believed', async () => {
    const who = await customer(trusted);
    await submitOtp(trusted, who, { 'x-forwarded-for': '203.0.113.20' });
    expect(auditOf(trusted, who.reference)).toMatchObject({
      operation: 'submitChargeOtp',
      principalKind: 'client',
      clientIp: '203.0.113.20',
    });
    // The client sent "X-Forwarded-For: 198.51.100.66"; the balancer appended the address it saw.
    const spoofer = await customer(trusted);
    await submitOtp(trusted, spoofer, { 'x-forwarded-for': '198.51.100.66, 203.0.113.21' });
    expect(auditOf(trusted, spoofer.reference)).toMatchObject({ clientIp: '203.0.113.21' });
  });

  it('caps WebSockets per forwarded address, not per proxy', async () => {
    const a = await upgrade(trusted, { 'x-forwarded-for': '203.0.113.30' });
    const b = await upgrade(trusted, { 'x-forwarded-for': '203.0.113.31' });
    const again = await upgrade(trusted, { 'x-forwarded-for': '203.0.113.30' });
    opened.push(a.socket, b.socket, again.socket);
    expect([a.outcome, b.outcome, again.outcome]).toEqual(['open', 'open', 429]);
  });

  it("takes the gateway's own scheme from X-Forwarded-Proto for the WebSocket Origin check", async () => {
    const host = new URL(trusted.gateway.url).host;
    const tls = await upgrade(trusted, { origin: `https://${host}`, 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.40' });
    const plainPage = await upgrade(trusted, { origin: `http://${host}`, 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.41' });
    opened.push(tls.socket, plainPage.socket);
    expect([tls.outcome, plainPage.outcome]).toEqual(['open', 403]);
  });
});

describe('without TRUST_PROXY (the default)', () => {
  it('ignores X-Forwarded-For and X-Forwarded-Proto: one address, one budget, the socket peer in the audit line', async () => {
    const [one, two] = [await customer(untrusted), await customer(untrusted)];
    for (let i = 0; i < 3; i++)
      expect((await postDocument(untrusted, QUERY, { authorization: one.authorization, 'x-forwarded-for': '203.0.113.7' })).status).toBe(
        200,
      );
    expect((await postDocument(untrusted, QUERY, { authorization: two.authorization, 'x-forwarded-for': '203.0.113.8' })).status).toBe(429);

    const who = await customer(untrusted);
    await submitOtp(untrusted, who, { 'x-forwarded-for': '203.0.113.20' });
    expect(auditOf(untrusted, who.reference)).toMatchObject({ clientIp: '127.0.0.1' });

    const host = new URL(untrusted.gateway.url).host;
    const tls = await upgrade(untrusted, { origin: `https://${host}`, 'x-forwarded-proto': 'https' });
    opened.push(tls.socket);
    expect(tls.outcome).toBe(403);
  });
});

describe('TRUST_PROXY=loopback with TRUST_PROXY_HEADER=forwarded', () => {
  it('reads the client from Forwarded through trusted hops, and ignores X-Forwarded-For', async () => {
    const who = await customer(forwarded);
    // A spoofed first element, then what the trusted balancer (on loopback) appended: an IPv6 client with a port.
    await submitOtp(forwarded, who, {
      forwarded: 'for=198.51.100.66, for="[2001:db8::7]:4711";proto=https',
      'x-forwarded-for': '198.51.100.1',
    });
    expect(auditOf(forwarded, who.reference)).toMatchObject({ clientIp: '2001:db8::7' });
    const plain = await customer(forwarded);
    await submitOtp(forwarded, plain, { 'x-forwarded-for': '198.51.100.1' });
    expect(auditOf(forwarded, plain.reference)).toMatchObject({ clientIp: '127.0.0.1' });
  });
});

it('refuses a TRUST_PROXY that would trust everyone, or that it cannot read', () => {
  const load = (value: string) => () => loadConfig({ TRUST_PROXY: value });
  expect(load('true')).toThrow(ConfigError);
  expect(load('10.0.0.0/33')).toThrow(/TRUST_PROXY is invalid/);
  expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toEqual({ hops: 2, header: 'x-forwarded-for' });
  expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback' }).trustProxy).toEqual({
    addresses: ['10.0.0.0/8', 'loopback'],
    header: 'x-forwarded-for',
  });
  expect(loadConfig({}).trustProxy).toBeNull();
});
