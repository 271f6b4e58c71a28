import { createHash } from 'node:crypto';

export interface RecordedRequest {
  method: string;
  /** Without the query string. */
  path: string;
  query: URLSearchParams;
  /** Sandbox clock time of arrival. */
  at: number;
  /** The account the request names (accountTag of its x-api-key; never the key itself); absent without one. */
  account?: string;
}

/** A short digest of an API key: which account a recorded request was for, without keeping the key. */
export function accountTag(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 12);
}

export interface RequestFilter {
  method?: string;
  /** A string matches the path with or without a trailing slash; a RegExp is tested as is. */
  path?: string | RegExp;
}

export interface RequestLog {
  all(): RecordedRequest[];
  count(filter?: RequestFilter): number;
  clear(): void;
}

export function pathMatches(pattern: string | RegExp, path: string): boolean {
  if (typeof pattern === 'string') return trimSlash(pattern) === trimSlash(path);
  pattern.lastIndex = 0;
  return pattern.test(path);
}

export function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** A sandbox behind a long-running `npm start` must not grow without bound: oldest entries go first. */
export const LOG_CAPACITY = 10_000;

export class Requests implements RequestLog {
  private readonly entries: RecordedRequest[] = [];

  record(entry: RecordedRequest): void {
    this.entries.push(entry);
    if (this.entries.length > LOG_CAPACITY) this.entries.shift();
  }

  all(): RecordedRequest[] {
    return this.entries.map((e) => ({ ...e, query: new URLSearchParams(e.query) }));
  }

  count(filter: RequestFilter = {}): number {
    return this.entries.filter(
      (e) =>
        (filter.method === undefined || e.method.toUpperCase() === filter.method.toUpperCase()) &&
        (filter.path === undefined || pathMatches(filter.path, e.path)),
    ).length;
  }

  clear(): void {
    this.entries.length = 0;
  }
}
