// The idempotency store on both backends: claims are atomic (two replicas
// racing on one key: exactly one wins), successes replay, other input conflicts.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryIdempotencyStore, redisIdempotencyStore, type IdempotencyStore } from '../../src/idempotency/store.js';
import { runIdempotent } from '../../src/idempotency/run.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import { IdempotencyConflictError } from '../../src/schema/errors.js';

const prefix = `test:idem:${randomBytes(6).toString('hex')}:`;
const clients: Redis[] = [];
const redisClient = () => {
  const c = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  clients.push(c);
  return c;
};
afterAll(async () => {
  const c = clients[0];
  if (c) {
    const keys = await c.keys(`${prefix}*`);
    if (keys.length) await c.del(...keys);
  }
  await Promise.all(clients.map((c) => c.quit()));
});

const backends: Array<[string, () => IdempotencyStore]> = [
  ['memory', () => memoryIdempotencyStore()],
  ['redis', () => redisIdempotencyStore(redisClient(), prefix)],
];

describe.each(backends)('%s store', (_name, make) => {
  it('replays a success, refuses other input, releases after a refusal', async () => {
    const store = make();
    let calls = 0;
    const run = (input: unknown, outcome: 'ok' | 'refused' = 'ok') =>
      runIdempotent({
        store,
        operation: 'createTransfer',
        key: `k-${_name}`,
        input,
        execute: async () => {
          calls++;
          if (outcome === 'refused') throw new UpstreamError({ code: 'INSUFFICIENT_FUNDS', message: 'no money' });
          return { reference: `tr_${calls}` };
        },
      });
    await expect(run({ amount: 100 }, 'refused')).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    // The refusal moved no money: the key is free again.
    expect(await run({ amount: 100 })).toEqual({ reference: 'tr_2' });
    expect(await run({ amount: 100 })).toEqual({ reference: 'tr_2' });
    expect(calls).toBe(2);
    await expect(run({ amount: 999 })).rejects.toBeInstanceOf(IdempotencyConflictError);
  });

  it('keeps a key whose outcome is unknown blocked unless reconciliation finds the result', async () => {
    const store = make();
    const key = `unknown-${_name}`;
    const lost = () =>
      runIdempotent({
        store,
        operation: 'createTransfer',
        key,
        input: { amount: 500 },
        meta: { extId: 'idem_x' },
        execute: async () => {
          throw new UpstreamError({ code: 'UPSTREAM_UNAVAILABLE', message: 'timeout', outcomeUnknown: true });
        },
        reconcile: async () => null,
      });
    await expect(lost()).rejects.toMatchObject({ outcomeUnknown: true });
    await expect(lost()).rejects.toMatchObject({ reason: 'outcome_unknown' });
    const found = await runIdempotent({
      store,
      operation: 'createTransfer',
      key,
      input: { amount: 500 },
      execute: async () => {
        throw new Error('must not be sent again');
      },
      reconcile: async (meta) => ({ reference: 'tr_found', extId: meta.extId }),
    });
    expect(found).toEqual({ reference: 'tr_found', extId: 'idem_x' });
  });

  it('lets exactly one of many concurrent claims of a key run', async () => {
    // Memory stores are per process; Redis stores on separate connections stand for replicas.
    const one = make();
    const stores = _name === 'memory' ? [one, one, one] : [one, make(), make()];
    const key = `race-${_name}-${randomBytes(4).toString('hex')}`;
    const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => stores[i % 3]!.claim(key, 'fp')));
    expect(claims.filter((c) => c.kind === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c.kind === 'in_progress')).toHaveLength(11);
  });
});
