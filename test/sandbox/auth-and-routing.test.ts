import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { Api, newKey } from './helpers.js';

let sandbox: Sandbox;
let api: Api;

beforeAll(async () => {
  sandbox = await startSandbox();
  api = new Api(sandbox.url);
});
afterAll(async () => {
  await api.close();
  await sandbox.close();
});

describe('authentication', () => {
  it.each([
    ['missing', null],
    ['empty', ''],
    ['live key', 'sk_live_abc'],
    ['bare prefix', 'sk_test_'],
    ['other', 'pk_test_abc'],
  ])('refuses a %s key with 401 and the exact envelope, no error_code', async (_label, key) => {
    const res = await api.get('/v1/payment/balances', { key });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: false, message: 'Invalid API key' });
  });

  it('checks the key before reading the body', async () => {
    const res = await api.call('POST', '/v1/payment/charges/', undefined, { key: 'nope', raw: '{broken' });
    expect(res.status).toBe(401);
  });

  it('accepts any sk_test_ key and keeps each key in its own account', async () => {
    const a = api.withKey(newKey('a'));
    const b = api.withKey(newKey('b'));
    const created = await a.createCharge('opa_bf', '76000000');
    expect(created.status).toBe(201);
    expect((await a.get(`/v1/payment/charges/${created.body.data.reference}`)).status).toBe(200);
    const other = await b.get(`/v1/payment/charges/${created.body.data.reference}`);
    expect(other.status).toBe(404);
    expect((await b.get('/v1/payment/charges')).body.pagination.total_records).toBe(0);
    await Promise.all([a.close(), b.close()]);
  });
});

describe('routing', () => {
  it.each(['/v1/payment/balances', '/v1/payment/balances/'])('answers %s with and without trailing slash', async (path) => {
    const res = await api.get(path);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
  });

  it.each([
    ['POST', '/v1/payment/charges/submit'],
    ['POST', '/v1/payment/charges/submit/'],
    ['POST', '/v1/payment/checkouts/initialize'],
  ])('%s %s reaches the literal route, not the :reference one', async (method, path) => {
    const res = await api.call(method, path, {});
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe('INVALID_DATA');
  });

  it('unknown path: 404 with the envelope', async () => {
    const res = await api.get('/v1/payment/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: false });
    expect(typeof res.body.message).toBe('string');
  });

  it('known path, wrong method: 405 with Allow and the envelope (bulk is POST only)', async () => {
    const res = await api.get('/v1/payment/transfers/bulk/');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.body.status).toBe(false);
    const del = await api.call('DELETE', '/v1/payment/charges');
    expect(del.status).toBe(405);
    expect(del.headers.allow).toBe('POST, GET');
  });

  it('a body that is not JSON: 400 INVALID_DATA', async () => {
    const res = await api.call('POST', '/v1/payment/transfers/', undefined, { raw: '{"amount": 100,' });
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(false);
    expect(res.body.error_code).toBe('INVALID_DATA');
    expect(res.body.message).toMatch(/JSON parse error/);
  });

  it('a JSON body that is not an object: 400 INVALID_DATA with non_field_errors', async () => {
    const res = await api.post('/v1/payment/transfers/', [1, 2]);
    expect(res.status).toBe(400);
    expect(res.body.errors.non_field_errors[0]).toMatch(/Expected a dictionary, but got list/);
  });

  it('an over-large body: 413 envelope', async () => {
    const res = await api.call('POST', '/v1/payment/transfers/', undefined, { raw: `{"x":"${'a'.repeat(1_100_000)}"}` });
    expect(res.status).toBe(413);
    expect(res.body.status).toBe(false);
  });
});

describe('request log', () => {
  it('records method, path without query, query and clock time; counts with filters; clears', async () => {
    sandbox.requests.clear();
    const sentAfter = Date.now();
    await api.get('/v1/payment/charges?status=success&page=2');
    const answeredBefore = Date.now();
    await api.get('/v1/payment/charges/');
    await api.post('/v1/payment/transfers/', {});
    const all = sandbox.requests.all();
    expect(all).toHaveLength(3);
    expect(all[0]).toMatchObject({ method: 'GET', path: '/v1/payment/charges' });
    expect(all[0]!.query.get('status')).toBe('success');
    expect(all[0]!.query.get('page')).toBe('2');
    // The sandbox runs on the real clock here: arrival is stamped between sending and the answer.
    expect(all[0]!.at).toBeGreaterThanOrEqual(sentAfter);
    expect(all[0]!.at).toBeLessThanOrEqual(answeredBefore);
    expect(sandbox.requests.count({ path: '/v1/payment/charges' })).toBe(2);
    expect(sandbox.requests.count({ method: 'post' })).toBe(1);
    expect(sandbox.requests.count({ path: /^\/v1\/payment\/(charges|transfers)/ })).toBe(3);
    expect(sandbox.requests.count({ method: 'GET', path: /transfers/ })).toBe(0);
    sandbox.requests.clear();
    expect(sandbox.requests.count()).toBe(0);
  });
});
