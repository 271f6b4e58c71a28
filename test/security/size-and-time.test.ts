// Size and time: bodies above MAX_BODY_BYTES are refused (413) unread while
// the gateway keeps answering; a client that sends its body slowly is dropped
// by the server's deadline; WebSocket connections per IP and SSE streams per
// caller are capped.
import { connect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestStack } from '../helpers/gateway.js';
import { withTimeout } from '../helpers/wait.js';
import { codes, postDocument, quietStack, upstreamCalls } from './support.js';

describe('request bodies and slow clients', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await quietStack({ env: { HTTP_HEADERS_TIMEOUT_MS: '500', HTTP_REQUEST_TIMEOUT_MS: '1000' } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('answers a 10 MB body 413 without parsing it, while /health keeps answering', async () => {
    const query = `{ ${'a: balance { currency } '.repeat(420_000)} }`; // ~10 MB of aliases
    expect(query.length).toBeGreaterThan(10_000_000);
    const [big, health] = await Promise.all([
      postDocument(stack, { query }).catch((err: unknown) => ({ status: -1, error: err })),
      request(`${stack.gateway.url}/health/live`).then(async (r) => ({ status: r.statusCode, body: await r.body.text() })),
    ]);
    expect(big.status).toBe(413);
    expect(health.status).toBe(200);
    expect(upstreamCalls(stack)).toBe(0);
  });

  it('counts a body sent without Content-Length (chunked) and refuses it past the limit', async () => {
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    let sent = 0;
    const body = new Readable({
      read() {
        // Far more than the limit would ever be read if the gateway did not stop counting.
        sent += chunk.length;
        this.push(sent > 2 * 1024 * 1024 ? null : chunk);
      },
    });
    const res = await request(stack.gateway.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.staffToken}` },
      body,
    }).catch((err: unknown) => ({ statusCode: -1, err, body: null }));
    expect(res.statusCode).toBe(413);
    await res.body?.dump();
    // A body within the limit still runs.
    expect((await postDocument(stack, { query: '{ __typename }' })).body.data).toEqual({ __typename: 'Query' });
  });

  it('pins the chunked limit at MAX_BODY_BYTES (64 KiB here): exactly the limit runs, one byte more is 413', async () => {
    const limit = 64 * 1024;
    const chunkedPost = (bytes: number) => {
      const json = JSON.stringify({ query: '{ __typename }' });
      // JSON may end in whitespace: the padding makes the body exactly `bytes` long and still valid.
      const whole = Buffer.from(json + ' '.repeat(bytes - json.length));
      expect(whole.length).toBe(bytes);
      // A stream without a declared length: undici sends it chunked, so only the counting can refuse it.
      const body = Readable.from([whole.subarray(0, 1000), whole.subarray(1000, 40_000), whole.subarray(40_000)]);
      return request(stack.gateway.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.staffToken}` },
        body,
      }).then(async (res) => ({ status: res.statusCode, text: await res.body.text() }));
    };
    const atLimit = await chunkedPost(limit);
    expect(atLimit.status).toBe(200);
    expect(JSON.parse(atLimit.text)).toEqual({ data: { __typename: 'Query' } });
    const over = await chunkedPost(limit + 1).catch((err: unknown) => ({ status: -1, text: String(err) }));
    expect(over.status).toBe(413);
  });

  it('drops a client that sends its body too slowly (HTTP_REQUEST_TIMEOUT_MS)', async () => {
    const { port } = new URL(stack.gateway.url);
    const socket: Socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let answer = '';
    socket.on('data', (d) => (answer += d.toString()));
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nAuthorization: Bearer ${stack.staffToken}\r\n\r\n{"query":`,
    );
    // The rest of the body never comes: the server's deadline closes the connection.
    await withTimeout(new Promise<void>((resolve) => socket.once('close', () => resolve())), 10_000, 'the server to drop the slow client');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });
});

describe('connections and streams per client', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await quietStack({ env: { WS_MAX_CONNECTIONS_PER_IP: '2', WS_MAX_SUBSCRIPTIONS: '1' } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const open = () =>
    new Promise<{ socket: WebSocket | null; status: number }>((resolve, reject) => {
      const socket = new WebSocket(stack.gateway.graphqlUrl.replace(/^http/, 'ws'), 'graphql-transport-ws');
      socket.once('open', () => resolve({ socket, status: 101 }));
      socket.once('unexpected-response', (_req, res) => {
        resolve({ socket: null, status: res.statusCode ?? 0 });
        socket.terminate();
      });
      socket.once('error', reject);
    });

  it('refuses a third WebSocket from one IP (WS_MAX_CONNECTIONS_PER_IP=2) until one closes', async () => {
    const first = await open();
    const second = await open();
    expect([first.status, second.status]).toEqual([101, 101]);
    expect((await open()).status).toBe(429);
    await new Promise<void>((resolve) => {
      first.socket!.once('close', () => resolve());
      first.socket!.close();
    });
    // The server sees the close a moment after the client: retry until the slot is back.
    let again = await open();
    for (let i = 0; i < 50 && again.status !== 101; i++) again = await open();
    expect(again.status).toBe(101);
    again.socket!.close();
    second.socket!.close();
  });

  it('counts SSE streams against WS_MAX_SUBSCRIPTIONS per caller', async () => {
    const subscribe = (signal: AbortSignal) =>
      fetch(stack.gateway.graphqlUrl, {
        method: 'POST',
        signal,
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${stack.staffToken}` },
        body: JSON.stringify({ query: 'subscription { paymentEvents { id } }' }),
      });
    const first = new AbortController();
    const streaming = await subscribe(first.signal);
    expect(streaming.status).toBe(200);
    const reader = streaming.body!.getReader();
    const second = new AbortController();
    const refused = await subscribe(second.signal);
    const text = await refused.text();
    expect(text).toMatch(/TOO_MANY_SUBSCRIPTIONS/);
    // Closing the first stream gives its slot back.
    first.abort();
    await reader.cancel().catch(() => {});
    let ok = false;
    for (let i = 0; i < 50 && !ok; i++) {
      const third = new AbortController();
      const res = await subscribe(third.signal);
      const r = res.body!.getReader();
      const { value } = await r.read();
      ok = !new TextDecoder().decode(value).includes('TOO_MANY_SUBSCRIPTIONS');
      third.abort();
      await r.cancel().catch(() => {});
    }
    expect(ok).toBe(true);
    expect(codes(await postDocument(stack, { query: '{ __typename }' }))).toEqual([]);
  });
});
