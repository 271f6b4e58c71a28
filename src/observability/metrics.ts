// The gateway's Prometheus metrics, in a registry of its own per gateway (not
// prom-client's global one), so several gateways in one process (tests, replicas
// side by side) neither collide nor mix their counts.
//
// Every label is bounded: root field names of the schema, route templates of the
// payment service, error codes and fault kinds; never a reference, phone,
// subject or operation name chosen by a client.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Seconds: from a cached read (milliseconds) to a payment call at its deadline (15 s by default). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30];

/** How a client reached the GraphQL API: plain HTTP (with SSE), or a WebSocket. */
export type Transport = 'http' | 'ws';

/** The gateway's Prometheus metrics in one registry: operations, calls to the service, subscriptions, webhooks, and the process's own. */
export interface GatewayMetrics {
  registry: Registry;
  /** GraphQL operations, one sample per root field: type (query/mutation/subscription), field, outcome. */
  operations: Counter<'type' | 'field' | 'outcome'>;
  operationSeconds: Histogram<'type' | 'field' | 'outcome'>;
  /** Calls to the payment service by route template and outcome (success, error code or transport fault). */
  upstreamCalls: Counter<'endpoint' | 'outcome'>;
  upstreamSeconds: Histogram<'endpoint' | 'outcome'>;
  /** Webhook deliveries: received, verified, duplicate, rejected. */
  webhooks: Counter<'event'>;
  /** Open connections: TCP connections of the HTTP server (`http`, WebSockets included) and WebSockets (`ws`). */
  openConnections: Gauge<'transport'>;
  /** Subscriptions running now (WebSocket and SSE). */
  activeSubscriptions: Gauge;
  /** Idempotency keys: replay, conflict, in_progress, outcome_unknown. */
  idempotency: Counter<'event'>;
  /** Requests refused by a rate limit, by kind of limit. */
  rateLimitRefusals: Counter<'kind'>;
  /**
   * Platform mode: operations by merchant and outcome. The merchant label has at most MERCHANT_LABELS_MAX values
   * per process (the first merchants seen; the rest are `other`), so a platform of thousands of merchants cannot
   * grow the metrics without bound.
   */
  merchantOperations: Counter<'merchant' | 'outcome'>;
  /** Connects what the scrape-time gauges read (readiness, event-log lag), once the gateway has them. */
  watch(sources: WatchedSources): void;
}

/** Most distinct values of the `merchant` label of gateway_merchant_operations_total, per process. */
export const MERCHANT_LABELS_MAX = 100;

/** What the gauges read at each scrape. */
export interface WatchedSources {
  /** What GET /health/ready answers (false while draining). */
  ready(): boolean;
  /** Entries and seconds between the event log's head and this replica's tail. */
  eventLogLag(): Promise<{ entries: number; seconds: number }>;
}

/** The version that runs, shown by the `gateway_build_info` metric. */
export interface BuildInfo {
  version: string;
  nodeVersion: string;
}

/**
 * Creates the gateway's metrics in a new registry, with the process's default metrics under the `gateway_` prefix. Never touches the
 * global registry, so two gateways in one process do not collide.
 */
export function createMetrics(build: BuildInfo = { version: 'unknown', nodeVersion: process.version }): GatewayMetrics {
  const registry = new Registry();
  const registers = [registry];
  let sources: WatchedSources | null = null;
  registerScrapeGauges(registers, build, () => sources);
  // Process metrics (CPU, memory, event loop lag, handles) with the same prefix.
  collectDefaultMetrics({ register: registry, prefix: 'gateway_' });

  const metrics: GatewayMetrics = {
    registry,
    ...createRequestMetrics(registers),
    watch: (watched) => void (sources = watched),
  };
  // Both transports appear from the start, at 0, rather than on their first connection.
  metrics.openConnections.set({ transport: 'http' }, 0);
  metrics.openConnections.set({ transport: 'ws' }, 0);
  return metrics;
}

