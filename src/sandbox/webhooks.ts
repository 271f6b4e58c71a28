// Webhook delivery: one serialized body per event, signed once, posted with
// undici; non-2xx or network errors are retried on the clock with the same bytes.
import { createHash, createHmac } from 'node:crypto';
import { Agent, request } from 'undici';
import { trackOnClock, type Clock, type Scheduler } from './clock.js';
import type { WebhookEventKind } from './context.js';
import { LOG_CAPACITY } from './request-log.js';

export interface SandboxWebhookTarget {
  url: string;
  secret: string;
  scheme: 'hmac-sha256-hex' | 'sha256-base64';
}

export interface WebhookDelivery {
  event: WebhookEventKind;
  /** Origin and path of the target (never its query, which may hold a token). */
  target: string;
  /** 1 for the first try, up to 1 + WEBHOOK_RETRIES. */
  attempt: number;
  at: number;
  ok: boolean;
  httpStatus: number | null;
  error: string | null;
}

export const WEBHOOK_RETRIES = 3;
/** Per attempt, in real time: a receiver that hangs must not hold a delivery forever. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** The `X-Webhook-Hash` value for `body` (the exact bytes sent). */
export function signWebhook(body: Buffer, secret: string, scheme: SandboxWebhookTarget['scheme']): string {
  if (scheme === 'hmac-sha256-hex') return createHmac('sha256', secret).update(body).digest('hex');
  return createHash('sha256').update(body).update(secret, 'utf8').digest('base64');
}

interface Prepared {
  event: WebhookEventKind;
  url: string;
  body: Buffer;
  signature: string;
}

export class WebhookDispatcher {
  private target: SandboxWebhookTarget | null = null;
  private readonly agent = new Agent({
    connect: { timeout: WEBHOOK_TIMEOUT_MS },
    headersTimeout: WEBHOOK_TIMEOUT_MS,
    bodyTimeout: WEBHOOK_TIMEOUT_MS,
  });
  private readonly inFlight = new Set<Promise<void>>();
  private readonly log: WebhookDelivery[] = [];
  private closed = false;

  constructor(
    private readonly clock: Clock,
    private readonly scheduler: Scheduler,
    private readonly retryBaseMs: number,
    private readonly writeLog: (line: string) => void,
  ) {}

  setTarget(target: SandboxWebhookTarget | null): void {
    if (target) {
      const url = new URL(target.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('webhook url must be http(s)');
      if (!target.secret) throw new TypeError('webhook secret must not be empty');
      if (target.scheme !== 'hmac-sha256-hex' && target.scheme !== 'sha256-base64') {
        throw new TypeError(`unknown webhook scheme ${String(target.scheme)}`);
      }
    }
    this.target = target ? { ...target } : null;
  }

  emit(event: WebhookEventKind, data: unknown): void {
    if (this.closed || !this.target) return;
    const body = Buffer.from(JSON.stringify({ event, data }), 'utf8');
    // Signed with the target of the moment: retries keep the bytes and the signature.
    this.attempt({ event, url: this.target.url, body, signature: signWebhook(body, this.target.secret, this.target.scheme) }, 1);
  }

  deliveries(): WebhookDelivery[] {
    return [...this.log];
  }

  clearDeliveries(): void {
    this.log.length = 0;
  }

  /** Resolves when no delivery is on the wire (scheduled retries are not waited for). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.agent.destroy().catch(() => undefined);
    await this.idle();
  }

  private attempt(prepared: Prepared, attempt: number): Promise<void> {
    const work = this.send(prepared, attempt).then((ok) => {
      if (ok || this.closed || attempt > WEBHOOK_RETRIES) return;
      this.scheduler.after(this.retryBaseMs * 2 ** (attempt - 1), () => this.attempt(prepared, attempt + 1));
    });
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
    trackOnClock(this.clock, work);
    return work;
  }

  private async send(prepared: Prepared, attempt: number): Promise<boolean> {
    const record: WebhookDelivery = {
      event: prepared.event,
      target: safeTarget(prepared.url),
      attempt,
      at: this.clock.now(),
      ok: false,
      httpStatus: null,
      error: null,
    };
    try {
      const res = await request(prepared.url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'momo-sandbox-webhooks/1',
          'x-webhook-hash': prepared.signature,
        },
        body: prepared.body,
      });
      await res.body.dump();
      record.httpStatus = res.statusCode;
      record.ok = res.statusCode >= 200 && res.statusCode < 300;
    } catch (error) {
      record.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    this.log.push(record);
    if (this.log.length > LOG_CAPACITY) this.log.shift();
    const outcome = record.ok ? `${record.httpStatus}` : record.httpStatus !== null ? `${record.httpStatus}, will retry` : `${record.error}`;
    const last = !record.ok && attempt > WEBHOOK_RETRIES ? ' (giving up)' : '';
    this.writeLog(`webhook ${prepared.event} -> ${record.target} attempt ${attempt}: ${outcome}${last}`);
    return record.ok;
  }
}

function safeTarget(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid url)';
  }
}
