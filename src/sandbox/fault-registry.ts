// The bookkeeping shared by request faults and webhook delivery faults: ids,
// hit counts, first-match-wins. One place, so both kinds behave the same way.

export type FaultTimes = number | 'unlimited';

export interface ActiveEntry<S> {
  id: string;
  spec: S;
  /** Hits left; Infinity for 'unlimited'. */
  remaining: number;
}

export function validateTimes(times: unknown): void {
  if (times !== undefined && times !== 'unlimited' && !(Number.isInteger(times) && (times as number) >= 1)) {
    throw new TypeError('fault times must be an integer >= 1 or "unlimited"');
  }
}

export class FaultRegistry<S extends { times?: FaultTimes }> {
  private readonly active: Array<ActiveEntry<S>> = [];
  private nextId = 1;

  constructor(
    private readonly idPrefix: string,
    private readonly validate: (spec: S) => void,
  ) {}

  add(spec: S): string {
    this.validate(spec);
    validateTimes(spec.times);
    const times = spec.times ?? 1;
    const id = `${this.idPrefix}${this.nextId++}`;
    this.active.push({ id, spec: { ...spec }, remaining: times === 'unlimited' ? Infinity : times });
    return id;
  }

  remove(id: string): boolean {
    const i = this.active.findIndex((f) => f.id === id);
    if (i < 0) return false;
    this.active.splice(i, 1);
    return true;
  }

  clear(): void {
    this.active.length = 0;
  }

  list(): Array<ActiveEntry<S>> {
    return this.active.map((f) => ({ ...f }));
  }

  /** The first entry whose spec matches, consuming one of its hits. */
  take(matches: (spec: S) => boolean): S | null {
    const hit = this.active.find((f) => matches(f.spec));
    if (!hit) return null;
    hit.remaining -= 1;
    if (hit.remaining <= 0) this.remove(hit.id);
    return hit.spec;
  }
}
