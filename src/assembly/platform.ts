// Platform mode's part of the gateway's start (src/gateway.ts): the merchants' registry and directory, their webhook
// routes, and the per-merchant places of reconciliation watches and payout batches.
import { ConfigError } from '../config.js';
import { type EventBus } from '../events/bus.js';
import { recordEventExtId, recordingExtIds, type ExtIdIndex } from '../ext-id-index/index.js';
import { type MerchantWatches } from '../reconcile/reconciler.js';
import { memoryReconcileStore, redisMerchantReconcileStore, type ReconcileStore } from '../reconcile/store.js';
import { type LiveUpdates } from '../live/index.js';
import type { LoggedPaymentEvent } from '../events/payment-event.js';
import { type MerchantBatchAccess } from '../payout-batches/index.js';
import { type Observability } from '../observability/index.js';
import { merchantExpiringIndex, merchantTag, memoryMerchantSet, redisMerchantSet, type GatewayRedis } from '../redis/index.js';
import type { GatewayServerOptions } from '../http/options.js';
import { createUpstreamClient } from '../upstream/client.js';
import { acceptIntoLog } from '../inbound-webhooks/receiver.js';
import { createMerchantWebhookRouter } from '../inbound-webhooks/merchant-routes.js';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  createKeyRing,
  createMerchantRegistry,
  memoryMerchantStore,
  merchantDirectory,
  MerchantRefusedError,
  merchantStateFile,
  redisMerchantStore,
  sandboxKeyEncryptionKey,
} from '../merchants/index.js';
import type { PlatformServices } from '../schema/context.js';

import { type Startup, type PaymentService } from './startup.js';

/** How often offboarded merchants whose grace is over are purged. */
export const PURGE_INTERVAL_MS = 3_600_000;

/** The key ring of platform mode: MERCHANT_KEYS_KEK, else (sandbox mode) one kept beside the merchants' file, or this process's own. */
export function merchantKeyRing({ config, options }: Startup) {
  const { kek, previousKek } = config.merchants;
  if (kek) return createKeyRing(kek, previousKek);
  if (config.mode === 'live') throw new ConfigError('MERCHANT_MODE=platform in live mode needs MERCHANT_KEYS_KEK');
  return createKeyRing(options.merchantsFile ? sandboxKeyEncryptionKey(path.dirname(options.merchantsFile)).key : randomBytes(32));
}

/**
 * Platform mode's services: the registry (Redis, else sandbox mode's memory kept in a file), the directory of
 * merchants' clients (each with its own key), the purge after the grace and, after a key rotation, the re-wrap.
 * Each change is a `merchant.*` event in the log. Null in single mode.
 */
export function buildPlatform(
  { config, log, options, shutdown }: Startup,
  parts: { redis: GatewayRedis | null; service: PaymentService; bus: EventBus; observability: Observability; extIds: ExtIdIndex },
): PlatformServices | null {
  if (config.merchants.mode !== 'platform') return null;
  const { redis, service, bus, observability } = parts;
  const file = !redis && options.merchantsFile ? merchantStateFile(options.merchantsFile) : null;
  if (file) shutdown.add(async () => file.flush());
  let forget = (_id: string) => {};
  const registry = createMerchantRegistry({
    store: redis ? redisMerchantStore(redis) : memoryMerchantStore(file ?? undefined),
    keys: merchantKeyRing({ config, log, options, shutdown }),
    offboardGraceMs: config.merchants.offboardGraceMs,
    changed: (kind, merchant) => {
      forget(merchant.id);
      const event = { id: `${kind}:${merchant.id}:${merchant.updatedAt}`, kind, receivedAt: new Date().toISOString() };
      void bus
        .publishPaymentEvent({
          ...event,
          reference: merchant.id,
          resourceType: null,
          payload: { event: kind, data: merchant },
          source: 'POLL',
        })
        .catch((error: unknown) => log.warn('merchant event not logged', { merchantId: merchant.id, kind, error }));
    },
  });
  // Each merchant's client feeds that merchant's own ext_id index with the charges it creates or reads.
  const directory = merchantDirectory(registry, (apiKey, merchantId) => {
    const client = createUpstreamClient(
      { ...config.upstream, baseUrl: service.baseUrl, apiKey },
      { observe: observability.observeUpstreamCall },
    );
    const index = parts.extIds.forMerchant?.(merchantId);
    return index ? recordingExtIds(client, index, log) : client;
  });
  forget = directory.forget;
  shutdown.add(() => directory.close());
  const sweep = (what: string, work: () => Promise<unknown>) =>
    void work().then(
      (result) => log.info(`merchants: ${what}`, { result }),
      (error: unknown) => log.warn(`merchants: ${what} failed`, { error }),
    );
  if (config.merchants.previousKek) sweep('re-wrapped under the current key', () => registry.rewrapAll());
  sweep('purged', () => registry.purgeDue());
  const purges = setInterval(() => sweep('purged', () => registry.purgeDue()), PURGE_INTERVAL_MS);
  purges.unref();
  shutdown.add(async () => clearInterval(purges));
  return { registry, merchant: directory.merchant, upstreamFor: directory.upstreamFor, webhookPath: config.webhook.path };
}

