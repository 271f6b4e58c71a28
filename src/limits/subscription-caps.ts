// Caps on the subscriptions this replica holds: per token subject (MAX_SUBSCRIPTIONS_PER_SUBJECT, counted over
// every connection and both transports, so opening more sockets or switching to SSE does not escape it) and for
// the whole replica (MAX_SUBSCRIPTIONS). Each live subscription costs memory and a share of every fan-out; without
// them, one token could open 10,000 and stall the event loop whenever an event goes out to all of them.
//
// Counted at yoga's onSubscribe, which graphql-ws and SSE subscriptions both pass through (src/http/websocket.ts); a slot is
// given back when the stream ends however it ends (complete, socket closed, error, shutdown), or at once when the
// subscription is refused later on (a plain result instead of a stream).
import type { Plugin } from 'graphql-yoga';
import type { Principal } from '../auth/index.js';
import { holdUntilStreamEnds } from './stream-slot.js';
import { topLevelError } from '../errors/top-level.js';

interface SubscriptionContext {
  principal: Principal | null;
}

export interface SubscriptionCaps {
  plugin: Plugin<SubscriptionContext>;
  /** Live subscriptions of one subject, and of the replica (tests, metrics). */
  count(subject?: string): number;
}

export function subscriptionCaps(maxPerSubject: number, maxTotal: number): SubscriptionCaps {
  const bySubject = new Map<string, number>();
  let total = 0;
  const release = (subject: string) => {
    total -= 1;
    const left = (bySubject.get(subject) ?? 1) - 1;
    if (left <= 0) bySubject.delete(subject);
    else bySubject.set(subject, left);
  };
  const refuse = (max: number, over: 'subject' | 'gateway') => topLevelError('TOO_MANY_SUBSCRIPTIONS', { max, over });

  const plugin: Plugin<SubscriptionContext> = {
    onSubscribe: ({ args, setResultAndStopExecution }) => {
      const subject = args.contextValue.principal?.subject;
      // An anonymous subscription is refused by authentication (src/http/caller.ts) and holds nothing.
      if (subject === undefined) return;
      const held = bySubject.get(subject) ?? 0;
      if (held >= maxPerSubject || total >= maxTotal) {
        setResultAndStopExecution({ errors: [held >= maxPerSubject ? refuse(maxPerSubject, 'subject') : refuse(maxTotal, 'gateway')] });
        return;
      }
      bySubject.set(subject, held + 1);
      total += 1;
      return holdUntilStreamEnds(() => release(subject));
    },
  };
  return { plugin, count: (subject) => (subject === undefined ? total : (bySubject.get(subject) ?? 0)) };
}
