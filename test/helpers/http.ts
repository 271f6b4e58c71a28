// Small HTTP fixtures shared by the suites: a browser's form post, and a port
// nobody listens on.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

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
