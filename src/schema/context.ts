// What every resolver receives. Built fresh per HTTP request and per
// WebSocket operation, so DataLoader caches never outlive one operation.
import { randomUUID } from 'node:crypto';
import type { Principal, TokenVerifier } from '../auth/index.js';
import type { Logger } from '../logger.js';
import type { UpstreamClient } from '../upstream/types.js';
import type { IdempotencyStore } from '../idempotency/store.js';
import type { LiveUpdates } from '../live/index.js';
import { createLoaders, type ResourceLoaders } from './loaders.js';

export interface GatewayServices {
  upstream: UpstreamClient;
  idempotency: IdempotencyStore;
  live: LiveUpdates;
  log: Logger;
  /** Verifies bearer tokens and mints client tokens. */
  tokens: TokenVerifier;
  /** Page size asked of the charge list (the upstream may use its own). */
  pageSize: number;
}

/** Who sent the operation, as the transport established it. */
export interface Caller {
  /** Null: no token (only introspection may run). */
  principal: Principal | null;
  /** The peer address of the connection (for audit lines and limits). */
  clientIp: string | null;
  requestId: string;
}

export interface GatewayContext extends GatewayServices, Caller {
  loaders: ResourceLoaders;
}

export function createContext(services: GatewayServices, caller: Partial<Caller> = {}): GatewayContext {
  return {
    ...services,
    principal: caller.principal ?? null,
    clientIp: caller.clientIp ?? null,
    requestId: caller.requestId ?? randomUUID(),
    loaders: createLoaders(services.upstream),
  };
}
