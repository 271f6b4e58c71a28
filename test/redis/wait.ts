// The shared condition wait, and a race against a timer for the fail-fast bounds of Redis outages.
import { waitFor as waitForCondition } from '../helpers/wait.js';

/** Redis restarts take a moment: a longer deadline than the shared default. */
export const waitFor = (condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) =>
  waitForCondition(condition, what, timeoutMs);

/** Settles with the promise's outcome, or 'timer' if a timer of `ms` fires first. */
export async function beforeTimer<T>(
  promise: Promise<T>,
  ms: number,
): Promise<{ settled: 'value'; value: T } | { settled: 'error'; error: unknown } | { settled: 'timer' }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ settled: 'timer' }>((resolve) => (timer = setTimeout(() => resolve({ settled: 'timer' }), ms)));
  try {
    return await Promise.race([
      promise.then(
        (value) => ({ settled: 'value' as const, value }),
        (error: unknown) => ({ settled: 'error' as const, error }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
