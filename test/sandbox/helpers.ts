// Shared test plumbing: a small undici client that speaks the sandbox's REST,
// unique API keys (one isolated account each), and a local webhook receiver.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';

export function newKey(label = 'key'): string {
  return `sk_test_${label}_${randomBytes(6).toString('hex')}`;
}

export interface ApiResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  // The envelope, loosely typed: tests assert on its exact shape.
  body: any;
}

export interface CallOptions {
  /** API key; null sends none. Defaults to the client's key. */
  key?: string | null;
  /** Sent as is instead of JSON.stringify(body). */
  raw?: string;
  headers?: Record<string, string>;
}

export class Api {
  readonly agent = new Agent({ keepAliveTimeout: 1_000 });

  constructor(
    readonly baseUrl: string,
    readonly key: string = newKey(),
  ) {}

  async call(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<ApiResponse> {
    const key = options.key === undefined ? this.key : options.key;
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (key !== null) headers['x-api-key'] = key;
    let payload: string | undefined = options.raw;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const res = await request(`${this.baseUrl}${path}`, {
      method: method as 'GET',
      headers,
      body: payload,
      dispatcher: this.agent,
    });
    const text = await res.body.text();
    let parsed: unknown = undefined;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON (HTML page, truncated body): tests look at `text`
    }
    return { status: res.statusCode, headers: res.headers as IncomingHttpHeaders, text, body: parsed };
  }

  get(path: string, options?: CallOptions) {
    return this.call('GET', path, undefined, options);
  }

  post(path: string, body?: unknown, options?: CallOptions) {
    return this.call('POST', path, body, options);
  }

  /** A client of the same sandbox with another key (another account). */
  withKey(key: string): Api {
    return new Api(this.baseUrl, key);
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  // ------------------------------------------------------------- shortcuts

  async createCharge(provider: string, phone: string, amount: number | string = 1000, extra: Record<string, unknown> = {}) {
    const { confirmation_method, ...rest } = extra;
    return this.post('/v1/payment/charges/', {
      amount,
      payment_method_details: { phone, provider, ...(confirmation_method ? { confirmation_method } : {}) },
      ...rest,
    });
  }

  async submitOtp(chargeReference: string, otp: string) {
    return this.post('/v1/payment/charges/submit', { otp, charge_reference: chargeReference });
  }

  async balance() {
    return (await this.get('/v1/payment/balances')).body.data;
  }
}

export interface ReceivedWebhook {
  body: Buffer;
  headers: IncomingHttpHeaders;
  json: { event: string; data: any };
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
