// What every step of the gateway's start shares (src/gateway.ts runs the steps): the options it is started with, the
// shutdown sequence each step registers its closing in, the payment service, and the Redis parts the stores share.
import { ConfigError, type Config } from '../config.js';
import { type Clock } from '../reconcile/clock.js';
import { type ReplicaPresence } from '../redis/replica-presence.js';
import { type GatewayRedis, type RedisEpoch, type RedisWriteHealth } from '../redis/index.js';
import type { Logger } from '../logger.js';
import type { Resolver } from '../outbound-webhooks/dispatcher.js';
import { type MerchantRegistry, type MerchantView } from '../merchants/index.js';

export interface StartGatewayOptions {
  /** Namespace for Redis keys and channels (tests isolate runs with it). */
  redisNamespace?: string;
  /** The payment service to use when the configuration names none (sandbox mode). */
  upstream?: { baseUrl: string; apiKey: string };
  /** Webhook secret to use when the configuration has none (sandbox mode generates one). */
  webhookSecret?: string;
  /** Benchmarks only: run without the limits of src/limits/ to measure what they cost. */
  withoutLimits?: boolean;
  /** The time of the reconciler and the subscription pollers (tests hand in a manual clock); default: the real one. */
  clock?: Clock;
  /**
   * The time by which the idempotency store judges a claim's expiry and the settle window (tests move it instead of
   * waiting them out); default: the real one. Kept apart from `clock`, whose manual tests do not expect claims to age.
   */
  idempotencyClock?: Pick<Clock, 'now'>;
  /** Sandbox mode without Redis: keep the in-memory event log in this file across restarts. */
  eventLogFile?: string;
  /**
   * Tests only: false starts no listener (the tests call `server.yoga.fetch` in process); `url` is then
   * IN_PROCESS_URL, which nothing answers. Default true.
   */
  listen?: boolean;
  /** Sandbox mode without Redis: keep webhook endpoints and their pending deliveries in this file across restarts. */
  outboundWebhooksFile?: string;
  /** Sandbox mode without Redis: keep the ext_id index of the charges seen in this file across restarts. */
  extIdIndexFile?: string;
  /** Tests: the time of webhook retries (a manual clock), name resolution of the SSRF check, the pass interval. */
  outboundWebhooks?: { now?: () => number; resolve?: Resolver; pollMs?: number };
  /** Where the console's build is (default dist/console/, what `npm run build` makes). */
  consoleDir?: string;
  /**
   * Platform mode in sandbox mode without Redis: keep the merchants in this file across restarts (and, without
   * MERCHANT_KEYS_KEK, a generated key-encryption key beside it). Unset: in memory, under a key of this process.
   */
  merchantsFile?: string;
  /**
   * Platform mode in sandbox mode: finds or makes the demo merchants (src/main.ts knows the sandbox's accounts), before
   * the console's personas are minted, so that the staff personas work for the first of them.
   */
  demoMerchants?: (registry: MerchantRegistry) => Promise<MerchantView[]>;
}

/** Steps registered as the gateway starts, run in reverse on close: the last one opened is the first one closed. */
export interface ShutdownSequence {
  add(step: () => Promise<unknown>): void;
  /** The grace close() was given: read by the server's step when it runs. */
  readonly graceMs: number;
  close(options?: { graceMs?: number }): Promise<void>;
}

export function shutdownSequence(log: Logger): ShutdownSequence {
  const cleanup: Array<() => Promise<unknown>> = [];
  // Idempotent: a second close() (signal during shutdown, test teardown) waits for the first.
  let closing: Promise<void> | null = null;
  let graceMs = 0;
  return {
    add: (step) => void cleanup.push(step),
    get graceMs() {
      return graceMs;
    },
    close: (options = {}) =>
      (closing ??= (async () => {
        graceMs = options.graceMs ?? 0;
        for (const step of [...cleanup].reverse()) await step().catch((err: unknown) => log.warn('shutdown step failed', { error: err }));
      })()),
  };
}

/** What every step of the start reads, and where it registers what must be closed. */
export interface Startup {
  config: Config;
  log: Logger;
  options: StartGatewayOptions;
  shutdown: ShutdownSequence;
}

/** The payment service to call: the configured one, else the one handed in (sandbox mode). */
export interface PaymentService {
  baseUrl: string;
  apiKey: string;
}

export function paymentService(config: Config, options: StartGatewayOptions): PaymentService {
  const baseUrl = config.upstream.baseUrl ?? options.upstream?.baseUrl;
  const apiKey = config.upstream.apiKey ?? options.upstream?.apiKey;
  if (!baseUrl || !apiKey) throw new ConfigError('no payment service: set PAYMENT_BASE_URL and PAYMENT_API_KEY');
  return { baseUrl, apiKey };
}

/** A connected Redis with the two views the stores built on it share. */
export interface RedisParts {
  redis: GatewayRedis;
  /** One view of the Redis generation for the stores built on it. */
  epoch: RedisEpoch;
  /** The watch of its writes and evictions (readiness and the idempotency store read it). */
  writes: RedisWriteHealth;
  /** This replica, alive to the others: the holder its money claims name. */
  presence: ReplicaPresence;
}
