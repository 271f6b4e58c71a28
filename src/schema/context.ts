// What every resolver receives. Built fresh per HTTP request and per
// WebSocket operation, so DataLoader caches never outlive one operation.
import { randomUUID } from 'node:crypto';
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
  /** Page size asked of the charge list (the upstream may use its own). */
  pageSize: number;
}

export interface GatewayContext extends GatewayServices {
  loaders: ResourceLoaders;
  requestId: string;
}

export function createContext(services: GatewayServices, requestId: string = randomUUID()): GatewayContext {
  return { ...services, requestId, loaders: createLoaders(services.upstream) };
}
