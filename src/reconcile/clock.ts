// The reconciler's time. Production uses the real clock; tests hand in a
// manual one (the sandbox's ManualClock has this very shape) and move time
// instead of sleeping. A timer callback may return a promise: a manual clock
// awaits it before it moves on.

/** The reconciler's time and timers (tests hand in a manual one). */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): { cancel(): void };
}

/** Date.now and setTimeout, its timers unref'd (reconciliation never keeps the process alive on its own). */
export function realClock(): Clock {
  return {
    now: () => Date.now(),
    setTimeout(fn, ms) {
      const timer = setTimeout(fn, Math.max(0, ms));
      // Reconciliation never keeps a process alive on its own.
      timer.unref();
      return { cancel: () => clearTimeout(timer) };
    },
  };
}
