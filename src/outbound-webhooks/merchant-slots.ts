// Platform mode: the delivery worker's attempts shared fairly between merchants on this replica. A merchant holds
// at most `perMerchant` attempts at once (WEBHOOK_MAX_IN_FLIGHT_PER_MERCHANT), all merchants together at most
// `total` (WEBHOOK_MAX_IN_FLIGHT). When slots are short, each merchant with work gets an equal share of them
// (`total` over the merchants with attempts under way or waiting), so a merchant with a backlog or slow receivers
// never holds the slots another merchant's first delivery needs: a slot that frees goes to a merchant below its
// share, and the merchants that waited for one are woken in the order they began to wait (round-robin: one woken
// and still short waits again at the back).

/** Slots of attempts, per merchant and in all, shared by equal shares among the merchants that want them. */
export class MerchantSlots {
  private readonly held = new Map<string, number>();
  private used = 0;
  /** Merchants that were refused a slot, in the order they began to wait: each with its endpoints to wake. */
  private readonly waiting = new Map<string, Set<string>>();

  constructor(
    private readonly total: number,
    private readonly perMerchant: number,
    /** Wakes an endpoint for a full pass (its merchant may have a slot now). */
    private readonly wake: (endpointId: string) => void,
  ) {}

  /** Attempts of the merchant under way on this replica. */
  heldBy(merchantId: string): number {
    return this.held.get(merchantId) ?? 0;
  }

  /**
   * Takes up to `wanted` slots for an endpoint of the merchant, and says how many it got (give back what is not
   * used). An endpoint that got fewer than it wanted is woken when a slot frees for its merchant.
   */
  take(merchantId: string, endpointId: string, wanted: number): number {
    if (wanted <= 0) return 0;
    const granted = Math.max(0, Math.min(wanted, this.allowance(merchantId)));
    if (granted > 0) {
      this.held.set(merchantId, this.heldBy(merchantId) + granted);
      this.used += granted;
    }
    if (granted < wanted) {
      const endpoints = this.waiting.get(merchantId) ?? new Set<string>();
      endpoints.add(endpointId);
      this.waiting.set(merchantId, endpoints);
    }
    return granted;
  }

  /** Gives back `count` slots of the merchant (attempts ended, or slots taken and not used) and wakes who may use them. */
  release(merchantId: string, count = 1): void {
    if (count <= 0) return;
    const left = this.heldBy(merchantId) - count;
    if (left > 0) this.held.set(merchantId, left);
    else this.held.delete(merchantId);
    this.used = Math.max(0, this.used - count);
    for (const [merchant, endpoints] of [...this.waiting]) {
      if (this.allowance(merchant) <= 0) continue;
      this.waiting.delete(merchant);
      for (const endpointId of endpoints) this.wake(endpointId);
    }
  }

  /** Slots the merchant may take now: within its cap, its equal share, and what is free. */
  private allowance(merchantId: string): number {
    const wanting = new Set([...this.held.keys(), ...this.waiting.keys(), merchantId]).size;
    const share = Math.max(1, Math.ceil(this.total / wanting));
    const mine = this.heldBy(merchantId);
    return Math.min(this.perMerchant - mine, share - mine, this.total - this.used);
  }
}
