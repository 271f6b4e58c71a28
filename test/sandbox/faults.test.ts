import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { Api, newKey } from './helpers.js';

let sandbox: Sandbox;
let api: Api;

beforeAll(async () => {
  sandbox = await startSandbox();
});
beforeEach(() => {
  api = new Api(sandbox.url, newKey('faults'));
});
afterEach(async () => {
  sandbox.faults.clear();
  await api.close();
});
afterAll(() => sandbox.close());

const chargeBody = { amount: 1000, payment_method_details: { phone: '76000000', provider: 'opa_bf' } };
const chargeCount = async () => (await api.get('/v1/payment/charges')).body.pagination.total_records;

describe('faults', () => {
  it('envelope: the given status and body, nothing processed; times counts down', async () => {
    sandbox.faults.add({
      method: 'POST',
      path: '/v1/payment/charges/',
      kind: 'envelope',
      httpStatus: 503,
      times: 2,
      body: { status: false, message: 'Service unavailable', error_code: 'INTERNAL_ERROR' },
    });
    for (let i = 0; i < 2; i++) {
      const res = await api.post('/v1/payment/charges', chargeBody);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: false, message: 'Service unavailable', error_code: 'INTERNAL_ERROR' });
    }
    expect(await chargeCount()).toBe(0);
    expect((await api.post('/v1/payment/charges', chargeBody)).status).toBe(201);
    expect(sandbox.faults.list()).toEqual([]);
  });

  it('matches on method and RegExp path', async () => {
    sandbox.faults.add({ method: 'GET', path: /^\/v1\/payment\/transfers/, kind: 'envelope', httpStatus: 500 });
    expect((await api.post('/v1/payment/transfers/', { amount: 100, recipient_phone: '76123456' })).status).toBe(201);
    expect((await api.get('/v1/payment/balances')).status).toBe(200);
    expect((await api.get('/v1/payment/transfers?x=1')).status).toBe(500);
    expect((await api.get('/v1/payment/transfers')).status).toBe(200);
  });

  it('html: a proxy error page', async () => {
    sandbox.faults.add({ path: '/v1/payment/balances', kind: 'html' });
    const res = await api.get('/v1/payment/balances');
    expect(res.status).toBe(502);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('502 Bad Gateway');
    expect(res.body).toBeUndefined();
  });

  it('truncated: the request is carried out, the JSON is cut in the middle', async () => {
    sandbox.faults.add({ path: '/v1/payment/charges', method: 'POST', kind: 'truncated' });
    const res = await api.post('/v1/payment/charges/', chargeBody);
    expect(res.status).toBe(201);
    expect(res.body).toBeUndefined();
    expect(() => JSON.parse(res.text)).toThrow();
    expect(res.text.startsWith('{"status":true')).toBe(true);
    expect(await chargeCount()).toBe(1);
  });

  it('wrong_types: same envelope, data leaves retyped', async () => {
    sandbox.faults.add({ path: '/v1/payment/balances', kind: 'wrong_types' });
    const res = await api.get('/v1/payment/balances');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    expect(res.body.data.collection_balances.available).toBe('0');
    expect(res.body.data.collection_balances.currency).toBe(3);
    expect(res.body.data.transfer_balances.opa_money_bf.available).toBe('100000');
  });

  it('delay with ms: no answer until the sandbox clock has moved ms, then a normal answer', async () => {
    const clock = manualClock();
    const delayed = await startSandbox({ clock });
    const client = new Api(delayed.url, newKey('delayed'));
    try {
      // An hour: were the delay real time, the answer could never come within this test.
      const HOUR = 3_600_000;
      delayed.faults.add({ path: '/v1/payment/balances', kind: 'delay', ms: HOUR });
      let answered = false;
      const pending = client.get('/v1/payment/balances').finally(() => (answered = true));
      await expect.poll(() => delayed.requests.count({ path: '/v1/payment/balances' })).toBe(1);

      await clock.advance(HOUR - 1);
      // A full round trip to the same server after the advance: the delayed request is still unanswered.
      expect((await client.get('/v1/payment/charges')).status).toBe(200);
      expect(answered).toBe(false);

      await clock.advance(1);
      const res = await pending;
      expect(res.status).toBe(200);
      expect(res.body.data.transfer_balances.opa_money_bf).toEqual({ available: 100_000, pending: 0 });
    } finally {
      await client.close();
      await delayed.close();
    }
  });

  it('delay without ms: never answers, however far the clock moves, until the client gives up', async () => {
    const clock = manualClock();
    const held = await startSandbox({ clock });
    const agent = new Agent();
    const giveUp = new AbortController();
    try {
      held.faults.add({ path: '/v1/payment/balances', kind: 'delay' });
      let answered = false;
      const pending = request(`${held.url}/v1/payment/balances`, {
        headers: { 'x-api-key': api.key },
        dispatcher: agent,
        signal: giveUp.signal,
      }).finally(() => (answered = true));
      await expect.poll(() => held.requests.count({ path: '/v1/payment/balances' })).toBe(1);
      await clock.advance(365 * 24 * 3_600_000);
      // A full round trip to the same server after the advance: still no answer to the held request.
      const other = await request(`${held.url}/v1/payment/charges`, { headers: { 'x-api-key': api.key }, dispatcher: agent });
      await other.body.dump();
      expect(other.statusCode).toBe(200);
      expect(answered).toBe(false);
      giveUp.abort();
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      await agent.destroy();
      await held.close();
    }
  });

  it('reset: the socket is destroyed without an answer; nothing processed', async () => {
    sandbox.faults.add({ path: '/v1/payment/charges', method: 'POST', kind: 'reset' });
    await expect(api.post('/v1/payment/charges', chargeBody)).rejects.toThrow(/other side closed|socket|ECONNRESET/i);
    expect(await chargeCount()).toBe(0);
  });

  it('reset afterProcessing: the charge exists although the client got no answer', async () => {
    sandbox.faults.add({ path: '/v1/payment/charges', method: 'POST', kind: 'reset', afterProcessing: true });
    await expect(api.post('/v1/payment/charges', chargeBody)).rejects.toThrow();
    expect(await chargeCount()).toBe(1);
  });

  it('unlimited faults stay until removed; remove() by id', async () => {
    const id = sandbox.faults.add({ path: '/v1/payment/balances', kind: 'envelope', httpStatus: 500, times: 'unlimited' });
    for (let i = 0; i < 3; i++) expect((await api.get('/v1/payment/balances')).status).toBe(500);
    expect(sandbox.faults.remove(id)).toBe(true);
    expect((await api.get('/v1/payment/balances')).status).toBe(200);
  });

  it('rejects malformed specs', () => {
    expect(() => sandbox.faults.add({ path: '/x', kind: 'nope' } as never)).toThrow(TypeError);
    expect(() => sandbox.faults.add({ path: '/x', kind: 'envelope' } as never)).toThrow(/httpStatus/);
    expect(() => sandbox.faults.add({ path: '/x', kind: 'html', times: 0 })).toThrow(/times/);
  });
});

