// The store of outbound webhooks without Redis (one process): the same model as
// the Redis one (store.ts), its place in the log being a cursor into the
// in-memory event log. In sandbox mode its state is kept in SANDBOX_DATA_DIR
// through `persistence` (state-file.ts), so endpoints and deliveries waiting
// for a retry survive a restart; events in flight at a stop are taken up again
// at the next start (their claim is as old as the process).
import type { EventLog } from '../events/log.js';
import type { LoggedPaymentEvent } from '../events/payment-event.js';
import { compareStreamIds, decodeEventId, parseStreamId, type StreamId } from '../events/stream-id.js';
import { merchantOfEndpoint, redeliveryOf, type DeliveryRecord, type StoredEndpoint } from './model.js';
import { RECENT_DELIVERIES_KEPT, type OutboundStore } from './store.js';

/** What the memory store keeps across restarts. */
export interface OutboundState {
  endpoints: StoredEndpoint[];
  /** Endpoint id -> the id of the last event read from the log. */
  cursors: Record<string, StreamId>;
  /** Endpoint id -> events read and not yet settled. */
  inFlight: Record<string, LoggedPaymentEvent[]>;
  /** Endpoint id -> deliveries kept (waiting for a retry, and the recent settled ones). */
  deliveries: Record<string, DeliveryRecord[]>;
}

/** Where the in-memory outbound store saves its state to survive a restart (the state file), and what it starts from. */
export interface OutboundStatePersistence {
  initial: OutboundState | null;
  changed(state: OutboundState): void;
}

interface EndpointSlot {
  endpoint: StoredEndpoint;
  cursor: StreamId;
  /** seq -> [event, claimed at (ms), consumer]. */
  inFlight: Map<string, [LoggedPaymentEvent, number, string]>;
  deliveries: Map<string, DeliveryRecord>;
  /** Delivery id -> lease or due time, for PENDING ones. */
  due: Map<string, number>;
  /** Delivery id -> lease end, while an attempt is under way (a retry's, or one from the log: store.ts). */
  leases: Map<string, number>;
  /** Deliveries whose redelivery was asked for during an attempt: due at once should it fail. */
  redeliverAfter: Set<string>;
}

/** An OutboundStore in this process's memory, for a single replica, reading events from the shared log. */
export function memoryOutboundStore(log: EventLog, persistence?: OutboundStatePersistence): OutboundStore {
  const slots = new Map<string, EndpointSlot>();
  restore(slots, persistence?.initial ?? null);
  const ctx: MemoryContext = { log, slots, save: () => persistence?.changed(snapshot(slots)), slot: (id) => slots.get(id) ?? null };
  return { mode: 'memory', ...memoryEndpoints(ctx), ...memoryDeliveries(ctx), ...memoryRedelivery(ctx), async close() {} };
}

interface MemoryContext {
  log: EventLog;
  slots: Map<string, EndpointSlot>;
  save(): void;
  slot(id: string): EndpointSlot | null;
}

type EndpointMethods =
  'createEndpoint' | 'listEndpoints' | 'getEndpoint' | 'updateEndpoint' | 'deleteEndpoint' | 'disableOnce' | 'replaceSecrets';

function memoryEndpoints({ log, slots, save, slot }: MemoryContext): Pick<OutboundStore, EndpointMethods> {
  return {
    async createEndpoint(endpoint, max) {
      const merchant = merchantOfEndpoint(endpoint.id);
      if ([...slots.keys()].filter((id) => merchantOfEndpoint(id) === merchant).length >= max) return false;
      slots.set(endpoint.id, {
        endpoint: { ...endpoint },
        cursor: await log.lastId(),
        inFlight: new Map(),
        deliveries: new Map(),
        due: new Map(),
        leases: new Map(),
        redeliverAfter: new Set(),
      });
      save();
      return true;
    },
    async listEndpoints(merchantId) {
      const listed = [...slots.values()].filter((s) => !merchantId || merchantOfEndpoint(s.endpoint.id) === merchantId);
      return listed.map((s) => ({ ...s.endpoint }));
    },
    async getEndpoint(id) {
      const s = slot(id);
      return s ? { ...s.endpoint } : null;
    },
    async updateEndpoint(id, patch) {
      const s = slot(id);
      if (!s) return null;
      const { resetHealth, ...fields } = patch;
      const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      s.endpoint = { ...s.endpoint, ...defined, ...(resetHealth ? { failingSince: null, consecutiveFailures: 0 } : {}) };
      save();
      return { ...s.endpoint };
    },
    async deleteEndpoint(id) {
      const removed = slots.delete(id);
      save();
      return removed;
    },
    async replaceSecrets(id, expected, next) {
      const found = slot(id);
      if (!found || JSON.stringify(found.endpoint.secrets) !== JSON.stringify(expected)) return false;
      found.endpoint = { ...found.endpoint, secrets: { ...next } };
      save();
      return true;
    },
    async disableOnce(id, reason) {
      const s = slot(id);
      if (!s?.endpoint.enabled) return false;
      s.endpoint = { ...s.endpoint, enabled: false, disabledReason: reason };
      save();
      return true;
    },
  };
}

