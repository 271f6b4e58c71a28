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
//
// Platform mode: each merchant's watches are its own (MerchantWatches): a watch list of its own, looked at with its
// own client of the service, its synthesized events carrying its id (its history, subscribers and endpoints only),
// and its resources' changes on its own channels. The lease holder goes over the merchants with watches in turn,
// at most BATCH looks each per pass, so one merchant's thousands of watches never hold another's back for long.
import { randomUUID } from 'node:crypto';
import type { EventBus } from '../events/bus.js';
import { merchantBus } from '../live/index.js';
import type { Logger } from '../logger.js';
import type { MerchantSet } from '../redis/index.js';
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
  /** Platform mode: each merchant's watches apart; absent, single mode (one list, `upstream`). */
  merchants?: MerchantWatches;
}

/** Platform mode: where each merchant's watches live and the client they are looked at with. */
export interface MerchantWatches {
  /** The merchant's own watch list (in Redis under its hash tag, in its key indexes). */
  store(merchantId: string): ReconcileStore;
  /** The merchants with watches. */
  active: MerchantSet;
  /** The service's client with the merchant's own key; null: the merchant is gone (offboarded), its watches let go. */
  upstreamFor(merchantId: string): Promise<UpstreamClient | null>;
}

/** Watches the resources created through the gateway until they are final, polling them when no event moved them. */
export interface Reconciler {
  /** Watches a resource just created through the gateway (platform mode: for its merchant; idempotent). Never throws. */
  watch(type: ResourceKind, reference: string, merchantId?: string): void;
  /** One pass now (what each tick does); resolves when it is done. */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

/** Looks at up to BATCH due resources of one watch list, one at a time; true when it had some. */
async function lookAtDue(settings: LookSettings, now: number, stopped: () => boolean): Promise<boolean> {
  const due = await settings.store.due(now, BATCH);
  for (const item of due) {
    if (stopped()) break;
    // One resource's trouble (Redis refusing the append...) leaves it due: the next tick tries again.
    await lookAt(settings, item, now).catch((err: unknown) =>
      settings.log.warn('reconciliation failed', { type: item.type, reference: item.reference, error: err }),
    );
  }
  return due.length > 0;
}

/** The settings of one merchant's looks, or null when it is gone or has nothing watched (it then leaves the set). */
async function merchantLooks(settings: LookSettings, merchants: MerchantWatches, merchantId: string): Promise<LookSettings | null> {
  const store = merchants.store(merchantId);
  const upstream = await merchants.upstreamFor(merchantId);
  if (upstream && (await store.size()) > 0)
    return { ...settings, store, bus: merchantBus(settings.bus, merchantId), fetchers: resourceFetchers(upstream), merchantId };
  await merchants.active.remove(merchantId);
  // A watch added meanwhile puts it back (a gone merchant's keys go with its purge).
  if (upstream && (await store.size()) > 0) await merchants.active.add(merchantId);
  return null;
}

/** The lease holder's pass: every due resource looked at (platform mode: each merchant's in turn). */
function passOverDue(
  settings: LookSettings,
  options: ReconcilerOptions,
  lease: { holder: string; leaseMs: number },
  stopped: () => boolean,
) {
  const { store, clock, log } = settings;
  const { merchants } = options;
  return async () => {
    if (stopped()) return;
    try {
      if (!(await store.acquireLease(lease.holder, lease.leaseMs))) return;
      const now = clock.now();
      await lookAtDue(settings, now, stopped);
      for (const merchantId of merchants ? await merchants.active.list() : []) {
        if (stopped()) return;
        const looks = await merchantLooks(settings, merchants!, merchantId).catch((error: unknown) => {
          log.warn('reconciliation of a merchant failed', { merchantId, error });
          return null;
        });
        if (looks) await lookAtDue(looks, now, stopped);
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
  const tick = passOverDue(settings, options, { holder, leaseMs: Math.max(tickMs * 3, 10_000) }, () => stopped);

  const schedule = () => {
    if (stopped) return;
    timer = clock.setTimeout(() => {
      running = tick().finally(schedule);
      return running;
    }, tickMs);
  };
  schedule();
  const { merchants } = options;
  const unlisten = recordHeardEvents({
    ...options,
    storeFor: (merchantId) => (merchants && merchantId ? merchants.store(merchantId) : store),
  });

  /** The list and the client a new watch goes to; null: none (platform mode, no merchant or a gone one). */
  const watchTarget = async (merchantId: string | undefined) => {
    if (!merchants) return { store, fetchers: settings.fetchers };
    const upstream = merchantId ? await merchants.upstreamFor(merchantId) : null;
    return upstream && merchantId ? { store: merchants.store(merchantId), fetchers: resourceFetchers(upstream), merchantId } : null;
  };

  return {
    watch(type, reference, merchantId) {
      void (async () => {
        const target = await watchTarget(merchantId);
        if (!target) return log.warn('created resource not watched: no merchant to watch it for', { type, reference });
        // Events name checkouts by their UUID: watch that form, not the chk_ one the creation returned.
        const canonical = await canonicalReference(type, reference, target.fetchers.checkout);
        const now = clock.now();
        const item = { type, reference: canonical, createdAt: now, lastStatus: null, intervalMs: afterMs, dueAt: now + afterMs };
        await target.store.add(item);
        if (target.merchantId) await merchants!.active.add(target.merchantId);
      })().catch((err: unknown) => log.warn('could not start watching a created resource', { type, reference, merchantId, error: err }));
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
