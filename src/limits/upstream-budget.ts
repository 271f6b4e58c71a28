// At most N calls to the payment service per GraphQL operation, whatever the
// document's shape: aliases, lists and relations all go through one counted
// client, made for the operation (src/schema/context.ts). A call beyond the
// budget never leaves the gateway; its field fails with UPSTREAM_BUDGET_EXCEEDED.
import { GraphQLError } from 'graphql';
import { topLevelErrorArgs } from '../errors/top-level.js';
import { isOperation, movesMoney } from '../upstream/operations.js';
import type { UpstreamClient } from '../upstream/types.js';

export class UpstreamBudgetExceededError extends GraphQLError {
  constructor(budget: number) {
    super(...topLevelErrorArgs('UPSTREAM_BUDGET_EXCEEDED', { limit: budget }, { extensions: { budget } }));
  }
}

export interface UpstreamBudget {
  readonly max: number;
  /** Calls made (or refused) so far. */
  readonly used: number;
}

/** The client the operation's resolvers and loaders use: every call but `close` spends one unit. */
export function budgetedUpstream(upstream: UpstreamClient, max: number): { client: UpstreamClient; budget: UpstreamBudget } {
  let used = 0;
  const budget = {
    max,
    get used() {
      return used;
    },
  };
  const client = new Proxy(upstream, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || property === 'close') return value;
      return (...args: unknown[]) => {
        used += 1;
        // A call that moves money is counted, never refused: validation already allows one money-moving field per
        // operation, and refusing one halfway (after its idempotency key was claimed) would leave its outcome in doubt.
        // Rejected (not thrown) so callers that .catch() a lookup see it as they see any failed call.
        if (used > max && !(isOperation(property) && movesMoney(property))) return Promise.reject(new UpstreamBudgetExceededError(max));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { client, budget };
}