/**
 * Platform mode's webhook routes, `<WEBHOOK_PATH>/<route id>`: each verified with its merchant's own secret, its
 * events logged with the merchant's id, and its resource refreshed for the merchant's followers with its own client.
 */
export function buildMerchantWebhookRoutes(
  { config, log }: Startup,
  platform: PlatformServices,
  bus: EventBus,
  parts: { observability: Observability; live: LiveUpdates; extIds: ExtIdIndex },
): GatewayServerOptions['webhook'] {
  const { observability, live, extIds } = parts;
  // The fast path of a follower's update; should it fail, followers fetch it themselves after the event.
  const refresh = (event: LoggedPaymentEvent) => {
    const merchantId = event.merchantId;
    if (!merchantId) return;
    void platform
      .merchant(merchantId)
      .then(async (merchant) => merchant && live.forMerchant(merchantId, await platform.upstreamFor(merchant)).onWebhook(event))
      .catch((error: unknown) => log.warn('could not refresh resource after webhook', { merchantId, error }));
  };
  return {
    path: config.webhook.path,
    prefix: true,
    handle: createMerchantWebhookRouter({
      basePath: config.webhook.path,
      scheme: config.webhook.scheme,
      log,
      observe: observability.observeWebhook,
      // The route's merchant's followers are refreshed, and its ext_id index told of the charge the event carries.
      accept: acceptIntoLog(bus, (event) => {
        refresh(event);
        const index = event.merchantId ? extIds.forMerchant?.(event.merchantId) : undefined;
        if (index) void recordEventExtId(index, event, log);
      }),
      resolve: async (routeId) => {
        const merchant = await platform.registry.byRoute(routeId);
        if (!merchant || merchant.status === 'OFFBOARDED') return null;
        const secrets = await platform.registry.secrets(merchant.id);
        return secrets ? { merchantId: merchant.id, secret: secrets.webhookSecret } : null;
      },
    }),
  };
}

/** Platform mode: each merchant's watches under its hash tag (Redis) or apart in memory, looked at with its own client. */
export function merchantWatches(platform: PlatformServices, redis: GatewayRedis | null, itemTtlMs: number): MerchantWatches {
  const inMemory = new Map<string, ReconcileStore>();
  return {
    store: (merchantId) => {
      if (redis) return redisMerchantReconcileStore(redis, { itemTtlMs }, merchantId);
      const store = inMemory.get(merchantId) ?? memoryReconcileStore();
      inMemory.set(merchantId, store);
      return store;
    },
    active: redis ? redisMerchantSet(redis, 'reconcile') : memoryMerchantSet(),
    async upstreamFor(merchantId) {
      const merchant = await platform.merchant(merchantId);
      if (!merchant || merchant.status === 'OFFBOARDED') {
        inMemory.delete(merchantId);
        return null;
      }
      return platform.upstreamFor(merchant);
    },
  };
}

/**
 * Platform mode: each merchant's batches under its hash tag and in its key index (the purge removes them), run with
 * its own client of the service while it is active.
 */
export function merchantBatchAccess(platform: PlatformServices, redis: GatewayRedis | null): MerchantBatchAccess {
  const view = async (merchantId: string) => {
    const merchant = await platform.merchant(merchantId);
    return merchant && merchant.status !== 'OFFBOARDED' ? merchant : null;
  };
  return {
    layout: redis
      ? (merchantId) => ({
          key: (name) => redis.tagged(merchantTag(merchantId), 'payout-batches', name),
          index: merchantExpiringIndex(redis, merchantId),
          pacing: redis.tagged(merchantTag(merchantId), 'payout-batches', 'pacing'),
        })
      : undefined,
    async status(merchantId) {
      const merchant = await view(merchantId);
      return merchant === null ? 'GONE' : merchant.status === 'SUSPENDED' ? 'SUSPENDED' : 'ACTIVE';
    },
    async upstreamFor(merchantId) {
      const merchant = await view(merchantId);
      if (!merchant) throw new MerchantRefusedError('not_found');
      return platform.upstreamFor(merchant);
    },
  };
}