/** The gauges set once (build info) or read at each scrape from the sources connected by `watch` (readiness, log lag). */
function registerScrapeGauges(registers: Registry[], build: BuildInfo, sources: () => WatchedSources | null): void {
  new Gauge({
    name: 'gateway_build_info',
    help: 'The running build: always 1, labelled with the gateway version and the Node.js version.',
    labelNames: ['version', 'node_version'],
    registers,
  }).set({ version: build.version, node_version: build.nodeVersion }, 1);
  new Gauge({
    name: 'gateway_ready',
    help: 'What /health/ready answers: 1 ready, 0 not ready (a dependency down, starting, or draining after SIGTERM).',
    registers,
    collect() {
      this.set(sources()?.ready() ? 1 : 0);
    },
  });
  // One read of the log per scrape, shared by both gauges.
  let lagRead: Promise<{ entries: number; seconds: number } | null> | null = null;
  const readLag = () =>
    (lagRead ??= (sources()?.eventLogLag() ?? Promise.resolve(null)).catch(() => null).finally(() => setImmediate(() => (lagRead = null))));
  new Gauge({
    name: 'gateway_event_log_lag_entries',
    help: "Events in the log that this replica has not read yet (its tail behind the log's head; counted up to 10000).",
    registers,
    async collect() {
      const lag = await readLag();
      if (lag) this.set(lag.entries);
    },
  });
  new Gauge({
    name: 'gateway_event_log_lag_seconds',
    help: 'Seconds between the newest event in the log and the last one this replica has read.',
    registers,
    async collect() {
      const lag = await readLag();
      if (lag) this.set(lag.seconds);
    },
  });
}

/** The counters, histograms and gauges the gateway updates as requests, calls and deliveries happen. */
function createRequestMetrics(registers: Registry[]): Omit<GatewayMetrics, 'registry' | 'watch'> {
  return {
    operations: new Counter({
      name: 'gateway_graphql_operations_total',
      help: 'GraphQL operations by type, root field and outcome (success, a typed error code, or an error code).',
      labelNames: ['type', 'field', 'outcome'],
      registers,
    }),
    operationSeconds: new Histogram({
      name: 'gateway_graphql_operation_duration_seconds',
      help: 'Duration of GraphQL operations (a subscription: its whole life) by type, root field and outcome.',
      labelNames: ['type', 'field', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    upstreamCalls: new Counter({
      name: 'gateway_upstream_requests_total',
      help: 'Calls to the payment service by route template and outcome (success, error code, or transport fault).',
      labelNames: ['endpoint', 'outcome'],
      registers,
    }),
    upstreamSeconds: new Histogram({
      name: 'gateway_upstream_request_duration_seconds',
      help: 'Duration of calls to the payment service (retries of a GET included) by route template and outcome.',
      labelNames: ['endpoint', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    webhooks: new Counter({
      name: 'gateway_webhooks_total',
      help: 'Webhook deliveries: received, verified (signature good), duplicate (already seen), rejected (answered 4xx).',
      labelNames: ['event'],
      registers,
    }),
    openConnections: new Gauge({
      name: 'gateway_open_connections',
      help: 'Open connections: http (TCP connections to the server, WebSockets included) and ws (WebSockets).',
      labelNames: ['transport'],
      registers,
    }),
    activeSubscriptions: new Gauge({
      name: 'gateway_active_subscriptions',
      help: 'GraphQL subscriptions running now (WebSocket and SSE).',
      registers,
    }),
    idempotency: new Counter({
      name: 'gateway_idempotency_events_total',
      help: 'Idempotency keys: replay (first success returned again), conflict (other input), in_progress, outcome_unknown.',
      labelNames: ['event'],
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: 'gateway_rate_limit_refusals_total',
      help: 'Requests refused by a rate limit, by kind of limit.',
      labelNames: ['kind'],
      registers,
    }),
    merchantOperations: new Counter({
      name: 'gateway_merchant_operations_total',
      help: `Platform mode: GraphQL operations by merchant (at most ${MERCHANT_LABELS_MAX} merchants by name, the rest "other") and outcome.`,
      labelNames: ['merchant', 'outcome'],
      registers,
    }),
  };
}
