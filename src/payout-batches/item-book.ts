// A batch run's copy of its items (the chunk documents): what the bulk answers, the service's events and its list
// say of each one. It only changes items, marking the chunks to write again; the run saves them (batch-run.ts).
import type { LoggedPaymentEvent } from '../events/payment-event.js';
import type { Transfer } from '../upstream/types.js';
import type { ChunkRequest, ChunkResult } from './chunk-call.js';
import type { Versioned } from './doc-store.js';
import { CHUNK_SIZE, type BatchItem } from './model.js';

/**
 * A batch run's items in memory, by chunk and by ext_id, with the chunks changed since they were written; keeps a final status an event
 * told before the bulk's answer arrived.
 */
export class ItemBook {
  items: BatchItem[] = [];
  versions: number[] = [];
  /** Chunks changed since they were last written. */
  readonly dirty = new Set<number>();
  private byExtId = new Map<string, BatchItem>();
  /** Final statuses seen in events for items not yet known as queued (an event may beat the bulk's answer). */
  private early = new Map<string, { status: 'success' | 'failed'; reference: string }>();

  load(chunks: Array<Versioned<BatchItem[]> | null>): void {
    this.items = chunks.flatMap((c) => c?.value ?? []);
    this.versions = chunks.map((c) => c?.version ?? 0);
    this.byExtId = new Map(this.items.map((item) => [item.extId, item]));
  }

  /** The chunks to write now; they no longer count as changed unless a write fails (giveBackDirty) or they change again. */
  takeDirty(): number[] {
    const taken = [...this.dirty];
    this.dirty.clear();
    return taken;
  }

  giveBackDirty(chunks: readonly number[]): void {
    for (const n of chunks) this.dirty.add(n);
  }

  chunk(n: number): BatchItem[] {
    return this.items.slice(n * CHUNK_SIZE, (n + 1) * CHUNK_SIZE);
  }

  /** What a bulk call of chunk `n` sends: its items still to send. */
  request(n: number): ChunkRequest {
    return this.chunk(n)
      .filter((item) => item.status === 'PENDING')
      .map((item) => ({
        amount: item.amount,
        recipientPhone: item.recipientPhone,
        recipientWallet: item.recipientWallet,
        extId: item.extId,
      }));
  }

  hasQueued(): boolean {
    return this.items.some((item) => item.status === 'QUEUED');
  }

  /** A chunk's result: its items accepted (queued), refused, or (a cancelled batch's chunk in doubt) not sent. */
  apply(n: number, result: ChunkResult): void {
    for (const { extId, reference } of result.accepted) {
      const item = this.pending(extId);
      if (!item) continue;
      item.status = 'QUEUED';
      item.transferReference = reference;
      const early = this.early.get(extId);
      if (early) this.settle(item, early.status, early.reference);
    }
    for (const { extId, failure } of result.failures) {
      const item = this.pending(extId);
      if (!item) continue;
      // Not enough money: provably not sent (the service refused it). A resume sends it again, in a new round.
      if (failure.code === 'INSUFFICIENT_FUNDS') Object.assign(item, { status: 'NOT_SENT', notSent: 'refused' });
      else item.status = 'FAILED';
      item.failure = failure;
    }
    for (const extId of result.notSent ?? []) {
      const item = this.pending(extId);
      if (item) Object.assign(item, { status: 'NOT_SENT', notSent: 'cancelled' });
    }
    this.dirty.add(n);
  }

  /** A transfer event from the log (a webhook, or a reconciliation poll): true when an item moved on. */
  fromEvent(event: LoggedPaymentEvent): boolean {
    if (event.resourceType !== 'transfer') return false;
    const data = (event.payload as { data?: Record<string, unknown> } | null)?.data;
    const extId = data?.ext_id ?? data?.extId;
    const status = typeof data?.status === 'string' ? data.status.toLowerCase() : null;
    const reference = typeof data?.reference === 'string' ? data.reference : null;
    if (typeof extId !== 'string' || !reference || (status !== 'success' && status !== 'failed')) return false;
    const item = this.byExtId.get(extId);
    if (item?.status === 'QUEUED') return this.settle(item, status, reference);
    if (item?.status === 'PENDING') this.early.set(extId, { status, reference });
    return false;
  }

  /** The service's list of transfers: true when a sent item reached its end. */
  fromList(found: ReadonlyMap<string, Transfer>): boolean {
    let changed = false;
    for (const item of this.items) {
      const transfer = item.status === 'QUEUED' ? found.get(item.extId) : undefined;
      if (!transfer) continue;
      if (item.transferReference === null) {
        item.transferReference = transfer.reference;
        this.dirty.add(Math.floor(item.index / CHUNK_SIZE));
      }
      if (transfer.status === 'success' || transfer.status === 'failed')
        changed = this.settle(item, transfer.status, transfer.reference) || changed;
    }
    return changed;
  }

  private pending(extId: string): BatchItem | null {
    const item = this.byExtId.get(extId);
    return item && item.status === 'PENDING' ? item : null;
  }

  private settle(item: BatchItem, status: 'success' | 'failed', reference: string): boolean {
    if (item.status !== 'QUEUED') return false;
    item.transferReference = reference;
    item.status = status === 'success' ? 'SUCCEEDED' : 'FAILED';
    if (status === 'failed')
      item.failure = {
        code: 'TRANSFER_FAILED',
        message: 'The operator could not deliver this transfer; its amount and fees went back to the wallet.',
      };
    this.dirty.add(Math.floor(item.index / CHUNK_SIZE));
    this.early.delete(item.extId);
    return true;
  }
}
