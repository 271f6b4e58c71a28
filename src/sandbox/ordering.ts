/**
 * Newest first; equal creation times (frequent under a ManualClock) fall back to
 * creation order, so every list has one total, stable order and paging over it
 * sees each item once.
 */
export function newestFirst<T extends { createdAt: number; seq: number }>(items: Iterable<T>): T[] {
  return [...items].sort((a, b) => b.createdAt - a.createdAt || b.seq - a.seq);
}
