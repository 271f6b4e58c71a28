// The audit line of a batch's end (its start, approval and cancel have theirs from the mutations).
import type { Logger } from '../logger.js';
import type { BatchDoc, BatchStatus } from './model.js';

export function auditBatchEnd(log: Logger, batch: BatchDoc, outcome: BatchStatus): void {
  const c = batch.counts;
  log.info('audit', {
    audit: true,
    operation: 'payoutBatchCompleted',
    subject: batch.createdBy,
    startedBy: batch.startedBy,
    approvedBy: batch.approval.approvedBy,
    cancelledBy: batch.cancelledBy,
    references: [batch.id],
    items: c.added.items,
    amount: c.added.amount,
    succeeded: c.succeeded.items,
    failed: c.failed.items,
    notSent: c.notSent.items,
    outcome,
  });
}
