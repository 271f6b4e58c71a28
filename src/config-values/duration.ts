// Durations in configuration and on the command line (config.ts, scripts/token.ts): plain seconds (`3600`)
// or a number with a unit (`90s`, `15m`, `1h`, `7d`).
// Hand-written because our rule differs from `ms` (and jose does not export its parser): `ms` reads a
// bare number as milliseconds and accepts negative, fractional, week and year spans; a TTL here is whole
// positive seconds, and a bare number means seconds.
const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;

/** Whole seconds, or null when the text is not a positive duration. */
export function parseDurationSeconds(text: string): number | null {
  const match = /^\s*(\d+)\s*([smhd]?)\s*$/i.exec(text);
  if (!match) return null;
  const unit = (match[2] || 's').toLowerCase() as keyof typeof UNIT_SECONDS;
  const seconds = Number(match[1]) * UNIT_SECONDS[unit];
  return Number.isSafeInteger(seconds) && seconds > 0 ? seconds : null;
}
