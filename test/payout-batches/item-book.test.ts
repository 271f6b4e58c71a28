// The run's copy of its items marks the chunks it must write again. An item that settles while its chunk is being
// written must stay marked: cleared after that write, its change would reach the batch's counts but never its chunk
// document (seen as a cancelled batch reading CANCELLED, 90 succeeded, while its items still read QUEUED).
import { describe, expect, it } from 'vitest';
import { ItemBook } from '../../src/payout-batches/item-book.js';
import type { BatchItem } from '../../src/payout-batches/model.js';
import type { LoggedPaymentEvent } from '../../src/events/payment-event.js';

const item = (index: number): BatchItem => ({
  index,
  extId: `ext-${index}`,
  amount: 1_000,
  recipientPhone: '70000001',
  recipientWallet: 'opa_bf',
  reference: null,
  status: 'PENDING',
  transferReference: null,
  failure: null,
});

const transferEvent = (extId: string, status: 'success' | 'failed') =>
  ({ resourceType: 'transfer', payload: { data: { ext_id: extId, status, reference: `tr-${extId}` } } }) as unknown as LoggedPaymentEvent;

function bookWithQueuedChunk(): ItemBook {
  const book = new ItemBook();
  book.load([{ value: [item(0), item(1)], version: 1 }]);
  book.apply(0, {
    accepted: [
      { extId: 'ext-0', reference: 'tr-ext-0' },
      { extId: 'ext-1', reference: 'tr-ext-1' },
    ],
    failures: [],
  });
  return book;
}

describe('ItemBook: chunks to write', () => {
  it('an item settled while its chunk is being written leaves the chunk to write again', () => {
    const book = bookWithQueuedChunk();
    const writing = book.takeDirty();
    expect(writing).toEqual([0]);
    // What the write in flight holds: both items QUEUED.
    const written = JSON.stringify(book.chunk(0));
    expect(book.fromEvent(transferEvent('ext-0', 'success'))).toBe(true);
    expect(JSON.parse(written).map((i: BatchItem) => i.status)).toEqual(['QUEUED', 'QUEUED']);
    // The write ends: the settled item is still to be written.
    expect(book.takeDirty()).toEqual([0]);
    expect(book.chunk(0).map((i) => i.status)).toEqual(['SUCCEEDED', 'QUEUED']);
  });

  it('chunks whose write failed are given back; unchanged and written chunks are not written again', () => {
    const book = bookWithQueuedChunk();
    const writing = book.takeDirty();
    expect(book.takeDirty()).toEqual([]);
    book.giveBackDirty(writing);
    expect(book.takeDirty()).toEqual([0]);
    expect(book.takeDirty()).toEqual([]);
  });
});
