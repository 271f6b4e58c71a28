// Small HTTP fixtures shared by the suites: the one way a suite POSTs to a real socket (`post`; the
// GraphQL, webhook and credential helpers build on it), a browser's form post, and a port nobody listens on.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

/** What a POST got back: its status, headers and body text as received. */
export interface Posted {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
}

/** The content types a GraphQL client accepts (GraphQL over HTTP). */
export const GRAPHQL_ACCEPT = 'application/graphql-response+json, application/json';

/**
 * POSTs `body` (text as is, anything else as JSON) to `url` with `content-type: application/json` unless the
 * headers name another; `headers` as an object, or as raw name/value pairs to send a header twice.
 */
export async function post(url: string, body: unknown, headers: Record<string, string> | string[] = {}): Promise<Posted> {
  const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const res = await request(url, {
    method: 'POST',
    headers: Array.isArray(headers) ? ['content-type', 'application/json', ...headers] : { 'content-type': 'application/json', ...headers },
    body: text,
  });
  return { status: res.statusCode, headers: res.headers, raw: await res.body.text() };
}

/** Posts a form (application/x-www-form-urlencoded) as a browser would, without following the redirect. */
export async function postForm(url: string, fields: Record<string, string>): Promise<{ status: number; location: string | null }> {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  await res.body.dump();
  const location = res.headers['location'];
  return { status: res.statusCode, location: (Array.isArray(location) ? location[0] : location) ?? null };
}

/** A local port with nothing listening on it (bound once, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
