import { createHash, createHmac } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_KINDS, manualClock, startSandbox } from '../../src/sandbox/index.js';
import { Api, newKey, startReceiver } from './helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(respond?: (n: number) => number, options: { scheme?: 'hmac-sha256-hex' | 'sha256-base64'; realClock?: boolean } = {}) {
  const receiver = await startReceiver(respond);
  const clock = manualClock();
  const sandbox = await startSandbox({
    ...(options.realClock ? { delays: { webhookRetryBaseMs: 5 } } : { clock }),
    webhook: { url: receiver.url, secret: 'whsec_sandbox_secret', scheme: options.scheme ?? 'hmac-sha256-hex' },
  });
  const api = new Api(sandbox.url, newKey('hooks'));
  cleanups.push(
    () => receiver.close(),
    () => sandbox.close(),
    () => api.close(),
  );
  return { receiver, clock, sandbox, api };
}

describe('webhook delivery', () => {
  it('hmac-sha256-hex: hex HMAC of the exact body; data is the resource as fetch returns it', async () => {
    const { receiver, clock, api } = await setup();
    const ref = await api.paidCharge();
    await clock.advance(0);
    expect(receiver.received).toHaveLength(1);
    const hit = receiver.received[0]!;
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['x-webhook-hash']).toBe(createHmac('sha256', 'whsec_sandbox_secret').update(hit.body).digest('hex'));
    expect(hit.json).toEqual({ event: 'charge.success', data: (await api.get(`/v1/payment/charges/${ref}`)).body.data });
    expect(Object.keys(hit.json)).toEqual(['event', 'data']);
  });

  it('sha256-base64: base64 SHA-256 of body followed by the secret', async () => {
    const { receiver, clock, api } = await setup(undefined, { scheme: 'sha256-base64' });
    await api.paidCharge();
    await clock.advance(0);
    const hit = receiver.received[0]!;
    const expected = createHash('sha256')
      .update(Buffer.concat([hit.body, Buffer.from('whsec_sandbox_secret')]))
      .digest('base64');
    expect(hit.headers['x-webhook-hash']).toBe(expected);
    expect(hit.headers['x-webhook-hash']).not.toBe(createHmac('sha256', 'whsec_sandbox_secret').update(hit.body).digest('hex'));
  });

  it('retries a 500 with exponential backoff on the clock, resending the same bytes and signature', async () => {
    const { receiver, clock, sandbox, api } = await setup((n) => (n < 2 ? 500 : 200));
    const t0 = clock.now();
    await api.paidCharge();
    await clock.advance(0);
    expect(receiver.received).toHaveLength(1);
    await clock.advance(999);
    expect(receiver.received).toHaveLength(1);
    await clock.advance(1); // base 1 s
    expect(receiver.received).toHaveLength(2);
    await clock.advance(1999);
    expect(receiver.received).toHaveLength(2);
    await clock.advance(1); // then 2 s
    expect(receiver.received).toHaveLength(3);
    await clock.advance(60_000);
    expect(receiver.received).toHaveLength(3);
    const [a, b, c] = receiver.received;
    expect(b!.body.equals(a!.body) && c!.body.equals(a!.body)).toBe(true);
    expect(new Set(receiver.received.map((r) => r.headers['x-webhook-hash'])).size).toBe(1);
    expect(sandbox.webhooks.all().map((d) => [d.attempt, d.httpStatus, d.ok, d.at - t0])).toEqual([
      [1, 500, false, 0],
      [2, 500, false, 1000],
      [3, 200, true, 3000],
    ]);
  });

  it('gives up after 3 retries (4 attempts: +1 s, +2 s, +4 s)', async () => {
    const { receiver, clock, sandbox, api } = await setup(() => 503);
    await api.paidCharge();
    await clock.advance(60_000);
    expect(receiver.received).toHaveLength(4);
    expect(sandbox.webhooks.all().map((d) => d.attempt)).toEqual([1, 2, 3, 4]);
    const times = sandbox.webhooks.all().map((d) => d.at);
    expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual([1000, 2000, 4000]);
  });

  it('retries network errors too (nothing listening)', async () => {
    const { clock, sandbox, api } = await setup();
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as AddressInfo).port;
    await new Promise<void>((r) => dead.close(() => r()));
    sandbox.setWebhook({ url: `http://127.0.0.1:${port}/x?token=abc`, secret: 'k', scheme: 'hmac-sha256-hex' });
    await api.paidCharge();
    await clock.advance(10_000);
    const log = sandbox.webhooks.all();
    expect(log).toHaveLength(4);
    expect(log.every((d) => !d.ok && d.httpStatus === null && /ECONNREFUSED|connect/i.test(d.error ?? ''))).toBe(true);
    expect(log[0]!.target).toBe(`http://127.0.0.1:${port}/x`); // no query (could hold a token)
  });

  it('setWebhook changes the target at run time; null stops deliveries', async () => {
    const { receiver, clock, sandbox, api } = await setup();
    const second = await startReceiver();
    cleanups.push(() => second.close());
    sandbox.setWebhook({ url: second.url, secret: 'other', scheme: 'sha256-base64' });
    await api.paidCharge();
    await clock.advance(0);
    expect(receiver.received).toHaveLength(0);
    expect(second.events()).toEqual(['charge.success']);
    sandbox.setWebhook(null);
    await api.paidCharge();
    await clock.advance(0);
    expect(second.received).toHaveLength(1);
    expect(() => sandbox.setWebhook({ url: 'ftp://x', secret: 'a', scheme: 'hmac-sha256-hex' })).toThrow();
  });

  it('transfer.success and transfer.failed carry the fetch form (fees as a string)', async () => {
    const { receiver, clock, sandbox, api } = await setup();
    const ok = (await api.post('/v1/payment/transfers/', { amount: 500, recipient_phone: '76123456' })).body.data.reference;
    const ko = (await api.post('/v1/payment/transfers/', { amount: 500, recipient_phone: '76123459' })).body.data.reference;
    await clock.advance(sandbox.delays.transferMs);
    const byEvent = Object.fromEntries(receiver.received.map((r) => [r.json.event, r.json.data]));
    expect(Object.keys(byEvent).sort()).toEqual(['transfer.failed', 'transfer.success']);
    expect(byEvent['transfer.success']).toEqual((await api.get(`/v1/payment/transfers/${ok}`)).body.data);
    expect(byEvent['transfer.failed']).toEqual((await api.get(`/v1/payment/transfers/${ko}`)).body.data);
    expect(byEvent['transfer.success'].fees).toBe('1.00');
  });

  it('pay_offline outcomes arrive as charge.success / charge.failed', async () => {
    const { receiver, clock, sandbox, api } = await setup();
    await api.createCharge('ope_bj', '0196000000');
    await api.createCharge('ope_bj', '0196000002');
    await clock.advance(sandbox.delays.payOfflineMs);
    expect(receiver.events().sort()).toEqual(['charge.failed', 'charge.success']);
    expect(WEBHOOK_EVENT_KINDS).toContain('charge.failed');
  });

  it('a slow receiver never delays the API response (real clock)', async () => {
    const held: ServerResponse[] = [];
    const slow = createServer((req, res) => {
      req.resume();
      held.push(res);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const sandbox = await startSandbox({
      webhook: { url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`, secret: 's', scheme: 'hmac-sha256-hex' },
    });
    const api = new Api(sandbox.url, newKey('slow'));
    cleanups.push(
      () =>
        new Promise<void>((r) => {
          slow.close(() => r());
          slow.closeAllConnections();
        }),
      () => sandbox.close(),
      () => api.close(),
    );
    const res = await api.post('/v1/payment/checkouts/initialize/', {
      amount: 100,
      success_url: 'http://a.test/',
      cancel_url: 'http://a.test/',
    });
    expect(res.status).toBe(201);
    await expect.poll(() => held.length).toBe(1); // the delivery is on the wire, unanswered
    expect(sandbox.webhooks.all()).toHaveLength(0);
    held[0]!.end();
    await sandbox.webhooks.idle();
    expect(sandbox.webhooks.all()).toMatchObject([{ event: 'checkout.pending', ok: true, httpStatus: 200 }]);
  });

  it('retries on the real clock with a tiny base delay', async () => {
    const { receiver, sandbox, api } = await setup((n) => (n === 0 ? 500 : 204), { realClock: true });
    await api.paidCharge();
    await expect.poll(() => receiver.received.length).toBe(2);
    await sandbox.webhooks.idle();
    expect(sandbox.webhooks.all().map((d) => d.httpStatus)).toEqual([500, 204]);
  });
});
