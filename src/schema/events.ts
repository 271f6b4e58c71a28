// Live payment events over WebSocket (graphql-ws) or SSE, and their history:
// every event in the log (verified webhooks and what the gateway found by
// itself), resumable after the last id a client saw, and each resource's state
// as it moves forward.
import type { GraphQLError } from 'graphql';
import type { Charge, Checkout, Settlement, Transfer } from '../upstream/types.js';
import { isMistypedEventKind, KNOWN_EVENT_KINDS, type LoggedPaymentEvent } from '../events/payment-event.js';
import { topLevelError } from '../errors/top-level.js';
import { MERCHANT_EVENT_KINDS } from '../merchants/index.js';
import { ResumeTooOldError } from '../events/bus.js';
import { EventLogUnavailableError } from '../events/log.js';
import { pageEvents, type EventFilter } from '../events/history.js';
import {
  decodeEventCursor as decodeEventIdCursor,
  encodeEventId,
  parseStreamId,
  type EventCursor,
  type StreamId,
} from '../events/stream-id.js';
import { SubscriptionInterruption } from '../live/index.js';
import type { LiveResource } from '../live/fetch-resource.js';
import { isNotFound } from '../upstream/call-error.js';
import type { ResourceKind } from '../upstream/types.js';
import { access } from './access.js';
import { builder } from './builder.js';
import { ChargeRef, CheckoutRef, SettlementRef, TransferRef } from './refs.js';
import type { GatewayContext } from './context.js';
import { MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE, listScope } from './pagination.js';

function concerning<T>(type: ResourceKind) {
  return async (event: LoggedPaymentEvent, _args: unknown, ctx: GatewayContext): Promise<T | null> => {
    if (event.resourceType !== type) return null;
    // Platform mode: fetched with the merchant's own key (the shared per-event fetch uses the single key).
    if (ctx.merchant) return event.reference ? ((await ctx.loaders[type].load(event.reference)) as T | null) : null;
    return (await ctx.live.resourceForEvent(event)) as T | null;
  };
}

