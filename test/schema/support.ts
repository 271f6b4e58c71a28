// Plumbing shared by the schema tests (test/schema/*.test.ts): narrowing of
// union results, a tiny REST client for the sandbox (to set up data the way a
// real customer or operator would, without going through the gateway), a port
// nobody listens on, and a transparent HTTP proxy that measures how many
// requests the gateway has in flight to the payment service.
import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

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

export interface RestAnswer {
  status: number;
  // The service's envelope, loosely typed: tests assert on it.
  body: any;
}

/** The payment service's REST, called directly (test set-up, and independent expectations). */
export function sandboxRest(baseUrl: string, apiKey: string) {
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<RestAnswer> => {
    const res = await request(`${baseUrl}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        'x-api-key': apiKey,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: JSON.parse(text) };
  };
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body: unknown) => call('POST', path, body),
    async createCharge(provider: string, phone: string, amount: number, extra: Record<string, unknown> = {}): Promise<string> {
      const res = await call('POST', '/v1/payment/charges/', { amount, payment_method_details: { provider, phone, ...extra } });
      if (res.status !== 201) throw new Error(`charge not created: ${JSON.stringify(res.body)}`);
      return res.body.data.reference as string;
    },
    async submitOtp(reference: string, otp: string): Promise<RestAnswer> {
      return call('POST', '/v1/payment/charges/submit', { otp, charge_reference: reference });
    },
    /** Every charge of the list, walking the service's own pages (page_size 100). */
    async allCharges(query = ''): Promise<any[]> {
      const out: any[] = [];
      for (let page = 1; ; page++) {
        const res = await call('GET', `/v1/payment/charges?${query}${query ? '&' : ''}page=${page}&page_size=100`);
        if (res.status !== 200) throw new Error(`list failed: ${JSON.stringify(res.body)}`);
        out.push(...res.body.data);
        if (!res.body.pagination.has_next) return out;
      }
    },
  };
}

/** Posts the customer's payment-page form (application/x-www-form-urlencoded), as a browser would. */
export async function postForm(url: string, fields: Record<string, string>): Promise<{ status: number; location: string | undefined }> {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  await res.body.dump();
  const location = res.headers.location;
  return { status: res.statusCode, location: Array.isArray(location) ? location[0] : location };
}

/** A local port with nothing listening on it (bound once, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
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
