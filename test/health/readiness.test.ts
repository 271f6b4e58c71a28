// GET /health/live and /health/ready: ready follows the payment service and Redis,
// going 503 when either stops answering and 200 again when it returns.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { startRedisServer, type TestRedisServer } from '../helpers/redis-server.js';
import { waitFor } from '../helpers/wait.js';

let redis: TestRedisServer;
let stack: TestStack;

beforeAll(async () => {
  redis = await startRedisServer();
  stack = await startStack({ env: { REDIS_URL: redis.url, HEALTH_PROBE_MS: '50' } });
});
afterAll(async () => {
  await stack?.close();
  await redis?.stop();
});

async function get(path: string) {
  const res = await request(`${stack.gateway.url}${path}`);
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}
const readyIs = (status: number) => async () => (await get('/health/ready')).status === status;
/** Waits for one answer of /health/ready with this status and body (two GETs could see two probes). */
const readyMatches = (status: number, body: Record<string, unknown>) => async () => {
  const res = await get('/health/ready');
  return res.status === status && expect.objectContaining(body).asymmetricMatch(res.body);
};

describe('health probes', () => {
  it('live answers while the process runs, whatever its dependencies do', async () => {
    expect(await get('/health/live')).toEqual({ status: 200, body: { live: true } });
  });

  it('ready is 200 with both dependencies up, 503 while Redis is down, and 200 once it is back', async () => {
    await waitFor(readyMatches(200, { ready: true, upstream: 'ok', redis: 'ok' }), 'ready');

    await redis.kill();
    await waitFor(
      readyMatches(503, { ready: false, upstream: 'ok', redis: expect.stringMatching(/unreachable|timeout/) }),
      'not ready after Redis went away',
    );
    expect((await get('/health/live')).status).toBe(200);

    await redis.restart();
    await waitFor(readyIs(200), 'ready again after Redis came back', 15_000);
  });

  it('ready is 503 while the payment service does not answer, and 200 once it does', async () => {
    await waitFor(readyIs(200), 'ready');
    stack.sandbox.faults.add({ method: 'GET', path: '/v1/payment/balances', kind: 'reset', times: 'unlimited' });
    try {
      await waitFor(
        readyMatches(503, { ready: false, upstream: expect.stringMatching(/unreachable|timeout/), redis: 'ok' }),
        'not ready while the service drops connections',
      );
      expect((await get('/health/live')).status).toBe(200);
    } finally {
      stack.sandbox.faults.clear();
    }
    await waitFor(readyIs(200), 'ready again');
  });
});
