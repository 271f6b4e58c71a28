// Platform mode: the runner's workers shared fairly between merchants. One replica works on at most `workers`
// chunks at once (a chunk holds its worker from before its pacing slot to its answer), one merchant on at most
// `perMerchant` of them, and a freed worker goes to the waiting merchant served longest ago (round-robin; a merchant
// that was idle comes first). So one merchant's 10,000-item payroll, whose chunks all wait for a worker, holds at
// most its cap, and another merchant's first chunk takes the next free worker instead of queueing behind the payroll.

/** Gives back a worker (once; a second call does nothing). */
export type Release = () => void;

/** The runner's workers, handed out between merchants in turn, each merchant up to its cap. */
export interface FairShare {
  /** A worker for one of the merchant's chunks; resolves once one is free, the merchant is under its cap and its turn came. */
  acquire(merchantId: string): Promise<Release>;
  /** Workers busy now, per merchant. */
  busy(): ReadonlyMap<string, number>;
}

/** Round-robin over the merchants that wait, at most `workers` at once and `perMerchant` per merchant. */
export function fairShare({ workers, perMerchant }: { workers: number; perMerchant: number }): FairShare {
  const busy = new Map<string, number>();
  const waiting = new Map<string, Array<() => void>>();
  /** When each merchant busy or waiting was last given a worker (a counter); forgotten once it is neither. */
  const lastServed = new Map<string, number>();
  let total = 0;
  let turn = 0;

  /** The waiting merchant under its cap that was served longest ago (never: first). */
  const next = (): string | null => {
    let best: string | null = null;
    for (const merchantId of waiting.keys()) {
      if ((busy.get(merchantId) ?? 0) >= perMerchant) continue;
      if (best === null || (lastServed.get(merchantId) ?? -1) < (lastServed.get(best) ?? -1)) best = merchantId;
    }
    return best;
  };

  const dispatch = () => {
    for (let merchantId = next(); total < workers && merchantId !== null; merchantId = next()) {
      const queue = waiting.get(merchantId)!;
      const wake = queue.shift()!;
      if (queue.length === 0) waiting.delete(merchantId);
      total += 1;
      busy.set(merchantId, (busy.get(merchantId) ?? 0) + 1);
      lastServed.set(merchantId, turn++);
      wake();
    }
  };

  const releaseOf = (merchantId: string): Release => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      total -= 1;
      const left = (busy.get(merchantId) ?? 1) - 1;
      if (left > 0) busy.set(merchantId, left);
      else {
        busy.delete(merchantId);
        if (!waiting.has(merchantId)) lastServed.delete(merchantId);
      }
      dispatch();
    };
  };

  return {
    acquire(merchantId) {
      return new Promise<Release>((resolve) => {
        const queue = waiting.get(merchantId) ?? [];
        queue.push(() => resolve(releaseOf(merchantId)));
        waiting.set(merchantId, queue);
        dispatch();
      });
    },
    busy: () => busy,
  };
}
