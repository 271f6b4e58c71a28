// One *Updated(reference) subscription: the resource's current state first, then each forward change,
// ending after a final status. Changes come from the bus (a replica's fetch after a webhook, or a poller's);
// an event about the resource in the log with no such change within the grace period makes this watcher
// fetch the resource itself, so a lost pub/sub message costs a fetch, never a missed update.
import { Repeater } from '@repeaterjs/repeater';
import type { EventBus, EventStream, ResourceChange } from '../events/bus.js';
import type { LoggedPaymentEvent } from '../events/payment-event.js';
import type { Logger } from '../logger.js';
import type { ResourceKind } from '../upstream/types.js';
import type { LiveResource, ResourceFetcher } from './fetch-resource.js';
import { SubscriptionInterruption } from './interruption.js';
import type { Pollers } from './pollers.js';
import { isForwardChange, isTerminal } from './status-order.js';

/** Causes a watcher remembers (refreshes already received); older ones can no longer matter. */
const REMEMBERED_CAUSES = 256;

/** What every watcher of the process shares. */
export interface WatchServices {
  bus: EventBus;
  log: Logger;
  fetchResource: ResourceFetcher;
  pollers: Pollers;
  /** How long a watcher waits for another replica's refresh before fetching itself. */
  graceMs: number;
  /** Checkouts have two reference forms; subscriptions and events use the one fetch returns. */
  toCanonical(type: ResourceKind, reference: string): Promise<string>;
}

type Value = LiveResource | SubscriptionInterruption;

/** What one watcher holds, released when the client leaves or the resource is final. */
interface WatchState {
  stopped: boolean;
  release: () => void;
  timers: Set<NodeJS.Timeout>;
  changes: EventStream<ResourceChange> | null;
  events: EventStream<LoggedPaymentEvent> | null;
}

interface Following {
  type: ResourceKind;
  canonical: string;
  last: string;
  push: (value: Value) => Promise<unknown>;
  stop: () => void;
  state: WatchState;
  firstChange: Promise<IteratorResult<ResourceChange>>;
  firstEvent: Promise<IteratorResult<LoggedPaymentEvent>>;
}

async function drive<T>(stream: EventStream<T>, first: Promise<IteratorResult<T>>, state: WatchState, handle: (value: T) => void) {
  for (let step = first; ; step = stream.next()) {
    const result = await step;
    if (result.done || state.stopped) return;
    handle(result.value);
  }
}

/** After the current state: forward changes from the bus, and a fetch of its own when an event's change does not come. */
function followForwardChanges(services: WatchServices, following: Following): void {
  const { log, fetchResource, graceMs } = services;
  const { type, canonical, push, stop, state } = following;
  let last = following.last;
  const interrupt = (reason: string) => {
    if (state.stopped) return;
    log.warn('resource subscription interrupted', { type, reference: canonical, reason });
    void push(new SubscriptionInterruption(reason));
    stop();
  };
  const offer = (resource: LiveResource) => {
    if (state.stopped || !isForwardChange(type, last, resource.status)) return;
    last = resource.status;
    void push(resource);
    if (isTerminal(type, resource.status)) stop();
  };
  const causes = new Set<string>();
  const refreshAfter = (event: LoggedPaymentEvent) => {
    if (causes.has(event.seq)) return;
    const timer = setTimeout(() => {
      state.timers.delete(timer);
      if (state.stopped || causes.has(event.seq)) return;
      fetchResource(type, canonical, Date.parse(event.receivedAt)).then(offer, (err: unknown) =>
        interrupt(`could not fetch the resource after an event: ${(err as Error).message}`),
      );
    }, graceMs);
    state.timers.add(timer);
  };
  const failed = (err: unknown) => interrupt((err as Error)?.message ?? String(err));
  void drive(state.changes!, following.firstChange, state, (change) => {
    if (change.cause) {
      causes.add(change.cause);
      if (causes.size > REMEMBERED_CAUSES) causes.delete(causes.values().next().value!);
    }
    offer(change.resource as LiveResource);
  }).catch(failed);
  void drive(state.events!, following.firstEvent, state, refreshAfter).catch(failed);
}

function endWatch(state: WatchState): void {
  state.stopped = true;
  state.release();
  for (const timer of state.timers) clearTimeout(timer);
  void state.changes?.return();
  void state.events?.return();
}

export function watchResource(services: WatchServices, type: ResourceKind, reference: string): AsyncIterableIterator<Value> {
  const { bus, fetchResource, pollers } = services;
  return new Repeater<Value>(async (push, stop) => {
    const state: WatchState = { stopped: false, release: () => {}, timers: new Set(), changes: null, events: null };
    void stop.then(() => endWatch(state));
    const canonical = await services.toCanonical(type, reference);
    if (state.stopped) return;
    state.changes = bus.subscribeResourceChanged(type, canonical);
    state.events = bus.subscribeResourceEvents(type, canonical);
    // The bus's streams subscribe on their first pull: pull before reading the current state, so that
    // no change falls between the two.
    const firstChange = state.changes.next();
    const firstEvent = state.events.next();
    firstChange.catch(() => {}); // consumed below, or dropped when the client leaves first
    firstEvent.catch(() => {});
    const current = await fetchResource(type, canonical);
    if (state.stopped) return;
    // Not awaited: the poller and the listeners start now, whenever the client reads it.
    void push(current);
    if (isTerminal(type, current.status)) return stop();
    state.release = pollers.acquire(type, canonical, current.status);
    followForwardChanges(services, { type, canonical, last: current.status, push, stop, state, firstChange, firstEvent });
    await stop;
  });
}
