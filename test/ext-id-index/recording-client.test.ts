// What a webhook event gives the ext_id index: the charge a `charge.*` event carries (its reference and `data.ext_id`),
// nothing from other kinds or from an event without a usable ext_id; and an index that fails never fails the caller
// (the webhook's answer, a payment's result), it is logged.
import { describe, expect, it } from 'vitest';
import { memoryExtIdIndex, recordEventExtId, type ExtIdIndex } from '../../src/ext-id-index/index.js';
import { createLogger } from '../../src/logger.js';

const event = (resourceType: string | null, reference: string | null, data: unknown) => ({ resourceType, reference, payload: { data } });

describe('recordEventExtId', () => {
  it('indexes the charge a charge event carries, and nothing else', async () => {
    const index = memoryExtIdIndex({ account: 'a', retentionMs: 60_000 });
    const lines: string[] = [];
    const log = createLogger('debug', { write: (line) => lines.push(line) });
    await recordEventExtId(index, event('charge', 'ch_1', { reference: 'ch_1', ext_id: 'order-1' }), log);
    await recordEventExtId(index, event('checkout', 'chk_1', { reference: 'chk_1', ext_id: 'order-2' }), log);
    await recordEventExtId(index, event('charge', 'ch_3', { reference: 'ch_3', ext_id: '' }), log);
    await recordEventExtId(index, event('charge', 'ch_4', { reference: 'ch_4', ext_id: 42 }), log);
    await recordEventExtId(index, event('charge', 'ch_5', { reference: 'ch_5', ext_id: 'x'.repeat(256) }), log);
    await recordEventExtId(index, { resourceType: 'charge', reference: 'ch_6', payload: 'not an object' }, log);
    expect(await index.references('order-1')).toEqual(['ch_1']);
    expect(await index.references('order-2')).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('logs an index that cannot be written, and does not throw', async () => {
    const broken: ExtIdIndex = {
      record: () => Promise.reject(new Error('redis down')),
      references: async () => [],
      forget: async () => {},
    };
    const lines: string[] = [];
    const log = createLogger('debug', { write: (line) => lines.push(line) });
    await expect(recordEventExtId(broken, event('charge', 'ch_1', { ext_id: 'order-1' }), log)).resolves.toBeUndefined();
    expect(lines.join('\n')).toMatch(/ext_id index not written/);
  });
});
