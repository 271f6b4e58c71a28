// Time for the sandbox. Every delayed state change goes through a Clock so tests
// can drive the whole lifecycle (OTP expiry, settlement moves, webhook retries)
// with a ManualClock instead of sleeping.

export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
}

export interface ManualClock extends Clock {
  /**
   * Moves time forward by `ms`, running every timer that falls due, in due order
   * (ties in scheduling order), then awaits the webhook deliveries they started.
   */
  advance(ms: number): Promise<void>;
  /** Timers scheduled and neither run nor cancelled: lets a test see that close() left none. */
  pendingTimers(): number;
}

// A side channel so a ManualClock can wait for asynchronous work (webhook
// deliveries) without widening the public Clock interface.
const TRACK = Symbol.for('momo-sandbox.clock.track');
type Tracking = { [TRACK]?: (work: Promise<unknown>) => void };

/** Lets `advance()` of a ManualClock await `work`; a no-op for other clocks. */
export function trackOnClock(clock: Clock, work: Promise<unknown>): void {
  (clock as Tracking)[TRACK]?.(work);
}

export function realClock(): Clock {
  return {
    now: () => Date.now(),
    setTimeout(fn, ms) {
      const timer = setTimeout(fn, Math.max(0, ms));
      return { cancel: () => clearTimeout(timer) };
    },
  };
}

/** Default start of a ManualClock: a fixed instant, so test output is reproducible. */
export const MANUAL_CLOCK_DEFAULT_START = Date.UTC(2025, 0, 15, 9, 0, 0);

interface ManualTimer {
  due: number;
  order: number;
  fn: () => unknown;
}

export function manualClock(startMs: number = MANUAL_CLOCK_DEFAULT_START): ManualClock {
  let current = startMs;
  let order = 0;
  const timers = new Set<ManualTimer>();
  const inFlight = new Set<Promise<unknown>>();

  const track = (work: Promise<unknown>) => {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    inFlight.add(settled);
    void settled.then(() => inFlight.delete(settled));
  };

  // Work may start more work (a delivery failing schedules nothing due now, but
  // a timer callback may start a delivery): drain until quiet.
  const drain = async () => {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  };

  const nextDue = (limit: number): ManualTimer | undefined => {
    let best: ManualTimer | undefined;
    for (const t of timers) {
      if (t.due > limit) continue;
      if (!best || t.due < best.due || (t.due === best.due && t.order < best.order)) best = t;
    }
    return best;
  };

  const clock: ManualClock & Tracking = {
    now: () => current,
    setTimeout(fn, ms) {
      const timer: ManualTimer = { due: current + Math.max(0, ms), order: order++, fn };
      timers.add(timer);
      return { cancel: () => void timers.delete(timer) };
    },
    async advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance() needs a finite ms >= 0, got ${ms}`);
      const target = current + ms;
      await drain();
      for (let t = nextDue(target); t; t = nextDue(target)) {
        timers.delete(t);
        current = Math.max(current, t.due);
        const result = t.fn();
        if (isPromiseLike(result)) track(Promise.resolve(result));
        await drain();
      }
      current = target;
      await drain();
    },
    pendingTimers: () => timers.size,
    [TRACK]: track,
  };
  return clock;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * The sandbox's own view of a clock: remembers every pending timer so close()
 * can cancel them all, and keeps a throwing callback from killing the process.
 */
export class Scheduler {
  private readonly pending = new Set<TimerHandle>();
  private closed = false;

  constructor(
    readonly clock: Clock,
    private readonly onError: (error: unknown) => void,
  ) {}

  after(ms: number, fn: () => unknown): TimerHandle {
    if (this.closed) return { cancel() {} };
    const handle: TimerHandle = {
      cancel: () => {
        inner.cancel();
        this.pending.delete(handle);
      },
    };
    const run = (): unknown => {
      this.pending.delete(handle);
      try {
        const result = fn();
        // Returned so a ManualClock can await it; failures are reported, not thrown.
        return isPromiseLike(result) ? Promise.resolve(result).catch(this.onError) : result;
      } catch (error) {
        this.onError(error);
        return undefined;
      }
    };
    const inner = this.clock.setTimeout(run as () => void, ms);
    this.pending.add(handle);
    return handle;
  }

  close(): void {
    this.closed = true;
    for (const handle of [...this.pending]) handle.cancel();
    this.pending.clear();
  }
}
