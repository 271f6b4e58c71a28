// Graceful shutdown. A money-moving call cut between sending it to the service and
// recording its result leaves a payment the gateway cannot vouch for, so shutdown
// waits for every operation in flight (HTTP requests, and executions over WebSocket,
// which no HTTP request counts) before it closes anything they still need. Live
// subscriptions never finish on their own: shutdown ends them, so that graphql-ws
// sends each one `complete` and an SSE stream ends cleanly, before sockets close.
import type { ServerResponse } from 'node:http';
import { Repeater } from '@repeaterjs/repeater';
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
  const shutdown = new AbortController();
  const idleWaiters = new Set<() => void>();

  const begin = () => inFlight++;
  const end = () => {
    inFlight--;
    if (inFlight === 0) for (const wake of idleWaiters) wake();
  };

  const endOnShutdown = <T>(source: AsyncIterable<T>): Repeater<T> =>
    new Repeater<T>(async (push, stop) => {
      const iterator = source[Symbol.asyncIterator]();
      const onShutdown = () => stop();
      if (shutdown.signal.aborted) onShutdown();
      else shutdown.signal.addEventListener('abort', onShutdown, { once: true });
      void stop.then(() => {
        shutdown.signal.removeEventListener('abort', onShutdown);
        return iterator.return?.();
      });
      for (let step = await iterator.next(); !step.done; step = await iterator.next()) await push(step.value);
      stop();
    });

  const plugin: Plugin = {
    onExecute() {
      begin();
      return { onExecuteDone: end };
    },
    onSubscribe() {
      return {
        onSubscribeResult({ result, setResult }) {
          if (Symbol.asyncIterator in result) setResult(endOnShutdown(result));
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
      shutdown.abort();
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
