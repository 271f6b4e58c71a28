// The ext_id index, in memory and in the real Redis (a namespace of this run's own): newest first, the retention and
// the per-ext_id cap bound it, forget drops one entry, two API keys never see each other's entries, and the memory
// index comes back from its state file (sandbox mode's data folder).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_REFERENCES_PER_EXT_ID,
  accountPrefix,
  fileExtIdPersistence,
  memoryExtIdIndex,
  redisExtIdIndex,
  type ExtIdIndex,
} from '../../src/ext-id-index/index.js';
import { connectRedis, type GatewayRedis } from '../../src/redis/index.js';
import { REDIS_URL, deleteByPrefix, uniqueNamespace } from '../events/redis-helpers.js';

const MINUTE = 60_000;
const RETENTION_MS = 30 * MINUTE;
let redis: GatewayRedis;
const namespace = uniqueNamespace('ext-id-index');

beforeAll(async () => {
  redis = await connectRedis({ url: REDIS_URL, namespace });
});
afterAll(async () => {
  await deleteByPrefix(redis.commands, namespace);
  await redis.close();
});

const stores: Array<[string, (account: string, now: () => number) => ExtIdIndex]> = [
  ['memory', (account, now) => memoryExtIdIndex({ account, retentionMs: RETENTION_MS, now })],
  ['redis', (account, now) => redisExtIdIndex(redis, { account, retentionMs: RETENTION_MS, now })],
];

describe.each(stores)('the %s index', (_name, make) => {
  it('answers the references seen with an ext_id, most recently seen first, within the retention', async () => {
    // Minutes apart: a Redis index does not write again what it wrote within the last ten.
    let t = 1_000_000_000;
    const index = make(accountPrefix(`sk_test_${Math.random()}`), () => t);
    await index.record([
      { extId: 'order-1', reference: 'ch_a' },
      { extId: 'order-2', reference: 'ch_b' },
    ]);
    t += 11 * MINUTE;
    await index.record([{ extId: 'order-1', reference: 'ch_c' }]);
    expect(await index.references('order-1')).toEqual(['ch_c', 'ch_a']);
    expect(await index.references('order-2')).toEqual(['ch_b']);
    expect(await index.references('order-3')).toEqual([]);

    // Seen again: first again.
    t += 11 * MINUTE;
    await index.record([{ extId: 'order-1', reference: 'ch_a' }]);
    expect(await index.references('order-1')).toEqual(['ch_a', 'ch_c']);

    // Past the retention of its last sighting, an entry is not answered.
    t += RETENTION_MS - 5 * MINUTE;
    expect(await index.references('order-1')).toEqual(['ch_a']);
    expect(await index.references('order-2')).toEqual([]);
  });

  it('keeps the newest references of one ext_id only, and forgets an entry on demand', async () => {
    let t = 2_000_000;
    const index = make(accountPrefix(`sk_test_${Math.random()}`), () => t);
    for (let i = 0; i < MAX_REFERENCES_PER_EXT_ID + 5; i++) {
      t += 1;
      await index.record([{ extId: 'retried-order', reference: `ch_${i}` }]);
    }
    const kept = await index.references('retried-order');
    expect(kept).toHaveLength(MAX_REFERENCES_PER_EXT_ID);
    expect(kept[0]).toBe(`ch_${MAX_REFERENCES_PER_EXT_ID + 4}`);
    expect(kept).not.toContain('ch_4');

    await index.forget('retried-order', kept[0]!);
    expect(await index.references('retried-order')).toEqual(kept.slice(1));
  });

  it('never answers an ext_id recorded under another API key', async () => {
    const t = 3_000_000;
    const mine = make(accountPrefix('sk_test_mine'), () => t);
    const theirs = make(accountPrefix('sk_test_theirs'), () => t);
    await theirs.record([{ extId: 'shared-order', reference: 'ch_theirs' }]);
    await mine.record([{ extId: 'shared-order', reference: 'ch_mine' }]);
    expect(await mine.references('shared-order')).toEqual(['ch_mine']);
    expect(await theirs.references('shared-order')).toEqual(['ch_theirs']);
  });
});

describe('the Redis index', () => {
  it('expires a key a retention after its last write, and never holds the API key itself', async () => {
    const account = accountPrefix('sk_test_secret_key_value');
    const index = redisExtIdIndex(redis, { account, retentionMs: RETENTION_MS });
    await index.record([{ extId: 'order-ttl', reference: 'ch_ttl' }]);
    const key = redis.key('extids', account, 'order-ttl');
    const ttl = await redis.commands.pttl(key);
    expect(ttl).toBeGreaterThan(RETENTION_MS - MINUTE);
    expect(ttl).toBeLessThanOrEqual(RETENTION_MS);
    expect(key).not.toContain('secret_key_value');
  });
});

describe('the memory index', () => {
  it('drops the least recently written ext_id beyond its bound', async () => {
    const index = memoryExtIdIndex({ account: 'a', retentionMs: RETENTION_MS, maxExtIds: 2 });
    await index.record([{ extId: 'one', reference: 'ch_1' }]);
    await index.record([{ extId: 'two', reference: 'ch_2' }]);
    await index.record([{ extId: 'three', reference: 'ch_3' }]);
    expect(await index.references('one')).toEqual([]);
    expect(await index.references('three')).toEqual(['ch_3']);
  });

  it('comes back from its file in the sandbox data folder', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ext-ids-'));
    try {
      const file = path.join(dir, 'ext-ids.json');
      const first = fileExtIdPersistence(file);
      await memoryExtIdIndex({ account: 'a', retentionMs: RETENTION_MS, persistence: first }).record([
        { extId: 'kept', reference: 'ch_kept' },
      ]);
      first.flush();
      const again = memoryExtIdIndex({ account: 'a', retentionMs: RETENTION_MS, persistence: fileExtIdPersistence(file) });
      expect(await again.references('kept')).toEqual(['ch_kept']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
