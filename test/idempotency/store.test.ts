// The idempotency engine on both stores (memory, and the real Redis at
// 127.0.0.1:6379 through the Redis owner): claims are atomic, successes
// replay, other input conflicts, refusals release, ambiguous failures keep the
// key and reconcile, expired claims and possibly lost keys reconcile first,
// keys are scoped by principal and bounded in length, memory is capped.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyConflictError, ValidationError } from '../../src/errors/payment-errors.js';
import {
  DEFAULT_SETTLE_WINDOW_MS,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  mayHaveReachedService,
  runIdempotent,
  scopedKey,
} from '../../src/idempotency/run.js';
import {
  DEFAULT_PENDING_TTL_MS,
  IDEMPOTENCY_TTL_MS,
  memoryIdempotencyStore,
  redisIdempotencyStore,
  type IdempotencyStore,
  type StoreOptions,
} from '../../src/idempotency/store.js';
import { connectRedis, type GatewayRedis } from '../../src/redis/index.js';
import { UpstreamCallError, type UpstreamErrorInit } from '../../src/upstream/call-error.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';

const namespace = uniqueNamespace('idem');
let redis: GatewayRedis;
beforeAll(async () => {
  redis = await connectRedis({ url: REDIS_URL, namespace });
});
afterAll(async () => {
  await deleteByPrefix(redis.commands, namespace);
  await redis.close();
});

