// A batch of `pages` × 500 items created, filled and started through one replica over HTTP (the child-process
// takeover tests), as a back office would: the ids it answers, to follow the batch and the replica that runs it.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { postGraphQL } from '../helpers/gateway.js';
import { AddItems, CreateBatch, StartBatch, item } from './documents.js';

export async function startedBatch(url: string, auth: Record<string, string>, pages: number): Promise<{ id: string; batchId: string }> {
  const created = (await postGraphQL(url, CreateBatch, { input: { idempotencyKey: randomUUID(), label: 'payroll' } }, auth)).data!
    .createPayoutBatch;
  if (created.__typename !== 'CreatePayoutBatchPayload') throw new Error(created.__typename);
  const id = created.batch.id;
  for (let page = 1; page <= pages; page++) {
    const items = Array.from({ length: 500 }, (_, k) => item((page - 1) * 500 + k));
    const added = await postGraphQL(url, AddItems, { input: { batchId: id, page, items } }, auth);
    expect(added.data!.addPayoutBatchItems.__typename).toBe('AddPayoutBatchItemsPayload');
  }
  const started = await postGraphQL(url, StartBatch, { input: { batchId: id } }, auth);
  expect(started.data!.startPayoutBatch.__typename).toBe('StartPayoutBatchPayload');
  return { id, batchId: created.batch.batchId };
}
