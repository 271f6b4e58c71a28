// Waiting on conditions instead of sleeping: a test moves on as soon as what it
// needs has happened, and fails with a message naming it when it never does.

/** Rejects after `ms` with a message naming what was awaited; the timer never outlives the race. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Re-checks `condition` every few ms until it holds; the interval is a polling step, not a wait for time to pass. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000, everyMs = 2): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise<void>((resolve) => setTimeout(resolve, everyMs));
  }
}
