// Platform mode: the delivery worker's attempts shared fairly between merchants on this replica. A merchant holds
// at most `perMerchant` attempts at once (WEBHOOK_MAX_IN_FLIGHT_PER_MERCHANT), all merchants together at most
// `total` (WEBHOOK_MAX_IN_FLIGHT). When slots are short, each merchant with work gets an equal share of them
// (`total` over the merchants with attempts under way or waiting), so a merchant with a backlog or slow receivers
// never holds the slots another merchant's first delivery needs: a slot that frees goes to a merchant below its
// share, and the merchants that waited for one are woken in the order they began to wait (round-robin: one woken
// and still short waits again at the back). One merchant's passes take their turns (`turn`): a pass holds the slots
// it took while it reads, and gives back those it did not use before the merchant's next pass takes any.

import { merchantOfEndpoint } from './model.js';

/** How long a merchant woken for a slot keeps its share before its pass takes it. */
const WOKEN_KEPT_MS = 1_000;

/** Slots of attempts, per merchant and in all, shared by equal shares among the merchants that want them. */
export class MerchantSlots {
  private readonly held = new Map<string, number>();
  private used = 0;
  /** Merchants that were refused a slot, in the order they began to wait: each with its endpoints to wake. */
  private readonly waiting = new Map<string, Set<string>>();
  /**
   * Merchants woken for a slot whose pass has not taken it yet (when): they keep their share until it does, or for
   * WOKEN_KEPT_MS should it never come (its endpoint was disabled meanwhile).
   */
  private readonly woken = new Map<string, number>();
  /** Each merchant's passes, one after another: the last one's end. */
  private readonly turns = new Map<string, Promise<unknown>>();

  private readonly total: number;
  private readonly perMerchant: number;

  constructor(
    limits: { maxInFlight: number; maxInFlightPerMerchant: number },
    /** Wakes an endpoint for a full pass (its merchant may have a slot now). */
    private readonly wake: (endpointId: string) => void,
    /** The worker's clock (one clock for the whole engine). */
    private readonly now: () => number = Date.now,
  ) {
    this.total = limits.maxInFlight;
    this.perMerchant = limits.maxInFlightPerMerchant;
  }

  /** Attempts of the merchant under way on this replica. */
  heldBy(merchantId: string): number {
    return this.held.get(merchantId) ?? 0;
  }

  /**
   * Takes up to `wanted` slots for an endpoint of the merchant, and says how many it got (give back what is not
   * used). An endpoint that got none is woken when a slot frees for its merchant.
   */
  take(merchantId: string, endpointId: string, wanted: number): number {
    this.woken.delete(merchantId);
    if (wanted <= 0) return 0;
    const granted = Math.max(0, Math.min(wanted, this.allowance(merchantId)));
    if (granted > 0) {
      this.held.set(merchantId, this.heldBy(merchantId) + granted);
      this.used += granted;
    }
    // Refused outright: woken when a slot frees for its merchant. One that got some comes back by its own attempts' ends.
    if (granted === 0) {
      const endpoints = this.waiting.get(merchantId) ?? new Set<string>();
      endpoints.add(endpointId);
      this.waiting.set(merchantId, endpoints);
    }
    return granted;
  }

  /** Runs a pass of the merchant's after the passes of its that run or wait already. */
  turn<T>(merchantId: string, pass: () => Promise<T>): Promise<T> {
    const previous = this.turns.get(merchantId) ?? Promise.resolve();
    const mine = previous.then(pass, pass);
    const settled = mine.catch(() => undefined);
    this.turns.set(merchantId, settled);
    void settled.then(() => this.turns.get(merchantId) === settled && this.turns.delete(merchantId));
    return mine;
  }

  /**
   * Gives back slots a pass took and did not use, and wakes the other merchants refused meanwhile (never the
   * merchant's own endpoints: its passes take turns, and waking them would only wake passes with nothing to do).
   */
  giveBack(merchantId: string, count: number): void {
    if (count <= 0) return;
    this.free(merchantId, count);
    this.wakeWaiting(merchantId);
  }

  /** An attempt to the endpoint ended: its merchant's slot is free (an endpoint of no merchant holds none). */
  releaseOf(endpointId: string): void {
    const merchant = merchantOfEndpoint(endpointId);
    if (merchant !== null) this.release(merchant);
  }

  /** An attempt of the merchant ended: its slot is free, and the merchants waiting that may use it are woken, in turn. */
  release(merchantId: string): void {
    this.free(merchantId, 1);
    this.wakeWaiting(null);
  }

  private free(merchantId: string, count: number): void {
    const left = this.heldBy(merchantId) - count;
    if (left > 0) this.held.set(merchantId, left);
    else this.held.delete(merchantId);
    this.used = Math.max(0, this.used - count);
  }

  private wakeWaiting(except: string | null): void {
    for (const [merchant, endpoints] of [...this.waiting]) {
      if (merchant === except || this.allowance(merchant) <= 0) continue;
      this.waiting.delete(merchant);
      this.woken.set(merchant, this.now());
      for (const endpointId of endpoints) this.wake(endpointId);
    }
  }

  /** Slots the merchant may take now: within its cap, its equal share, and what is free. */
  private allowance(merchantId: string): number {
    const since = this.now() - WOKEN_KEPT_MS;
    for (const [merchant, at] of this.woken) if (at < since) this.woken.delete(merchant);
    const wanting = new Set([...this.held.keys(), ...this.waiting.keys(), ...this.woken.keys(), merchantId]).size;
    const share = Math.max(1, Math.ceil(this.total / wanting));
    const mine = this.heldBy(merchantId);
    return Math.min(this.perMerchant - mine, share - mine, this.total - this.used);
  }
}
