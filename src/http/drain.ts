// Graceful shutdown a load balancer can follow. On SIGTERM the replica first says it is
// leaving (GET /health/ready answers 503) while it keeps serving for a grace period, so
// the balancer stops routing to it before anything is refused. Then it stops accepting
// and drains: a money-moving call cut between sending it to the service and recording
// its result leaves a payment the gateway cannot vouch for, so it waits for every
// operation in flight (HTTP requests, and operations over WebSocket, which no HTTP
// request counts) before it closes anything they still need. Live subscriptions never
// finish on their own: shutdown ends them, and waits until graphql-ws has written each
// one's `complete` (and each SSE stream has ended) before any socket is closed.
import type { ServerResponse } from 'node:http';
import type { Plugin } from 'graphql-yoga';

type DrainPhase = 'serving' | 'leaving' | 'draining';

/**
 * The server's graceful shutdown: serving, then leaving (readiness fails, requests still served), then draining (new requests turned away)
 * until in-flight requests are done.
 */
export interface Drain {
  /** serving; leaving (readiness 503, still serving: the grace period); draining (new requests turned away). */
  readonly phase: DrainPhase;
  /** True once the drain proper began: new requests are turned away. */
  readonly draining: boolean;
  /** Counts an HTTP request until its response closes. */
  trackResponse(res: ServerResponse): void;
  /** Counts a WebSocket operation until graphql-ws has sent its last message (call the result once). */
  trackOperation(): () => void;
  /** Counts executions (any transport) and ends subscriptions when shutdown begins. */
  readonly plugin: Plugin;
  /** Starts the grace period: readiness turns 503, everything else is served as before. */
  leave(): void;
  /** Begins the drain: ends live subscriptions, then resolves once nothing is in flight, or at the deadline (false). */
  drain(deadlineMs: number): Promise<boolean>;
}

/** A drain in the serving phase, with no request in flight. */
export function createDrain(): Drain {
  let inFlight = 0;
  let phase: DrainPhase = 'serving';
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
          if (phase === 'draining') return void endStream(stream);
          liveStreams.add(stream);
          return { onEnd: () => void liveStreams.delete(stream) };
        },
      };
    },
  };

  return {
    get phase() {
      return phase;
    },
    get draining() {
      return phase === 'draining';
    },
    trackResponse(res) {
      begin();
      res.once('close', end);
    },
    trackOperation() {
      begin();
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        end();
      };
    },
    plugin,
    leave() {
      if (phase === 'serving') phase = 'leaving';
    },
    async drain(deadlineMs) {
      phase = 'draining';
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
