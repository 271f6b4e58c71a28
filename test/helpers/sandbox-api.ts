// The payment service's REST, called directly with undici: how the suites set
// up data the way a real customer or operator would (without the gateway), and
// how they read what the service itself says (independent expectations).
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, request } from 'undici';
import { TEST_OTP } from '../../src/sandbox/index.js';

/** A fresh test key: the sandbox keeps one isolated, pre-funded account per key. */
export function newKey(label = 'key'): string {
  return `sk_test_${label}_${randomBytes(8).toString('hex')}`;
}

/**
 * Raw JSON of the payment service's REST API. Tests read it field by field and assert each value, so
 * a static shape would only restate what the assertions check.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type Json = any;

export interface ApiResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  // The envelope, loosely typed: tests assert on its exact shape.
  body: Json;
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

  /** Creates a charge that must be accepted; its reference. */
  async newCharge(provider: string, phone: string, amount: number, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await this.createCharge(provider, phone, amount, extra);
    if (res.status !== 201) throw new Error(`charge not created: ${res.text}`);
    return res.body.data.reference as string;
  }

  /** An opa_bf charge of 1,000 XOF paid with the test OTP (the service emits exactly one event: charge.success); its reference. */
  async paidCharge(): Promise<string> {
    const reference = await this.newCharge('opa_bf', '76000000', 1000);
    const paid = await this.submitOtp(reference, TEST_OTP);
    if (paid.status !== 200) throw new Error(`OTP not accepted: ${paid.text}`);
    return reference;
  }

  async submitOtp(chargeReference: string, otp: string) {
    return this.post('/v1/payment/charges/submit', { otp, charge_reference: chargeReference });
  }

  async balance() {
    return (await this.get('/v1/payment/balances')).body.data;
  }

  /** Every charge of the list, in the service's order, walking its own pages (page_size 100). */
  async allCharges(query = ''): Promise<Json[]> {
    const out: Json[] = [];
    for (let page = 1; ; page++) {
      const res = await this.get(`/v1/payment/charges?${query}${query ? '&' : ''}page=${page}&page_size=100`);
      if (res.status !== 200) throw new Error(`list failed: ${res.text}`);
      out.push(...res.body.data);
      if (!res.body.pagination.has_next) return out;
    }
  }
}
