// Subscriptions over SSE (one HTTP request per stream) count against the same
// limit as the operations of one WebSocket connection (WS_MAX_SUBSCRIPTIONS),
// per caller: a caller cannot escape that limit by switching transport.
import type { Plugin } from 'graphql-yoga';
import type { Principal } from '../auth/index.js';
import { holdUntilStreamEnds } from './stream-slot.js';
import { rateLimitKey } from './operation-limits.js';
import { topLevelError } from '../errors/top-level.js';

interface StreamContext {
  principal: Principal | null;
  clientIp: string | null;
  /** Present over HTTP (yoga's Fetch request); absent over WebSocket, whose sockets count their own operations. */
  request?: unknown;
}

export function useSseStreamLimit(maxStreams: number): Plugin<StreamContext> {
  const open = new Map<string, number>();
  const release = (key: string) => {
    const left = (open.get(key) ?? 1) - 1;
    if (left <= 0) open.delete(key);
    else open.set(key, left);
  };
  return {
    onSubscribe: ({ args, setResultAndStopExecution }) => {
      const ctx = args.contextValue;
      if (!ctx.request) return;
      const key = rateLimitKey(ctx.principal, ctx.clientIp);
      const current = open.get(key) ?? 0;
      if (current >= maxStreams) {
        setResultAndStopExecution({
          errors: [topLevelError('TOO_MANY_SUBSCRIPTIONS', { max: maxStreams, over: 'caller' })],
        });
        return;
      }
      open.set(key, current + 1);
      return holdUntilStreamEnds(() => release(key));
    },
  };
}
