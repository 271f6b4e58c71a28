// What every resolver receives. Built fresh per HTTP request and per
// WebSocket operation, so DataLoader caches never outlive one operation.
import { randomUUID } from 'node:crypto';
import type { Principal, TokenVerifier } from '../auth/index.js';
import type { Logger } from '../logger.js';
import type { ResourceKind, UpstreamClient } from '../upstream/types.js';
import type { IdempotencyStore } from '../idempotency/store.js';
import type { ExtIdIndex } from '../ext-id-index/index.js';
import type { LiveUpdates } from '../live/index.js';
import type { PayoutBatches } from '../payout-batches/index.js';
import type { OutboundWebhooks } from '../outbound-webhooks/index.js';
import { operationLimits, type LimitsServices, type OperationLimits } from '../limits/index.js';
import { createLoaders, type ResourceLoaders } from './loaders.js';
import type { MerchantRegistry, MerchantStatus, MerchantView } from '../merchants/index.js';

/** Platform mode's services (MERCHANT_MODE=platform); absent in single mode. */
export interface PlatformServices {
  registry: MerchantRegistry;
  /** The merchant as it is now (cached for at most a second on this replica); null: unknown. */
  merchant(id: string): Promise<MerchantView | null>;
  /** The client that calls the service with this merchant's own API key. */
  upstreamFor(merchant: MerchantView): Promise<UpstreamClient>;
  /** The path merchants' webhook URLs start with (`<path>/<route id>`). */
  webhookPath: string;
}

/** The merchant a request acts for (platform mode), as its token or an operator's naming of it made it. */
export interface RequestMerchant {
  id: string;
  status: MerchantStatus;
  /** True: a platform operator's token, naming the merchant; false: the merchant's own staff or client token. */
  byOperator: boolean;
  /** The service's client with this merchant's key. */
  upstream: UpstreamClient;
}

/** What resolvers reach: the service's client, stores, buses and services of the gateway. */
export interface GatewayServices {
  upstream: UpstreamClient;
  idempotency: IdempotencyStore;
  /** The ext_id index of the charges the gateway created or saw (src/ext-id-index/); absent: `charges(filter: { extId })` answers SERVICE_UNAVAILABLE. */
  extIds?: ExtIdIndex;
  /** How long an unknown outcome that cannot be found yet is answered `in_progress` (IDEMPOTENCY_SETTLE_MS); default 60 s. */
  idempotencySettleMs?: number;
  live: LiveUpdates;
  log: Logger;
  /** Verifies bearer tokens and mints client tokens. */
  tokens: TokenVerifier;
  /** Page size asked of the charge list (the upstream may use its own). */
  pageSize: number;
  /** Told of each resource a mutation created, with the request's merchant in platform mode (the gateway watches it until final: live reconciliation). */
  resourceCreated?: (kind: ResourceKind, reference: string, merchantId?: string) => void;
  /** Payout batches (src/payout-batches/); absent: the batch fields answer SERVICE_UNAVAILABLE. */
  payoutBatches?: PayoutBatches;
  /** Webhooks to the merchant's servers (src/outbound-webhooks/); absent: their fields answer WebhooksUnavailableError. */
  outboundWebhooks?: OutboundWebhooks;
  /** Upstream budget per operation and rate limits (src/limits/); absent: none. */
  limitServices?: LimitsServices;
  /** Platform mode (MERCHANT_MODE=platform); absent or null: single mode. */
  platform?: PlatformServices | null;
}

/** Who sent the operation, as the transport established it. */
export interface Caller {
  /** Null: no token (only introspection may run). */
  principal: Principal | null;
  /** The peer address of the connection (for audit lines and limits). */
  clientIp: string | null;
  requestId: string;
  /** Platform mode: the merchant the request acts for; null: none (single mode, or an operator naming none). */
  merchant?: RequestMerchant | null;
}

/** One operation's context: the services, the caller, its loaders and its upstream budget. */
export interface GatewayContext extends GatewayServices, Caller {
  loaders: ResourceLoaders;
  /** What this operation may still spend (upstream calls, rate limits). */
  limits: OperationLimits;
}

const UNLIMITED: LimitsServices = { maxUpstreamCallsPerOperation: Number.POSITIVE_INFINITY, rateLimits: null };

/** A fresh context for one operation. */
export function createContext(services: GatewayServices, caller: Partial<Caller> = {}): GatewayContext {
  const principal = caller.principal ?? null;
  const clientIp = caller.clientIp ?? null;
  const merchant = caller.merchant ?? null;
  // Resolvers and loaders reach the service only through this operation's counted client: in platform mode, the
  // client with the merchant's own key (a request with no merchant reaches no merchant's field: access.ts).
  const base = merchant?.upstream ?? services.upstream;
  const { limits, upstream } = operationLimits(services.limitServices ?? UNLIMITED, base, { principal, clientIp });
  return {
    ...services,
    // Platform mode: the merchant's idempotency keys, under its hash tag (a memory store keeps them with the others).
    idempotency: merchant ? (services.idempotency.forMerchant?.(merchant.id) ?? services.idempotency) : services.idempotency,
    // Platform mode: the merchant's own ext_id index (none: its search answers SERVICE_UNAVAILABLE, never another's).
    extIds: merchant ? services.extIds?.forMerchant?.(merchant.id) : services.extIds,
    // Platform mode: the merchant's own subscription sources, calling the service with its own client.
    live: merchant ? services.live.forMerchant(merchant.id, merchant.upstream) : services.live,
    upstream,
    principal,
    clientIp,
    merchant,
    requestId: caller.requestId ?? randomUUID(),
    loaders: createLoaders(upstream),
    limits,
  };
}
