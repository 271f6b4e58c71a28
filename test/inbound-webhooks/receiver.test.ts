// The webhook handler mounted on a real node:http server, driven over real sockets (undici).
import { createHash } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { createEventBus, type EventBus } from '../../src/events/bus.js';
import type { PaymentEventRecord } from '../../src/events/payment-event.js';
import { acceptIntoLog, createWebhookHandler, type WebhookHandlerDeps } from '../../src/inbound-webhooks/receiver.js';
import { signBody } from '../../src/inbound-webhooks/signature.js';
import { post, type Posted } from '../helpers/http.js';

const SECRET = 'whsec_receiver_test_5f1c9a';
const NOW = new Date('2025-01-02T03:04:05.678Z');
const MiB = 1024 * 1024;

// Everything the outside world could see of the current test: its log lines and response bodies.
const logLines: string[] = [];
const responseTexts: string[] = [];

/** What every test's output must respect: no secret, no stack trace, one JSON object per log line. */
function expectNothingLeaked() {
  for (const text of [...logLines, ...responseTexts]) expect(text).not.toContain(SECRET);
  for (const text of responseTexts) expect(text).not.toMatch(/at .*\.(ts|js):\d+/);
  for (const line of logLines) expect(() => JSON.parse(line)).not.toThrow();
}

// Production's path: each test's deliveries go into an in-memory event log of its own, through acceptIntoLog.
let bus: EventBus;
/** What the log holds (its `seq` aside), oldest first. */
const published = async (): Promise<PaymentEventRecord[]> =>
  (await bus.log.ascending(null, 1000)).map(({ seq: _seq, ...record }) => record);
/** Makes every append fail (the log's store unreachable) while set. */
let appendFails = false;

let server: Server;
let url: string;

