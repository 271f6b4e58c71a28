// When a failed delivery is tried again: the configured schedule
// (WEBHOOK_RETRY_SCHEDULE, Svix's by default: 5 s, 5 min, 30 min, 2 h, 5 h,
// 10 h, 10 h), each wait spread by ±20% jitter so that the deliveries of a
// receiver that comes back do not all land in the same second.

/** Each retry's delay is moved by up to this fraction either way (see above). */
export const JITTER = 0.2;

/**
 * The wait before the next attempt after `failures` failed attempts (1: the first one failed), or null when
 * the schedule is spent (the delivery is FAILED). `random` in [0, 1).
 */
export function nextRetryDelayMs(scheduleMs: readonly number[], failures: number, random: () => number = Math.random): number | null {
  const base = scheduleMs[failures - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}
