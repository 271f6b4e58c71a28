// A browser on another site must not be able to drive the gateway: CORS only
// for listed origins and never with credentials, no operation from a form or
// text/plain POST (no preflight), WebSocket upgrades checked against the same
// list. Live mode hides GraphiQL and introspection; GraphiQL goes out compressed.
import { randomUUID } from 'node:crypto';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { request } from 'undici';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startGateway, type RunningGateway } from '../../src/gateway.js';
import { silentLogger } from '../../src/logger.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import type { TestStack } from '../helpers/gateway.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { newKey } from '../helpers/sandbox-api.js';
import { TRANSFER_INPUT, TRANSFER_SELECTION, codes, postDocument, quietStack, transfersPosted } from './support.js';

const LISTED = 'https://shop.example';
const UNLISTED = 'https://evil.example';

/** How the server answers a WebSocket upgrade from `origin` (101 accepted, else the refusal's status). */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url.replace(/^http/, 'ws'), 'graphql-transport-ws', { headers });
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      socket.terminate();
    });
    socket.once('error', (err) => reject(err));
  });
}

describe('live mode with CORS_ORIGINS', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // INTROSPECTION and GRAPHIQL left unset (blank = unset): live mode's own defaults.
    stack = await quietStack({ env: { CORS_ORIGINS: `${LISTED}, http://localhost:*`, INTROSPECTION: '', GRAPHIQL: '' } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const preflight = (origin: string) =>
    request(stack.gateway.graphqlUrl, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });

  it('answers CORS for a listed origin, without credentials', async () => {
    const pre = await preflight(LISTED);
    await pre.body.dump();
    expect(pre.headers['access-control-allow-origin']).toBe(LISTED);
    expect(pre.headers['access-control-allow-headers']).toContain('authorization');
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
    const res = await postDocument(stack, { query: '{ __typename }' }, { origin: LISTED });
    expect(res.headers['access-control-allow-origin']).toBe(LISTED);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    // A pattern with any port.
    const local = await preflight('http://localhost:5173');
    await local.body.dump();
    expect(local.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });

  it('gives an unlisted origin no CORS header at all', async () => {
    const pre = await preflight(UNLISTED);
    await pre.body.dump();
    const res = await postDocument(stack, { query: '{ __typename }' }, { origin: UNLISTED });
    for (const headers of [pre.headers, res.headers]) {
      expect(Object.keys(headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('never runs a mutation posted as a form, multipart or text/plain (no payout)', async () => {
    const query = `mutation { createTransfer(input: ${TRANSFER_INPUT(randomUUID())}) ${TRANSFER_SELECTION} }`;
    const form = await request(stack.gateway.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: UNLISTED },
      body: new URLSearchParams({ query }).toString(),
    });
    const boundary = 'x' + randomUUID();
    const multipart = await request(stack.gateway.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, origin: UNLISTED },
      body: `--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${JSON.stringify({ query })}\r\n--${boundary}--\r\n`,
    });
    // Even carrying a token (which no cross-site form can): these bodies are refused whole.
    const text = await request(stack.gateway.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', authorization: `Bearer ${stack.staffToken}` },
      body: JSON.stringify({ query }),
    });
    const statuses = [];
    for (const res of [form, multipart, text]) {
      statuses.push(res.statusCode);
      await res.body.dump();
    }
    expect(statuses).toEqual([415, 415, 415]);
    // A GET without a preflight-forcing header is refused too (GET never runs mutations anyway).
    const get = await request(`${stack.gateway.graphqlUrl}?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { origin: UNLISTED },
    });
    expect(get.statusCode).toBe(403);
    await get.body.dump();
    expect(transfersPosted(stack)).toBe(0);
  });

  it('refuses a WebSocket from an unlisted origin; accepts a listed one, its own, and one without Origin', async () => {
    const url = stack.gateway.graphqlUrl;
    expect(await upgradeStatus(url, { origin: UNLISTED })).toBe(403);
    expect(await upgradeStatus(url, { origin: LISTED })).toBe(101);
    expect(await upgradeStatus(url, { origin: new URL(url).origin })).toBe(101);
    expect(await upgradeStatus(url, {})).toBe(101);
  });

  it('hides introspection and GraphiQL', async () => {
    const schema = await postDocument(stack, { query: '{ __schema { queryType { name } } }' });
    expect(new Set(codes(schema))).toEqual(new Set(['GRAPHQL_VALIDATION_FAILED']));
    expect(schema.body.data ?? null).toBeNull();
    expect(schema.body.errors?.[0]?.message).toMatch(/introspection/i);
    // No "Did you mean" either: field suggestions would map the schema.
    const typo = await postDocument(stack, { query: '{ balanc { currency } }' });
    expect(typo.raw).not.toMatch(/did you mean/i);
    // With the CSRF header, so that only GraphiQL being off can explain the answer.
    const page = await request(stack.gateway.graphqlUrl, { headers: { accept: 'text/html', 'x-graphql-yoga-csrf': '1' } });
    const body = await page.body.text();
    expect(String(page.headers['content-type'] ?? '')).not.toMatch(/text\/html/);
    expect(body).not.toMatch(/graphiql/i);
  });
});

describe('sandbox mode (as npm start runs it)', () => {
  let sandbox: Sandbox;
  let gateway: RunningGateway;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    gateway = await startGateway(loadConfig({ PORT: '0', HOST: '127.0.0.1' }), silentLogger, {
      upstream: { baseUrl: sandbox.url, apiKey: newKey('browser') },
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await sandbox?.close();
  });

  it('allows a frontend on any localhost port by default, and nothing else', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000']) {
      const res = await request(gateway.graphqlUrl, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
      await res.body.dump();
      expect(res.headers['access-control-allow-origin']).toBe(origin);
    }
    const other = await request(gateway.graphqlUrl, {
      method: 'OPTIONS',
      headers: { origin: UNLISTED, 'access-control-request-method': 'POST' },
    });
    await other.body.dump();
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(await upgradeStatus(gateway.graphqlUrl, { origin: 'http://localhost:5173' })).toBe(101);
    expect(await upgradeStatus(gateway.graphqlUrl, { origin: UNLISTED })).toBe(403);
  });

  it('serves GraphiQL compressed as the browser accepts (brotli, gzip), and plain otherwise', async () => {
    const fetchPage = async (acceptEncoding: string | null) => {
      const res = await request(gateway.graphqlUrl, {
        headers: { accept: 'text/html', ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
      });
      return { headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
    };
    const plain = await fetchPage(null);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toMatch(/graphiql/i);
    const gzip = await fetchPage('gzip, deflate');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    const br = await fetchPage('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
  });
});
