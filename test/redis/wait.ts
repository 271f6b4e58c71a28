// The shared condition wait, and a race against the next turn of the event loop for the fail-fast refusals of Redis outages.
import { waitFor as waitForCondition } from '../helpers/wait.js';

/** Redis restarts take a moment: a longer deadline than the shared default. */
export const waitFor = (condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) =>
  waitForCondition(condition, what, timeoutMs);

/**
 * The promise's outcome if it settles within the current turn of the event loop (its reactions run as
 * microtasks, before the next `setImmediate`), else 'pending': "at once" without a timer, so a command that
 * waited for a reconnection or a timeout, however short, is told apart from one refused on the spot.
 */
export async function settledThisTurn<T>(
  promise: Promise<T>,
): Promise<{ settled: 'value'; value: T } | { settled: 'error'; error: unknown } | { settled: 'pending' }> {
  const nextTurn = new Promise<{ settled: 'pending' }>((resolve) => setImmediate(() => resolve({ settled: 'pending' })));
  return Promise.race([
    promise.then(
      (value) => ({ settled: 'value' as const, value }),
      (error: unknown) => ({ settled: 'error' as const, error }),
    ),
    nextTurn,
  ]);
}
