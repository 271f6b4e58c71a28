// Field validation with Django REST Framework's wording, which is what the
// service's `errors` objects look like.
import { MAX_AMOUNT } from './fees.js';
import type { FieldErrors } from './http.js';

export const REQUIRED = 'This field is required.';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** An integer amount, sent as a JSON integer or as a numeric string (the spec's samples do both). */
export function parseAmount(raw: unknown, min: number): Parsed<number> {
  if (raw === undefined || raw === null || raw === '') return { ok: false, message: REQUIRED };
  let value: number;
  if (typeof raw === 'number') value = raw;
  else if (typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw)) value = Number(raw.trim());
  else return { ok: false, message: 'A valid integer is required.' };
  if (!Number.isSafeInteger(value)) return { ok: false, message: 'A valid integer is required.' };
  if (value < min) return { ok: false, message: `Ensure this value is greater than or equal to ${min}.` };
  if (value > MAX_AMOUNT) return { ok: false, message: `Ensure this value is less than or equal to ${MAX_AMOUNT}.` };
  return { ok: true, value };
}

/** A string field; numbers are accepted and turned into strings, as DRF's CharField does. */
export function parseString(raw: unknown, { required }: { required: boolean }): Parsed<string | null> {
  if (raw === undefined || raw === null || raw === '') {
    return required ? { ok: false, message: raw === '' ? 'This field may not be blank.' : REQUIRED } : { ok: true, value: null };
  }
  if (typeof raw === 'number' && Number.isFinite(raw)) return { ok: true, value: String(raw) };
  if (typeof raw !== 'string') return { ok: false, message: 'Not a valid string.' };
  const value = raw.trim();
  if (value === '') return required ? { ok: false, message: 'This field may not be blank.' } : { ok: true, value: null };
  return { ok: true, value };
}

export function parseChoice<T extends string>(raw: unknown, choices: readonly T[]): Parsed<T> {
  if (typeof raw === 'string' && (choices as readonly string[]).includes(raw)) return { ok: true, value: raw as T };
  return { ok: false, message: `"${String(raw)}" is not a valid choice.` };
}

export function parseHttpUrl(raw: unknown): Parsed<string> {
  const s = parseString(raw, { required: true });
  if (!s.ok) return s;
  try {
    const url = new URL(s.value!);
    if (url.protocol === 'http:' || url.protocol === 'https:') return { ok: true, value: s.value! };
  } catch {
    // fall through
  }
  return { ok: false, message: 'Enter a valid URL.' };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Collects per-field messages in DRF's `{field: [message]}` shape. */
export class ErrorCollector {
  readonly errors: FieldErrors = {};

  add(field: string, message: string): void {
    const existing = this.errors[field];
    if (Array.isArray(existing)) existing.push(message);
    else this.errors[field] = [message];
  }

  nest(field: string, nested: FieldErrors): void {
    this.errors[field] = nested;
  }

  /** Stores the value if it parsed, else records the message under `field`. */
  take<T>(field: string, parsed: Parsed<T>): T | undefined {
    if (parsed.ok) return parsed.value;
    this.add(field, parsed.message);
    return undefined;
  }

  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
}

export function dictExpected(raw: unknown): FieldErrors {
  const kind = Array.isArray(raw) ? 'list' : raw === null ? 'null' : typeof raw;
  return { non_field_errors: [`Invalid data. Expected a dictionary, but got ${kind}.`] };
}
