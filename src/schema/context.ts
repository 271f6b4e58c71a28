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
  /** Told of each resource a mutation created (the gateway watches it until final: live reconciliation). */
  resourceCreated?: (kind: ResourceKind, reference: string) => void;
  /** Payout batches (src/payout-batches/); absent: the batch fields answer SERVICE_UNAVAILABLE. */
  payoutBatches?: PayoutBatches;
  /** Webhooks to the merchant's servers (src/outbound-webhooks/); absent: their fields answer WebhooksUnavailableError. */
  outboundWebhooks?: OutboundWebhooks;
  /** Upstream budget per operation and rate limits (src/limits/); absent: none. */
  limitServices?: LimitsServices;
}

/** Who sent the operation, as the transport established it. */
export interface Caller {
  /** Null: no token (only introspection may run). */
  principal: Principal | null;
  /** The peer address of the connection (for audit lines and limits). */
  clientIp: string | null;
  requestId: string;
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
  // Resolvers and loaders reach the service only through this operation's counted client.
  const { limits, upstream } = operationLimits(services.limitServices ?? UNLIMITED, services.upstream, { principal, clientIp });
  return {
    ...services,
    upstream,
    principal,
    clientIp,
    requestId: caller.requestId ?? randomUUID(),
    loaders: createLoaders(upstream),
    limits,
  };
}
