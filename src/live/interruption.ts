/**
 * Yielded in place of a value when a subscription's event source failed: the schema turns it into a
 * retryable SUBSCRIPTION_INTERRUPTED error and the stream ends; the client subscribes again (with `after`).
 */
export class SubscriptionInterruption {
  constructor(readonly reason: string) {}
}
