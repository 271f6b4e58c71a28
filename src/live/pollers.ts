// Following a resource without webhooks: one poller per resource in this
// process, shared by all its subscribers, stopped when the last one leaves or
// when the resource reaches a final state. It backs off while nothing changes
// and publishes changes on the bus like a webhook-triggered refresh would.
import type { Logger } from '../logger.js';
import type { ResourceKind } from '../upstream/types.js';
import type { LiveResource, ResourceFetcher } from './fetch-resource.js';
import { isTerminal } from './status-order.js';

export interface PollingOptions {
  /** First interval; 0 disables polling. */
  initialMs: number;
  maxMs: number;
  /** Growth of the interval after each poll that saw no change. */
  factor?: number;
}

/**
 * The timers pollers wait on (the shape of src/reconcile/clock.ts's Clock, which this layer may not import):
 * real ones by default; tests hand in a manual clock and move time instead of waiting for it.
 */
export interface PollTimers {
  setTimeout(fn: () => void, ms: number): { cancel(): void };
}

const REAL_TIMERS: PollTimers = {
  setTimeout(fn, ms) {
    const timer = setTimeout(fn, ms);
    // Polling never keeps a process alive on its own.
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};

interface Poller {
  subscribers: number;
  timer: { cancel(): void } | null;
  intervalMs: number;
  lastStatus: string | null;
  stopped: boolean;
}

export function createPollers(
  fetchResource: ResourceFetcher,
  publish: (type: ResourceKind, resource: LiveResource) => Promise<void>,
  options: PollingOptions,
  log: Logger,
  timers: PollTimers = REAL_TIMERS,
) {
  const pollers = new Map<string, Poller>();
  const factor = options.factor ?? 1.5;

  const schedule = (key: string, type: ResourceKind, reference: string, poller: Poller) => {
    if (poller.stopped) return;
    // The tick's promise is handed back: a manual clock waits for the poll before it moves on (real timers ignore it).
    poller.timer = timers.setTimeout(() => tick(key, type, reference, poller), poller.intervalMs);
  };

  const tick = async (key: string, type: ResourceKind, reference: string, poller: Poller) => {
    poller.timer = null;
    try {
      const resource = await fetchResource(type, reference);
      if (poller.stopped) return;
      const changed = resource.status !== poller.lastStatus;
      if (changed && poller.lastStatus !== null) await publish(type, resource);
      poller.lastStatus = resource.status;
      if (isTerminal(type, resource.status)) {
        poller.stopped = true;
        return;
      }
      poller.intervalMs = changed ? options.initialMs : Math.min(options.maxMs, Math.round(poller.intervalMs * factor));
    } catch (err) {
      // Keep trying with backoff: a passing outage must not end a live subscription.
      log.warn('poll failed', { type, reference, error: err });
      poller.intervalMs = Math.min(options.maxMs, Math.round(poller.intervalMs * factor));
    }
    schedule(key, type, reference, poller);
  };

  return {
    /** Starts (or joins) the poller for a resource; the returned function leaves it. */
    acquire(type: ResourceKind, reference: string, baselineStatus: string | null): () => void {
      if (options.initialMs <= 0) return () => {};
      const key = `${type}:${reference}`;
      let poller = pollers.get(key);
      if (!poller) {
        poller = { subscribers: 0, timer: null, intervalMs: options.initialMs, lastStatus: baselineStatus, stopped: false };
        pollers.set(key, poller);
        if (!(baselineStatus && isTerminal(type, baselineStatus))) schedule(key, type, reference, poller);
      }
      poller.subscribers += 1;
      const joined = poller;
      let left = false;
      return () => {
        if (left) return;
        left = true;
        joined.subscribers -= 1;
        if (joined.subscribers === 0) {
          joined.stopped = true;
          joined.timer?.cancel();
          pollers.delete(key);
        }
      };
    },
    /** How many resources are being polled now (for tests and /health). */
    get active(): number {
      return [...pollers.values()].filter((p) => !p.stopped).length;
    },
    stopAll(): void {
      for (const p of pollers.values()) {
        p.stopped = true;
        p.timer?.cancel();
      }
      pollers.clear();
    },
  };
}

export type Pollers = ReturnType<typeof createPollers>;
