// The client against real local node:http servers that misbehave like a live service can.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { createUpstreamClient, type UpstreamClientOptions } from '../../src/upstream/client.js';
import { UpstreamCallError } from '../../src/upstream/call-error.js';
import type { UpstreamClient } from '../../src/upstream/types.js';
import { closedPort } from '../helpers/http.js';
import { json, startStub, type StubHandler, type StubServer } from './stub-server.js';

const API_KEY = 'sk_test_Zq8SECRETkey_do_not_leak_71';

const balanceData = {
  collection_balances: { available: 5000, pending: 0, currency: 'XOF' },
  transfer_balances: {
    total_available: 100000,
    total_pending: 0,
    opa_money_bf: { available: 100000, pending: 0 },
  },
};
const settlementData = {
  reference: '1b0c2a34-0000-4000-8000-000000000001',
  amount: 20000,
  settlement_fees: 200,
  currency: 'XOF',
  status: 'cancelled',
  live_mode: false,
  created_at: '2024-05-01T10:00:00Z',
  updated_at: '2024-05-01T10:05:00+00:00',
  account_type: 'mobile',
  provider: 'opa_bf',
  phone: '76000000',
};

let servers: StubServer[] = [];
let clients: UpstreamClient[] = [];
/** Every error seen in this file, checked for leaks at the end of each test. */
let seen: unknown[] = [];

afterEach(async () => {
  for (const e of seen) {
    const text = `${String(e)} ${JSON.stringify(e)} ${(e as Error).stack ?? ''}`;
    expect(text).not.toContain(API_KEY);
    for (const s of servers) expect(text).not.toContain(s.url);
  }
  seen = [];
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
  clients = [];
  servers = [];
});

async function stub(handler: StubHandler): Promise<StubServer> {
  const s = await startStub(handler);
  servers.push(s);
  return s;
}

function client(baseUrl: string, timeoutMs = 2000, options: UpstreamClientOptions = { retryBaseMs: 5 }): UpstreamClient {
  const c = createUpstreamClient(
    { baseUrl, apiKey: API_KEY, timeoutMs, pageParam: 'page', pageSizeParam: 'page_size', pageSize: 20 },
    options,
  );
  clients.push(c);
  return c;
}

async function failure(p: Promise<unknown>): Promise<UpstreamCallError> {
  try {
    await p;
  } catch (e) {
    seen.push(e);
    expect(e).toBeInstanceOf(UpstreamCallError);
    return e as UpstreamCallError;
  }
  throw new Error('expected a rejection');
}

const html502 = (res: ServerResponse) => {
  res.writeHead(502, { 'content-type': 'text/html' });
  res.end('<html><head><title>502 Bad Gateway</title></head><body><center>502 Bad Gateway</center></body></html>');
};

const createTransfer = (c: UpstreamClient) => c.createTransfer({ amount: 1000, recipientPhone: '76000000', recipientWallet: 'opa_bf' });

describe('connection refused', () => {
  it('GET: UPSTREAM_UNAVAILABLE refused, retryable, outcome known', async () => {
    const port = await closedPort();
    const e = await failure(client(`http://127.0.0.1:${port}`).fetchBalance());
    expect(e.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(e.fault).toBe('refused');
    expect(e.retryable).toBe(true);
    expect(e.outcomeUnknown).toBe(false);
    expect(e.message).not.toContain(String(port));
  });
  it('POST: the request never left, so the outcome is known', async () => {
    const port = await closedPort();
    const e = await failure(createTransfer(client(`http://127.0.0.1:${port}`)));
    expect(e.fault).toBe('refused');
    expect(e.outcomeUnknown).toBe(false);
  });
});

describe('deadline', () => {
  it('a server that never answers: timeout within the deadline', async () => {
    const s = await stub(() => {
      /* never answers */
    });
    const e = await failure(client(s.url, 200).fetchBalance());
    expect(e.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(e.fault).toBe('timeout');
    expect(e.retryable).toBe(true);
    // the deadline covers all attempts: a timed-out GET is not sent again
    expect(s.requests).toHaveLength(1);
  });
  it('headers sent, body never finished: the deadline covers the body', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"status": true, "data": ');
    });
    const e = await failure(client(s.url, 200).fetchBalance());
    expect(e.fault).toBe('timeout');
    // The deadline ended the call while the body was still expected, not a later attempt.
    expect(s.requests).toHaveLength(1);
  });
  it('POST timeout: outcome unknown, not repeated', async () => {
    const s = await stub(() => {});
    const e = await failure(createTransfer(client(s.url, 200)));
    expect(e.fault).toBe('timeout');
    expect(e.outcomeUnknown).toBe(true);
    expect(e.message).toMatch(/may have been carried out/);
    expect(s.requests).toHaveLength(1);
  });
});

