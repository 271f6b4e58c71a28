// Waits for a condition (polled), failing with `what` after a generous deadline.
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

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
