// The registry on both stores: memory (sandbox mode without Redis) and the shared Redis under a namespace of its own.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKeyRing,
  createMerchantRegistry,
  memoryMerchantStore,
  MerchantRefusedError,
  redisMerchantStore,
  type MerchantEventKind,
  type MerchantStore,
} from '../../src/merchants/index.js';
import { connectRedis, type GatewayRedis } from '../../src/redis/index.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';

let redis: GatewayRedis;
const namespace = uniqueNamespace('merchants');

beforeAll(async () => {
  redis = await connectRedis({ url: REDIS_URL, namespace, commandTimeoutMs: 10_000 });
});
afterAll(async () => {
  await deleteByPrefix(redis.commands, namespace);
  await redis.close();
});

// Each test's Redis store has a namespace of its own: the listing of one test never holds another's merchants.
let stored = 0;
const stores: Array<[string, () => MerchantStore]> = [
  ['memory', () => memoryMerchantStore()],
  ['redis', () => redisMerchantStore({ ...redis, namespace: `${namespace}:${++stored}`, ...keysUnder(`${namespace}:${stored}`) })],
];

/** The key functions of `redis` under another prefix (one node: tags and names only prefix the key). */
function keysUnder(prefix: string): Pick<GatewayRedis, 'key' | 'soloKey' | 'tagged'> {
  return {
    key: (...parts) => [prefix, ...parts].join(':'),
    soloKey: (...parts) => [prefix, ...parts].join(':'),
    tagged: (tag, ...parts) => [prefix, `{${tag}}`, ...parts].join(':'),
  };
}

function registryOn(store: MerchantStore, now = { ms: Date.parse('2026-11-28T10:00:00Z') }) {
  const events: Array<[MerchantEventKind, string]> = [];
  const registry = createMerchantRegistry({
    store,
    keys: createKeyRing(randomBytes(32)),
    offboardGraceMs: 3_600_000,
    changed: (kind, merchant) => events.push([kind, merchant.id]),
    now: () => now.ms,
  });
  return { registry, events, now };
}

const refusal = async (work: Promise<unknown>) =>
  work.then(
    () => null,
    (err: unknown) => (err instanceof MerchantRefusedError ? err.reason : err),
  );

describe.each(stores)('the merchant registry (%s)', (_name, makeStore) => {
  it('creates, lists, updates, rotates, suspends and offboards, reporting each change once', async () => {
    const { registry, events, now } = registryOn(makeStore());
    const a = await registry.create({ name: ' École A ', apiKey: 'sk_test_aaaa1111', webhookSecret: 'whsec-of-a-123' });
    now.ms += 1;
    const b = await registry.create({ name: 'Shop B', apiKey: 'sk_live_bbbb2222', webhookSecret: 'whsec-of-b-123' });
    expect(a).toMatchObject({ name: 'École A', status: 'ACTIVE', liveMode: false, apiKeyLast4: '1111' });
    expect(b).toMatchObject({ liveMode: true, apiKeyLast4: '2222' });
    expect(JSON.stringify(a)).not.toMatch(/sk_test|whsec/);
    expect(await registry.secrets(a.id)).toEqual({ apiKey: 'sk_test_aaaa1111', webhookSecret: 'whsec-of-a-123' });
    expect((await registry.byRoute(b.routeId))?.id).toBe(b.id);

    const first = await registry.list(1, null);
    expect(first.merchants.map((m) => m.id)).toEqual([a.id]);
    expect(first.hasMore).toBe(true);
    const second = await registry.list(1, first.cursorOf(first.merchants[0]!));
    expect(second.merchants.map((m) => m.id)).toEqual([b.id]);
    expect(second.hasMore).toBe(false);
    expect(await registry.count()).toBe(2);

    expect((await registry.update(a.id, { name: 'École A (Ouaga)' })).name).toBe('École A (Ouaga)');
    expect(await registry.rotateApiKey(a.id, 'sk_test_new_9999')).toMatchObject({ apiKeyLast4: '9999' });
    expect((await registry.secrets(a.id))?.apiKey).toBe('sk_test_new_9999');
    expect((await registry.setSuspended(a.id, true)).status).toBe('SUSPENDED');
    expect((await registry.setSuspended(a.id, false)).status).toBe('ACTIVE');
    const off = await registry.offboard(a.id);
    expect(off).toMatchObject({ status: 'OFFBOARDED', purgeAfter: new Date(now.ms + 3_600_000).toISOString() });
    expect(await refusal(registry.update(a.id, { name: 'x' }))).toBe('offboarded');
    expect(await refusal(registry.setSuspended(a.id, false))).toBe('offboarded');
    expect((await registry.offboard(a.id)).purgeAfter).toBe(off.purgeAfter);

    expect(events).toEqual([
      ['merchant.created', a.id],
      ['merchant.created', b.id],
      ['merchant.updated', a.id],
      ['merchant.api_key_rotated', a.id],
      ['merchant.suspended', a.id],
      ['merchant.reinstated', a.id],
      ['merchant.offboarded', a.id],
    ]);
  });

  it('refuses bad input and unknown ids with a reason, never the value', async () => {
    const { registry } = registryOn(makeStore());
    expect(await refusal(registry.create({ name: 'A', apiKey: 'pk_test_1', webhookSecret: 'whsec-123456' }))).toBe('invalid_api_key');
    expect(await refusal(registry.create({ name: '  ', apiKey: 'sk_test_1234', webhookSecret: 'whsec-123456' }))).toBe('invalid_name');
    expect(await refusal(registry.create({ name: 'A', apiKey: 'sk_test_1234', webhookSecret: 'short' }))).toBe('invalid_webhook_secret');
    expect(await refusal(registry.update('mer_00000000000000000000', { name: 'x' }))).toBe('not_found');
    expect(await registry.get('mer_00000000000000000000')).toBeNull();
    expect(await registry.byRoute('AAAAAAAAAAAAAAAAAAAAAA')).toBeNull();
  });

  it('purges an offboarded merchant after its grace, with every key it owns, and leaves the others', async () => {
    const store = makeStore();
    const { registry, events, now } = registryOn(store);
    const a = await registry.create({ name: 'A', apiKey: 'sk_test_aaaa1111', webhookSecret: 'whsec-of-a-123' });
    const b = await registry.create({ name: 'B', apiKey: 'sk_test_bbbb2222', webhookSecret: 'whsec-of-b-123' });
    const ownedByA = `${namespace}:{m:${a.id}}:idem:k1`;
    await store.ownKey(a.id, ownedByA);
    if (store.kind === 'redis') await redis.commands.set(ownedByA, 'x');
    await registry.offboard(a.id);
    expect(await registry.purgeDue()).toEqual([]);
    now.ms += 3_600_001;
    expect(await registry.purgeDue()).toEqual([a.id]);
    expect(await registry.get(a.id)).toBeNull();
    expect(await registry.byRoute(a.routeId)).toBeNull();
    expect(await store.ownedKeys(a.id)).toEqual([]);
    expect((await registry.list(10, null)).merchants.map((m) => m.id)).toEqual([b.id]);
    expect(events.at(-1)).toEqual(['merchant.purged', a.id]);
    if (store.kind === 'redis') {
      expect(await redis.commands.exists(ownedByA)).toBe(0);
      await expect(store.ownKey(b.id, `${namespace}:{m:${a.id}}:x`)).rejects.toThrow(/own hash tag/);
    }
  });

  it('keeps an operator’s change made during a re-wrap (compare-and-set)', async () => {
    const store = makeStore();
    const old = randomBytes(32);
    const before = createMerchantRegistry({ store, keys: createKeyRing(old), offboardGraceMs: 1 });
    const a = await before.create({ name: 'A', apiKey: 'sk_test_aaaa1111', webhookSecret: 'whsec-of-a-123' });
    const after = createMerchantRegistry({ store, keys: createKeyRing(randomBytes(32), old), offboardGraceMs: 1 });
    await Promise.all([after.rewrapAll(), after.update(a.id, { name: 'A renamed' })]);
    expect((await after.get(a.id))?.name).toBe('A renamed');
    expect(await after.secrets(a.id)).toEqual({ apiKey: 'sk_test_aaaa1111', webhookSecret: 'whsec-of-a-123' });
  });
});

