// Observability of one gateway: its metrics registry, the per-operation plugin
// (log line, metrics, span), optional tracing, and the callbacks the lower layers
// (upstream client, webhook receiver, idempotency store) are handed. Those layers
// never import this folder; src/gateway.ts wires the callbacks in.
import type { Plugin } from 'graphql-yoga';
import type { ObservabilityConfig } from '../config.js';
import type { Logger } from '../logger.js';
import type { UpstreamCallObservation } from '../upstream/observation.js';
import { createMetrics, type BuildInfo, type GatewayMetrics, type Transport } from './metrics.js';
import { createMetricsEndpoint, type MetricsEndpoint } from './metrics-endpoint.js';
import { currentOperation, isUntraced } from './operation-scope.js';
import { useOperationObservability } from './operations.js';
import type { Tracing } from './tracing.js';

export type { GatewayMetrics } from './metrics.js';
export { runUntraced } from './operation-scope.js';

/** One gateway's metrics registry, per-operation plugin, tracing and the callbacks lower layers report through. */
export interface Observability {
  metrics: GatewayMetrics;
  tracing: Tracing | null;
  /** GET /metrics, or null when it is off (live mode without METRICS_TOKEN). */
  metricsEndpoint: MetricsEndpoint | null;
  /** Envelop plugins, to be placed after the error-masking plugin (they record what the client got). */
  plugins: Plugin[];
  /** For the upstream client's `observe` option. */
  observeUpstreamCall(call: UpstreamCallObservation): void;
  /** For the upstream client's `traceHeaders` option: the current operation's trace context, when tracing is on. */
  upstreamTraceHeaders(): Record<string, string>;
  /** For the webhook receiver's `observe` option. */
  observeWebhook(event: string): void;
  /** For observedIdempotencyStore. */
  observeIdempotency(event: string): void;
  /** For the rate limiters: a request refused, by kind of limit (e.g. `general`, `money`). */
  observeRateLimitRefusal(kind: string): void;
  /** A connection opened; it is counted until `socket` emits close. */
  observeConnection(transport: Transport, socket: { once(event: 'close', listener: () => void): unknown }): void;
  close(): Promise<void>;
}

/** Builds it from the configuration; tracing starts only with an OTLP endpoint. */
export async function createObservability(
  config: ObservabilityConfig,
  mode: 'sandbox' | 'live',
  log: Logger,
  build?: BuildInfo,
): Promise<Observability> {
  const metrics = createMetrics(build);
  // Loaded only when configured: the OpenTelemetry SDK and exporter would add to every start.
  const tracing = config.otlpEndpoint
    ? (await import('./tracing.js')).createTracing({ endpoint: config.otlpEndpoint, serviceName: config.serviceName })
    : null;
  return {
    metrics,
    tracing,
    metricsEndpoint: createMetricsEndpoint({ registry: metrics.registry, token: config.metricsToken, mode }),
    plugins: [useOperationObservability({ metrics, tracing, log }) as Plugin],
    observeUpstreamCall(call) {
      const labels = { endpoint: call.endpoint, outcome: call.outcome };
      metrics.upstreamCalls.inc(labels);
      metrics.upstreamSeconds.observe(labels, call.durationMs / 1000);
      const operation = currentOperation();
      if (operation) operation.upstreamCalls += 1;
      if (!isUntraced()) tracing?.recordUpstreamCall(call, operation?.span ?? null, operation?.requestId ?? null);
    },
    upstreamTraceHeaders() {
      const span = tracing && currentOperation()?.span;
      return span ? tracing.outgoingHeaders(span) : {};
    },
    observeWebhook: (event) => metrics.webhooks.inc({ event }),
    observeIdempotency: (event) => metrics.idempotency.inc({ event }),
    observeRateLimitRefusal: (kind) => metrics.rateLimitRefusals.inc({ kind }),
    observeConnection(transport, socket) {
      metrics.openConnections.inc({ transport });
      socket.once('close', () => metrics.openConnections.dec({ transport }));
    },
    close: async () => {
      await tracing?.close();
    },
  };
}
