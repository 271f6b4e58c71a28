// DateTime is always written in UTC with a "Z" (whatever offset the service
// used); Date is a calendar day. JSON carries payloads we pass through as-is.
import { Kind } from 'graphql';
import { scalarValueError } from '../errors/top-level.js';
import { JSONResolver } from 'graphql-scalars';
import { builder } from './builder.js';

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function parseDateTime(value: unknown): Date {
  if (typeof value !== 'string' || !ISO_WITH_OFFSET.test(value) || Number.isNaN(Date.parse(value))) {
    throw scalarValueError({
      en: 'DateTime must be an ISO 8601 timestamp with a time zone, e.g. 2026-01-31T09:30:00Z',
      fr: 'Un horodatage ISO 8601 avec fuseau horaire est attendu, par exemple 2026-01-31T09:30:00Z.',
    });
  }
  return new Date(value);
}

function isCalendarDay(value: string): boolean {
  const m = CALENDAR_DAY.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function parseDay(value: unknown): string {
  if (typeof value !== 'string' || !isCalendarDay(value)) {
    throw scalarValueError({
      en: 'Date must be a calendar day written YYYY-MM-DD, e.g. 2026-01-31',
      fr: 'Une date s’écrit AAAA-MM-JJ, par exemple 2026-01-31.',
    });
  }
  return value;
}

builder.scalarType('DateTime', {
  description: 'A point in time, ISO 8601, always in UTC with a "Z" suffix (e.g. 2026-01-31T09:30:00.000Z).',
  serialize: (value) => new Date(value).toISOString(),
  parseValue: parseDateTime,
  parseLiteral: (ast) => parseDateTime(ast.kind === Kind.STRING ? ast.value : undefined),
});

builder.scalarType('Date', {
  description: 'A calendar day, YYYY-MM-DD.',
  serialize: (value) => value,
  parseValue: parseDay,
  parseLiteral: (ast) => parseDay(ast.kind === Kind.STRING ? ast.value : undefined),
});

builder.addScalarType('JSON', JSONResolver, {});
