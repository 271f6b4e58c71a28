// Public API of the embedded sandbox of the payment service (test mode).
// See README.md in this folder for the behaviour and the documented choices.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { topUpWallet } from './balance.js';
import { Scheduler, realClock, type Clock } from './clock.js';
import { DEFAULT_DELAYS, type SandboxContext, type SandboxDelays } from './context.js';
import { WALLETS, type Wallet } from './contract.js';
import { FaultRuntime, Faults, type FaultInjector } from './faults.js';
import { Requests, type RequestLog } from './request-log.js';
import { createSandboxServer } from './server.js';
import { persistAccounts } from './persistence.js';
import { AccountStore, isTestKey, type Bucket } from './store.js';
import { WebhookFaults, type WebhookFaultInjector } from './webhook-faults.js';
import { WebhookDispatcher, type SandboxWebhookTarget, type WebhookDelivery } from './webhooks.js';

export { manualClock, realClock, MANUAL_CLOCK_DEFAULT_START, type Clock, type ManualClock, type TimerHandle } from './clock.js';
export { DEFAULT_DELAYS, WEBHOOK_EVENT_KINDS, type SandboxDelays, type WebhookEventKind } from './context.js';
export { FAULT_KINDS, type ActiveFault, type FaultInjector, type FaultKind, type FaultSpec } from './faults.js';
export type { RecordedRequest, RequestFilter, RequestLog } from './request-log.js';
export { TEST_OTP, TEST_PHONES, TEST_WALLET_FUNDING, type TestPhones } from './test-data.js';
export { CHARGE_FEE_BPS, SETTLEMENT_FEE_BPS, TRANSFER_FEE_BPS, feeAmount } from './fees.js';
export { NO_PAYOUT_KEY_PREFIX, TEST_KEY_PREFIX } from './store.js';
export { DEVELOPMENT_FILE, STATE_FILE, developmentIdentity, savedDevelopmentIdentity, type DevelopmentIdentity } from './persistence.js';
export { WEBHOOK_RETRIES, signWebhook, type SandboxWebhookTarget, type WebhookDelivery } from './webhooks.js';
export {
  WEBHOOK_FAULT_KINDS,
  type ActiveWebhookFault,
  type WebhookFaultInjector,
  type WebhookFaultKind,
  type WebhookFaultSpec,
} from './webhook-faults.js';

export interface SandboxOptions {
  /** 0 = any free port. Default 0. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default realClock(). */
  clock?: Clock;
  /** Overrides of DEFAULT_DELAYS. */
  delays?: Partial<SandboxDelays>;
  /** Where to deliver webhooks; none when null/omitted (can be set later with setWebhook). */
  webhook?: SandboxWebhookTarget | null;
  /** One line per request, webhook attempt and internal error. Never receives API keys or secrets. */
  log?: (line: string) => void;
  /** Keep the accounts in this file across restarts (loaded at start, saved after changes and at close). */
  dataFile?: string;
}

export interface BalancePatch {
  collection?: Partial<Bucket>;
  wallets?: Partial<Record<Wallet, Partial<Bucket>>>;
}

export interface WebhookLog {
  /** Every delivery attempt so far, in the order they completed. */
  all(): WebhookDelivery[];
  clear(): void;
  /** Resolves when no delivery is on the wire (with a real clock; a ManualClock's advance() already waits). */
  idle(): Promise<void>;
}

export interface Sandbox {
  /** Base URL without trailing slash, e.g. http://127.0.0.1:40123 */
  url: string;
  clock: Clock;
  /** The delays in force (defaults merged with the options). */
  delays: Readonly<SandboxDelays>;
  /** Every HTTP request received. */
  requests: RequestLog;
  faults: FaultInjector;
  webhooks: WebhookLog;
  /** How later webhook events are delivered: twice, late, out of order, or never. */
  webhookFaults: WebhookFaultInjector;
  /** Changes the delivery target at run time (later events only; retries keep their target). */
  setWebhook(target: SandboxWebhookTarget | null): void;
  /**
   * Gives the key's account (created if new) a delivery target of its own, as each merchant of the service sets its
   * own webhook URL: its events go there rather than to `setWebhook`'s (null: back to that one).
   */
  setAccountWebhook(apiKey: string, target: SandboxWebhookTarget | null): void;
  /**
   * Test convenience: changes delays at run time (timers started later use them; those already started keep theirs).
   * Throws, changing nothing, for an unknown name or a value that is not a finite number >= 0.
   */
  setDelays(patch: Partial<SandboxDelays>): void;
  /**
   * Test convenience: sets balances of the key's account (created if new).
   * Integers >= 0; fields left out keep their value. Throws for a key the API would refuse.
   */
  setBalance(apiKey: string, patch: BalancePatch): void;
  /**
   * Test mode's top-up (the same as `POST /_sandbox/wallets/:wallet/top-up`): credits `amount` XOF to the
   * wallet's available Transfer Balance of the key's account (created if new).
   */
  topUp(apiKey: string, wallet: Wallet, amount: number): void;
  /** Stops the server, every timer and pending webhook retry; leaves no handle open. Idempotent. */
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const clock = options.clock ?? realClock();
  const delays = resolveDelays(options.delays);
  const log = options.log ?? (() => {});
  const scheduler = new Scheduler(clock, (error) =>
    log(`internal error in a scheduled task: ${error instanceof Error ? error.stack : String(error)}`),
  );
  const webhookFaults = new WebhookFaults();
  const webhooks = new WebhookDispatcher(clock, scheduler, delays.webhookRetryBaseMs, log, webhookFaults);
  webhooks.setTarget(options.webhook ?? null);
  const accounts = new AccountStore();
  const persisted = options.dataFile ? persistAccounts(accounts, options.dataFile) : null;
  const faults = new Faults();
  const faultRuntime = new FaultRuntime(scheduler);
  const requests = new Requests();
  let baseUrl = '';

