// Live reconciliation. The payment service may send a callback once and never
// retry it, and a merchant may forget to enable an event kind: so every
// resource created through the gateway is watched until it is final. When no
// event has moved one for `afterMs`, the gateway fetches it; if its state
// changed, it appends a synthesized event (source POLL) to the log, exactly as
// if a webhook had announced it, so the log and every subscriber end
// complete. Looks back off while nothing changes; a resource still not final
// after `stuckMs` gives one `reconciliation.stuck` event and is let go.
//
// The replica that appends an event about a watched resource records it
// (which pushes its next look back: heard-events.ts); only the replica holding
// the lease looks (one look: look.ts).
import { randomUUID } from 'node:crypto';
import type { EventBus } from '../events/bus.js';
import type { Logger } from '../logger.js';
import { canonicalReference } from '../upstream/checkout-reference.js';
import type { ResourceKind, UpstreamClient } from '../upstream/types.js';
import type { Clock } from './clock.js';
import { recordHeardEvents } from './heard-events.js';
import { lookAt, resourceFetchers, type LookSettings } from './look.js';
import type { ReconcileStore } from './store.js';

export { STUCK_EVENT_KIND } from './look.js';
const BATCH = 50;

interface ReconcilerOptions {
  store: ReconcileStore;
  bus: EventBus;
  upstream: UpstreamClient;
  clock: Clock;
  log: Logger;
  /** RECONCILE_AFTER_MS. */
  afterMs: number;
  /** RECONCILE_STUCK_HOURS, in ms. */
  stuckMs: number;
  /** Longest wait between two looks while nothing changes. Default 16 × afterMs. */
  maxIntervalMs?: number;
  /** How often the lease holder looks for due resources. Default min(afterMs / 4, 30 s). */
  tickMs?: number;
}

/** Watches the resources created through the gateway until they are final, polling them when no event moved them. */
export interface Reconciler {
  /** Watches a resource just created through the gateway (idempotent). Never throws. */
  watch(type: ResourceKind, reference: string): void;
  /** One pass now (what each tick does); resolves when it is done. */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

/** The lease holder's pass: every due resource looked at, one at a time. */
function passOverDue(settings: LookSettings, lease: { holder: string; leaseMs: number }, stopped: () => boolean) {
  const { store, clock, log } = settings;
  return async () => {
    if (stopped()) return;
    try {
      if (!(await store.acquireLease(lease.holder, lease.leaseMs))) return;
      const now = clock.now();
      for (const item of await store.due(now, BATCH)) {
        if (stopped()) return;
        // One resource's trouble (Redis refusing the append...) leaves it due: the next tick tries again.
        await lookAt(settings, item, now).catch((err: unknown) =>
          log.warn('reconciliation failed', { type: item.type, reference: item.reference, error: err }),
        );
      }
    } catch (err) {
      log.warn('reconciliation pass failed', { error: err });
    }
  };
}

/** Starts it: one replica at a time holds the lease and polls. */
export function startReconciler(options: ReconcilerOptions): Reconciler {
  const { store, clock, log, afterMs } = options;
  const tickMs = options.tickMs ?? Math.max(1, Math.min(Math.floor(afterMs / 4), 30_000));
  const holder = randomUUID();
  const settings: LookSettings = {
    ...options,
    fetchers: resourceFetchers(options.upstream),
    maxIntervalMs: options.maxIntervalMs ?? afterMs * 16,
  };
  let stopped = false;
  let timer: { cancel(): void } | null = null;
  let running: Promise<void> = Promise.resolve();
  const tick = passOverDue(settings, { holder, leaseMs: Math.max(tickMs * 3, 10_000) }, () => stopped);

  const schedule = () => {
    if (stopped) return;
    timer = clock.setTimeout(() => {
      running = tick().finally(schedule);
      return running;
    }, tickMs);
  };
  schedule();
  const unlisten = recordHeardEvents(options);

  return {
    watch(type, reference) {
      void (async () => {
        // Events name checkouts by their UUID: watch that form, not the chk_ one the creation returned.
        const canonical = await canonicalReference(type, reference, settings.fetchers.checkout);
        const now = clock.now();
        await store.add({ type, reference: canonical, createdAt: now, lastStatus: null, intervalMs: afterMs, dueAt: now + afterMs });
      })().catch((err: unknown) => log.warn('could not start watching a created resource', { type, reference, error: err }));
    },
    tick,
    async stop() {
      stopped = true;
      unlisten();
      timer?.cancel();
      await running.catch(() => {});
      await store.releaseLease(holder).catch(() => {});
    },
  };
}
