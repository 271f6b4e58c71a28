// What the outbound webhooks refuse, as plain errors: the schema maps each to
// its typed GraphQL error (src/errors/webhook-endpoint-errors.ts).
import type { UrlProblem } from './target-policy.js';
import { InternalError } from '../errors/internal-error.js';

/** Why a webhook-endpoint request was refused, each with what the caller needs to fix it; made into a typed error. */
export type OutboundRefusal =
  | { kind: 'endpoint_not_found'; endpointId: string }
  | { kind: 'delivery_not_found'; deliveryId: string }
  | { kind: 'limit'; max: number }
  | { kind: 'invalid_url'; reason: UrlProblem }
  | { kind: 'unknown_kinds'; unknown: string[]; known: readonly string[] }
  /** Live mode without Redis. */
  | { kind: 'needs_redis' };

/**
 * A refusal of the webhooks' service (unknown endpoint, limit, bad URL, unknown kind, no Redis): the schema turns
 * each into its typed error.
 */
export class OutboundWebhookError extends InternalError {
  override readonly name = 'OutboundWebhookError';
  readonly code = 'WEBHOOK_REFUSED';
  constructor(readonly refusal: OutboundRefusal) {
    super(`outbound webhooks: ${refusal.kind}`);
  }
}
