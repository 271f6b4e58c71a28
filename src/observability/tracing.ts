// Optional OpenTelemetry tracing (OTEL_EXPORTER_OTLP_ENDPOINT): one span per
// GraphQL operation and one per call to the payment service, its child, each
// with the request id, exported over OTLP/HTTP (JSON) in batches.
//
// The provider is the gateway's own, never registered as the global one, and
// parents are passed explicitly (from the operation scope) rather than through
// a global context manager: two gateways in one process trace separately.
import {
  SpanKind,
  SpanStatusCode,
  ROOT_CONTEXT,
  defaultTextMapGetter,
  defaultTextMapSetter,
  trace,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { UpstreamCallObservation } from '../upstream/observation.js';
import { REQUEST_ID_ATTRIBUTE } from './operation-scope.js';

interface TracingOptions {
  /** Collector base URL; spans go to `<endpoint>/v1/traces`. */
  endpoint: string;
  serviceName: string;
}

/** W3C trace context as it travels: HTTP headers, or the WebSocket connection_init payload. */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

/** OpenTelemetry spans for GraphQL operations and the calls they make to the service, exported over OTLP. */
export interface Tracing {
  /** Starts the span of a GraphQL operation, continuing the caller's trace when `incoming` names a valid one; the caller ends it. */
  startOperation(name: string, startTime: number, attributes: Attributes, incoming?: TraceCarrier): Span;
  /** The traceparent (and tracestate) that make a call to the payment service part of `span`'s trace. */
  outgoingHeaders(span: Span): Record<string, string>;
  /** Records a finished call to the payment service, as a child of `parent` when there is one. */
  recordUpstreamCall(call: UpstreamCallObservation, parent: Span | null, requestId: string | null): void;
  /** Exports what is still buffered and stops. */
  close(): Promise<void>;
}

/**
 * Starts tracing to an OTLP endpoint (`/v1/traces` under `endpoint`). Spans are batched and sent in the background; an exporter that
 * cannot reach the collector drops them and never fails a request.
 */
export function createTracing(options: TracingOptions): Tracing {
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  const tracer: Tracer = provider.getTracer('momo-gateway');
  // The W3C format, read and written by OpenTelemetry's own propagator: an invalid traceparent starts a new trace.
  const propagator = new W3CTraceContextPropagator();
  let closing: Promise<void> | null = null;

  return {
    startOperation: (name, startTime, attributes, incoming) => {
      const parent = incoming?.traceparent ? propagator.extract(ROOT_CONTEXT, { ...incoming }, defaultTextMapGetter) : ROOT_CONTEXT;
      return tracer.startSpan(name, { kind: SpanKind.SERVER, startTime, attributes }, parent);
    },

    outgoingHeaders(span) {
      const carrier: Record<string, string> = {};
      propagator.inject(trace.setSpan(ROOT_CONTEXT, span), carrier, defaultTextMapSetter);
      return carrier;
    },

    recordUpstreamCall(call, parent, requestId) {
      const [method, route] = call.endpoint.split(' ', 2);
      const span = tracer.startSpan(
        call.endpoint,
        {
          kind: SpanKind.CLIENT,
          startTime: call.startedAt,
          attributes: {
            'http.request.method': method,
            'url.template': route,
            'gateway.upstream.operation': call.operation,
            'gateway.outcome': call.outcome,
            ...(requestId ? { [REQUEST_ID_ATTRIBUTE]: requestId } : {}),
          },
        },
        parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT,
      );
      if (call.outcome !== 'success') span.setStatus({ code: SpanStatusCode.ERROR, message: call.outcome });
      span.end(call.startedAt + call.durationMs);
    },

    close: () => (closing ??= provider.shutdown().catch(() => undefined)),
  };
}
