// One JSON line per entry on stderr. Fields whose names look secret are
// redacted, so a careless `log.info('x', { apiKey })` cannot leak a key.
import type { LogLevel } from './config.js';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const ORDER: Record<Exclude<LogLevel, 'silent'>, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const SECRET_FIELD = /key|secret|token|password|authorization|signature|hash/i;

export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stderr.write(line + '\n')): Logger {
  const threshold = level === 'silent' ? Infinity : ORDER[level];
  const emit = (lvl: keyof typeof ORDER) => (message: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < threshold) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: lvl, message, ...redact(fields) }));
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

function redact(fields: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!fields) return {};
  return Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [k, SECRET_FIELD.test(k) ? '[redacted]' : v instanceof Error ? describeError(v) : v]),
  );
}

function describeError(err: Error): Record<string, unknown> {
  return { name: err.name, message: err.message, code: (err as { code?: unknown }).code, stack: err.stack };
}
