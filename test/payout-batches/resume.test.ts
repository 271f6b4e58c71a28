// What a resume writes, and in which order, on the batch store itself (no
// service): the items the service refused for funds go again in a new round,
// each under a new ext_id written to its chunk document before the batch's
// record lets the chunk go; a resume cut off in between (a crash) and tried
// again derives the very same ext_ids (never two sends of one item under two
// ids); items the caller set aside with "send what fits" stay unsent.
import { describe, expect, it } from 'vitest';
import { memoryDocStore, type DocStore } from '../../src/payout-batches/doc-store.js';
import { batchKey, chunkKey, itemExtId, type BatchDoc, type BatchItem } from '../../src/payout-batches/model.js';
import { addPage, createBatch, readBatch, readItems, startBatch, updateDoc } from '../../src/payout-batches/batch-operations.js';
import type { Wallet } from '../../src/upstream/types.js';

const now = new Date('2026-01-15T09:00:00Z');
const balance = (amount: number) => async () => new Map<Wallet, number>([['opa_bf', amount]]);
const items = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    amount: 100,
    recipientPhone: `76${String(i).padStart(6, '0')}`,
    recipientWallet: 'opa_bf' as const,
    reference: null,
  }));

/** A document store whose next write of the batch's record fails (the process died just before it). */
function failingOnce(docs: DocStore, key: string): DocStore & { arm(): void } {
  let armed = false;
  return {
    ...docs,
    async put(k, value, expected) {
      if (armed && k === key) {
        armed = false;
        throw new Error('the process died here');
      }
      return docs.put(k, value, expected);
    },
    arm: () => void (armed = true),
  };
}

/** What the runner leaves when a wallet runs dry in chunk 1: its first `refused` items refused for funds, the rest queued. */
async function runDry(docs: DocStore, batch: BatchDoc, refused: (item: BatchItem) => boolean): Promise<void> {
  for (let n = 0; n < batch.chunks.length; n++) {
    await updateDoc<BatchItem[], void>(docs, chunkKey(batch.id, batch.chunkSet!, n), (chunk) => {
      for (const item of chunk) {
        if (item.status !== 'PENDING') continue;
        if (n === 1 && refused(item)) {
          Object.assign(item, {
            status: 'NOT_SENT',
            notSent: 'refused',
            failure: { code: 'INSUFFICIENT_FUNDS', message: 'Insufficient balance in opa_bf wallet', wallet: 'opa_bf' },
          });
        } else Object.assign(item, { status: 'QUEUED', transferReference: `tr-${item.index}` });
      }
    });
  }
  await updateDoc<BatchDoc, void>(docs, batchKey(batch.id), (b) => {
    for (const chunk of b.chunks) chunk.state = 'done';
    b.status = 'PAUSED';
  });
}

async function pausedBatch(docs: DocStore, start: { sendWhatFits: boolean; covers: number }) {
  const created = await createBatch(docs, {
    scopedKey: 'alice:k1',
    label: 'payroll',
    createdBy: 'alice',
    feeBps: 100,
    approvalRequired: false,
    now,
  });
  await addPage(docs, created.id, 1, items(200), 10_000);
  const started = await startBatch(docs, created.id, {
    by: 'alice',
    sendWhatFits: start.sendWhatFits,
    approvalRequired: false,
    balance: balance(start.covers),
    now,
  });
  expect(started.change).toBe('started');
  return started.batch;
}

describe('resuming a paused batch', () => {
  it('puts the refused items back to send under new ext_ids; a resume cut off before the batch took it derives the same', async () => {
    const docs = memoryDocStore();
    const batch = await pausedBatch(docs, { sendWhatFits: false, covers: 1_000_000 });
    await runDry(docs, batch, (item) => item.index >= 170);
    const before = await readItems(docs, await readBatch(docs, batch.id));
    const refused = before.filter((i) => i.status === 'NOT_SENT');
    expect(refused).toHaveLength(30);

    // The wallet is still short: refused, with the refused items counted in the shortfall; nothing written.
    await expect(
      startBatch(docs, batch.id, { by: 'alice', sendWhatFits: false, approvalRequired: false, balance: balance(2_000), now }),
    ).rejects.toMatchObject({ shortfalls: [{ wallet: 'opa_bf', required: 30 * 101, available: 2_000 }] });
    expect(await readItems(docs, await readBatch(docs, batch.id))).toEqual(before);

    // Topped up; the process dies after writing the items, before the batch's record.
    const dying = failingOnce(docs, batchKey(batch.id));
    dying.arm();
    await expect(
      startBatch(dying, batch.id, { by: 'alice', sendWhatFits: false, approvalRequired: false, balance: balance(1_000_000), now }),
    ).rejects.toThrow('the process died here');
    const cut = await readBatch(docs, batch.id);
    expect(cut.status).toBe('PAUSED');
    expect(cut.chunks[1]).toMatchObject({ state: 'done' });
    const written = (await readItems(docs, cut)).filter((i) => i.index >= 170);
    for (const item of written) {
      expect(item).toMatchObject({ status: 'PENDING', failure: null, extId: itemExtId(batch.key, item.index, 1) });
      expect(item.refusedExtIds).toEqual([itemExtId(batch.key, item.index)]);
    }

    // Tried again: the same round, the same ext_ids (not a third one), the chunk goes again in round 1.
    const resumed = await startBatch(docs, batch.id, {
      by: 'alice',
      sendWhatFits: false,
      approvalRequired: false,
      balance: balance(1_000_000),
      now,
    });
    expect(resumed.change).toBe('resumed');
    expect(resumed.batch.status).toBe('QUEUED');
    expect(resumed.batch.chunks[0]).toMatchObject({ state: 'done' });
    expect(resumed.batch.chunks[1]).toMatchObject({ state: 'waiting', round: 1, items: 30, amount: 3_000 });
    expect(resumed.batch.counts.notSent.items).toBe(0);
    const after = await readItems(docs, resumed.batch);
    expect(after.filter((i) => i.index >= 170)).toEqual(written);
    // The items already queued keep their first ext_id.
    expect(after.filter((i) => i.index < 170).every((i) => i.status === 'QUEUED' && i.extId === itemExtId(batch.key, i.index))).toBe(true);
  });

  it('items set aside by "send what fits" stay unsent; only those the service refused go again', async () => {
    const docs = memoryDocStore();
    // The wallet covers 150 of the 200 items at the start: 50 set aside by the caller's choice.
    const batch = await pausedBatch(docs, { sendWhatFits: true, covers: 150 * 101 });
    expect(batch.counts.notSent.items).toBe(50);
    await runDry(docs, batch, (item) => item.index >= 120 && item.index < 150);
    const resumed = await startBatch(docs, batch.id, {
      by: 'alice',
      sendWhatFits: false,
      approvalRequired: false,
      balance: balance(1_000_000),
      now,
    });
    expect(resumed.batch.chunks[1]).toMatchObject({ state: 'waiting', round: 1, items: 30 });
    const after = await readItems(docs, resumed.batch);
    for (const item of after.filter((i) => i.index >= 150)) {
      expect(item).toMatchObject({ status: 'NOT_SENT', notSent: 'set_aside', extId: itemExtId(batch.key, item.index) });
    }
    for (const item of after.filter((i) => i.index >= 120 && i.index < 150)) {
      expect(item).toMatchObject({ status: 'PENDING', extId: itemExtId(batch.key, item.index, 1) });
    }
    expect(resumed.batch.counts.notSent.items).toBe(50);
  });
});
