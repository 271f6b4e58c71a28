// One record per GraphQL operation, over HTTP, SSE and WebSocket alike (all go
// through yoga's envelop): a structured log line, the operation metrics, and
// its span when tracing is on.
//
// An operation starts at parse and ends with its result (a subscription: when
// its stream ends). Outcomes are counted per root field: `success`, the code of
// a typed error the field returned (INSUFFICIENT_FUNDS...), or the code of the
// error that reached the client (UNAUTHENTICATED, FORBIDDEN,
// UPSTREAM_UNAVAILABLE, GRAPHQL_VALIDATION_FAILED...). The log line carries the
// client's operation name; metric labels never do (a client could make up
// any number of names), they use root field names of the schema.
import { isObjectType, type DocumentNode, type ExecutionResult, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from '../logger.js';
import { MERCHANT_LABELS_MAX, type GatewayMetrics } from './metrics.js';
import {
  countedFields,
  errorCode,
  newRecord,
  outcomeOf,
  selectedOperation,
  shapeOf,
  typedErrorCode,
  type OperationRecord,
} from './operation-record.js';
import { REQUEST_ID_ATTRIBUTE, currentOperation, runInOperation } from './operation-scope.js';
import type { TraceCarrier, Tracing } from './tracing.js';

/** What the plugin reads of the GraphQL context (src/schema/context.ts fills it in). */
interface CallerContext {
  requestId?: string;
  principal?: { subject: string; kind: string } | null;
  /** Present on WebSocket operations (src/http/websocket.ts passes the socket to getEnveloped). */
  socket?: unknown;
  /** The request's parameters (yoga over HTTP; src/http/websocket.ts over WebSocket). */
  params?: { operationName?: string | null };
  /** Over HTTP: yoga's Fetch request (its traceparent/tracestate headers). */
  request?: { headers: { get(name: string): string | null } };
  /** Over WebSocket: the connection_init payload (its traceparent/tracestate fields). */
  connectionParams?: unknown;
  /** Platform mode: the merchant the operation acts for. */
  merchant?: { id: string } | null;
}

/** The caller's W3C trace context: HTTP headers, or the fields of the WebSocket connection_init payload. */
function incomingTrace(context: CallerContext): TraceCarrier | undefined {
  const fromHeaders = context.request?.headers;
  if (fromHeaders) {
    const traceparent = fromHeaders.get('traceparent');
    return traceparent ? { traceparent, tracestate: fromHeaders.get('tracestate') ?? undefined } : undefined;
  }
  const params = context.connectionParams as Record<string, unknown> | null | undefined;
  if (!params || typeof params !== 'object' || typeof params.traceparent !== 'string') return undefined;
  return { traceparent: params.traceparent, tracestate: typeof params.tracestate === 'string' ? params.tracestate : undefined };
}

interface OperationObservabilityOptions {
  metrics: GatewayMetrics;
  tracing: Tracing | null;
  log: Logger;
}

/** SpanStatusCode.ERROR: a literal, so that @opentelemetry/api is loaded only when tracing is on (it costs start time). */
const SPAN_STATUS_ERROR = 2;

/** The operations in flight, keyed by their context object, which envelop keeps from parse to execute (it extends it in place). */
class Operations {
  private readonly records = new WeakMap<object, OperationRecord>();
  /** The merchants with a label value of their own (MERCHANT_LABELS_MAX at most). */
  private readonly labelledMerchants = new Set<string>();

  constructor(private readonly o: OperationObservabilityOptions) {}

  find(context: object): OperationRecord | undefined {
    return this.records.get(context);
  }

  recordOf(context: object): OperationRecord {
    let record = this.records.get(context);
    if (!record) {
      record = newRecord();
      this.records.set(context, record);
    }
    return record;
  }

  begin(context: CallerContext, document: DocumentNode, operationName: string | null | undefined): OperationRecord {
    const record = this.recordOf(context);
    const operation = selectedOperation(document, operationName);
    const shape = shapeOf(operation);
    record.requestId = context.requestId ?? null;
    record.type = shape.type;
    record.name = operation?.name?.value ?? operationName ?? null;
    record.fields = shape.fields;
    record.fieldNames = shape.fieldNames;
    if (this.o.tracing && !record.span) record.span = startSpan(this.o.tracing, context, record);
    return record;
  }

  finish(context: CallerContext, record: OperationRecord, errors: readonly unknown[]): void {
    if (record.done) return;
    record.done = true;
    const seconds = (performance.now() - record.startedAt) / 1000;
    const outcome = this.count(record, errors, seconds);
    if (context.merchant) this.o.metrics.merchantOperations.inc({ merchant: this.merchantLabel(context.merchant.id), outcome });
    this.o.log.info('operation', {
      // A request refused before its context was built (a bad token) has no context requestId: src/http/request-handler.ts
      // put the request's id in its x-request-id header before yoga saw it.
      requestId: record.requestId ?? context.requestId ?? context.request?.headers.get('x-request-id') ?? null,
      transport: context.socket ? 'ws' : 'http',
      operationType: record.type,
      operationName: record.name,
      fields: record.fieldNames,
      principal: context.principal ? { subject: context.principal.subject, kind: context.principal.kind } : null,
      durationMs: Math.round(seconds * 1000 * 10) / 10,
      upstreamCalls: record.upstreamCalls,
      outcome,
    });
    if (record.span) endSpan(record, outcome);
  }

  /** The merchant's own label value while fewer than MERCHANT_LABELS_MAX have one, else `other`. */
  private merchantLabel(id: string): string {
    if (!this.labelledMerchants.has(id) && this.labelledMerchants.size < MERCHANT_LABELS_MAX) this.labelledMerchants.add(id);
    return this.labelledMerchants.has(id) ? id : 'other';
  }

  /** One sample per root field; the operation's outcome is the first that is not a success. */
  private count(record: OperationRecord, errors: readonly unknown[], seconds: number): string {
    let first = 'success';
    for (const field of countedFields(record)) {
      const outcome = outcomeOf(field.key, record, errors);
      const labels = { type: record.type, field: field.name, outcome };
      this.o.metrics.operations.inc(labels);
      this.o.metrics.operationSeconds.observe(labels, seconds);
      if (first === 'success') first = outcome;
    }
    return first;
  }
}

function startSpan(tracing: Tracing, context: CallerContext, record: OperationRecord) {
  return tracing.startOperation(
    `${record.type} ${record.name ?? record.fieldNames.join(',')}`,
    performance.timeOrigin + record.startedAt,
    {
      'graphql.operation.type': record.type,
      ...(record.name ? { 'graphql.operation.name': record.name } : {}),
      ...(record.requestId ? { [REQUEST_ID_ATTRIBUTE]: record.requestId } : {}),
    },
    incomingTrace(context),
  );
}

function endSpan(record: OperationRecord, outcome: string): void {
  const span = record.span!;
  span.setAttribute('gateway.outcome', outcome);
  span.setAttribute('gateway.upstream_calls', record.upstreamCalls);
  if (record.requestId) span.setAttribute(REQUEST_ID_ATTRIBUTE, record.requestId);
  if (outcome !== 'success') span.setStatus({ code: SPAN_STATUS_ERROR, message: outcome });
  span.end();
}

/**
 * The yoga plugin that logs, counts and traces every GraphQL operation, once it ends (a subscription when it stops), including one refused
 * while its context was built.
 */
export function useOperationObservability(options: OperationObservabilityOptions): Plugin<CallerContext> {
  const operations = new Operations(options);
  return {
    onSchemaChange: ({ schema }) => recordTypedErrors(schema as GraphQLSchema),
    onPluginInit({ registerContextErrorHandler }) {
      // Refused while building the context (a bad or expired token: HTTP 401): still an operation, logged and counted.
      registerContextErrorHandler(({ context, error }) => {
        const record = operations.find(context);
        if (!record) return;
        const caller = context as CallerContext;
        if (record.document) operations.begin(caller, record.document, caller.params?.operationName);
        operations.finish(caller, record, [error]);
      });
    },
    onParse: ({ context }) => {
      operations.recordOf(context);
      return ({ context, result }) => {
        const record = operations.recordOf(context);
        if (result instanceof Error) operations.finish(context, record, [result]);
        else if (result) record.document = result as DocumentNode;
      };
    },
    onValidate:
      ({ params }) =>
      ({ context, valid, result }) => {
        if (valid) return;
        operations.finish(context, operations.begin(context, params.documentAST as DocumentNode, null), result);
      },
    onExecute: ({ args, executeFn, setExecuteFn }) => {
      const context = args.contextValue as CallerContext;
      const record = operations.begin(context, args.document, args.operationName);
      setExecuteFn((executeArgs) => runInOperation(record, () => executeFn(executeArgs)));
      return {
        onExecuteDone: ({ result }) => {
          if (isAsyncIterable(result)) return { onEnd: () => operations.finish(context, record, []) };
          operations.finish(context, record, (result as ExecutionResult).errors ?? []);
          return undefined;
        },
      };
    },
    onSubscribe: ({ args }) => subscriptionHooks(operations, options.metrics, args),
  };
}

function subscriptionHooks(
  operations: Operations,
  metrics: GatewayMetrics,
  args: { contextValue: unknown; document: DocumentNode; operationName?: string | null },
) {
  const context = args.contextValue as CallerContext;
  // Not run in the operation's scope: what feeds a subscription (a refresh after a webhook, a poller)
  // is shared by every subscriber to the resource and started by whichever came first.
  const record = operations.begin(context, args.document, args.operationName);
  return {
    onSubscribeResult: ({ result }: { result: unknown }) => {
      if (!isAsyncIterable(result)) {
        operations.finish(context, record, (result as ExecutionResult).errors ?? []);
        return undefined;
      }
      metrics.activeSubscriptions.inc();
      return {
        onNext: ({ result: event }: { result: unknown }) => {
          const error = (event as ExecutionResult).errors?.[0];
          if (error) record.streamError = errorCode(error);
        },
        onEnd: () => {
          metrics.activeSubscriptions.dec();
          operations.finish(context, record, []);
        },
      };
    },
  };
}

const RECORDS_TYPED_ERRORS = Symbol('records typed errors');

/**
 * Root fields whose union result may be a typed error (Pothos's errors plugin returns the error
 * object as the field's value) note its code in the operation's scope. Done once per schema
 * object, in place: the wrapper reads the scope of whichever operation runs it.
 */
function recordTypedErrors(schema: GraphQLSchema): void {
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    if (!type || !isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve as (GraphQLFieldResolver<unknown, unknown> & { [RECORDS_TYPED_ERRORS]?: true }) | undefined;
      if (!resolve || resolve[RECORDS_TYPED_ERRORS]) continue;
      const wrapped: GraphQLFieldResolver<unknown, unknown> & { [RECORDS_TYPED_ERRORS]?: true } = (source, args, context, info) => {
        const value = resolve(source, args, context, info);
        const key = info.path.key as string;
        return isPromiseLike(value) ? Promise.resolve(value).then((settled) => noteTypedError(key, settled)) : noteTypedError(key, value);
      };
      wrapped[RECORDS_TYPED_ERRORS] = true;
      field.resolve = wrapped;
    }
  }
}

function noteTypedError(key: string, value: unknown): unknown {
  const code = typedErrorCode(value);
  if (code) currentOperation()?.typedErrors.set(key, code);
  return value;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] === 'function';
}
