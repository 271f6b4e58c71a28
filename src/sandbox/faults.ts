// Injected transport and protocol faults, to test clients against a
// misbehaving payment service over real HTTP.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Scheduler, TimerHandle } from './clock.js';
import { FaultRegistry, type ActiveEntry, type FaultTimes } from './fault-registry.js';
import { html, json, writeResult, type HttpResult } from './http.js';
import { pathMatches } from './request-log.js';
import { isPlainObject } from './validation.js';

export const FAULT_KINDS = ['envelope', 'html', 'truncated', 'delay', 'reset', 'wrong_types'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultMatch {
  /** Any method when omitted. */
  method?: string;
  /** A string matches the path with or without trailing slash; a RegExp is tested against the path. */
  path: string | RegExp;
  /** How many matching requests it hits before it is removed. Default 1. */
  times?: FaultTimes;
}

export type FaultSpec = FaultMatch &
  (
    | /** Answers at once with this status and JSON body; nothing is processed. */
      {
        kind: 'envelope';
        httpStatus: number;
        body?: unknown;
      } /** Answers at once with an HTML page (a proxy's error page); nothing is processed. */
    | {
        kind: 'html';
        httpStatus?: number;
        html?: string;
      } /** Processes the request, then sends its status with the JSON cut in the middle. */
    | { kind: 'truncated' } /** Waits `ms` on the sandbox clock, then proceeds normally; no `ms` (or null) never answers. */
    | {
        kind: 'delay';
        ms?: number | null;
      } /** Destroys the socket without an answer; with afterProcessing the request is carried out first. */
    | { kind: 'reset'; afterProcessing?: boolean } /** Processes the request, then sends the envelope with the `data` fields retyped. */
    | { kind: 'wrong_types' }
  );

export type ActiveFault = ActiveEntry<FaultSpec>;

export interface FaultInjector {
  add(spec: FaultSpec): string;
  remove(id: string): boolean;
  clear(): void;
  list(): ActiveFault[];
}

const DEFAULT_HTML =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

export class Faults implements FaultInjector {
  private readonly registry = new FaultRegistry<FaultSpec>('fault_', validateSpec);

  add(spec: FaultSpec): string {
    return this.registry.add(spec);
  }

  remove(id: string): boolean {
    return this.registry.remove(id);
  }

  clear(): void {
    this.registry.clear();
  }

  list(): ActiveFault[] {
    return this.registry.list();
  }

  /** The first fault matching the request, consuming one of its hits. */
  take(method: string, path: string): FaultSpec | null {
    return this.registry.take(
      (spec) => (spec.method === undefined || spec.method.toUpperCase() === method.toUpperCase()) && pathMatches(spec.path, path),
    );
  }
}

function validateSpec(spec: FaultSpec): void {
  if (!(FAULT_KINDS as readonly string[]).includes(spec.kind)) throw new TypeError(`unknown fault kind ${String(spec.kind)}`);
  if (typeof spec.path !== 'string' && !(spec.path instanceof RegExp)) throw new TypeError('fault path must be a string or RegExp');
  if (spec.kind === 'envelope' && !isHttpStatus(spec.httpStatus)) throw new TypeError('envelope fault needs httpStatus');
  if (spec.kind === 'html' && spec.httpStatus !== undefined && !isHttpStatus(spec.httpStatus)) throw new TypeError('bad httpStatus');
  if (spec.kind === 'delay' && spec.ms !== undefined && spec.ms !== null && !(Number.isFinite(spec.ms) && spec.ms >= 0)) {
    throw new TypeError('delay fault ms must be >= 0');
  }
}

function isHttpStatus(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= 100 && (value as number) <= 599;
}

/** Reads the snake_case JSON body of POST /_sandbox/faults. Throws TypeError with a readable message. */
export function faultSpecFromJson(raw: unknown): FaultSpec {
  if (!isPlainObject(raw)) throw new TypeError('expected a JSON object');
  const { kind, method, path, path_pattern, times } = raw;
  let matchPath: string | RegExp;
  if (typeof path_pattern === 'string') {
    try {
      matchPath = new RegExp(path_pattern);
    } catch {
      throw new TypeError('path_pattern is not a valid regular expression');
    }
  } else if (typeof path === 'string') matchPath = path;
  else throw new TypeError('path (exact) or path_pattern (regular expression) is required');
  const match: FaultMatch = { path: matchPath };
  if (typeof method === 'string') match.method = method;
  if (times !== undefined) match.times = times as number | 'unlimited';
  switch (kind) {
    case 'envelope':
      return { ...match, kind, httpStatus: raw.http_status as number, body: raw.body };
    case 'html':
      return {
        ...match,
        kind,
        ...(raw.http_status !== undefined ? { httpStatus: raw.http_status as number } : {}),
        ...(typeof raw.html === 'string' ? { html: raw.html } : {}),
      };
    case 'delay':
      return { ...match, kind, ms: (raw.ms ?? null) as number | null };
    case 'reset':
      return { ...match, kind, afterProcessing: raw.after_processing === true };
    case 'truncated':
    case 'wrong_types':
      return { ...match, kind };
    default:
      throw new TypeError(`kind must be one of ${FAULT_KINDS.join(', ')}`);
  }
}

/**
 * Delays run on the sandbox clock, so a test with a ManualClock decides when a
 * delayed answer goes out; delays and never-answered requests are kept so
 * close() can end them.
 */
export class FaultRuntime {
  private readonly timers = new Set<TimerHandle>();
  private readonly held = new Set<ServerResponse>();

  constructor(private readonly scheduler: Scheduler) {}

  async apply(spec: FaultSpec, req: IncomingMessage, res: ServerResponse, proceed: () => Promise<HttpResult>): Promise<void> {
    switch (spec.kind) {
      case 'envelope':
        return writeResult(res, json(spec.httpStatus, spec.body ?? { status: false, message: 'Injected fault' }));
      case 'html':
        return writeResult(res, html(spec.httpStatus ?? 502, spec.html ?? DEFAULT_HTML));
      case 'truncated': {
        const result = await proceed();
        const cut = result.body.slice(0, Math.max(1, Math.floor(result.body.length / 2)));
        return writeResult(res, { ...result, body: cut });
      }
      case 'delay':
        if (spec.ms === undefined || spec.ms === null) {
          this.held.add(res);
          res.on('close', () => this.held.delete(res));
          return;
        }
        await this.sleep(spec.ms);
        if (res.destroyed) return;
        return writeResult(res, await proceed());
      case 'reset':
        if (spec.afterProcessing) await proceed();
        req.socket.destroy();
        return;
      case 'wrong_types': {
        const result = await proceed();
        return writeResult(res, retype(result));
      }
    }
  }

  close(): void {
    for (const t of this.timers) t.cancel();
    this.timers.clear();
    for (const res of this.held) res.destroy();
    this.held.clear();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = this.scheduler.after(ms, () => {
        this.timers.delete(t);
        resolve();
      });
      this.timers.add(t);
    });
  }
}

/** The same envelope with every leaf of `data` given a wrong JSON type. */
function retype(result: HttpResult): HttpResult {
  let payload: unknown;
  try {
    payload = JSON.parse(result.body);
  } catch {
    return result;
  }
  if (!isPlainObject(payload) || !('data' in payload)) return result;
  return json(result.status, { ...payload, data: wrongType(payload.data) }, withoutLength(result.headers));
}

function wrongType(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(wrongType);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wrongType(v)]));
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return value.length;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return false; // null
}

function withoutLength(headers: Record<string, string>): Record<string, string> {
  const { 'content-length': _drop, ...rest } = headers;
  return rest;
}
