// GET /health: the gateway is up; is the payment service reachable, and does
// it accept the gateway's key?
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../helpers/gateway.js';
import type { Json } from '../helpers/sandbox-api.js';
import { waitFor } from '../helpers/wait.js';

let stacks: TestStack[] = [];
afterEach(async () => {
  await Promise.all(stacks.map((s) => s.close()));
  stacks = [];
});

async function health(stack: TestStack) {
  const res = await request(`${stack.gateway.url}/health`);
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as Record<string, Json> };
}

describe('GET /health', () => {
  it('reports ok with the upstream reachable and authenticated', async () => {
    // One readiness probe at start, none after it during the test.
    const stack = await startStack({ env: { HEALTH_PROBE_MS: '3600000' } });
    stacks.push(stack);
    await waitFor(async () => {
      const ready = await request(`${stack.gateway.url}/health/ready`);
      await ready.body.dump();
      return ready.statusCode === 200;
    }, 'the first readiness probe');
    stack.sandbox.requests.clear();
    const res = await health(stack);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      status: 'ok',
      mode: 'live',
      upstream: { reachable: true, authenticated: true, latencyMs: expect.any(Number), checkedAt: expect.stringMatching(/Z$/) },
      redis: { status: 'not_configured', latencyMs: null },
    });
    expect(stack.sandbox.requests.count({ method: 'GET', path: '/v1/payment/balances' })).toBe(1);
  });

  it('reports degraded and authenticated false when the service refuses the key', async () => {
    // A well-formed key the (test-mode) service does not accept.
    const stack = await startStack({ apiKey: 'sk_live_not_accepted_by_the_sandbox' });
    stacks.push(stack);
    const res = await health(stack);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'degraded',
      upstream: { reachable: true, authenticated: false, latencyMs: expect.any(Number) },
    });
    // The key never appears in the report.
    expect(JSON.stringify(res.body)).not.toContain('sk_live_');
  });

  it('reports reachable false when the service is down', async () => {
    const stack = await startStack();
    stacks.push(stack);
    await stack.sandbox.close();
    const res = await health(stack);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'degraded', upstream: { reachable: false, authenticated: null, latencyMs: null } });
  });
});
