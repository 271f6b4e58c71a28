// What every resource module needs from the running sandbox.
import type { Clock, Scheduler } from './clock.js';
import type { Account, AccountStore } from './store.js';

export interface SandboxDelays {
  /** pay_offline charges complete by themselves after this. Default 5 s. */
  payOfflineMs: number;
  /** Queued transfers reach success/failed after this. Default 3 s. */
  transferMs: number;
  /** Settlement processing -> in_transit. Default 10 s. */
  settlementInTransitMs: number;
  /** Settlement in_transit -> success. Default 20 s. */
  settlementSuccessMs: number;
  /** An OTP is accepted this long after the charge was created. Default 5 min. */
  otpLifetimeMs: number;
  /** First webhook retry after this; then doubling (3 retries). Default 1 s. */
  webhookRetryBaseMs: number;
}

export const DEFAULT_DELAYS: Readonly<SandboxDelays> = {
  payOfflineMs: 5_000,
  transferMs: 3_000,
  settlementInTransitMs: 10_000,
  settlementSuccessMs: 20_000,
  otpLifetimeMs: 5 * 60_000,
  webhookRetryBaseMs: 1_000,
};

export const WEBHOOK_EVENT_KINDS = [
  'checkout.pending',
  'checkout.success',
  'checkout.failed',
  'charge.success',
  'charge.failed',
  'transfer.success',
  'transfer.failed',
  'settlement.processing',
  'settlement.in_transit',
  'settlement.success',
  'settlement.cancelled',
] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

export interface SandboxContext {
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly delays: SandboxDelays;
  readonly accounts: AccountStore;
  /** Sends a webhook of the account's (to its own target, else the sandbox's, if one is set) without waiting for it. */
  emit(kind: WebhookEventKind, data: unknown, account: Account): void;
  /** Base URL of the running server, for links such as authorization_url. */
  baseUrl(): string;
  log(line: string): void;
}