/** A clock the test moves; starts a whole key lifetime after the stores are made, so fresh claims are clean. */
function testClock() {
  let t = 1_700_000_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

type MakeStore = (options: StoreOptions) => IdempotencyStore;
let storeCount = 0;
const backends: Array<[string, MakeStore]> = [
  ['memory', (options) => memoryIdempotencyStore(options)],
  // Each store its own namespace: its own continuity marker, as a fresh deployment.
  [
    'redis',
    (options) => {
      const store = `s${++storeCount}`;
      return redisIdempotencyStore(
        { commands: redis.commands, durable: redis.durable, key: (...parts) => redis.key(store, ...parts) },
        options,
      );
    },
  ],
];

const upstreamError = (init: Partial<UpstreamErrorInit>) => new UpstreamCallError({ code: 'UNKNOWN_ERROR', message: 'failed', ...init });

describe.each(backends)('%s store', (name, makeStore) => {
  /** A store whose memory has been continuous for a whole lifetime, and a run helper counting calls. */
  const setup = () => {
    const clock = testClock();
    const store = makeStore({ now: clock.now });
    return { clock, store, settled: () => clock.advance(IDEMPOTENCY_TTL_MS) };
  };

  it('replays a success, refuses other input, releases after a refusal', async () => {
    const { store, settled } = setup();
    await store.claim('warmup:op:k', 'fp', {}); // creates the continuity marker
    settled();
    let calls = 0;
    const run = (input: unknown, outcome: 'ok' | 'refused' = 'ok') =>
      runIdempotent({
        store,
        principal: 'staff-1',
        operation: 'createTransfer',
        key: `k-${name}`,
        input,
        execute: async () => {
          calls++;
          if (outcome === 'refused') throw upstreamError({ code: 'INSUFFICIENT_FUNDS', httpStatus: 400 });
          return { reference: `tr_${calls}` };
        },
      });
    await expect(run({ amount: 100 }, 'refused')).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS', outcomeUnknown: false });
    // The refusal moved no money: the key is free again.
    expect(await run({ amount: 100 })).toEqual({ reference: 'tr_2' });
    expect(await run({ amount: 100 })).toEqual({ reference: 'tr_2' });
    expect(calls).toBe(2);
    await expect(run({ amount: 999 })).rejects.toMatchObject({ reason: 'different_input' });
  });

  it('keeps the key after a 500 that may have been processed, and reconciles instead of sending again', async () => {
    const { store, settled } = setup();
    await store.claim('warmup:op:k', 'fp', {});
    settled();
    const sent: string[] = [];
    const run = () =>
      runIdempotent({
        store,
        principal: 'staff-1',
        operation: 'createTransfer',
        key: 'k500',
        input: { amount: 500 },
        meta: { extId: 'idem_500' },
        execute: async () => {
          sent.push('idem_500');
          throw upstreamError({ code: 'INTERNAL_ERROR', httpStatus: 500 });
        },
        reconcile: async (meta) => (sent.includes(meta.extId!) ? { reference: 'tr_found', extId: meta.extId } : null),
      });
    const first = await run().catch((e: unknown) => e);
    // Rethrown as an unknown outcome: the client must retry with the same key.
    expect(first).toBeInstanceOf(UpstreamCallError);
    expect(first).toMatchObject({ code: 'INTERNAL_ERROR', httpStatus: 500, outcomeUnknown: true });
    expect(await run()).toEqual({ reference: 'tr_found', extId: 'idem_500' });
    expect(await run()).toEqual({ reference: 'tr_found', extId: 'idem_500' });
    expect(sent).toHaveLength(1);
  });

  it('releases the key when the connection was refused before anything was sent', async () => {
    const { store, settled } = setup();
    await store.claim('warmup:op:k', 'fp', {});
    settled();
    let calls = 0;
    const run = (fail: boolean) =>
      runIdempotent({
        store,
        principal: 'staff-1',
        operation: 'createCharge',
        key: 'refused',
        input: { amount: 1 },
        execute: async () => {
          calls++;
          if (fail) throw upstreamError({ code: 'UPSTREAM_UNAVAILABLE', fault: 'refused' });
          return 'charged';
        },
        reconcile: async () => {
          throw new Error('nothing to reconcile: the key was released');
        },
      });
    await expect(run(true)).rejects.toMatchObject({ fault: 'refused', outcomeUnknown: false });
    expect(await run(false)).toBe('charged');
    expect(calls).toBe(2);
  });

  it('refuses an unknown outcome that reconcile cannot find during the settle window, then sends it again with the same meta', async () => {
    const { store, clock, settled } = setup();
    await store.claim('warmup:op:k', 'fp', {});
    settled();
    const sentWith: string[] = [];
    let fail = true;
    const run = () =>
      runIdempotent({
        store,
        principal: 'staff-1',
        operation: 'createTransfer',
        key: 'lost',
        input: { amount: 700 },
        meta: { extId: 'idem_lost' },
        execute: async () => {
          sentWith.push('idem_lost');
          if (fail) throw upstreamError({ code: 'UPSTREAM_UNAVAILABLE', fault: 'timeout', outcomeUnknown: true });
          return 'sent';
        },
        reconcile: async () => null,
      });
    await expect(run()).rejects.toMatchObject({ outcomeUnknown: true });
    fail = false;
    await expect(run()).rejects.toMatchObject({ reason: 'in_progress' });
    clock.advance(DEFAULT_SETTLE_WINDOW_MS - 1);
    await expect(run()).rejects.toMatchObject({ reason: 'in_progress' });
    expect(sentWith).toHaveLength(1);
    clock.advance(1);
    expect(await run()).toBe('sent');
    expect(await run()).toBe('sent');
    expect(sentWith).toEqual(['idem_lost', 'idem_lost']);
  });

  it('without reconcile, an unknown outcome stays refused', async () => {
    const { store, clock, settled } = setup();
    await store.claim('warmup:op:k', 'fp', {});
    settled();
    const run = (execute: () => Promise<string>) =>
      runIdempotent({ store, principal: 'p', operation: 'createSettlement', key: 'settle', input: { amount: 5 }, execute });
    await expect(run(async () => Promise.reject(upstreamError({ code: 'EXTERNAL_API_ERROR', httpStatus: 502 })))).rejects.toMatchObject({
      outcomeUnknown: true,
    });
    clock.advance(IDEMPOTENCY_TTL_MS - 1);
    await expect(run(async () => 'again')).rejects.toMatchObject({ reason: 'outcome_unknown' });
  });

  it('treats a pending claim whose holder died as unknown once expired, and reconciles it', async () => {
    const { store, clock, settled } = setup();
    await store.claim('warmup:op:k', 'fp', {});
    settled();
    let executed = 0;
    const run = () =>
      runIdempotent({
        store,
        principal: 'staff-1',
        operation: 'createCharge',
        key: 'orphan',
        input: { amount: 900 },
        meta: { extId: 'from-the-caller-now' },
        execute: async () => {
          executed++;
          return 'sent again';
        },
        reconcile: async (meta) => (meta.extId === 'idem_orphan' ? 'found at the service' : null),
      });
    // A replica claimed the key with its meta, sent the request and died.
    const fp = await fingerprintOf(store, { amount: 900 });
    expect(fp.kind).toBe('claimed');
    await expect(run()).rejects.toMatchObject({ reason: 'in_progress' });
    clock.advance(DEFAULT_PENDING_TTL_MS);
    expect(await run()).toBe('found at the service');
    expect(await run()).toBe('found at the service');
    expect(executed).toBe(0);

    async function fingerprintOf(s: IdempotencyStore, input: unknown) {
      // Claim exactly as run.ts would, under the same scoped key and fingerprint.
      const { createHash } = await import('node:crypto');
      const { stableJson } = await import('../../src/idempotency/run.js');
      return s.claim(scopedKey('staff-1', 'createCharge', 'orphan'), createHash('sha256').update(stableJson(input)).digest('hex'), {
        extId: 'idem_orphan',
      });
    }
  });

  it('reconciles a fresh claim before sending while the store may have lost keys', async () => {
    const { store, clock } = setup();
    const calls: string[] = [];
    const run = (key: string, foundAtService: boolean) =>
      runIdempotent({
        store,
        principal: 'staff-1',
        operation: 'createTransfer',
        key,
        input: { amount: 100 },
        meta: { extId: `idem_${key}` },
        execute: async () => (calls.push(`execute ${key}`), 'sent'),
        reconcile: async () => (calls.push(`reconcile ${key}`), foundAtService ? 'found' : null),
      });
    // The store's memory is younger than a key lifetime: a key may have been lost.
    expect(await run('a', true)).toBe('found');
    expect(await run('b', false)).toBe('sent');
    clock.advance(IDEMPOTENCY_TTL_MS);
    expect(await run('c', false)).toBe('sent');
    expect(calls).toEqual(['reconcile a', 'reconcile b', 'execute b', 'execute c']);
  });

  it('scopes keys by principal', async () => {
    const { store, settled } = setup();
    await store.claim('warmup:op:k', 'fp', {});
    settled();
    const run = (principal: string) =>
      runIdempotent({
        store,
        principal,
        operation: 'createCharge',
        key: 'same-key',
        input: { amount: 1 },
        execute: async () => `paid by ${principal}`,
      });
    expect(await run('alice')).toBe('paid by alice');
    expect(await run('bob')).toBe('paid by bob');
    expect(await run('alice')).toBe('paid by alice');
    // A principal containing the separator cannot reach into another one's keys: unescaped, alice's key
    // `createCharge:x` and the sneaky principal's key `x` would both be `alice:createCharge:createCharge:x`.
    const sneakyRun = (principal: string, key: string) =>
      runIdempotent({
        store,
        principal,
        operation: 'createCharge',
        key,
        input: { amount: 1 },
        execute: async () => `paid by ${principal}`,
      });
    expect(await sneakyRun('alice', 'createCharge:x')).toBe('paid by alice');
    expect(await sneakyRun('alice:createCharge', 'x')).toBe('paid by alice:createCharge');
    expect(scopedKey('alice:createCharge', 'createCharge', 'x')).not.toBe(scopedKey('alice', 'createCharge', 'createCharge:x'));
  });

  it(`refuses keys longer than ${MAX_IDEMPOTENCY_KEY_LENGTH} characters before anything runs`, async () => {
    const { store } = setup();
    let calls = 0;
    const run = (key: string) =>
      runIdempotent({ store, principal: 'p', operation: 'createCharge', key, input: {}, execute: async () => ++calls });
    await expect(run('k'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH + 1))).rejects.toBeInstanceOf(ValidationError);
    await expect(run('')).rejects.toBeInstanceOf(ValidationError);
    expect(calls).toBe(0);
    expect(await run('k'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH))).toBe(1);
  });

  it('lets exactly one of many concurrent claims of a key run', async () => {
    const store = makeStore({});
    const key = `race-${name}-${randomBytes(4).toString('hex')}`;
    const claims = await Promise.all(Array.from({ length: 12 }, () => store.claim(key, 'fp', {})));
    expect(claims.filter((c) => c.kind === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c.kind === 'in_progress')).toHaveLength(11);
  });
});

