// The kinds of the events a payout batch adds to the log (payout_batch.*), declared once: the batch publishes only
// these (its `publish` takes this type), and webhook endpoints (src/outbound-webhooks/model.ts) and
// `webhookEventKinds` offer exactly these. A leaf, so the webhooks' layer may read it.
/** Every kind of event a payout batch adds to the log. */
export const PAYOUT_BATCH_EVENT_KINDS = [
  'payout_batch.queued',
  'payout_batch.awaiting_approval',
  'payout_batch.approved',
  'payout_batch.running',
  'payout_batch.progress',
  'payout_batch.paused',
  'payout_batch.completed',
  'payout_batch.cancelling',
  'payout_batch.cancelled',
] as const;

/** One of PAYOUT_BATCH_EVENT_KINDS: the kind of a `payout_batch.*` event in the shared log. */
export type PayoutBatchEventKind = (typeof PAYOUT_BATCH_EVENT_KINDS)[number];
