// A tiny structured logger: one JSON object per line on stderr.
//
// Redaction is by field NAME, recursively: whatever a caller passes under a
// name that looks like a credential is replaced before it is serialized, so a
// careless `log.info('x', { headers })` cannot leak an API key or a secret.

import type { LogLevel } from './config.js';

export type { LogLevel };
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

export interface LoggerOptions {
  /** Where each line goes (without trailing newline). Default: process.stderr. Tests pass a collector. */
  write?: (line: string) => void;
  now?: () => Date;
}

const RANK = { debug: 10, info: 20, warn: 30, error: 40, silent: Infinity } as const;

/** Field names whose values are never printed (x-api-key, webhookSecret, authorization, password, ...). */
const SENSITIVE_NAME = /key|secret|authori[sz]ation|password|passwd|token|cookie|hash|signature/i;
export const REDACTED = '[redacted]';

export function createLogger(level: LogLevel, options: LoggerOptions = {}): Logger {
  const write = options.write ?? ((line: string) => void process.stderr.write(line + '\n'));
  const now = options.now ?? (() => new Date());
  const threshold = RANK[level];

  const emit = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: LogFields): void => {
    if (RANK[lvl] < threshold) return;
    const entry = { time: now().toISOString(), level: lvl, msg, ...(fields ? (redact(fields) as LogFields) : {}) };
    let line: string;
    try {
      line = JSON.stringify(entry);
    } catch {
      // BigInt or similar: keep the message, drop the fields rather than throw from a log call.
      line = JSON.stringify({ time: entry.time, level: lvl, msg, fieldsError: 'unserializable' });
    }
    write(line);
  };

  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
  };
}

/** A logger that drops everything. */
export const silentLogger: Logger = createLogger('silent');

/** Copies `value`, replacing sensitive-named fields, turning Errors into plain objects and cutting cycles. */
export function redact(value: unknown, seen: WeakSet<object> = new WeakSet()): unknown {
  if (value instanceof Error) {
    return { name: value.name, message: value.message, ...(value.stack ? { stack: value.stack } : {}) };
  }
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => redact(v, seen));
  if (Buffer.isBuffer(value)) return `[${value.length} bytes]`;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SENSITIVE_NAME.test(k) ? REDACTED : redact(v, seen);
  }
  return out;
}
