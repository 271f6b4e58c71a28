// Two weak spots of the security probe, over every transport:
// - a client token is refused from its `exp` on, with no clock tolerance (the gateway mints and checks it on one
//   clock), on HTTP, SSE and WebSocket alike, and a socket holding one closes at that same instant;
// - a request carrying two credentials (two Authorization headers, or one holding a comma-joined pair, as a proxy
//   merging repeated headers would send) is refused whole (400, DUPLICATE_AUTHORIZATION) rather than served as
//   whichever caller the first header names.
import { SignJWT } from 'jose';
import WebSocket from 'ws';
import { request } from 'undici';
import { post } from '../helpers/http.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deriveClientTokenSecret } from '../../src/auth/index.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { disposeAllClients, waitFor, withTimeout, wsClient, type TestClient } from '../live/helpers.js';
import { bearer, codesOf, openSse, postQuery } from '../schema/auth-support.js';

let stack: TestStack;

beforeAll(async () => {
  stack = await startStack({ env: { SUBSCRIPTION_POLL_MS: '0' } });
});
afterEach(async () => {
  await disposeAllClients();
});
afterAll(async () => {
  await disposeAllClients();
  await stack?.close();
});

const REFERENCE = 'ch_expiry_probe';
const READ = `{ charge(reference: "${REFERENCE}") { reference } }`;
const FOLLOW = `subscription { chargeUpdated(reference: "${REFERENCE}") { reference } }`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A client token exactly as the gateway signs one (src/auth/client-token.ts), expiring at `exp` (epoch seconds). */
function clientToken(exp: number): Promise<string> {
  const key = new TextEncoder().encode(deriveClientTokenSecret(stack.jwtSecret));
  return new SignJWT({ rsc: { k: 'charge', r: REFERENCE } })
    .setProtectedHeader({ alg: 'HS256', typ: 'client+jwt' })
    .setIssuer('momo-gateway')
    .setAudience('momo-gateway:client')
    .setSubject(`client:charge:${REFERENCE}`)
    .setIssuedAt(exp - 3600)
    .setExpirationTime(exp)
    .sign(key);
}

const closed = (ws: TestClient, what: string) => waitFor(() => ws.closes.length > 0, what, 10_000).then(() => ws.closes[0]!);

describe('a client token one second past its exp', () => {
  it('is refused over HTTP (401, expired), where the same token unexpired is served', async () => {
    const live = await postQuery(stack.gateway.graphqlUrl, READ, {}, bearer(await clientToken(nowSeconds() + 3600)));
    expect(live.status, live.raw).toBe(200);
    expect(codesOf(live.body.errors)).toEqual([]);

    const expired = await postQuery(stack.gateway.graphqlUrl, READ, {}, bearer(await clientToken(nowSeconds() - 1)));
    expect(expired.status, expired.raw).toBe(401);
    expect(codesOf(expired.body.errors)).toEqual(['UNAUTHENTICATED']);
    expect(expired.body.errors?.[0]?.message).toMatch(/expired/);
  });

  it('is refused over SSE (401), before the stream starts', async () => {
    const stream = await openSse(stack.gateway.graphqlUrl, FOLLOW, {}, bearer(await clientToken(nowSeconds() - 1)));
    expect(stream.status).toBe(401);
    expect(codesOf((await stream.next())?.errors)).toEqual(['UNAUTHENTICATED']);
    stream.close();
  });

  it('is refused over WebSocket (closed with 4403 at connection_init)', async () => {
    const ws = wsClient(stack.gateway.graphqlUrl, { connectionParams: { authorization: `Bearer ${await clientToken(nowSeconds() - 1)}` } });
    expect((await closed(ws, 'the socket to close')).code).toBe(4403);
  });

  it('one rule: a socket closes at exp, and from then on HTTP refuses the same token too', async () => {
    const token = await clientToken(nowSeconds() + 2);
    const ws = wsClient(stack.gateway.graphqlUrl, { connectionParams: { authorization: `Bearer ${token}` } });
    await withTimeout(ws.connected, 5_000, 'the socket to connect');
    // HTTP accepts it while the socket is open (and caches it as verified)...
    expect((await postQuery(stack.gateway.graphqlUrl, READ, {}, bearer(token))).status).toBe(200);
    expect((await closed(ws, 'the socket to close at exp')).code).toBe(4403);
    // ...and refuses it as soon as the socket is closed for it: no 30 s grace on one transport only.
    const after = await postQuery(stack.gateway.graphqlUrl, READ, {}, bearer(token));
    expect(after.status, after.raw).toBe(401);
    const stream = await openSse(stack.gateway.graphqlUrl, FOLLOW, {}, bearer(token));
    expect(stream.status).toBe(401);
    stream.close();
  });
});

