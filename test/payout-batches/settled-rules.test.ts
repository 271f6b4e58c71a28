// Two rules of a batch's record, checked on the runner itself (src/payout-batches/runner.ts) against the sandbox over
// HTTP, with a document store that fails where a test says (a Redis blip: the runner's write is refused):
// - after a failed chunk write, the final batch's items and its counts still agree (the chunk is written again);
// - once a batch is settled, neither it nor its final event changes or repeats, even when a runner that lost its
//   lease saves late, or when a cancel comes just before the runner's last save.
// In process: the subject is the runner's bookkeeping, not a socket (the takeover suites run replicas as processes).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../../src/errors/payment-errors.js';
import { createEventBus } from '../../src/events/bus.js';
import type { EventBus } from '../../src/events/bus.js';
import { memoryIdempotencyStore } from '../../src/idempotency/store.js';
import { silentLogger } from '../../src/logger.js';
import { BatchRun, type RunnerOptions } from '../../src/payout-batches/batch-run.js';
import { memoryDocStore, type DocStore } from '../../src/payout-batches/doc-store.js';
import { PAYOUT_BATCH_EVENT_KINDS } from '../../src/payout-batches/event-kinds.js';
import { batchKey, countsOf, type BatchDoc, type BatchItem } from '../../src/payout-batches/model.js';
import { memoryPacer } from '../../src/payout-batches/pacing.js';
import { startRunner, type Runner } from '../../src/payout-batches/runner.js';
import { addPage, cancelBatch, createBatch, readBatch, readItems, startBatch } from '../../src/payout-batches/batch-operations.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { createUpstreamClient } from '../../src/upstream/client.js';
import type { UpstreamClient, Wallet } from '../../src/upstream/types.js';
import { testKey } from '../helpers/gateway.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait.js';

const ITEMS = 250; // three chunks of at most 100
let sandbox: Sandbox;
let upstream: UpstreamClient;
let bus: EventBus;

beforeAll(async () => {
  sandbox = await startTestSandbox({ delays: { transferMs: 20 } });
  upstream = createUpstreamClient({
    baseUrl: sandbox.url,
    apiKey: testKey('settled-rules'),
    timeoutMs: 15_000,
    pageParam: 'page',
    pageSizeParam: 'page_size',
    pageSize: 20,
  });
  bus = await createEventBus();
});
afterAll(async () => {
  await bus?.close();
  await upstream?.close();
  await sandbox?.close();
});

/** Writes refused as Redis refuses them while it is unreachable, for the writes `refuse` picks (once each). */
function blipping(docs: DocStore, refuse: (key: string, value: unknown, stored: unknown) => boolean): DocStore & { refused: string[] } {
  const refused: string[] = [];
  return {
    ...docs,
    refused,
    async put(key, value, expected) {
      if (refuse(key, value, (await docs.get(key))?.value)) {
        refused.push(key);
        throw new ServiceUnavailableError({ cause: new Error('Connection is closed.') });
      }
      return docs.put(key, value, expected);
    },
  };
}

interface Harness {
  docs: DocStore;
  options: RunnerOptions;
  runner: Runner;
  /** payout_batch.* events as the runner published them. */
  events: Array<{ kind: string; batch: BatchDoc }>;
}

function harness(docs: DocStore): Harness {
  const events: Harness['events'] = [];
  const options: RunnerOptions = {
    docs,
    pacer: memoryPacer({ callsPerSecond: 20, marginMs: 10 }),
    upstream,
    idempotency: memoryIdempotencyStore(),
    bus,
    log: silentLogger,
    leaseMs: 10_000,
    settleWindowMs: 500,
    followPollMs: 100,
    tickMs: 50,
    concurrency: 4,
    publish: (kind, batch) => void events.push({ kind, batch: structuredClone(batch) }),
    progressed: () => {},
  };
  return { docs, options, runner: startRunner(options), events };
}

/** A batch of ITEMS payouts of 100 XOF, created, filled and started as the mutations do it. */
async function startedBatch(docs: DocStore): Promise<string> {
  const now = new Date();
  const { id } = await createBatch(docs, {
    scopedKey: `ops:${randomUUID()}`,
    label: 'agents',
    createdBy: 'ops',
    feeBps: 100,
    approvalRequired: false,
    now,
  });
  const items = Array.from({ length: ITEMS }, (_, i) => ({
    amount: 100,
    recipientPhone: `70${String(100_000 + i).padStart(6, '0')}`,
    recipientWallet: 'opb_bf' as Wallet,
    reference: null,
  }));
  await addPage(docs, id, 1, items, 10_000);
  const balance = async () => new Map<Wallet, number>([['opb_bf', 10_000_000]]);
  expect((await startBatch(docs, id, { by: 'ops', sendWhatFits: false, approvalRequired: false, balance, now })).change).toBe('started');
  return id;
}

async function settled(h: Harness, id: string): Promise<BatchDoc> {
  await waitFor(async () => (await readBatch(h.docs, id)).settled, `batch ${id} settled`, 20_000, 20);
  return readBatch(h.docs, id);
}

