// Plumbing of the sandbox suites: the sandbox's REST client and test keys
// (shared with every suite, in test/helpers), and a local webhook receiver.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Json } from '../helpers/sandbox-api.js';

export { Api, newKey, type ApiResponse, type CallOptions } from '../helpers/sandbox-api.js';

export interface ReceivedWebhook {
  body: Buffer;
  headers: IncomingHttpHeaders;
  json: { event: string; data: Json };
}

/** A real local HTTP endpoint; `respond` picks each answer's status (default 200). */
export async function startReceiver(respond: (n: number) => number = () => 200) {
  const received: ReceivedWebhook[] = [];
  let n = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ body, headers: req.headers, json: JSON.parse(body.toString('utf8')) });
      res.statusCode = respond(n++);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/payment`;
  return {
    url,
    received,
    events: () => received.map((r) => r.json.event),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export const Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?\+00:00$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
