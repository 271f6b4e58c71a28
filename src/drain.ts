// Graceful shutdown. A money-moving call cut between sending it to the service and
// recording its result leaves a payment the gateway cannot vouch for, so shutdown
// waits for every operation in flight (HTTP requests, and executions over WebSocket,
// which no HTTP request counts) before it closes anything they still need. Live
// subscriptions never finish on their own: shutdown ends them, so that graphql-ws
// sends each one `complete` and an SSE stream ends cleanly, before sockets close.
import type { ServerResponse } from 'node:http';
import type { Plugin } from 'graphql-yoga';

export interface Drain {
  /** True once shutdown began: new requests are turned away. */
  readonly draining: boolean;
  /** Counts an HTTP request until its response closes. */
  trackResponse(res: ServerResponse): void;
  /** Counts executions (any transport) and ends subscriptions when shutdown begins. */
  readonly plugin: Plugin;
  /** Begins shutdown: ends live subscriptions, then resolves once nothing is in flight, or at the deadline (false). */
  drain(deadlineMs: number): Promise<boolean>;
}

export function createDrain(): Drain {
  let inFlight = 0;
  let draining = false;
  const idleWaiters = new Set<() => void>();

  const begin = () => inFlight++;
  const end = () => {
    inFlight--;
    if (inFlight === 0) for (const wake of idleWaiters) wake();
  };

  // The streams of live subscriptions, ended at shutdown by return(): the sources (repeaters) then settle
  // the pending next() with done, so graphql-ws sends `complete` and an SSE stream ends. No wrapper per
  // stream: this sits on the path of every event to every subscriber.
  const liveStreams = new Set<AsyncIterator<unknown>>();
  const endStream = (stream: AsyncIterator<unknown>) => void stream.return?.()?.catch(() => undefined);

  const plugin: Plugin = {
    onExecute() {
      begin();
      return { onExecuteDone: end };
    },
    onSubscribe() {
      return {
        onSubscribeResult({ result }) {
          if (!(Symbol.asyncIterator in result)) return undefined;
          const stream = result as AsyncIterator<unknown>;
          if (draining) return void endStream(stream);
          liveStreams.add(stream);
          return { onEnd: () => void liveStreams.delete(stream) };
        },
      };
    },
  };

  return {
    get draining() {
      return draining;
    },
    trackResponse(res) {
      begin();
      res.once('close', end);
    },
    plugin,
    async drain(deadlineMs) {
      draining = true;
      for (const stream of [...liveStreams]) endStream(stream);
      liveStreams.clear();
      if (inFlight === 0) return true;
      let wake!: () => void;
      const idle = new Promise<boolean>((resolve) => (wake = () => resolve(true)));
      idleWaiters.add(wake);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), deadlineMs)));
      try {
        return await Promise.race([idle, deadline]);
      } finally {
        clearTimeout(timer);
        idleWaiters.delete(wake);
      }
    },
  };
}
