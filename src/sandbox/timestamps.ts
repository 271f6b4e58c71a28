// The spec warns that the service mixes `Z` and `+00:00` suffixes. We reproduce
// that on purpose (see README, "Timestamps") so clients are tested against it.

export function isoZ(ms: number): string {
  return new Date(ms).toISOString();
}

export function isoOffset(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, '+00:00');
}

/** The UTC calendar day of `ms`, as YYYY-MM-DD. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
