// Structured logging on pino: one JSON object per line on stderr.
//
// Redaction is by field NAME, recursively, at any depth: pino's own `redact`
// only knows fixed paths, so every merge object (in pino's `formatters.log`)
// and every child binding is walked by `redact` below before it is serialized. A careless `log.info('x', { headers })` therefore cannot
// leak an API key or a secret. Secret-key-shaped strings (`sk_test_…`,
// `sk_live_…`) are also masked in values and messages, whatever their field.
// Errors become `{ name, message, code? }`: never a stack trace.

import pino from 'pino';
import type { LogLevel } from './config.js';

export type { LogLevel };
type LogFields = Record<string, unknown>;

/** The gateway's logger: JSON lines on stderr, credential-named fields redacted at any depth. */
export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` (redacted like any others) to each of its lines. */
  child(fields: LogFields): Logger;
}

interface LoggerOptions {
  /** Where each line goes (without trailing newline). Default: process.stderr. Tests pass a collector. */
  write?: (line: string) => void;
  now?: () => Date;
}

/** Field names whose values are never printed (x-api-key, webhookSecret, authorization, password, ...). */
const SENSITIVE_NAME = /key|secret|authori[sz]ation|password|passwd|token|cookie|hash|signature/i;
/** The service's secret keys, wherever they turn up (an error message, a URL, a sandbox line). */
const SECRET_KEY_VALUE = /sk_(?:test|live)_[A-Za-z0-9_-]*/g;
export const REDACTED = '[redacted]';
/** Deeper than any legitimate log field; a limit keeps a pathological object from overflowing the stack. */
const MAX_DEPTH = 32;

/** A logger at `level` (JSON lines, redacting secrets), writing to stderr or the given destination. */
export function createLogger(level: LogLevel, options: LoggerOptions = {}): Logger {
  const now = options.now ?? (() => new Date());
  const write = options.write;
  const destination: pino.DestinationStream =
    level === 'silent'
      ? { write: () => {} }
      : write
        ? { write: (chunk: string) => write(chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk) }
        : // Asynchronous: lines written while a write is in flight go out together, instead of a
          // blocking write per line on the request path. pino flushes what is pending synchronously
          // when the process exits, so the last lines before process.exit() are not lost.
          pino.destination({ dest: 2, sync: false });

  const root = pino(
    {
      level,
      base: null,
      // pino's default `err` serializer would print the stack; `redact` already made errors plain.
      serializers: { err: (value: unknown) => value },
      timestamp: () => `,"time":"${now().toISOString()}"`,
      formatters: {
        level: (label) => ({ level: label }),
        log: (object) => safeFields(object),
      },
    },
    destination,
  );
  return wrap(root);
}

function wrap(p: pino.Logger): Logger {
  const scrub = (msg: string) => msg.replace(SECRET_KEY_VALUE, REDACTED);
  return {
    debug: (msg, fields) => p.debug(fields ?? {}, scrub(msg)),
    info: (msg, fields) => p.info(fields ?? {}, scrub(msg)),
    warn: (msg, fields) => p.warn(fields ?? {}, scrub(msg)),
    error: (msg, fields) => p.error(fields ?? {}, scrub(msg)),
    // pino runs `formatters.bindings` for the root only, so a child's fields are made safe here.
    child: (fields) => wrap(p.child(safeFields(fields))),
  };
}

/** pino writes these itself: a field of the same name would make a line with duplicate keys. */
const RESERVED = new Set(['level', 'time', 'msg']);

function safeFields(fields: LogFields): LogFields {
  const out = redact(fields) as LogFields;
  for (const key of Object.keys(out)) {
    if (!RESERVED.has(key)) continue;
    out[`${key}_`] = out[key];
    delete out[key];
  }
  return out;
}

/** A logger that drops everything. */
export const silentLogger: Logger = createLogger('silent');

/** Copies `value`, replacing sensitive-named fields, turning Errors into plain objects and cutting cycles. */
export function redact(value: unknown, seen: WeakSet<object> = new WeakSet(), depth = 0): unknown {
  if (typeof value === 'string') return value.replace(SECRET_KEY_VALUE, REDACTED);
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[too deep]';
  // `seen` holds the ancestors only: an object met twice side by side is not a cycle.
  seen.add(value);
  try {
    return copy(value, seen, depth);
  } finally {
    seen.delete(value);
  }
}

function copy(value: object, seen: WeakSet<object>, depth: number): unknown {
  if (value instanceof Error) return errorFields(value, seen, depth);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Array.isArray(value)) return value.map((v) => redact(v, seen, depth + 1));
  if (Buffer.isBuffer(value)) return `[${value.length} bytes]`;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SENSITIVE_NAME.test(k) ? REDACTED : redact(v, seen, depth + 1);
  }
  return out;
}

function errorFields(err: Error, seen: WeakSet<object>, depth: number): Record<string, unknown> {
  const code = (err as { code?: unknown }).code;
  return {
    name: err.name,
    message: redact(err.message),
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(err.cause !== undefined ? { cause: redact(err.cause, seen, depth + 1) } : {}),
  };
}