type OneAttemptMethods = 'redeliver' | 'holdFromLog';

function memoryDeliveries({ log, save, slot }: MemoryContext): Omit<OutboundStore, EndpointMethods | OneAttemptMethods | 'mode' | 'close'> {
  return {
    async readNew(id, consumer, count) {
      const s = slot(id);
      if (!s) return [];
      const events = await log.ascending(s.cursor, count);
      for (const event of events) s.inFlight.set(event.seq, [event, Date.now(), consumer]);
      if (events.length > 0) {
        s.cursor = events.at(-1)!.seq;
        save();
      }
      return events;
    },
    async claimStale(id, consumer, minIdleMs, count) {
      const s = slot(id);
      if (!s) return [];
      const stale = [...s.inFlight.values()].filter(([, at]) => Date.now() - at >= minIdleMs).slice(0, count);
      for (const entry of stale) s.inFlight.set(entry[0].seq, [entry[0], Date.now(), consumer]);
      return stale.map(([event]) => event);
    },
    async release(id, seqs) {
      const s = slot(id);
      seqs.forEach((seq) => s?.inFlight.delete(seq));
      save();
    },
    async recordAttempt(record, ackSeq, outcome, atMs) {
      const s = slot(record.endpointId);
      if (ackSeq) s?.inFlight.delete(ackSeq);
      if (!s) return { kept: false, failingSince: null };
      s.leases.delete(record.id);
      const asked = s.redeliverAfter.delete(record.id);
      keep(s, asked && outcome === 'failed' ? redeliveryOf(record, atMs) : record);
      s.endpoint = withHealth(s.endpoint, outcome, atMs);
      save();
      return { kept: true, failingSince: s.endpoint.failingSince ? Date.parse(s.endpoint.failingSince) : null };
    },
    async enqueue(record) {
      const s = slot(record.endpointId);
      if (!s) return false;
      keep(s, record);
      save();
      return true;
    },
    async claimDue(id, now, count, leaseUntil) {
      const s = slot(id);
      if (!s) return [];
      const due = [...s.due.entries()].filter(([, at]) => at <= now).slice(0, count);
      for (const [deliveryId] of due) {
        s.due.set(deliveryId, leaseUntil);
        s.leases.set(deliveryId, leaseUntil);
      }
      return due.map(([deliveryId]) => s.deliveries.get(deliveryId)!).filter(Boolean);
    },
    async getDelivery(endpointId, deliveryId) {
      return slot(endpointId)?.deliveries.get(deliveryId) ?? null;
    },
    async listDeliveries(endpointId) {
      const all = [...(slot(endpointId)?.deliveries.values() ?? [])];
      return all.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
    },
    async waiting(endpointId) {
      const s = slot(endpointId);
      if (!s) return { retrying: 0, inFlight: 0, oldestMs: null };
      const times = [...s.due.keys()].map((d) => parseStreamId(decodeEventId(d.slice(d.indexOf('.') + 1)) ?? '')?.[0] ?? Infinity);
      for (const seq of s.inFlight.keys()) times.push(parseStreamId(seq)?.[0] ?? Infinity);
      const oldest = Math.min(...times);
      return { retrying: s.due.size, inFlight: s.inFlight.size, oldestMs: Number.isFinite(oldest) ? oldest : null };
    },
    async rewind(id, seq) {
      const s = slot(id);
      if (!s) return;
      const [ms, n] = parseStreamId(seq) ?? [0, 0];
      const before = n > 0 ? `${ms}-${n - 1}` : ms > 0 ? `${ms - 1}-${Number.MAX_SAFE_INTEGER}` : '0-0';
      if (compareStreamIds(before, s.cursor) < 0) s.cursor = before;
      save();
    },
  };
}

