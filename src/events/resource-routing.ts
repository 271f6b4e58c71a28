// Resource watchers (one per `*Updated` subscription, thousands per replica) are found by the event's resource,
// not by asking each of them about every event: one routing listener on the tailer hands each event only to the
// listeners of its resource.
import type { ResourceKind } from '../upstream/types.js';
import type { LogTailer, TailListener } from './tailer.js';

/** The key that names one resource across the event routing (`charge:<reference>`). */
export function resourceKey(type: ResourceKind, reference: string): string {
  return `${type}:${reference}`;
}

/** Returns `listen(key, listener)`: adds a listener of one resource's events; returns the way to remove it. */
export function resourceRouting(tailer: Pick<LogTailer, 'listen'>) {
  const byResource = new Map<string, Set<TailListener>>();
  let routing: (() => void) | null = null;
  return (key: string, listener: TailListener): (() => void) => {
    routing ??= tailer.listen({
      onEvent(event, copy) {
        if (!event.resourceType || !event.reference) return;
        const listeners = byResource.get(resourceKey(event.resourceType, event.reference));
        if (listeners) for (const one of [...listeners]) one.onEvent(event, copy);
      },
      onGap(error) {
        for (const listeners of [...byResource.values()]) for (const one of [...listeners]) one.onGap(error);
      },
    });
    let listeners = byResource.get(key);
    if (!listeners) byResource.set(key, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) byResource.delete(key);
    };
  };
}
