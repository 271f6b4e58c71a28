// Rate limits per principal: they trip at their configured numbers, a query
// over the limit is a 429 with Retry-After, a mutation answers the typed
// RateLimitedError (and moves no money), callers do not share budgets, and
// two replicas on one Redis share them (a mutation over the general limit spends no money point).
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestStack } from '../helpers/gateway.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { disposeAllClients, staffClient, withTimeout } from '../live/helpers.js';
import { TRANSFER_INPUT, TRANSFER_SELECTION, codes, postDocument, quietStack, transfersPosted } from './support.js';

const QUERY = { query: '{ __typename }' };
const METRICS_TOKEN = 'metrics-token-for-rate-limit-tests';

/** gateway_rate_limit_refusals_total by kind, as /metrics shows it. */
async function refusals(stack: TestStack): Promise<{ general: number; money: number }> {
  const res = await fetch(`${stack.gateway.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  const count = (kind: string) =>
    Number(new RegExp(`^gateway_rate_limit_refusals_total\\{kind="${kind}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { general: count('general'), money: count('money') };
}
const transfer = () => ({ query: `mutation { createTransfer(input: ${TRANSFER_INPUT(randomUUID())}) ${TRANSFER_SELECTION} }` });
const typename = (r: Awaited<ReturnType<typeof postDocument>>) =>
  (r.body.data?.createTransfer as { __typename: string } | undefined)?.__typename;

describe('in memory (one replica)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // The same numbers for staff subjects and client addresses: each budget is exercised below.
    stack = await quietStack({
      env: {
        RATE_LIMIT_PER_MINUTE: '5',
        RATE_LIMIT_MONEY_PER_MINUTE: '2',
        RATE_LIMIT_STAFF_PER_MINUTE: '5',
        RATE_LIMIT_STAFF_MONEY_PER_MINUTE: '2',
      },
    });
  });
  afterAll(async () => {
    await disposeAllClients();
    await stack?.close();
  });

  it('answers 5 operations a minute per subject, then 429 with Retry-After; another subject has its own budget', async () => {
    const token = await stack.mintToken(['payments:read'], 'reader-one');
    const as = { authorization: `Bearer ${token}` };
    for (let i = 0; i < 5; i++) expect((await postDocument(stack, QUERY, as)).body.errors).toBeUndefined();
    const refused = await postDocument(stack, QUERY, as);
    expect(refused.status).toBe(429);
    expect(codes(refused)).toEqual(['RATE_LIMITED']);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.body.errors?.[0]?.extensions?.retryAfterMs).toEqual(expect.any(Number));
    const other = await stack.mintToken(['payments:read'], 'reader-two');
    expect((await postDocument(stack, QUERY, { authorization: `Bearer ${other}` })).body.errors).toBeUndefined();
  });

  it('counts WebSocket operations against the same limit', async () => {
    const token = await stack.mintToken(['payments:read'], 'ws-reader');
    for (let i = 0; i < 5; i++) expect((await postDocument(stack, QUERY, { authorization: `Bearer ${token}` })).status).toBe(200);
    const ws = staffClient({ gateway: stack.gateway, staffToken: token });
    await ws.connected;
    const answer = await withTimeout(
      new Promise<{ errors?: ReadonlyArray<{ extensions?: Record<string, unknown> }> }>((resolve) => {
        ws.client.subscribe(QUERY, { next: resolve as never, error: (e) => resolve({ errors: e as never }), complete: () => {} });
      }),
      5_000,
      'an answer over WebSocket',
    );
    expect(answer.errors?.map((e) => e.extensions?.code)).toEqual(['RATE_LIMITED']);
  });

  it('allows 2 money-moving mutations a minute; the third answers RateLimitedError and moves nothing', async () => {
    const token = await stack.mintToken(['payouts:write'], 'payer');
    const as = { authorization: `Bearer ${token}` };
    expect(typename(await postDocument(stack, transfer(), as))).toBe('CreateTransferPayload');
    expect(typename(await postDocument(stack, transfer(), as))).toBe('CreateTransferPayload');
    const third = await postDocument(
      stack,
      {
        query: `mutation { createTransfer(input: ${TRANSFER_INPUT(randomUUID())}) { __typename ... on RateLimitedError { code retryAfterMs } } }`,
      },
      as,
    );
    expect(third.status).toBe(200);
    expect(third.body.data?.createTransfer).toMatchObject({ __typename: 'RateLimitedError', code: 'RATE_LIMIT_EXCEEDED' });
    expect((third.body.data?.createTransfer as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
    expect(transfersPosted(stack)).toBe(2);
  });

  it('gives back the money point of a money-moving field that did not run (skipped)', async () => {
    const token = await stack.mintToken(['payouts:write'], 'skipper');
    const as = { authorization: `Bearer ${token}` };
    const skipped = { query: `mutation { createTransfer(input: ${TRANSFER_INPUT(randomUUID())}) @skip(if: true) { __typename } }` };
    // The plugin spends the money point with the general one, before the field could be seen not to run.
    for (let i = 0; i < 2; i++) expect((await postDocument(stack, skipped, as)).body.data).toEqual({});
    expect(typename(await postDocument(stack, transfer(), as))).toBe('CreateTransferPayload');
    expect(typename(await postDocument(stack, transfer(), as))).toBe('CreateTransferPayload');
  });

  it('answers RateLimitedError to a mutation over the general limit', async () => {
    const token = await stack.mintToken(['payouts:write', 'payments:read'], 'busy-payer');
    const as = { authorization: `Bearer ${token}` };
    for (let i = 0; i < 5; i++) await postDocument(stack, QUERY, as);
    const before = transfersPosted(stack);
    expect(typename(await postDocument(stack, transfer(), as))).toBe('RateLimitedError');
    expect(transfersPosted(stack)).toBe(before);
  });

  it('counts anonymous callers by client IP', async () => {
    // No token: the budget is the client IP's (staff callers above spent their subjects' budgets, not this one).
    const anonymous = { authorization: '' };
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await postDocument(stack, { query: '{ __schema { queryType { name } } }' }, anonymous));
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[5]!.status).toBe(429);
  });
});

