// Every answer of the gateway carries the browser hardening headers: JSON results and refusals, event streams,
// health, and GraphiQL's page, which gets its own policy (its inlined scripts by hash, no 'unsafe-inline' script,
// no framing). GraphiQL working under that policy in a real browser is test/graphiql/in-chromium.test.ts.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { bearer } from '../schema/auth-support.js';

let stack: TestStack;

beforeAll(async () => {
  stack = await startStack({ env: { SUBSCRIPTION_POLL_MS: '0', GRAPHIQL: 'true', MAX_BODY_BYTES: '1024' } });
});
afterAll(async () => {
  await stack?.close();
});

type Headers = Record<string, string | string[] | undefined>;

function expectHardened(headers: Headers, what: string): void {
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['referrer-policy'], what).toBe('no-referrer');
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['content-security-policy'], what).toContain("frame-ancestors 'none'");
}

async function answer(path: string, init: Parameters<typeof request>[1] = {}) {
  const res = await request(new URL(path, stack.gateway.graphqlUrl), init);
  const body = await res.body.text();
  return { status: res.statusCode, headers: res.headers, body };
}

const postJson = (body: unknown, headers: Record<string, string> = {}) =>
  answer('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
    body: JSON.stringify(body),
  });

describe('security headers', () => {
  it('on JSON results and on every kind of refusal, with a policy that loads nothing', async () => {
    const answers = {
      result: await postJson({ query: '{ balance { currency } }' }, bearer(stack.staffToken)),
      unauthenticated: await postJson({ query: '{ balance { currency } }' }, bearer('not-a-jwt')),
      'bad request': await postJson({ query: '{' }, bearer(stack.staffToken)),
      'too large': await postJson({ query: `# ${'x'.repeat(4096)}\n{ __typename }` }),
      'two credentials': await answer('/graphql', {
        method: 'POST',
        headers: ['content-type', 'application/json', 'authorization', 'Bearer a', 'authorization', 'Bearer b'],
        body: '{"query":"{ __typename }"}',
      }),
      'health/live': await answer('/health/live'),
      'health/ready': await answer('/health/ready'),
      health: await answer('/health'),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([k, v]) => [k, v.status]))).toEqual({
      result: 200,
      unauthenticated: 401,
      'bad request': 400,
      'too large': 413,
      'two credentials': 400,
      'health/live': 200,
      'health/ready': 200,
      health: 200,
    });
    for (const [what, { headers }] of Object.entries(answers)) {
      expectHardened(headers, what);
      expect(headers['content-security-policy'], what).toMatch(/default-src 'none'/);
    }
  });

  it('on an event stream', async () => {
    const controller = new AbortController();
    const res = await request(stack.gateway.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...bearer(stack.staffToken) },
      body: JSON.stringify({ query: 'subscription { paymentEvents { id } }' }),
      signal: controller.signal,
    });
    expect(res.headers['content-type']).toMatch(/text\/event-stream/);
    expectHardened(res.headers, 'SSE');
    controller.abort();
    await res.body.dump().catch(() => {});
  });

  it("on GraphiQL's page, whose policy allows its own inlined scripts by hash and nothing inline besides", async () => {
    const page = await answer('/graphql', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expectHardened(page.headers, 'GraphiQL');
    const policy = String(page.headers['content-security-policy']);
    const scriptSrc = /script-src ([^;]*)/.exec(policy)?.[1] ?? '';
    expect(scriptSrc).toMatch(/'sha256-[A-Za-z0-9+/=]+'/);
    expect(scriptSrc).not.toContain('unsafe-inline');
    expect(scriptSrc).not.toContain('unsafe-eval');
    // The same policy whether the page goes out compressed or not.
    const brotli = await answer('/graphql', { headers: { accept: 'text/html', 'accept-encoding': 'br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-security-policy']).toBe(policy);
  });
});
