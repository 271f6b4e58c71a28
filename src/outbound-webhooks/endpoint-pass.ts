// One pass over an endpoint: starts attempts up to its free slots, in this order: deliveries due for a retry (a full
// pass), events another replica left in flight past the visibility timeout (on the counting beat), then new events
// from the endpoint's place in the log, unless its retry set is full (it then holds its place). What it leaves for
// want of a slot is noted in the endpoint's schedule, for the next attempt's end to come back for.
import type { LoggedPaymentEvent } from '../events/payment-event.js';
import { encodeEventId } from '../events/stream-id.js';
import type { EndpointSchedule } from './endpoint-schedule.js';
import type { MerchantSlots } from './merchant-slots.js';
import { merchantOfEndpoint, newDeliveryRecord, takesEvent, type DeliveryRecord, type StoredEndpoint } from './model.js';
import type { OutboundStore } from './store.js';

/**
 * What one pass over an endpoint's waiting events needs: the store, this replica's consumer name, the take-over timeout and the
 * concurrency allowed.
 */
export interface PassContext {
  store: OutboundStore;
  /** This replica's name in the endpoints' consumer groups. */
  consumer: string;
  /** In flight longer than this, an event is another replica's to take over. */
  visibilityMs: number;
  maxInFlight: number;
  retrySetMax: number;
  now: () => number;
  /** Starts an attempt: a due retry (`ackSeq` null), or an event read from the log (its seq). */
  begin(endpoint: StoredEndpoint, record: DeliveryRecord, ackSeq: string | null): void;
  /** Platform mode: the attempts shared fairly between merchants (each attempt holds one of its merchant's slots). */
  slots?: MerchantSlots | null;
}

/** The webhook-id of a logged event: its public event id (PaymentEvent.id), the same for every attempt and replica. */
export function webhookIdOf(event: LoggedPaymentEvent): string {
  return encodeEventId(event.seq, event.generation);
}

/**
 * A light pass reads new events only; a full one claims due retries first and reads the log only when it must.
 * Platform mode: within the slots its merchant got (merchant-slots.ts), those it did not use given back at its end.
 */
export async function passOver(ctx: PassContext, endpoint: StoredEndpoint, schedule: EndpointSchedule, full: boolean): Promise<void> {
  const merchant = ctx.slots ? merchantOfEndpoint(endpoint.id) : null;
  if (!ctx.slots || merchant === null) return passWithin(ctx, endpoint, schedule, full, ctx.maxInFlight - schedule.inFlight);
  const slots = ctx.slots;
  // One pass of a merchant at a time: each sees the slots the one before it left.
  return slots.turn(merchant, async () => {
    const granted = slots.take(merchant, endpoint.id, ctx.maxInFlight - schedule.inFlight);
    let started = 0;
    const counted: PassContext = {
      ...ctx,
      begin: (e, record, ackSeq) => {
        started += 1;
        ctx.begin(e, record, ackSeq);
      },
    };
    try {
      await passWithin(counted, endpoint, schedule, full, granted);
    } finally {
      slots.giveBack(merchant, granted - started);
    }
  });
}

async function passWithin(ctx: PassContext, endpoint: StoredEndpoint, schedule: EndpointSchedule, full: boolean, slots: number) {
  const { store } = ctx;
  const now = ctx.now();
  let free = slots;
  if (free <= 0) {
    schedule.leave('new-events', true);
    if (full) schedule.leave('due-retries', true);
    return;
  }
  if (full) {
    const due = await store.claimDue(endpoint.id, now, free, now + ctx.visibilityMs);
    for (const record of due) ctx.begin(endpoint, record, null);
    schedule.leave('due-retries', due.length === free);
    free -= due.length;
  }
  // Every visibilityMs / 2 whatever woke the pass (the retry set counted before the first read).
  const counting = free > 0 && now - schedule.lastCountAt >= ctx.visibilityMs / 2;
  if (counting) {
    schedule.lastCountAt = now;
    schedule.retrying = (await store.waiting(endpoint.id)).retrying;
    free -= await startEvents(ctx, endpoint, await store.claimStale(endpoint.id, ctx.consumer, ctx.visibilityMs, free));
  }
  // No free slot, or a full retry set (the endpoint holds its place in the log and reads nothing new): an attempt's
  // end comes back.
  const holding = free <= 0 || schedule.retrying >= ctx.retrySetMax;
  schedule.leave('new-events', holding);
  if (holding) return;
  // A full pass reads only when the log has news the endpoint has not read (events of kinds it does not take, a
  // read that failed), and on the count's beat (what no tail told of: events logged while this replica was down).
  if (full && !counting && schedule.readUpTo === schedule.heard) return;
  const heard = schedule.heard;
  const fresh = await store.readNew(endpoint.id, ctx.consumer, free);
  await startEvents(ctx, endpoint, fresh);
  // As many as asked for: there may be more at once (another light pass); fewer: caught up with what was heard of.
  if (fresh.length === free) schedule.request(false);
  else schedule.readUpTo = Math.max(schedule.readUpTo, heard);
}

/**
 * Starts the events the endpoint takes, releases the others; returns how many started. Each delivery is leased first (store.holdFromLog), so none starts beside a redelivery of it; one waiting in the retry set is
 * released to that retry, one another attempt holds is left in flight for that attempt to settle.
 */
async function startEvents(ctx: PassContext, endpoint: StoredEndpoint, events: LoggedPaymentEvent[]): Promise<number> {
  const skipped: string[] = [];
  const taken: DeliveryRecord[] = [];
  for (const event of events) {
    if (takesEvent(endpoint, event)) taken.push(newDeliveryRecord(endpoint.id, event, webhookIdOf(event), ctx.now()));
    else skipped.push(event.seq);
  }
  const now = ctx.now();
  const holds = await ctx.store.holdFromLog(
    endpoint.id,
    taken.map((r) => r.id),
    now,
    now + ctx.visibilityMs,
  );
  let started = 0;
  taken.forEach((record, i) => {
    const hold = holds[i] ?? 'go';
    if (hold === 'retrying') skipped.push(record.event.seq);
    if (hold !== 'go') return;
    ctx.begin(endpoint, record, record.event.seq);
    started += 1;
  });
  await ctx.store.release(endpoint.id, skipped);
  return started;
}