describe('two replicas on one Redis', () => {
  const namespace = uniqueNamespace('ratelimit');
  let a: TestStack;
  let b: TestStack;
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    const env = { REDIS_URL, RATE_LIMIT_STAFF_PER_MINUTE: '4', RATE_LIMIT_STAFF_MONEY_PER_MINUTE: '1', METRICS_TOKEN };
    a = await quietStack({ env, redisNamespace: namespace });
    b = await quietStack({ env, redisNamespace: namespace, sharedSandbox: a.sandbox, apiKey: a.apiKey, webhookSecret: a.webhookSecret });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await deleteByPrefix(redis, namespace);
    redis.disconnect();
  });

  it('share one budget per subject', async () => {
    // The same subject on both replicas (both verify tokens signed with their own secret: one token each).
    const onA = { authorization: `Bearer ${await a.mintToken(['payments:read', 'payouts:write'], 'shared-subject')}` };
    const onB = { authorization: `Bearer ${await b.mintToken(['payments:read', 'payouts:write'], 'shared-subject')}` };
    expect((await postDocument(a, QUERY, onA)).status).toBe(200);
    expect((await postDocument(b, QUERY, onB)).status).toBe(200);
    expect(typename(await postDocument(a, transfer(), onA))).toBe('CreateTransferPayload');
    // The money budget (1) was spent on A: B refuses.
    expect(typename(await postDocument(b, transfer(), onB))).toBe('RateLimitedError');
    // Four operations counted so far (2 queries, 2 mutations): the general budget is spent on both.
    expect((await postDocument(a, QUERY, onA)).status).toBe(429);
    expect((await postDocument(b, QUERY, onB)).status).toBe(429);
    expect(transfersPosted(a)).toBe(1);
    // The counters live in Redis, under the deployment's namespace.
    expect(await redis.keys(`${namespace}:ratelimit:*`)).not.toHaveLength(0);
    // Each replica counts the refusals it made, by kind.
    expect(await refusals(a)).toEqual({ general: 1, money: 0 });
    expect(await refusals(b)).toEqual({ general: 1, money: 1 });
  });
});