  const ctx: SandboxContext = {
    clock,
    scheduler,
    delays,
    accounts,
    emit: (kind, data, account) => webhooks.emit(kind, data, account.id),
    baseUrl: () => baseUrl,
    log,
  };
  const webhookFaultControl: WebhookFaultInjector = {
    add: (spec) => webhookFaults.add(spec),
    remove: (id) => webhookFaults.remove(id),
    clear: () => webhookFaults.clear(),
    list: () => webhookFaults.list(),
    release: () => webhooks.releaseHeld(),
  };
  const server = createSandboxServer({ ctx, faults, faultRuntime, requests, webhookFaults: webhookFaultControl });
  // Every change comes through a request that is not a GET (or a timer it started, saved at close).
  if (persisted) server.on('request', (req, res) => void (req.method !== 'GET' && res.once('finish', () => persisted.changed())));
  const host = options.host ?? '127.0.0.1';
  await listenOn(server, options.port ?? 0, host);
  baseUrl = `http://${urlHost(host)}:${(server.address() as AddressInfo).port}`;
  log(`sandbox listening on ${baseUrl}`);

  let closing: Promise<void> | null = null;
  return {
    url: baseUrl,
    clock,
    delays,
    requests,
    faults,
    webhooks: {
      all: () => webhooks.deliveries(),
      clear: () => webhooks.clearDeliveries(),
      idle: () => webhooks.idle(),
    },
    webhookFaults: webhookFaultControl,
    setWebhook: (target) => webhooks.setTarget(target),
    setAccountWebhook(apiKey, target) {
      if (!isTestKey(apiKey)) throw new TypeError('setAccountWebhook needs a test key (sk_test_...)');
      webhooks.setTarget(target, accounts.authenticate(apiKey)!.id);
    },
    setDelays: (patch) => void Object.assign(delays, resolveDelays({ ...delays, ...patch })),
    setBalance: (apiKey, patch) => setBalance(accounts, apiKey, patch),
    topUp(apiKey, wallet, amount) {
      if (!isTestKey(apiKey)) throw new TypeError('topUp needs a test key (sk_test_...)');
      topUpWallet(accounts.authenticate(apiKey)!, wallet, { amount });
    },
    close() {
      closing ??= (async () => {
        scheduler.close();
        faultRuntime.close();
        persisted?.flush();
        await webhooks.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        log('sandbox stopped');
      })();
      return closing;
    },
  };
}

function listenOn(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Test mode's balance setter: the key's collection balance and wallets, as given. */
function setBalance(accounts: AccountStore, apiKey: string, patch: BalancePatch): void {
  if (!isTestKey(apiKey)) throw new TypeError('setBalance needs a test key (sk_test_...)');
  const account = accounts.authenticate(apiKey)!;
  applyBucket(account.collection, patch.collection, 'collection');
  for (const [wallet, bucket] of Object.entries(patch.wallets ?? {})) {
    if (!(WALLETS as readonly string[]).includes(wallet)) throw new TypeError(`unknown wallet ${wallet}`);
    applyBucket(account.wallets[wallet as Wallet], bucket, wallet);
  }
}

function resolveDelays(overrides: Partial<SandboxDelays> = {}): SandboxDelays {
  const delays = { ...DEFAULT_DELAYS };
  for (const [name, value] of Object.entries(overrides)) {
    if (!(name in DEFAULT_DELAYS)) throw new TypeError(`unknown delay ${name}`);
    if (value === undefined) continue;
    if (!Number.isFinite(value) || value < 0) throw new TypeError(`delay ${name} must be a finite number >= 0`);
    delays[name as keyof SandboxDelays] = value;
  }
  return delays;
}

function applyBucket(target: Bucket, patch: Partial<Bucket> | undefined, name: string): void {
  for (const key of ['available', 'pending'] as const) {
    const value = patch?.[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${name}.${key} must be an integer >= 0`);
    target[key] = value;
  }
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