describe('memory store size cap', () => {
  it('evicts the least recently used key, and then reconciles fresh claims (the evicted key may be retried)', async () => {
    const clock = testClock();
    const store = memoryIdempotencyStore({ now: clock.now, maxEntries: 2 });
    clock.advance(IDEMPOTENCY_TTL_MS);
    await store.complete('a', 'fp', 'A');
    await store.complete('b', 'fp', 'B');
    expect(await store.claim('a', 'fp', {})).toEqual({ kind: 'replay', value: 'A' }); // a is now the most recent
    await store.complete('c', 'fp', 'C'); // evicts b
    expect(await store.claim('a', 'fp', {})).toEqual({ kind: 'replay', value: 'A' });
    expect(await store.claim('b', 'fp', {})).toMatchObject({ kind: 'claimed', clean: false, lost: true });
  });
});

describe('mayHaveReachedService', () => {
  it.each([
    ['HTTP 500 INTERNAL_ERROR', { code: 'INTERNAL_ERROR', httpStatus: 500 }, true],
    ['HTML 502 (bad body)', { code: 'UPSTREAM_UNAVAILABLE', httpStatus: 502, fault: 'http_status' }, true],
    ['non-JSON body', { code: 'UPSTREAM_UNAVAILABLE', httpStatus: 200, fault: 'bad_body' }, true],
    ['timeout after sending', { code: 'UPSTREAM_UNAVAILABLE', fault: 'timeout', outcomeUnknown: true }, true],
    ['reset after sending', { code: 'UPSTREAM_UNAVAILABLE', fault: 'reset', outcomeUnknown: true }, true],
    ['UNKNOWN_ERROR with a 4xx', { code: 'UNKNOWN_ERROR', httpStatus: 400 }, true],
    ['NETWORK_ERROR', { code: 'NETWORK_ERROR', httpStatus: 400 }, true],
    ['EXTERNAL_API_ERROR', { code: 'EXTERNAL_API_ERROR', httpStatus: 400 }, true],
    ['a refusal code with a 5xx', { code: 'INSUFFICIENT_FUNDS', httpStatus: 503 }, true],
    ['INSUFFICIENT_FUNDS', { code: 'INSUFFICIENT_FUNDS', httpStatus: 400 }, false],
    ['INVALID_DATA', { code: 'INVALID_DATA', httpStatus: 400 }, false],
    ['OTP_INVALID', { code: 'OTP_INVALID', httpStatus: 400 }, false],
    ['INVALID_ACCOUNT', { code: 'INVALID_ACCOUNT', httpStatus: 400 }, false],
    ['UNSUPPORTED_PROVIDER', { code: 'UNSUPPORTED_PROVIDER', httpStatus: 400 }, false],
    ['connection refused', { code: 'UPSTREAM_UNAVAILABLE', fault: 'refused' }, false],
  ] as Array<[string, Partial<UpstreamErrorInit>, boolean]>)('%s -> %s', (_label, init, expected) => {
    expect(mayHaveReachedService(upstreamError(init))).toBe(expected);
  });

  it('counts any other error (a bug around the call) as possibly sent', () => {
    expect(mayHaveReachedService(new TypeError('oops'))).toBe(true);
    expect(mayHaveReachedService(new IdempotencyConflictError('in_progress'))).toBe(true);
  });
});
