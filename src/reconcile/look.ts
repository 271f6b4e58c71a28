// One look at one watched resource: fetch it; if its state moved forward since the last look, append a
// synthesized event (source POLL) as if a webhook had announced it; let it go when it is final, or with one
// `reconciliation.stuck` event when it is still not final after the limit; else schedule the next look.
import type { EventBus } from '../events/bus.js';
import type { PaymentEventRecord } from '../events/payment-event.js';
import { isForwardChange, isTerminal, statusRank } from '../live/status-order.js';
import type { LiveResource } from '../live/fetch-resource.js';
import type { Logger } from '../logger.js';
import { isNotFound } from '../upstream/call-error.js';
import type { ResourceKind, UpstreamClient } from '../upstream/types.js';
import type { Clock } from './clock.js';
import type { ReconcileStore, WatchedResource } from './store.js';

export const STUCK_EVENT_KIND = 'reconciliation.stuck';
/** The rank of a resource's first status (send_otp, pending, processing...): a higher one is news. */
const CREATION_RANK = 1;

/** What a look needs: where the resource is read, where news is written, and the pace of the looks. */
export interface LookSettings {
  store: ReconcileStore;
  bus: EventBus;
  clock: Clock;
  log: Logger;
  fetchers: ResourceFetchers;
  afterMs: number;
  stuckMs: number;
  maxIntervalMs: number;
  /** Platform mode: the merchant whose watch list this is; its events carry its id. */
  merchantId?: string;
}

type ResourceFetchers = Record<ResourceKind, (reference: string) => Promise<LiveResource>>;

export function resourceFetchers(upstream: UpstreamClient): ResourceFetchers {
  return {
    checkout: (r) => upstream.fetchCheckout(r),
    charge: (r) => upstream.fetchCharge(r),
    transfer: (r) => upstream.fetchTransfer(r),
    settlement: (r) => upstream.fetchSettlement(r),
  };
}

/** Appends a POLL event; with the fetched resource, also tells its subscribers what it now is. */
async function appendPollEvent(
  { bus, clock, merchantId }: LookSettings,
  record: Omit<PaymentEventRecord, 'receivedAt' | 'source'>,
  resource?: LiveResource,
) {
  const logged = await bus.publishPaymentEvent({
    ...record,
    receivedAt: new Date(clock.now()).toISOString(),
    source: 'POLL',
    // The merchant's own history, subscribers and endpoints only.
    ...(merchantId ? { merchantId } : {}),
  });
  if (resource && record.resourceType) {
    // What was fetched is the news: subscribers of the resource need not fetch it again.
    await bus
      .publishResourceChanged({
        type: record.resourceType,
        reference: resource.reference,
        status: resource.status,
        resource,
        cause: logged.seq,
      })
      .catch(() => {});
  }
  return logged;
}

/** A fetch that failed: gone upstream, let it go; anything else, look again later. */
async function afterFailedFetch(settings: LookSettings, item: WatchedResource, now: number, err: unknown): Promise<void> {
  const { type, reference } = item;
  if (isNotFound(err)) return settings.store.remove(type, reference);
  settings.log.warn('reconciliation fetch failed', { type, reference, error: err });
  const intervalMs = Math.min(settings.maxIntervalMs, item.intervalMs * 2);
  return settings.store.put({ ...item, intervalMs, dueAt: now + intervalMs });
}

function movedForward(item: WatchedResource, resource: LiveResource): boolean {
  return item.lastStatus === null
    ? statusRank(item.type, resource.status) > CREATION_RANK
    : isForwardChange(item.type, item.lastStatus, resource.status);
}

async function announceChange(settings: LookSettings, item: WatchedResource, resource: LiveResource): Promise<void> {
  const { type, reference } = item;
  const kind = `${type}.${resource.status}`;
  await appendPollEvent(
    settings,
    {
      id: `poll:${type}:${reference}:${resource.status}`,
      kind,
      reference,
      resourceType: type,
      payload: { event: kind, data: resource, source: 'POLL' },
    },
    resource,
  );
  settings.log.info('reconciliation found a change no webhook announced', { type, reference, status: resource.status });
}

async function giveUpStuck(settings: LookSettings, item: WatchedResource, resource: LiveResource): Promise<void> {
  const { type, reference } = item;
  await appendPollEvent(settings, {
    id: `stuck:${type}:${reference}`,
    kind: STUCK_EVENT_KIND,
    reference,
    resourceType: type,
    payload: {
      event: STUCK_EVENT_KIND,
      data: { type, reference, status: resource.status, watchedSince: new Date(item.createdAt).toISOString() },
      source: 'POLL',
    },
  });
  settings.log.warn('resource still not final after the reconciliation limit', { type, reference, status: resource.status });
  return settings.store.remove(type, reference);
}

export async function lookAt(settings: LookSettings, item: WatchedResource, now: number): Promise<void> {
  const { type, reference } = item;
  let resource: LiveResource;
  try {
    resource = await settings.fetchers[type](reference);
  } catch (err) {
    return afterFailedFetch(settings, item, now, err);
  }
  const changed = movedForward(item, resource);
  if (changed) await announceChange(settings, item, resource);
  if (isTerminal(type, resource.status)) return settings.store.remove(type, reference);
  if (now - item.createdAt >= settings.stuckMs) return giveUpStuck(settings, item, resource);
  // Looks back off while nothing changes.
  const intervalMs = changed ? settings.afterMs : Math.min(settings.maxIntervalMs, item.intervalMs * 2);
  await settings.store.put({
    ...item,
    lastStatus: changed || item.lastStatus === null ? resource.status : item.lastStatus,
    intervalMs,
    dueAt: now + intervalMs,
  });
}