/** Platform mode: only the request's merchant's events pass (interruptions always do). */
function ownEvents<T extends object>(ctx: GatewayContext, stream: AsyncIterableIterator<T>): AsyncIterableIterator<T> {
  const merchantId = ctx.merchant?.id;
  if (!merchantId) return stream;
  const own = (item: T) => !('seq' in item) || (item as { merchantId?: string }).merchantId === merchantId;
  const iterator: AsyncIterableIterator<T> = {
    async next() {
      for (;;) {
        const step = await stream.next();
        if (step.done || own(step.value)) return step;
      }
    },
    return: () => stream.return?.() ?? Promise.resolve({ done: true, value: undefined }),
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

const EventSourceEnum = builder.enumType('EventSource', {
  description: 'Where an event came from.',
  values: {
    WEBHOOK: { description: 'A verified webhook from the payment service.' },
    POLL: {
      description: 'Synthesized by the gateway: it fetched a resource no webhook had moved for a while and found it changed (or stuck).',
    },
  },
});

const PaymentEventRef = builder.objectRef<LoggedPaymentEvent>('PaymentEvent').implement({
  description: 'An event of the payment service, as the gateway logged it: a verified webhook, or a change the gateway found itself.',
  fields: (t) => ({
    id: t.id({
      resolve: (e) => encodeEventId(e.seq, e.generation),
      description:
        'Opaque id that orders events: pass the last one you received as `paymentEvents(after:)` to resume. The same delivery received twice has one id.',
    }),
    kind: t.exposeString('kind', {
      description: 'The event kind as sent, e.g. "charge.success", "checkout.pending"; "reconciliation.stuck" from the gateway.',
    }),
    source: t.field({ type: EventSourceEnum, resolve: (e) => e.source ?? 'WEBHOOK', description: 'Webhook, or found by polling.' }),
    receivedAt: t.field({ type: 'DateTime', resolve: (e) => e.receivedAt, description: 'When the gateway received (or found) it (UTC).' }),
    reference: t.exposeString('reference', {
      nullable: true,
      description: 'Reference of the resource it is about, when the payload names one.',
    }),
    payload: t.field({
      type: 'JSON',
      resolve: (e) => e.payload,
      description: 'The webhook body exactly as received (parsed JSON); for POLL events, `{ event, data, source }` with what was found.',
    }),
    checkout: t.field({
      type: CheckoutRef,
      nullable: true,
      resolve: concerning<Checkout>('checkout'),
      description: 'The checkout it is about, fetched fresh from the service.',
    }),
    charge: t.field({
      type: ChargeRef,
      nullable: true,
      resolve: concerning<Charge>('charge'),
      description: 'The charge it is about, fetched fresh from the service.',
    }),
    transfer: t.field({
      type: TransferRef,
      nullable: true,
      resolve: concerning<Transfer>('transfer'),
      description: 'The transfer it is about, fetched fresh from the service.',
    }),
    settlement: t.field({
      type: SettlementRef,
      nullable: true,
      resolve: concerning<Settlement>('settlement'),
      description: 'The settlement it is about, fetched fresh from the service.',
    }),
  }),
});

/** A retryable end of a subscription whose event source failed: subscribe again (with `after`). */
function interrupted(reason: SubscriptionInterruption): GraphQLError {
  return topLevelError('SUBSCRIPTION_INTERRUPTED', undefined, { extensions: { reason: reason.reason } });
}

function passOrInterrupt<T>(value: T | SubscriptionInterruption): T {
  if (value instanceof SubscriptionInterruption) throw interrupted(value);
  return value;
}

function eventPosition(id: string, argName: string): EventCursor {
  const position = decodeEventIdCursor(id);
  if (!position) throw topLevelError('BAD_USER_INPUT', { kind: 'event_id', arg: argName });
  return position;
}

/** The distinct kinds asked for, none of them a mistake (a typo would silently match nothing); null: all. */
function checkedKinds(kinds: readonly string[] | null | undefined): string[] | null {
  if (!kinds || kinds.length === 0) return null;
  const unknown = kinds.filter(isMistypedEventKind);
  if (unknown.length > 0) throw topLevelError('BAD_USER_INPUT', { kind: 'event_kinds', unknown, known: KNOWN_EVENT_KINDS });
  return [...new Set(kinds)].sort();
}

/**
 * Starts following a resource: its current state is read before the subscription is accepted, so an
 * unknown reference is a typed NOT_FOUND error rather than a stream that fails later.
 */
async function follow(
  ctx: GatewayContext,
  type: ResourceKind,
  reference: string,
): Promise<AsyncIterable<LiveResource | SubscriptionInterruption>> {
  const stream = ctx.live.watch(type, reference);
  let first: IteratorResult<LiveResource | SubscriptionInterruption>;
  try {
    first = await stream.next();
  } catch (err) {
    await stream.return?.();
    if (!isNotFound(err)) throw err;
    // Platform mode: the very answer an unknown reference gets, whoever's it is (no echo to tell them apart by).
    const echo = ctx.platform ? {} : { reference };
    throw topLevelError('NOT_FOUND', { resource: type }, { extensions: { resource: type, ...echo } });
  }
  // Not an async generator: its return() would wait for a pending next(), and a client leaving while no
  // change comes would never be let go. The stream's own return() ends it at once.
  let head: IteratorResult<LiveResource | SubscriptionInterruption> | null = first;
  const iterator: AsyncIterableIterator<LiveResource | SubscriptionInterruption> = {
    next() {
      const taken = head;
      head = null;
      return taken ? Promise.resolve(taken) : stream.next();
    },
    return() {
      head = null;
      return stream.return?.() ?? Promise.resolve({ done: true, value: undefined });
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

const EventFilterInput = builder.inputType('EventFilter', {
  description: 'Narrows the event history. All conditions must hold.',
  fields: (t) => ({
    kinds: t.stringList({
      description: 'Only these kinds (e.g. ["charge.success"]); all when omitted or empty. Checked as paymentEvents(kinds:) checks them.',
    }),
    reference: t.string({ description: 'Only events about this resource reference.' }),
    since: t.field({ type: 'DateTime', description: 'Received at or after this instant.' }),
    until: t.field({ type: 'DateTime', description: 'Received at or before this instant.' }),
  }),
});

type EventFilterArgs = { kinds?: string[] | null; reference?: string | null; since?: Date | null; until?: Date | null };

function toEventFilter(args: EventFilterArgs | null | undefined): EventFilter {
  const f = args ?? {};
  const since = f.since ? f.since.getTime() : null;
  const until = f.until ? f.until.getTime() : null;
  if (since !== null && until !== null && since > until) throw topLevelError('BAD_USER_INPUT', { kind: 'event_dates' });
  return {
    kinds: checkedKinds(f.kinds),
    reference: f.reference || null,
    since,
    until,
  };
}

// Cursors are positions in the log bound to one filter (like every list's): another filter is INVALID_CURSOR.
// They carry the log's generation too: a cursor from a log that was lost is EVENT_CURSOR_EXPIRED.
function encodeEventCursor(scope: string, seq: StreamId, generation: string | undefined): string {
  return Buffer.from(JSON.stringify({ s: scope, q: seq, g: generation ?? null })).toString('base64url');
}

function decodeEventCursor(cursor: string, scope: string, argName: 'after' | 'before', currentGeneration: string | null): StreamId {
  let decoded: { s?: unknown; q?: unknown; g?: unknown } | null = null;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s?: unknown; q?: unknown; g?: unknown };
  } catch {
    decoded = null;
  }
  if (!decoded || typeof decoded.s !== 'string' || typeof decoded.q !== 'string' || !parseStreamId(decoded.q)) {
    throw topLevelError('INVALID_CURSOR', { arg: argName, reason: 'malformed' });
  }
  if (decoded.s !== scope) throw topLevelError('INVALID_CURSOR', { arg: argName, reason: 'other_list' });
  // A cursor from before generations (no `g`) is taken as it is.
  if (decoded.g !== undefined && (decoded.g || null) !== currentGeneration) throw cursorExpired();
  return decoded.q;
}

/** Redis unreadable under the log (down, failing over): a typed, retryable refusal rather than an unexpected error. */
async function readingTheLog<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (!(err instanceof EventLogUnavailableError)) throw err;
    throw topLevelError('SERVICE_UNAVAILABLE', 'temporarily', { extensions: { retryable: true } });
  }
}

function cursorExpired(): GraphQLError {
  return topLevelError('EVENT_CURSOR_EXPIRED', undefined);
}

type PageArgs = { first?: number | null; last?: number | null; after?: string | null; before?: string | null };

/** A page of the log matching `filter`, newest first, as a Relay connection whose cursors belong to `list` and the filter. */
function eventConnection(ctx: GatewayContext, args: PageArgs, list: string, filter: EventFilter) {
  return readingTheLog(async () => {
    const scope = listScope(list, { ...filter, kinds: filter.kinds?.join(',') });
    for (const [name, value] of [
      ['first', args.first],
      ['last', args.last],
    ] as const) {
      if (value != null && (!Number.isInteger(value) || value < 1 || value > MAX_PAGE_SIZE)) {
        throw topLevelError('BAD_USER_INPUT', { kind: 'page_size', arg: name, max: MAX_PAGE_SIZE });
      }
    }
    if (args.first != null && args.last != null) throw topLevelError('BAD_USER_INPUT', { kind: 'first_and_last' });
    const generation = args.after || args.before ? (await ctx.live.history.generation()) || null : null;
    const after = args.after ? decodeEventCursor(args.after, scope, 'after', generation) : null;
    const before = args.before ? decodeEventCursor(args.before, scope, 'before', generation) : null;
    const page = await pageEvents(
      ctx.live.history,
      { first: args.last == null ? (args.first ?? DEFAULT_PAGE_SIZE) : null, last: args.last ?? null, after, before },
      filter,
    );
    const edges = page.items.map((node) => ({ cursor: encodeEventCursor(scope, node.seq, node.generation), node }));
    return {
      edges,
      pageInfo: {
        hasNextPage: page.hasNextPage,
        hasPreviousPage: page.hasPreviousPage,
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges.at(-1)?.cursor ?? null,
      },
      totalCount: page.totalCount,
    };
  });
}

builder.queryFields((t) => ({
  events: t.connection(
    {
      ...access({ scope: 'events:read' }),
      type: PaymentEventRef,
      description:
        'The event log, newest first: every event still kept (EVENT_RETENTION_HOURS), filtered. Reload from here when a `paymentEvents(after:)` id is too old. Cursors belong to one filter.',
      args: { filter: t.arg({ type: EventFilterInput }) },
      resolve: (_root, args, ctx) =>
        // Platform mode: the merchant's own events only, and cursors that belong to its list only.
        eventConnection(ctx, args, 'events', {
          ...toEventFilter(args.filter as EventFilterArgs | null | undefined),
          merchantId: ctx.merchant?.id ?? null,
        }),
    },
    {
      name: 'PaymentEventConnection',
      description: 'A page of the event log.',
      edgesField: { description: 'The events of this page, newest first, each with its cursor.' },
    },
    { name: 'PaymentEventEdge', description: 'One event and its cursor.', nodeField: { description: 'The event.' } },
  ),
  merchantEvents: t.connection(
    {
      ...access({ scope: 'platform:manage' }),
      type: PaymentEventRef,
      description:
        'The platform’s `merchant.*` events (a merchant created, updated, its API key rotated, suspended, reinstated, offboarded, purged), newest first, still kept (EVENT_RETENTION_HOURS): platform mode, the platform operator only. `payload.data` is the merchant as it then stood.',
      resolve: (_root, args, ctx) => eventConnection(ctx, args, 'merchantEvents', { kinds: [...MERCHANT_EVENT_KINDS], ofNoMerchant: true }),
    },
    {
      name: 'MerchantEventConnection',
      description: 'A page of the platform’s `merchant.*` events.',
      edgesField: { description: 'The events of this page, newest first, each with its cursor.' },
    },
    { name: 'MerchantEventEdge', description: 'One `merchant.*` event and its cursor.', nodeField: { description: 'The event.' } },
  ),
}));

builder.subscriptionFields((t) => ({
  paymentEvents: t.field({
    ...access({ scope: 'events:read' }),
    type: PaymentEventRef,
    description:
      'Every event, in log order, each once. Pass `after` (the last id you received) to first receive, in order, every event since then still in the log, then live ones: remember the last id and resubscribe with it after every reconnect. An `after` older than the log is EVENT_CURSOR_EXPIRED: reload from the `events` query. Pass `kinds` to receive only some (e.g. ["charge.success", "charge.failed"]).',
    args: {
      kinds: t.arg.stringList({
        required: false,
        description:
          'Event kinds to receive; all when omitted or empty. A kind of the gateway’s namespaces (checkout., charge., transfer., settlement., reconciliation.) that it does not know, or a typo of a known one, is BAD_USER_INPUT listing the known kinds.',
      }),
      after: t.arg.id({ required: false, description: 'Resume after this event id (from `PaymentEvent.id`).' }),
    },
    subscribe: async (_root, { kinds, after }, ctx) => {
      const position = after ? eventPosition(String(after), 'after') : null;
      const wanted = checkedKinds(kinds);
      try {
        return ownEvents(
          ctx,
          await readingTheLog(() => ctx.live.paymentEvents(wanted, position?.seq ?? null, position?.generation ?? null)),
        );
      } catch (err) {
        if (!(err instanceof ResumeTooOldError)) throw err;
        throw cursorExpired();
      }
    },
    resolve: (event) => passOrInterrupt(event),
  }),
  checkoutUpdated: t.field({
    ...access<{ reference: string }>({ scope: 'events:read', client: ({ reference }) => ({ kind: 'checkout', reference }) }),
    type: CheckoutRef,
    description:
      'The checkout now, then each time its status moves forward; completes after a final status. Either reference form works. Unknown reference: NOT_FOUND.',
    args: { reference: t.arg.string({ required: true }) },
    subscribe: (_root, { reference }, ctx) => follow(ctx, 'checkout', reference),
    resolve: (resource) => passOrInterrupt(resource) as unknown as Checkout,
  }),
  chargeUpdated: t.field({
    ...access<{ reference: string }>({ scope: 'events:read', client: ({ reference }) => ({ kind: 'charge', reference }) }),
    type: ChargeRef,
    description:
      'The charge now, then each time its status moves forward (SEND_OTP → SUCCESS, PAY_OFFLINE → FAILED...); completes after a final status. Unknown reference: NOT_FOUND.',
    args: { reference: t.arg.string({ required: true }) },
    subscribe: (_root, { reference }, ctx) => follow(ctx, 'charge', reference),
    resolve: (resource) => passOrInterrupt(resource) as unknown as Charge,
  }),
  transferUpdated: t.field({
    ...access({ scope: 'events:read' }),
    type: TransferRef,
    description:
      'The transfer now, then each time its status moves forward; completes after SUCCESS or FAILED. Unknown reference: NOT_FOUND.',
    args: { reference: t.arg.string({ required: true }) },
    subscribe: (_root, { reference }, ctx) => follow(ctx, 'transfer', reference),
    resolve: (resource) => passOrInterrupt(resource) as unknown as Transfer,
  }),
  settlementUpdated: t.field({
    ...access({ scope: 'events:read' }),
    type: SettlementRef,
    description:
      'The settlement now, then each time its status moves forward (PROCESSING → IN_TRANSIT → SUCCESS); completes after a final status. Unknown reference: NOT_FOUND.',
    args: { reference: t.arg.string({ required: true }) },
    subscribe: (_root, { reference }, ctx) => follow(ctx, 'settlement', reference),
    resolve: (resource) => passOrInterrupt(resource) as unknown as Settlement,
  }),
}));