/** The batch's counts as its items say (what a runner that takes it over derives). */
async function countsFromItems(docs: DocStore, batch: BatchDoc) {
  const items: BatchItem[] = await readItems(docs, batch);
  return countsOf(batch, items);
}

describe('a batch’s record', () => {
  it('after a failed chunk write, the final batch’s items and counts agree', async () => {
    // The service refuses the first bulk call whole (every item of that chunk FAILED at once, in one chunk write),
    // and that write is refused by the store: the next save must write the chunk again.
    sandbox.faults.add({
      method: 'POST',
      path: '/v1/payment/transfers/bulk',
      kind: 'envelope',
      httpStatus: 400,
      body: { status: false, message: 'Invalid account', error_code: 'INVALID_ACCOUNT' },
    });
    let blips = 0;
    const docs = blipping(memoryDocStore(), (key, value) => {
      const allFailed = Array.isArray(value) && value.length > 0 && (value as BatchItem[]).every((item) => item.status === 'FAILED');
      return key.startsWith('chunk:') && allFailed && blips++ === 0;
    });
    const h = harness(docs);
    try {
      const id = await startedBatch(docs);
      const final = await settled(h, id);
      expect(docs.refused).toHaveLength(1);
      expect(final.status).toBe('COMPLETED_WITH_FAILURES');
      // The refused chunk's 100 items failed unsent; the others were sent (those to numbers ending in 9 fail there).
      expect(final.counts.failed.items - final.counts.failedAfterSend.items).toBe(100);
      expect(final.counts.succeeded.items + final.counts.failed.items).toBe(ITEMS);
      expect(await countsFromItems(docs, final)).toEqual(final.counts);
    } finally {
      await h.runner.stop();
    }
  });

  it('once settled, neither the batch nor its final event changes or repeats when a runner that lost its lease saves late', async () => {
    const docs = memoryDocStore();
    const h = harness(docs);
    try {
      const id = await startedBatch(docs);
      // A runner that read the batch mid-run, then lost its lease (its copy of the items is stale).
      await waitFor(async () => (await readBatch(docs, id)).counts.sent.items > 0, 'the first chunk sent', 20_000, 10);
      const stale = new BatchRun(
        id,
        h.options,
        'a-runner-that-lost-its-lease',
        () => false,
        async () => {},
      );
      const late = stale as unknown as { load(batch: BatchDoc): Promise<void>; saveCounts(): Promise<BatchDoc>; finish(): Promise<void> };
      await late.load(await readBatch(docs, id));
      const final = await settled(h, id);
      const finalEvents = () => h.events.filter((e) => e.kind === 'payout_batch.completed' || e.kind === 'payout_batch.cancelled');
      await waitFor(() => finalEvents().length > 0, 'the final event', 5_000, 10);
      // Its last saves, late: a save of its counts, then its own finish.
      await late.saveCounts();
      await late.finish();
      expect(await readBatch(docs, id)).toEqual(final);
      expect(finalEvents().map((e) => e.kind)).toEqual(['payout_batch.completed']);
      // Every kind it published is one of the declared kinds (what webhook endpoints and webhookEventKinds offer).
      for (const { kind } of h.events) expect(PAYOUT_BATCH_EVENT_KINDS).toContain(kind);
      expect(await countsFromItems(docs, final)).toEqual(final.counts);
    } finally {
      await h.runner.stop();
    }
  });

  it('once settled, neither the batch nor its final event changes or repeats when a cancel comes just before the last save', async () => {
    const base = memoryDocStore();
    let cancelled: Promise<unknown> | null = null;
    let id = '';
    // Just before the runner's write that settles the batch, a cancel lands first (a moment earlier, over HTTP).
    const docs: DocStore = {
      ...base,
      async put(key, value, expected) {
        const settling = key === batchKey(id) && (value as BatchDoc).settled && !(await base.get<BatchDoc>(key))!.value.settled;
        if (settling && !cancelled) {
          cancelled = cancelBatch(base, id, 'ops-2', new Date()).then(({ batch, changed }) => {
            // What PayoutBatches.cancel publishes for a cancel that settled the batch.
            if (changed && batch.settled) h.events.push({ kind: 'payout_batch.cancelled', batch: structuredClone(batch) });
          });
          await cancelled;
        }
        return base.put(key, value, expected);
      },
    };
    const h = harness(docs);
    try {
      id = await startedBatch(docs);
      const final = await settled(h, id);
      expect(cancelled).not.toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const finals = h.events.filter((e) => e.kind === 'payout_batch.completed' || e.kind === 'payout_batch.cancelled');
      expect(finals).toHaveLength(1);
      expect(finals[0]!.batch.status).toBe(final.status);
      expect(await readBatch(docs, id)).toEqual(final);
      expect(await countsFromItems(docs, final)).toEqual(final.counts);
      // A cancel after the end changes nothing either.
      await cancelBatch(docs, id, 'ops-3', new Date()).catch(() => {});
      expect(await readBatch(docs, id)).toEqual(final);
    } finally {
      await h.runner.stop();
    }
  });
});
