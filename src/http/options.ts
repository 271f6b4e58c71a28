// What the assembly (src/gateway.ts) hands the HTTP server: the services behind the schema, the
// webhook receiver, the probes, and the limits of this deployment.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayServices } from '../schema/context.js';
import type { LimitsConfig } from '../config.js';
import type { HealthProbe } from '../health/health.js';
import type { ReadinessProbe } from '../health/readiness.js';
import type { TrustedDocuments } from '../execution/trusted-documents.js';
import type { Observability } from '../observability/index.js';
import type { ClientAddressing } from './client-address.js';
import type { ConsoleSettings } from '../console/serve.js';

/**
 * What the HTTP server is built from: the services, the limits, the schema's context, observability and the
 * probes.
 */
export interface GatewayServerOptions {
  services: GatewayServices;
  /** `prefix`: also every path below `path` (platform mode's `<path>/<route id>`, one per merchant). */
  webhook: { path: string; prefix?: boolean; handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> } | null;
  health: HealthProbe;
  readiness: ReadinessProbe;
  /** TRUSTED_DOCUMENTS=allow|enforce: the manifest (src/execution/trusted-documents.ts); null or absent: off. */
  trustedDocuments?: TrustedDocuments | null;
  /** A token GraphiQL puts in its Authorization header (sandbox mode's development token). */
  graphiqlToken?: string | null;
  /** Most subscriptions one WebSocket connection may hold at once. */
  maxSubscriptionsPerConnection?: number;
  /** Largest WebSocket frame accepted, in bytes. */
  maxFrameBytes?: number;
  /** Bounded cost per request, browser safety, live-mode hardening (src/limits/, docs/limits.md). */
  limits: LimitsConfig;
  /** Benchmarks only: no armor, upstream budget, rate limits, body or connection caps (browser safety stays). */
  limitsOff?: boolean;
  /** How long close() waits for operations in flight (a payment call's own deadline plus a margin). */
  drainTimeoutMs?: number;
  /** Client address and scheme through TRUST_PROXY (src/http/client-address.ts); default: the socket's peer. */
  clientAddressing?: ClientAddressing;
  /** The back office at /console (src/console/): its build's folder and what the page is told; absent: off. */
  console?: { dir: string; settings: ConsoleSettings } | null;
  /** GET /metrics, the per-operation plugin (log line, metrics, span) and connection counts (src/observability/). */
  observability?: Pick<Observability, 'metricsEndpoint' | 'plugins' | 'observeConnection'>;
}
