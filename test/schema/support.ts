// Plumbing shared by the schema tests (test/schema/*.test.ts): narrowing of
// union results, idempotency keys, and a transparent HTTP proxy that measures
// how many requests the gateway has in flight to the payment service.
import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Narrows a union result to one member, failing with what came back instead. */
export function as<T extends { __typename?: string }, N extends NonNullable<T['__typename']>>(
  value: T | null | undefined,
  typename: N,
): Extract<T, { __typename?: N }> {
  if (!value || value.__typename !== typename) {
    throw new Error(`expected ${typename}, got ${JSON.stringify(value)}`);
  }
  return value as Extract<T, { __typename?: N }>;
}

export function uniqueKey(label: string): string {
  return `${label}-${randomBytes(8).toString('hex')}`;
}

export interface CountingProxy {
  url: string;
  /** Most requests matching the pattern that were in flight at the same moment. */
  maxInFlight(): number;
  reset(): void;
  close(): Promise<void>;
}

/**
 * A transparent HTTP proxy in front of the payment service. It forwards every
 * request unchanged and, for those whose path matches `pattern`, counts how
 * many were open at once (from the moment the request reaches the proxy until
 * the answer has been sent back): the gateway's view of its own concurrency.
 */
export async function countingProxy(target: string, pattern: RegExp): Promise<CountingProxy> {
  const upstream = new URL(target);
  let inFlight = 0;
  let max = 0;
  const server: Server = createServer((req, res) => {
    const counted = pattern.test((req.url ?? '/').split('?')[0]!);
    if (counted) max = Math.max(max, ++inFlight);
    let done = false;
    const finish = () => {
      if (counted && !done) inFlight--;
      done = true;
    };
    res.on('close', finish);
    const out = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    maxInFlight: () => max,
    reset: () => {
      max = inFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
