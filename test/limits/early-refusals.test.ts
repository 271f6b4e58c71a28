// Early refusals (src/limits/early-refusals.ts), in process, on the shared Redis, in platform mode: once a caller
// or merchant is over its budget, its next query is refused from the replica's memory before anything else runs
// (no validation, no point counted in Redis), with the very answer the full path gives (HTTP 429, RATE_LIMITED,
// Retry-After, English and French); a mutation still answers its typed RateLimitedError; another merchant and
// its callers are not touched.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mintStaffToken } from '../../src/auth/index.js';
import { connectRedis, type GatewayRedis } from '../../src/redis/index.js';
import { startStack, testKey, type TestStack } from '../helpers/gateway.js';
import { deleteByPrefix, uniqueNamespace } from '../events/redis-helpers.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const namespace = uniqueNamespace('early-refusals');
/** Each caller's budget, and each merchant's (all its callers together). */
const CALLER = 3;
const MERCHANT = 5;

let stack: TestStack;
let redis: GatewayRedis;

beforeAll(async () => {
  stack = await startStack({
    inProcess: true,
    redisNamespace: namespace,
    env: {
      MERCHANT_MODE: 'platform',
      MERCHANT_KEYS_KEK: randomBytes(32).toString('base64'),
      REDIS_URL,
      RATE_LIMIT_STAFF_PER_MINUTE: String(CALLER),
      RATE_LIMIT_MERCHANT_PER_MINUTE: String(MERCHANT),
    },
  });
  redis = await connectRedis({ url: REDIS_URL, namespace });
}, 30_000);

afterAll(async () => {
  await stack?.close();
  await deleteByPrefix(redis.commands, namespace);
  await redis.close();
});

const mint = (merchantId: string | null, subject: string, scopes = ['payments:read', 'payments:collect', 'platform:manage'] as const) =>
  mintStaffToken({ secret: stack.jwtSecret, scopes: [...scopes], subject, ttlSeconds: 600, merchantId }).then((m) => m.token);

/** What the client gets: status, Retry-After, and the body as sent (raw) and parsed. */
async function post(bearer: string, query: string, headers: Record<string, string> = {}) {
  const res = await stack.gateway.server.yoga.fetch('http://yoga/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${bearer}`, ...headers },
    body: JSON.stringify({ query }),
  });
  const raw = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- ad-hoc documents of this test
  return { status: res.status, retryAfter: res.headers.get('retry-after'), raw, body: JSON.parse(raw) as any };
}

async function merchant(name: string): Promise<string> {
  const operator = await mint(null, `op-${name}`);
  const created = await post(
    operator,
    `mutation { createMerchant(input: { name: "${name}", apiKey: "${testKey(name)}", webhookSecret: "whsec_${name}_123", idempotencyKey: "${randomUUID()}" }) { ... on CreateMerchantPayload { merchant { merchantId } } } }`,
  );
  return created.body.data.createMerchant.merchant.merchantId as string;
}

/** The value of every rate-limit counter of `subject` in Redis (general, per caller). */
async function callerCounters(subject: string): Promise<string[]> {
  const keys = await redis.commands.keys(`${namespace}:ratelimit:staff-general:*${subject}`);
  return Promise.all(keys.map(async (key) => `${key}=${await redis.commands.get(key)}`));
}

const BALANCE = '{ balance { currency } }';
const CHARGE = `mutation { createCharge(input: { amount: 1500, phone: "70000000", provider: OPB_BF, idempotencyKey: "${randomUUID()}" }) {
  __typename ... on RateLimitedError { code message messageFr } } }`;
/** The same answer apart from what differs per request (its id, and the seconds left, which may tick by one). */
const same = (raw: string) => raw.replace(/"requestId":"[^"]+"/g, '').replace(/\d+/g, 'N');

it('refuses an over-budget caller’s and merchant’s queries early, exactly as the full path does, and leaves mutations and other merchants as they were', async () => {
  const [a, b] = [await merchant('eara'), await merchant('earb')];
  const [awa, moussa, awaAtB] = [await mint(a, 'awa'), await mint(a, 'moussa'), await mint(b, 'awa')];

  // Awa spends her own budget; her next query is refused by the full path (Redis), which tells this replica.
  for (let i = 0; i < CALLER; i++) expect((await post(awa, BALANCE)).body.data).toEqual({ balance: { currency: 'XOF' } });
  const late = await post(awa, BALANCE);
  expect(late.body.errors[0].extensions.code).toBe('RATE_LIMITED');

  // From memory now: the same answer, in both languages, before validation (a field that does not exist is not
  // even looked at) and without a point counted in Redis.
  const counted = await callerCounters('awa');
  const early = await post(awa, BALANCE, { 'accept-language': 'fr' });
  expect(early.status).toBe(429);
  expect(Number(early.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(early.body.errors[0]).toMatchObject({
    message: `Too many requests: wait ${early.retryAfter} s before trying again.`,
    extensions: { code: 'RATE_LIMITED', messageFr: `Trop de requêtes : patientez ${early.retryAfter} s avant de réessayer.` },
  });
  expect([early.status, early.retryAfter, same(early.raw)]).toEqual([late.status, late.retryAfter, same(late.raw)]);
  const invalid = await post(awa, '{ noSuchField }');
  expect([invalid.status, invalid.body.errors[0].extensions.code]).toEqual([429, 'RATE_LIMITED']);
  expect(await callerCounters('awa')).toEqual(counted);

  // Moussa, another caller of A, spends what is left of A's budget: A is over it, and so is each of its callers.
  for (let i = 0; i < MERCHANT - CALLER; i++) expect((await post(moussa, BALANCE)).body.data).toBeTruthy();
  expect((await post(moussa, BALANCE)).body.errors[0].extensions.code).toBe('RATE_LIMITED');
  const moussaCounted = await callerCounters('moussa');
  const merchantEarly = await post(moussa, '{ noSuchField }');
  expect([merchantEarly.status, merchantEarly.body.errors[0].extensions.code]).toEqual([429, 'RATE_LIMITED']);
  expect(await callerCounters('moussa')).toEqual(moussaCounted);

  // A mutation over the limit still runs, and answers the typed error of its union (nothing charged).
  const charges = stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/charges/' });
  for (const bearer of [awa, moussa]) {
    const mutation = await post(bearer, CHARGE);
    expect(mutation.status).toBe(200);
    expect(mutation.body.data.createCharge).toMatchObject({ __typename: 'RateLimitedError', code: 'RATE_LIMIT_EXCEEDED' });
  }
  expect(stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/charges/' })).toBe(charges);

  // B and its callers are untouched, Awa at B too (the same subject at two merchants is two callers).
  for (let i = 0; i < CALLER; i++) expect((await post(awaAtB, BALANCE)).body.data).toEqual({ balance: { currency: 'XOF' } });
});
