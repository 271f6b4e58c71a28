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
import { performance } from 'node:perf_hooks';
import {
  GraphQLError,
  Kind,
  isObjectType,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from '../logger.js';
import type { GatewayMetrics } from './metrics.js';
import { REQUEST_ID_ATTRIBUTE, currentOperation, runInOperation, type OperationScope } from './operation-scope.js';
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

interface OperationRecord extends OperationScope {
  startedAt: number;
  startedAtEpoch: number;
  type: string;
  name: string | null;
  /** Root fields: response key (alias) and field name. */
  fields: Array<{ key: string; name: string }>;
  /** Code of the last error a subscription's stream delivered. */
  streamError: string | null;
  document: DocumentNode | null;
}

export interface OperationObservabilityOptions {
  metrics: GatewayMetrics;
  tracing: Tracing | null;
  log: Logger;
}

const INVALID_FIELD = '(invalid)';
/** SpanStatusCode.ERROR: a literal, so that @opentelemetry/api is loaded only when tracing is on (it costs start time). */
const SPAN_STATUS_ERROR = 2;

export function useOperationObservability({ metrics, tracing, log }: OperationObservabilityOptions): Plugin<CallerContext> {
  // Keyed by the context object, which envelop keeps from parse to execute (it extends it in place).
  const records = new WeakMap<object, OperationRecord>();

  const recordOf = (context: object): OperationRecord => {
    let record = records.get(context);
    if (!record) {
      record = {
        startedAt: performance.now(),
        startedAtEpoch: Date.now(),
        requestId: null,
        upstreamCalls: 0,
        span: null,
        typedErrors: new Map(),
        type: 'unknown',
        name: null,
        fields: [],
        streamError: null,
        document: null,
        done: false,
      };
      records.set(context, record);
    }
    return record;
  };

  const begin = (context: CallerContext, document: DocumentNode, operationName: string | null | undefined): OperationRecord => {
    const record = recordOf(context);
    const operation = selectedOperation(document, operationName);
    record.requestId = context.requestId ?? null;
    record.type = operation?.operation ?? 'unknown';
    record.name = operation?.name?.value ?? operationName ?? null;
    record.fields = operation ? rootFields(operation) : [];
    if (tracing && !record.span) {
      record.span = tracing.startOperation(
        `${record.type} ${record.name ?? record.fields.map((f) => f.name).join(',')}`,
        record.startedAtEpoch,
        {
          'graphql.operation.type': record.type,
          ...(record.name ? { 'graphql.operation.name': record.name } : {}),
          ...(record.requestId ? { [REQUEST_ID_ATTRIBUTE]: record.requestId } : {}),
        },
        incomingTrace(context),
      );
    }
    return record;
  };

  const finish = (context: CallerContext, record: OperationRecord, errors: readonly unknown[]): void => {
    if (record.done) return;
    record.done = true;
    const seconds = (performance.now() - record.startedAt) / 1000;
    const fields = record.fields.length ? record.fields : [{ key: INVALID_FIELD, name: INVALID_FIELD }];
    const outcomes = fields.map((field) => ({ field, outcome: outcomeOf(field.key, record, errors) }));
    for (const { field, outcome } of outcomes) {
      const labels = { type: record.type, field: field.name, outcome };
      metrics.operations.inc(labels);
      metrics.operationSeconds.observe(labels, seconds);
    }
    const outcome = outcomes.find((o) => o.outcome !== 'success')?.outcome ?? 'success';
    const principal = context.principal ? { subject: context.principal.subject, kind: context.principal.kind } : null;
    log.info('operation', {
      // A request refused before its context was built (a bad token) has no context requestId: src/http/request-handler.ts
      // put the request's id in its x-request-id header before yoga saw it.
      requestId: record.requestId ?? context.requestId ?? context.request?.headers.get('x-request-id') ?? null,
      transport: context.socket ? 'ws' : 'http',
      operationType: record.type,
      operationName: record.name,
      fields: record.fields.map((f) => f.name),
      principal,
      durationMs: Math.round(seconds * 1000 * 10) / 10,
      upstreamCalls: record.upstreamCalls,
      outcome,
    });
    if (record.span) {
      record.span.setAttribute('gateway.outcome', outcome);
      record.span.setAttribute('gateway.upstream_calls', record.upstreamCalls);
      if (record.requestId) record.span.setAttribute(REQUEST_ID_ATTRIBUTE, record.requestId);
      if (outcome !== 'success') record.span.setStatus({ code: SPAN_STATUS_ERROR, message: outcome });
      record.span.end();
    }
  };

  return {
    onSchemaChange: ({ schema }) => recordTypedErrors(schema as GraphQLSchema),
    onPluginInit({ registerContextErrorHandler }) {
      // Refused while building the context (a bad or expired token: HTTP 401): still an operation, logged and counted.
      registerContextErrorHandler(({ context, error }) => {
        const record = records.get(context);
        if (!record) return;
        const caller = context as CallerContext;
        if (record.document) begin(caller, record.document, caller.params?.operationName);
        finish(caller, record, [error]);
      });
    },
    onParse: ({ context }) => {
      recordOf(context);
      return ({ context, result }) => {
        const record = recordOf(context);
        if (result instanceof Error) finish(context, record, [result]);
        else if (result) record.document = result as DocumentNode;
      };
    },
    onValidate:
      ({ params }) =>
      ({ context, valid, result }) => {
        if (valid) return;
        const record = begin(context, params.documentAST as DocumentNode, null);
        finish(context, record, result);
      },
    onExecute({ args, executeFn, setExecuteFn }) {
      const context = args.contextValue as CallerContext;
      const record = begin(context, args.document, args.operationName);
      setExecuteFn((executeArgs) => runInOperation(record, () => executeFn(executeArgs)));
      return {
        onExecuteDone: ({ result }) => {
          if (isAsyncIterable(result)) return { onEnd: () => finish(context, record, []) };
          finish(context, record, (result as ExecutionResult).errors ?? []);
          return undefined;
        },
      };
    },
    onSubscribe({ args }) {
      const context = args.contextValue as CallerContext;
      // Not run in the operation's scope: what feeds a subscription (a refresh after a webhook, a poller)
      // is shared by every subscriber to the resource and started by whichever came first.
      const record = begin(context, args.document, args.operationName);
      return {
        onSubscribeResult: ({ result }) => {
          if (!isAsyncIterable(result)) {
            finish(context, record, (result as ExecutionResult).errors ?? []);
            return undefined;
          }
          metrics.activeSubscriptions.inc();
          return {
            onNext: ({ result: event }) => {
              const error = (event as ExecutionResult).errors?.[0];
              if (error) record.streamError = errorCode(error);
            },
            onEnd: () => {
              metrics.activeSubscriptions.dec();
              finish(context, record, []);
            },
          };
        },
      };
    },
  };
}

function outcomeOf(key: string, record: OperationRecord, errors: readonly unknown[]): string {
  const typed = record.typedErrors.get(key);
  if (typed) return typed;
  // An error of this field (its path starts with the field's key), or of the whole operation (no path).
  const error = errors.find((e) => !(e instanceof GraphQLError) || !e.path || e.path[0] === key);
  if (error) return errorCode(error);
  return record.streamError ?? 'success';
}

function errorCode(error: unknown): string {
  const code = error instanceof GraphQLError ? error.extensions?.code : undefined;
  if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{0,63}$/.test(code)) return code;
  return 'INTERNAL_SERVER_ERROR';
}

function selectedOperation(document: DocumentNode, name: string | null | undefined): OperationDefinitionNode | null {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return (name ? operations.find((o) => o.name?.value === name) : operations.length === 1 ? operations[0] : undefined) ?? null;
}

function rootFields(operation: OperationDefinitionNode): Array<{ key: string; name: string }> {
  return operation.selectionSet.selections.flatMap((s) =>
    s.kind === Kind.FIELD ? [{ key: s.alias?.value ?? s.name.value, name: s.name.value }] : [],
  );
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
        const note = (value: unknown) => {
          const code = typedErrorCode(value);
          if (code) currentOperation()?.typedErrors.set(info.path.key as string, code);
          return value;
        };
        const value = resolve(source, args, context, info);
        return isPromiseLike(value) ? Promise.resolve(value).then(note) : note(value);
      };
      wrapped[RECORDS_TYPED_ERRORS] = true;
      field.resolve = wrapped;
    }
  }
}

/** A typed error, recognised by the shape every PaymentError has (`code` and `messageFr`). */
function typedErrorCode(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || typeof (value as { messageFr?: unknown }).messageFr !== 'string') return null;
  const code = (value as { code?: unknown }).code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{0,63}$/.test(code) ? code : null;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] === 'function';
}