describe('the registry in Redis', () => {
  it('keeps a merchant’s keys under its hash tag and no secret in clear (a dump of its keys)', async () => {
    const store = redisMerchantStore(redis);
    const { registry } = registryOn(store);
    const a = await registry.create({ name: 'A', apiKey: 'sk_test_dump_secret_1', webhookSecret: 'whsec_dump_secret_2' });
    const record = redis.tagged(`m:${a.id}`, 'merchant');
    expect(record).toBe(`${namespace}:{m:${a.id}}:merchant`);
    const dumped = JSON.stringify(await redis.commands.hgetall(record));
    expect(dumped).toContain(a.apiKeyLast4);
    expect(dumped).not.toContain('sk_test_dump_secret_1');
    expect(dumped).not.toContain('whsec_dump_secret_2');
  });

  it('rotates the key-encryption key over 1,000 merchants with every read answered, and none left under the old key', async () => {
    const ns = uniqueNamespace('kek-rotation');
    const own = await connectRedis({ url: REDIS_URL, namespace: ns, commandTimeoutMs: 10_000 });
    try {
      const store = redisMerchantStore(own);
      const old = randomBytes(32);
      const current = randomBytes(32);
      const before = createMerchantRegistry({ store, keys: createKeyRing(old), offboardGraceMs: 1 });
      const ids: string[] = [];
      for (let i = 0; i < 1_000; i += 100) {
        const made = await Promise.all(
          Array.from({ length: 100 }, (_, j) =>
            before.create({ name: `M${i + j}`, apiKey: `sk_test_key_${i + j}`, webhookSecret: `whsec-${i + j}-xyz` }),
          ),
        );
        ids.push(...made.map((m) => m.id));
      }
      // A replica started with the new key (and the old one as previous) serves while it re-wraps everything.
      const rotating = createMerchantRegistry({ store, keys: createKeyRing(current, old), offboardGraceMs: 1 });
      let reads = 0;
      let failed = 0;
      let done = false;
      const readers = Array.from({ length: 4 }, async (_, r) => {
        for (let n = r; !done || n < 4 * 50; n += 4) {
          const i = (n * 37) % ids.length;
          const secrets = await rotating.secrets(ids[i]!).catch(() => null);
          reads += 1;
          if (secrets?.apiKey !== `sk_test_key_${i}`) failed += 1;
        }
      });
      const result = await rotating.rewrapAll();
      done = true;
      await Promise.all(readers);
      expect(result).toEqual({ rewrapped: 1_000, merchants: 1_000 });
      expect(failed).toBe(0);
      expect(reads).toBeGreaterThan(0);
      // Afterwards the old key is no longer needed: every record opens with the new key alone.
      const settled = createMerchantRegistry({ store, keys: createKeyRing(current), offboardGraceMs: 1 });
      expect(await settled.rewrapAll()).toEqual({ rewrapped: 0, merchants: 1_000 });
      expect((await settled.secrets(ids[999]!))?.apiKey).toBe('sk_test_key_999');
    } finally {
      await deleteByPrefix(own.commands, ns);
      await own.close();
    }
  }, 60_000);
});