describe('two credentials in one request', () => {
  const BALANCE = JSON.stringify({ query: '{ balance { currency } }' });

  async function postBalance(rawHeaders: string[], accept = 'application/json') {
    const res = await post(stack.gateway.graphqlUrl, BALANCE, ['accept', accept, ...rawHeaders]);
    return { ...res, body: JSON.parse(res.raw) as { errors?: Array<{ message: string; extensions?: Record<string, unknown> }> } };
  }

  it('two Authorization headers: 400 DUPLICATE_AUTHORIZATION, whichever comes first, and nothing reaches the service', async () => {
    const back = await stack.mintToken(['payments:read'], 'back-office');
    const other = await stack.mintToken(['payments:read'], 'someone-else');
    stack.sandbox.requests.clear();
    for (const pair of [
      ['authorization', `Bearer ${back}`, 'authorization', `Bearer ${other}`],
      ['Authorization', `Bearer ${back}`, 'AUTHORIZATION', 'Basic dXNlcjpwYXNz'],
    ]) {
      const res = await postBalance(pair);
      expect(res.status, res.raw).toBe(400);
      expect(res.body.errors?.map((e) => e.extensions?.code)).toEqual(['DUPLICATE_AUTHORIZATION']);
      expect(res.body.errors?.[0]?.extensions?.messageFr).toBeTruthy();
      expect(res.raw).not.toContain(back);
    }
    expect(stack.sandbox.requests.count()).toBe(0);
    // One of them alone is served.
    expect((await postBalance(['authorization', `Bearer ${back}`])).status).toBe(200);
  });

  it('one header holding a comma-joined pair (how a proxy merges repeated headers): 400', async () => {
    const back = await stack.mintToken(['payments:read'], 'back-office');
    const res = await postBalance(['authorization', `Bearer ${back}, Bearer ${back}`]);
    expect(res.status, res.raw).toBe(400);
    expect(res.body.errors?.map((e) => e.extensions?.code)).toEqual(['DUPLICATE_AUTHORIZATION']);
  });

  it('over SSE: 400 before any stream starts', async () => {
    const token = await stack.mintToken(['events:read']);
    const res = await request(stack.gateway.graphqlUrl, {
      method: 'POST',
      headers: [
        'content-type',
        'application/json',
        'accept',
        'text/event-stream',
        'authorization',
        `Bearer ${token}`,
        'authorization',
        `Bearer ${token}`,
      ],
      body: JSON.stringify({ query: 'subscription { paymentEvents { id } }' }),
    });
    const raw = await res.body.text();
    expect(res.statusCode, raw).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(raw).toContain('DUPLICATE_AUTHORIZATION');
  });

  it('over WebSocket: a comma-joined pair in connection_init closes the socket with 4400; two headers on the upgrade: 400', async () => {
    const token = await stack.mintToken(['payments:read']);
    const ws = wsClient(stack.gateway.graphqlUrl, { connectionParams: { authorization: `Bearer ${token}, Bearer ${token}` } });
    expect((await closed(ws, 'the socket to close')).code).toBe(4400);

    const status = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(stack.gateway.graphqlUrl.replace(/^http/, 'ws'), 'graphql-transport-ws', {
        headers: { authorization: [`Bearer ${token}`, `Bearer ${token}`] as unknown as string },
      });
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.on('open', () => reject(new Error('the upgrade was accepted')));
      socket.on('error', () => {});
    });
    expect(status).toBe(400);
  });
});
