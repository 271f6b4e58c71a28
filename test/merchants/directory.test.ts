// The directory every platform-mode request asks for its merchant's view: a view read at most once a second, by one
// read at a time however many requests find it expired, and never one read before a change made on this replica.
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import {
  createKeyRing,
  createMerchantRegistry,
  memoryMerchantStore,
  merchantDirectory,
  type MerchantStore,
} from '../../src/merchants/index.js';

/** A memory store whose reads are counted; with `holdNext`, the next read's answer waits until released. */
function countingStore() {
  const store = memoryMerchantStore();
  const counted = { reads: 0, holdNext: false, waiting: [] as Array<() => void>, failNext: false };
  const get: MerchantStore['get'] = async (id) => {
    counted.reads++;
    if (counted.failNext) {
      counted.failNext = false;
      throw new Error('the store cannot be read');
    }
    const record = await store.get(id);
    if (counted.holdNext) {
      counted.holdNext = false;
      await new Promise<void>((resolve) => counted.waiting.push(resolve));
    }
    return record;
  };
  const release = () => counted.waiting.splice(0).forEach((resolve) => resolve());
  return { store: { ...store, get } satisfies MerchantStore, counted, release };
}

async function setUp() {
  const { store, counted, release } = countingStore();
  const clock = { ms: Date.parse('2026-11-29T10:00:00Z') };
  const registry = createMerchantRegistry({
    store,
    keys: createKeyRing(randomBytes(32)),
    offboardGraceMs: 3_600_000,
    changed: () => {},
    now: () => clock.ms,
  });
  const merchant = await registry.create({ name: 'École A', apiKey: 'sk_test_aaaa1111', webhookSecret: 'whsec-of-a-123' });
  const directory = merchantDirectory(registry, () => ({ close: async () => {} }), { viewTtlMs: 1_000, now: () => clock.ms });
  counted.reads = 0;
  return { registry, directory, merchant, counted, release, clock };
}

it('reads a view once for all the requests that find it expired, then serves it from memory for its second', async () => {
  const { directory, merchant, counted, clock } = await setUp();
  const views = await Promise.all(Array.from({ length: 200 }, () => directory.merchant(merchant.id)));
  expect(counted.reads).toBe(1);
  expect(new Set(views.map((v) => v?.id))).toEqual(new Set([merchant.id]));
  await directory.merchant(merchant.id);
  expect(counted.reads).toBe(1);
  clock.ms += 1_001;
  await Promise.all(Array.from({ length: 200 }, () => directory.merchant(merchant.id)));
  expect(counted.reads).toBe(2);
});

it('keeps no view read before a change made on this replica meanwhile', async () => {
  const { registry, directory, merchant, counted, release } = await setUp();
  counted.holdNext = true;
  const before = directory.merchant(merchant.id);
  await registry.setSuspended(merchant.id, true);
  directory.forget(merchant.id);
  counted.reads = 1;
  const after = await directory.merchant(merchant.id);
  expect(after?.status).toBe('SUSPENDED');
  release();
  expect((await before)?.status).toBe('ACTIVE');
  // The read that started before the change ended last: the view kept is still the one read after it.
  expect((await directory.merchant(merchant.id))?.status).toBe('SUSPENDED');
  expect(counted.reads).toBe(2);
});

it('reads each merchant for itself: requests of two merchants at once each get their own view', async () => {
  const { registry, directory, merchant, counted } = await setUp();
  const other = await registry.create({ name: 'Shop B', apiKey: 'sk_test_bbbb2222', webhookSecret: 'whsec-of-b-123' });
  counted.reads = 0;
  const views = await Promise.all(Array.from({ length: 100 }, (_, i) => directory.merchant(i % 2 ? other.id : merchant.id)));
  expect(views.map((v) => v?.id)).toEqual(Array.from({ length: 100 }, (_, i) => (i % 2 ? other.id : merchant.id)));
  expect(views.filter((v) => v?.id === other.id).every((v) => v?.name === 'Shop B')).toBe(true);
  expect(counted.reads).toBe(2);
});

it('keeps no failed read: the next request reads again', async () => {
  const { directory, merchant, counted } = await setUp();
  counted.failNext = true;
  const failed = await Promise.all(Array.from({ length: 5 }, () => directory.merchant(merchant.id).catch((err: Error) => err.message)));
  expect(failed).toEqual(Array.from({ length: 5 }, () => 'the store cannot be read'));
  expect(counted.reads).toBe(1);
  expect((await directory.merchant(merchant.id))?.id).toBe(merchant.id);
  expect(counted.reads).toBe(2);
});
