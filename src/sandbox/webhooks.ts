// Webhook delivery: one serialized body per event, signed once, posted with
// undici; non-2xx or network errors are retried on the clock with the same bytes.
// Injected delivery faults (webhook-faults.ts) decide how each event goes out.
import { createHash, createHmac } from 'node:crypto';
import { Agent, request } from 'undici';
import { trackOnClock, type Clock, type Scheduler } from './clock.js';
import type { WebhookEventKind } from './context.js';
import { LOG_CAPACITY } from './request-log.js';
import type { WebhookFaults } from './webhook-faults.js';

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
  /** Accounts with a target of their own (by account id). */
  private readonly accountTargets = new Map<string, SandboxWebhookTarget>();
  private readonly agent = new Agent({
    connect: { timeout: WEBHOOK_TIMEOUT_MS },
    headersTimeout: WEBHOOK_TIMEOUT_MS,
    bodyTimeout: WEBHOOK_TIMEOUT_MS,
  });
  private readonly inFlight = new Set<Promise<void>>();
  private readonly log: WebhookDelivery[] = [];
  /** Deliveries held back by an `out_of_order` fault, oldest first. */
  private readonly held: Prepared[] = [];
  private closed = false;

  constructor(
    private readonly clock: Clock,
    private readonly scheduler: Scheduler,
    private readonly retryBaseMs: number,
    private readonly writeLog: (line: string) => void,
    private readonly faults: WebhookFaults,
  ) {}

  /** The target of every account, or (`accountId`) of one account only. */
  setTarget(target: SandboxWebhookTarget | null, accountId?: string): void {
    if (target) {
      const url = new URL(target.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('webhook url must be http(s)');
      if (!target.secret) throw new TypeError('webhook secret must not be empty');
      if (target.scheme !== 'hmac-sha256-hex' && target.scheme !== 'sha256-base64') {
        throw new TypeError(`unknown webhook scheme ${String(target.scheme)}`);
      }
    }
    if (accountId === undefined) this.target = target ? { ...target } : null;
    else if (target) this.accountTargets.set(accountId, { ...target });
    else this.accountTargets.delete(accountId);
  }

  emit(event: WebhookEventKind, data: unknown, accountId: string): void {
    const target = this.accountTargets.get(accountId) ?? this.target;
    if (this.closed || !target) return;
    const body = Buffer.from(JSON.stringify({ event, data }), 'utf8');
    // Signed with the target of the moment: retries, copies and late sends keep the bytes and the signature.
    const prepared: Prepared = { event, url: target.url, body, signature: signWebhook(body, target.secret, target.scheme) };
    const fault = this.faults.take(event, data);
    switch (fault?.kind) {
      case undefined:
        void this.deliver(prepared);
        return;
      case 'duplicate':
        this.writeLog(`webhook ${event}: injected duplicate`);
        void this.deliver(prepared, async () => {
          if (!this.closed) await this.attempt(prepared, 1);
        });
        return;
      case 'delay': {
        const ms = fault.ms ?? Math.max(0, fault.until - this.clock.now());
        this.writeLog(`webhook ${event}: injected delay of ${ms} ms`);
        this.scheduler.after(ms, () => (this.closed ? undefined : this.deliver(prepared)));
        return;
      }
      case 'out_of_order':
        this.writeLog(`webhook ${event}: held until the next delivery (injected out_of_order)`);
        this.held.push(prepared);
        return;
      case 'drop':
        this.writeLog(`webhook ${event}: dropped (injected)`);
        return;
    }
  }

  /** Sends every held delivery now, oldest first; returns how many. */
  releaseHeld(): number {
    const released = this.held.splice(0);
    if (released.length > 0) this.track(this.sendInOrder(released));
    return released.length;
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
    this.held.length = 0;
    await this.agent.destroy().catch(() => undefined);
    await this.idle();
  }

  /**
   * A first attempt that goes out normally; once it is over, `then` runs (a
   * duplicate's copy), then the deliveries held before it, so they arrive after it.
   */
  private deliver(prepared: Prepared, then?: () => Promise<void>): Promise<void> {
    const released = this.held.splice(0);
    return this.attempt(prepared, 1, async () => {
      await then?.();
      await this.sendInOrder(released);
    });
  }

  private async sendInOrder(deliveries: Prepared[]): Promise<void> {
    for (const prepared of deliveries) {
      if (this.closed) return;
      await this.attempt(prepared, 1);
    }
  }

  private attempt(prepared: Prepared, attempt: number, afterwards?: () => Promise<void>): Promise<void> {
    const work = this.send(prepared, attempt).then(async (ok) => {
      if (!ok && !this.closed && attempt <= WEBHOOK_RETRIES) {
        this.scheduler.after(this.retryBaseMs * 2 ** (attempt - 1), () => this.attempt(prepared, attempt + 1));
      }
      await afterwards?.();
    });
    this.track(work);
    return work;
  }

  /** In flight for idle(), and for a ManualClock's advance(). */
  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
    trackOnClock(this.clock, work);
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
    const outcome = record.ok
      ? `${record.httpStatus}`
      : record.httpStatus !== null
        ? `${record.httpStatus}, will retry`
        : `${record.error}`;
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