/**
 * One attempt of a delivery at a time (store.ts): a redelivery, and the lease of an attempt from the log, as the Redis
 * store's scripts decide them; in one process, deciding and acting is one synchronous step.
 */
function memoryRedelivery({ save, slot }: MemoryContext): Pick<OutboundStore, OneAttemptMethods> {
  return {
    async holdFromLog(endpointId, deliveryIds, now, leaseUntil) {
      const s = slot(endpointId);
      return deliveryIds.map((id) => {
        if (!s) return 'go';
        if ((s.leases.get(id) ?? 0) > now) return s.due.has(id) ? 'retrying' : 'busy';
        s.due.delete(id);
        s.leases.set(id, leaseUntil);
        return 'go';
      });
    },
    async redeliver(endpointId, deliveryId, now) {
      const s = slot(endpointId);
      const record = s?.deliveries.get(deliveryId);
      if (!s || !record) return { outcome: 'gone', record: null };
      if ((s.leases.get(deliveryId) ?? 0) > now) {
        s.redeliverAfter.add(deliveryId);
        return { outcome: 'in_flight', record };
      }
      const again = redeliveryOf(record, now);
      s.leases.delete(deliveryId);
      keep(s, again);
      save();
      return { outcome: 'queued', record: again };
    },
  };
}

/** A delivery where its status puts it: PENDING in the retry set at its due time, the others in the recent list. */
function keep(s: EndpointSlot, record: DeliveryRecord): void {
  s.deliveries.set(record.id, record);
  if (record.status === 'PENDING') s.due.set(record.id, record.nextAttemptAt ?? 0);
  else {
    s.due.delete(record.id);
    trimRecent(s);
  }
}

function withHealth(endpoint: StoredEndpoint, outcome: 'ok' | 'failed', atMs: number): StoredEndpoint {
  const at = new Date(atMs).toISOString();
  if (outcome === 'ok') return { ...endpoint, lastSuccessAt: at, failingSince: null, consecutiveFailures: 0 };
  return { ...endpoint, failingSince: endpoint.failingSince ?? at, consecutiveFailures: endpoint.consecutiveFailures + 1 };
}

/** Keeps the newest RECENT_DELIVERIES_KEPT settled deliveries (those waiting for a retry are kept apart). */
function trimRecent(s: EndpointSlot): void {
  const settled = [...s.deliveries.values()].filter((d) => !s.due.has(d.id));
  if (settled.length <= RECENT_DELIVERIES_KEPT) return;
  settled.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const d of settled.slice(0, settled.length - RECENT_DELIVERIES_KEPT)) s.deliveries.delete(d.id);
}

function snapshot(slots: Map<string, EndpointSlot>): OutboundState {
  const state: OutboundState = { endpoints: [], cursors: {}, inFlight: {}, deliveries: {} };
  for (const [id, s] of slots) {
    state.endpoints.push(s.endpoint);
    state.cursors[id] = s.cursor;
    state.inFlight[id] = [...s.inFlight.values()].map(([event]) => event);
    state.deliveries[id] = [...s.deliveries.values()];
  }
  return state;
}

function restore(slots: Map<string, EndpointSlot>, state: OutboundState | null): void {
  for (const endpoint of state?.endpoints ?? []) {
    const id = endpoint.id;
    const deliveries = new Map((state!.deliveries[id] ?? []).map((d) => [d.id, d] as const));
    const due = new Map([...deliveries.values()].filter((d) => d.status === 'PENDING').map((d) => [d.id, d.nextAttemptAt ?? 0] as const));
    // A claim from the previous run: stale at once (0), so this run takes it up.
    const inFlight = new Map((state!.inFlight[id] ?? []).map((e) => [e.seq, [e, 0, ''] as [LoggedPaymentEvent, number, string]] as const));
    slots.set(id, {
      endpoint,
      cursor: state!.cursors[id] ?? '0-0',
      inFlight,
      deliveries,
      due,
      leases: new Map(),
      redeliverAfter: new Set(),
    });
  }
}