describe('bodies that are not the envelope', () => {
  it('HTML 502 page on GET: retried twice, then bad_body with the HTTP status', async () => {
    const s = await stub((_req, res) => html502(res));
    const e = await failure(client(s.url).fetchBalance());
    expect(e.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(e.fault).toBe('bad_body');
    expect(e.httpStatus).toBe(502);
    expect(e.outcomeUnknown).toBe(false);
    expect(s.requests).toHaveLength(3);
  });
  it('HTML 502 page on POST: one request, outcome unknown', async () => {
    const s = await stub((_req, res) => html502(res));
    const e = await failure(createTransfer(client(s.url)));
    expect(e.fault).toBe('bad_body');
    expect(e.outcomeUnknown).toBe(true);
    expect(s.requests).toHaveLength(1);
  });
  it('empty 500: http_status', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(500);
      res.end();
    });
    const e = await failure(client(s.url).fetchBalance());
    expect(e.fault).toBe('http_status');
    expect(e.httpStatus).toBe(500);
    expect(s.requests).toHaveLength(1); // 500 is not one of 502/503/504
  });
  it('truncated JSON: bad_body', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status": true, "message": "ok", "data": {"collection_balances": {"avail');
    });
    const e = await failure(client(s.url).fetchBalance());
    expect(e.fault).toBe('bad_body');
    expect(e.httpStatus).toBe(200);
  });
  it('JSON that is not an envelope: bad_body', async () => {
    const s = await stub((_req, res) => json(res, 200, { detail: 'ok', data: balanceData }));
    expect((await failure(client(s.url).fetchBalance())).fault).toBe('bad_body');
  });
  it('envelope whose data has wrong types: bad_body naming the path', async () => {
    const s = await stub((_req, res) =>
      json(res, 200, {
        status: true,
        message: 'ok',
        data: { ...balanceData, collection_balances: { available: 'lots', pending: 0 } },
      }),
    );
    const e = await failure(client(s.url).fetchBalance());
    expect(e.fault).toBe('bad_body');
    expect(e.message).toContain('data.collection_balances.available');
    expect(e.message).not.toContain('lots');
  });
  it('a list whose data is not an array: bad_body', async () => {
    const s = await stub((_req, res) => json(res, 200, { status: true, message: 'ok', data: { results: [] } }));
    expect((await failure(client(s.url).listTransfers())).fault).toBe('bad_body');
  });
  it('decides by status, not HTTP status: status true on a 400 is a success', async () => {
    const s = await stub((_req, res) => json(res, 400, { status: true, message: 'ok', data: balanceData }));
    const b = await client(s.url).fetchBalance();
    expect(b.wallets).toEqual([{ wallet: 'opa_bf', available: 100000, pending: 0 }]);
  });
});

describe('socket reset', () => {
  const reset: StubHandler = (_req, res) => res.socket?.destroy();
  it('GET: reset is retried, then reported', async () => {
    const s = await stub(reset);
    const e = await failure(client(s.url).fetchBalance());
    expect(e.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(e.fault).toBe('reset');
    expect(e.outcomeUnknown).toBe(false);
    expect(s.requests).toHaveLength(3);
  });
  it('POST: not retried, outcome unknown', async () => {
    const s = await stub(reset);
    const e = await failure(createTransfer(client(s.url)));
    expect(e.fault).toBe('reset');
    expect(e.outcomeUnknown).toBe(true);
    expect(s.requests).toHaveLength(1);
  });
  it('reset in the middle of the body: reset, not a hang', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"status": true, "data": {', () => res.socket?.destroy());
    });
    const e = await failure(client(s.url, 2000, { maxRetries: 0 }).fetchBalance());
    expect(e.fault).toBe('reset');
  });
});

