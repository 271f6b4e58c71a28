// One endpoint's schedule on this replica, in named states: whether a pass runs and what was asked for meanwhile,
// what the last pass left for want of a free slot, and the counters that decide when a full pass reads the log or
// counts the retry set. The worker (worker.ts) asks it what to do; the pass itself is endpoint-pass.ts.

/** A pass over the endpoint: none; one running; one running and another asked for meanwhile (light or full). */
export type PassState = 'idle' | 'running' | 'running-then-light' | 'running-then-full';

/** Work a pass had to leave because every slot was taken: an attempt's end comes back for it. */
export type LeftForSlot = 'due-retries' | 'new-events';

/**
 * When this replica next goes over one endpoint's events: a pass is idle, running, or running with another due (light or full), and work
 * left for want of a slot is picked up when one frees.
 */
export class EndpointSchedule {
  /** Attempts of this endpoint running on this replica now. */
  inFlight = 0;
  private pass: PassState = 'idle';
  private readonly left = new Set<LeftForSlot>();
  /** Events heard of (from the log's tail, or a change to the endpoint) since this replica started. */
  heard = 0;
  /** `heard` as it was when a read last found the endpoint caught up: equal, a full pass need not read the log. */
  readUpTo = 0;
  /** Deliveries in the retry set as last counted (plus those this replica added since). */
  retrying = 0;
  /** When the retry set was last counted (and stale events claimed), on the worker's clock. */
  lastCountAt = 0;

  get state(): PassState {
    return this.pass;
  }

  /** Asks for a pass; true when the caller runs it now, false when one runs already (it runs again after). */
  request(full: boolean): boolean {
    if (this.pass === 'idle') {
      this.pass = 'running';
      return true;
    }
    this.pass = full || this.pass === 'running-then-full' ? 'running-then-full' : 'running-then-light';
    return false;
  }

  /** A pass ended: the next one asked for meanwhile (it starts now), or null when the schedule is idle again. */
  finished(): 'light' | 'full' | null {
    const next = this.pass === 'running-then-full' ? 'full' : this.pass === 'running-then-light' ? 'light' : null;
    this.pass = next ? 'running' : 'idle';
    return next;
  }

  /** The passes end (the endpoint is gone or disabled, the store failed, the worker stops). */
  halt(): void {
    this.pass = 'idle';
  }

  /** Notes whether the pass had to leave `work` for want of a slot (false: it left none of it). */
  leave(work: LeftForSlot, left: boolean): void {
    if (left) this.left.add(work);
    else this.left.delete(work);
  }

  /** What an attempt's end should come back for: nothing, new events (a light pass), or due retries (a full one). */
  get comeBackFor(): 'nothing' | 'light' | 'full' {
    return this.left.has('due-retries') ? 'full' : this.left.has('new-events') ? 'light' : 'nothing';
  }
}
