// The refusal before yoga (src/http/early-refusal.ts), over a real socket (the Node handler is its subject), on
// the shared Redis: once a caller is over its budget, its next JSON query is answered from the replica's memory
// with exactly the answer yoga gives (status, Retry-After, content type, body in both languages, the security
// headers), and whatever that answer could not match goes on to yoga unchanged: a browser's request (CORS headers),
// another media type, a mutation (its typed RateLimitedError), a token that does not verify, another caller.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { request } from 'undici';
import { connectRedis, type GatewayRedis } from '../../src/redis/index.js';
import { SECURITY_HEADERS } from '../../src/limits/index.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { deleteByPrefix, uniqueNamespace } from '../events/redis-helpers.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const namespace = uniqueNamespace('early-refusal-http');
const BUDGET = 2;
const ORIGIN = 'https://shop.example';

let stack: TestStack;
let redis: GatewayRedis;

beforeAll(async () => {
  stack = await startStack({
    redisNamespace: namespace,
    env: { REDIS_URL, RATE_LIMIT_STAFF_PER_MINUTE: String(BUDGET), CORS_ORIGINS: ORIGIN },
  });
  redis = await connectRedis({ url: REDIS_URL, namespace });
}, 30_000);

afterAll(async () => {
  await stack?.close();
  await deleteByPrefix(redis.commands, namespace);
  await redis.close();
});

const BALANCE = '{ balance { currency } }';

/** Over the socket: status, the headers that matter, and the body parsed (retryAfterMs, which ticks, left out). */
async function overHttp(bearer: string, query: string, headers: Record<string, string> = {}) {
  const res = await request(stack.gateway.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}`, ...headers },
    body: JSON.stringify({ query }),
  });
  return answer(res.statusCode, (name) => res.headers[name] as string | undefined, await res.body.text());
}

/** Through yoga alone (in process: no Node handler before it), for the same caller. */
async function throughYoga(bearer: string, query: string, headers: Record<string, string> = {}) {
  const res = await stack.gateway.server.yoga.fetch('http://yoga/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}`, ...headers },
    body: JSON.stringify({ query }),
  });
  return answer(res.status, (name) => res.headers.get(name) ?? undefined, await res.text());
}

function answer(status: number, header: (name: string) => string | undefined, raw: string) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- ad-hoc documents of this test
  const body = JSON.parse(raw) as any;
  for (const error of body.errors ?? []) if (error.extensions?.retryAfterMs) error.extensions.retryAfterMs = 'ms';
  return {
    status,
    contentType: header('content-type'),
    retryAfter: header('retry-after'),
    allowOrigin: header('access-control-allow-origin'),
    body,
    security: Object.fromEntries(Object.keys(SECURITY_HEADERS).map((name) => [name, header(name)])),
  };
}

it('answers an over-budget caller’s JSON query before yoga with yoga’s very answer, and leaves the rest to yoga', async () => {
  const awa = await stack.mintToken(['payments:read', 'payments:collect'], 'awa');
  const moussa = await stack.mintToken(['payments:read'], 'moussa');
  for (let i = 0; i < BUDGET; i++) expect((await overHttp(awa, BALANCE)).body.data).toEqual({ balance: { currency: 'XOF' } });
  // Refused by the full path (Redis), which tells this replica.
  expect((await overHttp(awa, BALANCE)).body.errors[0].extensions.code).toBe('RATE_LIMITED');

  for (const accept of [undefined, '*/*', 'application/json']) {
    const headers: Record<string, string> = accept ? { accept } : {};
    const early = await overHttp(awa, BALANCE, headers);
    const { security: _, ...yogas } = await throughYoga(awa, BALANCE, headers);
    expect(early).toEqual({ ...yogas, security: SECURITY_HEADERS });
    expect(early).toMatchObject({ status: 429, contentType: 'application/json; charset=utf-8' });
    expect(early.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', retryable: true });
    expect(early.body.errors[0].extensions.messageFr).toBe(`Trop de requêtes : patientez ${early.retryAfter} s avant de réessayer.`);
  }
  // Not even validated: a field that does not exist is refused for the budget, as yoga's early refusal does.
  expect((await overHttp(awa, '{ noSuchField }')).body.errors[0].extensions.code).toBe('RATE_LIMITED');

  // A browser's request: yoga's answer, with its CORS header.
  const browser = await overHttp(awa, BALANCE, { origin: ORIGIN });
  expect([browser.status, browser.allowOrigin, browser.body.errors[0].extensions.code]).toEqual([429, ORIGIN, 'RATE_LIMITED']);
  // Another media type: yoga's answer in it.
  const graphqlResponse = await overHttp(awa, BALANCE, { accept: 'application/graphql-response+json' });
  expect([graphqlResponse.status, graphqlResponse.contentType]).toEqual([429, 'application/graphql-response+json; charset=utf-8']);
  // A mutation runs and answers its typed error (nothing charged).
  const charges = stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/charges/' });
  const mutation = await overHttp(
    awa,
    `mutation { createCharge(input: { amount: 1500, phone: "70000000", provider: OPB_BF, idempotencyKey: "early-1" }) { __typename } }`,
  );
  expect([mutation.status, mutation.body.data.createCharge.__typename]).toEqual([200, 'RateLimitedError']);
  expect(stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/charges/' })).toBe(charges);
  // A token that does not verify gets its 401, not a refusal for someone's budget.
  const forged = await overHttp(`${awa.slice(0, -4)}AAAA`, BALANCE);
  expect([forged.status, forged.body.errors[0].extensions.code]).toEqual([401, 'UNAUTHENTICATED']);
  // Another caller is served.
  expect((await overHttp(moussa, BALANCE)).body.data).toEqual({ balance: { currency: 'XOF' } });
});