beforeAll(async () => {
  const deps: WebhookHandlerDeps = {
    secret: SECRET,
    scheme: 'auto',
    accept: acceptIntoLog({
      publishPaymentEventOnce: (event, ttlMs) =>
        appendFails ? Promise.reject(new Error('redis down')) : bus.publishPaymentEventOnce(event, ttlMs),
    }),
    log: createLogger('debug', { write: (line) => logLines.push(line) }),
    now: () => NOW,
  };
  const handler = createWebhookHandler(deps);
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/payment`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(async () => {
  logLines.length = 0;
  responseTexts.length = 0;
  appendFails = false;
  bus = await createEventBus();
});

afterEach(async () => {
  await bus.close();
  expectNothingLeaked();
});

interface Reply {
  status: number;
  json: Record<string, unknown>;
  headers: Posted['headers'];
}

/** What the handler answered; its text is kept for expectNothingLeaked. */
function reply({ status, headers, raw }: Posted): Reply {
  responseTexts.push(raw);
  return { status, json: JSON.parse(raw) as Record<string, unknown>, headers };
}

/** A delivery to the handler, through the suites' POST (test/helpers/http.ts). */
const deliver = async (body: Buffer | string, headers: Record<string, string> = {}): Promise<Reply> =>
  reply(await post(url, body, headers));

/** The webhook URL asked with GET, which is no delivery. */
async function get(): Promise<Reply> {
  const res = await request(url, { method: 'GET', headers: { 'content-type': 'application/json' } });
  return reply({ status: res.statusCode, headers: res.headers, raw: await res.body.text() });
}

function signed(body: Buffer | string, scheme: 'hmac-sha256-hex' | 'sha256-base64' = 'hmac-sha256-hex') {
  return { 'x-webhook-hash': signBody(body, SECRET, scheme) };
}

describe('webhook receiver', () => {
  it('answers 200 and publishes a verified delivery (hex HMAC)', async () => {
    const body = JSON.stringify({
      id: 'evt_001',
      event: 'checkout.success',
      data: { reference: 'chk_abc', amount: 1500, status: 'success' },
    });
    const r = await deliver(body, signed(body));
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ok: true, duplicate: false, id: 'evt_001', eventId: expect.stringMatching(/^evt_/) });
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(await published()).toEqual([
      {
        id: 'evt_001',
        kind: 'checkout.success',
        receivedAt: '2025-01-02T03:04:05.678Z',
        reference: 'chk_abc',
        resourceType: 'checkout',
        payload: JSON.parse(body),
        // The log's generation: its ids mean something only within it (a Redis restarted empty starts another).
        generation: expect.any(String),
      },
    ]);
  });

  it('accepts the sha256-base64 scheme too (scheme auto), with a charset parameter', async () => {
    const body = '{"event":"checkout.pending","data":{"reference":"chk_b64"}}';
    const r = await deliver(body, { ...signed(body, 'sha256-base64'), 'content-type': 'Application/JSON; charset=UTF-8' });
    expect(r.status).toBe(200);
    expect(await published()).toHaveLength(1);
    expect((await published())[0]!.id).toBe(createHash('sha256').update(body).digest('hex'));
  });

  it.each([
    ['a wrong hash', (b: string) => ({ 'x-webhook-hash': signBody(b, 'not-the-secret', 'hmac-sha256-hex') })],
    ['a missing hash', () => ({})],
    ['an empty hash', () => ({ 'x-webhook-hash': '' })],
    ['a garbage hash', () => ({ 'x-webhook-hash': 'zzz' })],
    ['a hash of other bytes', (b: string) => signed(b + ' ')],
  ])('answers 400 to %s, publishes nothing and does not log the body', async (_name, headersFor) => {
    const marker = `UNVERIFIED_${Math.random().toString(36).slice(2)}`;
    const body = JSON.stringify({ event: 'checkout.success', data: { reference: marker } });
    const before = logLines.length;
    const r = await deliver(body, headersFor(body));
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ ok: false, error: 'invalid_signature' });
    expect(await published()).toEqual([]);
    const newLines = logLines.slice(before);
    expect(newLines.length).toBeGreaterThan(0);
    expect(newLines.join('\n')).not.toContain(marker);
  });

  it.each([['[1]'], ['"x"'], ['null'], ['not json'], ['42'], [''], ['{"a":1'], ['{"event":"x"}{"event":"y"}']])(
    'answers 400 to the validly signed non-object body %j',
    async (body) => {
      const r = await deliver(body, signed(body));
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ ok: false, error: 'invalid_payload' });
      expect(await published()).toEqual([]);
    },
  );

  it('answers 400 to validly signed invalid UTF-8', async () => {
    const body = Buffer.concat([Buffer.from('{"event":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const r = await deliver(body, signed(body));
    expect(r.status).toBe(400);
    expect(await published()).toEqual([]);
  });

  it('answers 413 above 1 MiB with Content-Length, before reading the body', async () => {
    const body = Buffer.alloc(2 * MiB, 0x20);
    const r = await deliver(body, signed(body));
    expect(r.status).toBe(413);
    expect(r.json).toEqual({ ok: false, error: 'payload_too_large' });
    expect(await published()).toEqual([]);
  });

  it('answers 413 to a chunked body (no Content-Length) as it crosses 1 MiB, without reading it all', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    // 64 MiB offered: past the 1 MiB limit the server only discards what keeps coming, up to LINGER_MAX_BYTES (so the
    // client can read its 413), then closes; it never reads the whole body.
    const totalChunks = 1024;
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      // One chunk per turn of the event loop (the receiver runs in this process): the 413 sent at 1 MiB is read
      // while the body still flows, as a separate client would, not left unread until the server cuts the connection
      // at LINGER_MAX_BYTES, whose reset would then discard it (a flake on a loaded machine).
      async pull(controller) {
        await new Promise((resolve) => setImmediate(resolve));
        if (pulled++ >= totalChunks) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-hash': '0'.repeat(64) },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.headers.get('content-length')).not.toBeNull();
    const text = await res.text();
    responseTexts.push(text);
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect(pulled).toBeLessThan(totalChunks);
    expect(await published()).toEqual([]);
  });

  it('answers 413 to a chunked upload from node:http, with a response (not a bare reset)', async () => {
    const { port } = server.address() as AddressInfo;
    let piecesWritten = 0;
    const status = await new Promise<number>((resolve, reject) => {
      let answered = false;
      const req = httpRequest(
        { port, host: '127.0.0.1', method: 'POST', path: '/', headers: { 'content-type': 'application/json', 'x-webhook-hash': 'x' } },
        (res) => {
          answered = true;
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      // Once answered, the server closing the socket under our remaining upload is expected.
      req.on('error', (err) => (answered ? undefined : reject(err)));
      expect(req.getHeader('content-length')).toBeUndefined();
      const piece = Buffer.alloc(256 * 1024, 0x20);
      const pump = () => {
        while (!answered && piecesWritten < 32) {
          piecesWritten++;
          if (!req.write(piece)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(status).toBe(413);
    expect(piecesWritten).toBeLessThan(32);
  });

  it('accepts a body of exactly 1 MiB', async () => {
    const head = '{"event":"checkout.success","pad":"';
    const tail = '"}';
    const body = head + 'a'.repeat(MiB - head.length - tail.length) + tail;
    expect(Buffer.byteLength(body)).toBe(MiB);
    const r = await deliver(body, signed(body));
    expect(r.status).toBe(200);
    expect(await published()).toHaveLength(1);
  });

  it.each([['text/plain'], ['application/x-www-form-urlencoded'], ['application/jsonp'], ['']])(
    'answers 415 to content type %j',
    async (contentType) => {
      const body = '{"event":"checkout.success"}';
      const r = await deliver(body, { ...signed(body), 'content-type': contentType });
      expect(r.status).toBe(415);
      expect(await published()).toEqual([]);
    },
  );

  it('answers 405 to GET with Allow: POST', async () => {
    const r = await get();
    expect(r.status).toBe(405);
    expect(r.headers['allow']).toBe('POST');
  });

  it('publishes five copies of one delivery exactly once, some of them concurrent', async () => {
    const body = JSON.stringify({ event: 'charge.success', data: { reference: 'ch_77', id: 77 } });
    const headers = signed(body);
    const concurrent = await Promise.all([deliver(body, headers), deliver(body, headers), deliver(body, headers)]);
    const sequential = [await deliver(body, headers), await deliver(body, headers)];
    const all = [...concurrent, ...sequential];
    expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(all.filter((r) => r.json['duplicate'] === false)).toHaveLength(1);
    expect(new Set(all.map((r) => r.json['id']))).toEqual(new Set(['charge.success:77']));
    expect(await published()).toHaveLength(1);
  });

  it('republishes an unknown kind as it is, with its reference', async () => {
    const body = '{"event":"refund.created","reference":"rf_9","extra":{"nested":[1,2]}}';
    const r = await deliver(body, signed(body));
    expect(r.status).toBe(200);
    expect(await published()).toHaveLength(1);
    expect((await published())[0]).toMatchObject({
      kind: 'refund.created',
      reference: 'rf_9',
      resourceType: null,
      payload: { event: 'refund.created', reference: 'rf_9', extra: { nested: [1, 2] } },
    });
  });

  it('answers 503 when the log cannot take the delivery, marks nothing as seen, and processes the retry', async () => {
    const body = JSON.stringify({ id: 'evt_retry', event: 'transfer.success', data: { reference: 'tr_1' } });
    appendFails = true;
    const first = await deliver(body, signed(body));
    expect(first.status).toBe(503);
    expect(JSON.stringify(first.json)).not.toContain('redis down');
    expect(await published()).toEqual([]);
    appendFails = false;
    const retry = await deliver(body, signed(body));
    expect(retry.status).toBe(200);
    expect(retry.json).toEqual({ ok: true, duplicate: false, id: 'evt_retry', eventId: expect.stringMatching(/^evt_/) });
    expect(await published()).toHaveLength(1);
    // A re-send after that is a duplicate, answered with the same log id.
    const again = await deliver(body, signed(body));
    expect(again.json).toEqual({ ok: true, duplicate: true, id: 'evt_retry', eventId: retry.json['eventId'] });
  });

  // Every test's own output is checked after it (afterEach); this one produces every kind of answer itself.
  it('never shows the secret in a response or a log line, whatever the answer', async () => {
    const ok = '{"event":"checkout.success","data":{"reference":"chk_leak"}}';
    const statuses = [
      (await deliver(ok, signed(ok))).status,
      (await deliver(ok, signed(ok))).status, // duplicate
      (await deliver(ok, { 'x-webhook-hash': signBody(ok, 'not-the-secret', 'hmac-sha256-hex') })).status,
      (await deliver('[1]', signed('[1]'))).status,
      (await deliver(ok, { ...signed(ok), 'content-type': 'text/plain' })).status,
      (await get()).status,
    ];
    appendFails = true;
    const failing = '{"event":"transfer.success","data":{"reference":"tr_leak"}}';
    statuses.push((await deliver(failing, signed(failing))).status);
    expect(statuses).toEqual([200, 200, 400, 400, 415, 405, 503]);
    // Refusals and failures are logged (the accepted ones too): there is something to check.
    expect(logLines.length).toBeGreaterThan(4);
    expect(responseTexts).toHaveLength(statuses.length);
    expectNothingLeaked();
  });
});