describe('retries', () => {
  it('GET retried at most twice on 503, then succeeds', async () => {
    const s = await stub((_req, res, n) => {
      if (n <= 2) json(res, 503, { detail: 'unavailable' });
      else json(res, 200, { status: true, message: 'Balance', data: balanceData });
    });
    const b = await client(s.url).fetchBalance();
    expect(b.collection.available).toBe(5000);
    expect(s.requests).toHaveLength(3);
  });
  it('GET never sent more than 3 times', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(503);
      res.end();
    });
    const e = await failure(client(s.url).fetchBalance());
    expect(e.fault).toBe('http_status');
    expect(e.httpStatus).toBe(503);
    expect(s.requests).toHaveLength(3);
  });
  it('a 504 with an envelope is retried, then mapped from the envelope', async () => {
    const s = await stub((_req, res) => json(res, 504, { status: false, message: 'Upstream timeout', error_code: 'NETWORK_ERROR' }));
    const e = await failure(client(s.url).fetchCharge('ch_1'));
    expect(e.code).toBe('NETWORK_ERROR');
    expect(e.httpStatus).toBe(504);
    expect(s.requests).toHaveLength(3);
  });
  it('POST is never retried (count = 1)', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(503);
      res.end();
    });
    const e = await failure(createTransfer(client(s.url)));
    expect(e.fault).toBe('http_status');
    expect(e.outcomeUnknown).toBe(true);
    expect(s.requests).toHaveLength(1);
  });
  it('the cancel-settlement GET is not retried', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(503);
      res.end();
    });
    const e = await failure(client(s.url).cancelSettlement(settlementData.reference));
    expect(e.outcomeUnknown).toBe(true);
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]!.method).toBe('GET');
    expect(s.requests[0]!.url).toBe(`/v1/payment/settlements/${settlementData.reference}/cancel/`);
  });
  it('the cancel-settlement GET is not retried on a reset either', async () => {
    const s = await stub((_req, res) => res.socket?.destroy());
    const e = await failure(client(s.url).cancelSettlement(settlementData.reference));
    expect(e.fault).toBe('reset');
    expect(e.outcomeUnknown).toBe(true);
    expect(s.requests).toHaveLength(1);
  });
  it('the deadline also bounds the retries', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(503);
      res.end();
    });
    // backoff steps of ~1 s do not fit into a 300 ms deadline: one attempt only
    const e = await failure(client(s.url, 300, { retryBaseMs: 1000 }).fetchBalance());
    expect(e.fault).toBe('http_status');
    expect(s.requests).toHaveLength(1);
  });
});

describe('error envelopes', () => {
  it('unknown error_code: UNKNOWN_ERROR with upstreamCode and the service message', async () => {
    const s = await stub((_req, res) =>
      json(res, 422, { status: false, message: 'Daily limit reached', error_code: 'DAILY_LIMIT_REACHED' }),
    );
    const e = await failure(createTransfer(client(s.url)));
    expect(e.code).toBe('UNKNOWN_ERROR');
    expect(e.upstreamCode).toBe('DAILY_LIMIT_REACHED');
    expect(e.message).toBe('Daily limit reached');
    expect(e.httpStatus).toBe(422);
    expect(e.outcomeUnknown).toBe(false);
  });
  it('the API key and base URL never appear, even when the service echoes them', async () => {
    let url = '';
    const s = await stub((req, res) =>
      json(res, 401, {
        status: false,
        message: `Invalid key ${String(req.headers['x-api-key'])} for ${url}/v1/payment/balances`,
        errors: { api_key: [`${String(req.headers['x-api-key'])} is revoked`] },
      }),
    );
    url = s.url;
    const e = await failure(client(s.url).fetchBalance());
    expect(e.code).toBe('INVALID_DATA');
    expect(e.message).toContain('[redacted]');
    expect(JSON.stringify(e.fieldErrors)).not.toContain(API_KEY);
  });
});

describe('keep-alive', () => {
  it('many sequential calls reuse few sockets', async () => {
    const s = await stub((_req, res) => json(res, 200, { status: true, message: 'ok', data: balanceData }));
    const c = client(s.url);
    for (let i = 0; i < 25; i++) await c.fetchBalance();
    expect(s.requests).toHaveLength(25);
    expect(s.connections()).toBeLessThanOrEqual(2);
  });
  it('close() closes the pool: later calls fail cleanly', async () => {
    const s = await stub((_req, res) => json(res, 200, { status: true, message: 'ok', data: balanceData }));
    const c = client(s.url);
    await c.fetchBalance();
    await c.close();
    await c.close(); // idempotent
    const e = await failure(c.fetchBalance());
    expect(e.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(s.requests).toHaveLength(1);
  });
});
