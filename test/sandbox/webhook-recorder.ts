// A real webhook endpoint for the delivery-fault tests: a node:http server that
// records every POST as it arrives (exact bytes, signature header, parsed body)
// and lets a test wait for the n-th arrival without polling.
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  body: Buffer;
  signature: string | undefined;
  event: string;
  reference: string | undefined;
  data: Record<string, unknown>;
}

export interface Recorder {
  url: string;
  arrivals: Arrival[];
  /** "event reference" of each arrival, in arrival order. */
  order(): string[];
  /** Resolves once `count` deliveries have arrived in total. */
  arrived(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startRecorder(): Promise<Recorder> {
  const arrivals: Arrival[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const json = JSON.parse(body.toString('utf8')) as { event: string; data: Record<string, unknown> };
      const header = req.headers['x-webhook-hash'];
      arrivals.push({
        body,
        signature: Array.isArray(header) ? header[0] : header,
        event: json.event,
        reference: typeof json.data.reference === 'string' ? json.data.reference : undefined,
        data: json.data,
      });
      for (const w of waiters.filter((w) => arrivals.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      res.statusCode = 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    order: () => arrivals.map((a) => `${a.event} ${a.reference}`),
    arrived: (count) => (arrivals.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }))),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The hex HMAC-SHA256 the sandbox must have sent for these exact bytes. */
export function hmacHex(body: Buffer, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}