describe('fault control over HTTP (/_sandbox/faults)', () => {
  it('POST adds (snake_case, path_pattern), GET lists, DELETE /:id and DELETE clear; faults never hit /_sandbox', async () => {
    const added = await api.post(
      '/_sandbox/faults',
      {
        kind: 'envelope',
        method: 'GET',
        path_pattern: '^/v1/payment/bal',
        http_status: 429,
        body: { status: false, message: 'slow down', error_code: 'RATE_LIMIT_EXCEEDED' },
        times: 'unlimited',
      },
      { key: null },
    );
    expect(added.status).toBe(201);
    const id = added.body.data.id;
    expect((await api.get('/v1/payment/balances')).body).toEqual({
      status: false,
      message: 'slow down',
      error_code: 'RATE_LIMIT_EXCEEDED',
    });
    const listed = await api.get('/_sandbox/faults', { key: null });
    expect(listed.body.data).toEqual([{ id, kind: 'envelope', method: 'GET', path: '/^\\/v1\\/payment\\/bal/', remaining: 'unlimited' }]);

    expect((await api.call('DELETE', `/_sandbox/faults/${id}`, undefined, { key: null })).status).toBe(200);
    expect((await api.call('DELETE', `/_sandbox/faults/${id}`, undefined, { key: null })).status).toBe(404);
    expect((await api.get('/v1/payment/balances')).status).toBe(200);

    await api.post('/_sandbox/faults', { kind: 'reset', path: '/v1/payment/balances' }, { key: null });
    await api.post('/_sandbox/faults', { kind: 'html', path: '/v1/payment/balances', http_status: 504 }, { key: null });
    expect(sandbox.faults.list()).toHaveLength(2);
    expect((await api.call('DELETE', '/_sandbox/faults', undefined, { key: null })).status).toBe(200);
    expect(sandbox.faults.list()).toHaveLength(0);
  });

  it('a bad spec is a 400 envelope', async () => {
    const res = await api.post('/_sandbox/faults', { kind: 'explode', path: '/x' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, error_code: 'INVALID_DATA' });
    expect(res.body.message).toMatch(/kind must be one of/);
    expect((await api.post('/_sandbox/faults', { kind: 'html' })).body.message).toMatch(/path/);
  });
});
