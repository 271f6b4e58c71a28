// OpenTelemetry tracing against an in-process OTLP/HTTP receiver: a span per
// GraphQL operation and, as its children in the same trace, a span per call to
// the payment service, each with the request id. The gateway exports in
// batches; closing it flushes what is left. An incoming W3C traceparent (HTTP header, or
// the WebSocket connection_init payload) is continued, the payment service receives the
// trace in its own traceparent, and the readiness probe's calls are not exported.
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { graphql } from '../gql/index.js';
import { startStack } from '../helpers/gateway.js';
import { as } from '../schema/support.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { disposeAllClients, wsClient } from '../live/helpers.js';
import { withTimeout } from '../helpers/wait.js';

const CreateCharge = graphql(`
  mutation TraceTestCharge($input: CreateChargeInput!) {
    createCharge(input: $input) { __typename ... on CreateChargePayload { reference } }
  }
`);

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Array<{ key: string; value: { stringValue?: string; intValue?: string | number } }>;
}
interface OtlpRequest {
  resourceSpans: Array<{
    resource: { attributes: OtlpSpan['attributes'] };
    scopeSpans: Array<{ spans: OtlpSpan[] }>;
  }>;
}

let receiver: Server;
let endpoint: string;
const received: Array<{ path: string; contentType: string; body: OtlpRequest }> = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        contentType: String(req.headers['content-type']),
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpRequest,
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

it('exports a span per operation and per upstream call, with the request id, over OTLP/HTTP JSON', async () => {
  const stack = await startStack({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'gateway-under-test' } });
  const requestId = `trace-${randomUUID()}`;
  try {
    const input = { amount: 1500, phone: '58000000', provider: 'OPC_BF' as const, idempotencyKey: randomUUID() };
    const res = await stack.gql(CreateCharge, { input }, { 'x-request-id': requestId, authorization: `Bearer ${stack.staffToken}` });
    as(res.data?.createCharge, 'CreateChargePayload');
  } finally {
    await stack.close(); // flushes the batch
  }

  expect(received.every((r) => r.path === '/v1/traces' && r.contentType.startsWith('application/json'))).toBe(true);
  const resources = received.flatMap((r) => r.body.resourceSpans);
  expect(resources[0]!.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'gateway-under-test' } });
  const spans = resources.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));

  const operation = spans.find((s) => s.name === 'mutation TraceTestCharge');
  expect(operation).toBeDefined();
  expect(attribute(operation!, 'gateway.request_id')).toBe(requestId);
  expect(attribute(operation!, 'graphql.operation.type')).toBe('mutation');
  expect(attribute(operation!, 'gateway.outcome')).toBe('success');
  expect(attribute(operation!, 'gateway.upstream_calls')).toBe(2);

  const children = spans.filter((s) => s.parentSpanId === operation!.spanId);
  expect(children.map((s) => s.name).sort()).toEqual(['GET /v1/payment/charges', 'POST /v1/payment/charges/']);
  for (const child of children) {
    expect(child.traceId).toBe(operation!.traceId);
    expect(attribute(child, 'gateway.request_id')).toBe(requestId);
    expect(attribute(child, 'gateway.outcome')).toBe('success');
  }
});

/** Forwards to `target` and keeps the headers of every request the gateway sent to the payment service. */
async function recordingProxy(target: string) {
  const seen: Array<{ method: string; path: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    const upstream = httpRequest(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const hex = (bytes: number) =>
  randomUUID()
    .replace(/-/g, '')
    .repeat(2)
    .slice(0, bytes * 2);

it('continues an incoming traceparent over HTTP and WebSocket, sends it on to the service, and exports no probe call', async () => {
  const sandbox = await startTestSandbox();
  const proxy = await recordingProxy(sandbox.url);
  const first = received.length;
  const stack = await startStack({ sharedSandbox: sandbox, env: { PAYMENT_BASE_URL: proxy.url, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } });
  const httpTrace = { traceId: hex(16), parentId: hex(8) };
  const wsTrace = { traceId: hex(16), parentId: hex(8) };
  try {
    const input = { amount: 1500, phone: '58000000', provider: 'OPC_BF' as const, idempotencyKey: randomUUID() };
    const res = await stack.gql(
      CreateCharge,
      { input },
      {
        authorization: `Bearer ${stack.staffToken}`,
        traceparent: `00-${httpTrace.traceId}-${httpTrace.parentId}-01`,
        tracestate: 'shop=checkout',
      },
    );
    as(res.data?.createCharge, 'CreateChargePayload');

    const ws = wsClient(stack.gateway.graphqlUrl, {
      connectionParams: { authorization: `Bearer ${stack.staffToken}`, traceparent: `00-${wsTrace.traceId}-${wsTrace.parentId}-01` },
    });
    await ws.connected;
    const answer = await withTimeout(
      new Promise<unknown>((resolve, reject) => {
        ws.client.subscribe(
          { query: 'query TracedBalance { balance { currency } }' },
          { next: resolve, error: reject, complete: () => {} },
        );
      }),
      5_000,
      'the balance over WebSocket',
    );
    expect(answer).toEqual({ data: { balance: { currency: 'XOF' } } });
  } finally {
    await disposeAllClients();
    await stack.close();
    await proxy.close();
    await sandbox.close();
  }

  const spans = received.slice(first).flatMap((r) => r.body.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans)));
  // HTTP: the operation is a child of the caller's span, in the caller's trace.
  const charge = spans.find((s) => s.name === 'mutation TraceTestCharge')!;
  expect(charge).toMatchObject({ traceId: httpTrace.traceId, parentSpanId: httpTrace.parentId });
  // The service was told the same trace, with the operation's span as parent, and the tracestate passed on.
  const chargePost = proxy.seen.find((r) => r.method === 'POST' && r.path.startsWith('/v1/payment/charges'))!;
  expect(chargePost.headers.traceparent).toBe(`00-${httpTrace.traceId}-${charge.spanId}-01`);
  expect(chargePost.headers.tracestate).toBe('shop=checkout');
  // WebSocket: the trace named in connection_init.
  const balance = spans.find((s) => s.name === 'query TracedBalance')!;
  expect(balance).toMatchObject({ traceId: wsTrace.traceId, parentSpanId: wsTrace.parentId });
  const balanceCalls = spans.filter((s) => s.name === 'GET /v1/payment/balances');
  expect(balanceCalls.map((s) => s.parentSpanId)).toEqual([balance.spanId]);
  // The readiness probe called the service at start (seen by the proxy), with no trace and no exported span.
  const probeCalls = proxy.seen.filter((r) => r.path.startsWith('/v1/payment/balances') && !r.headers.traceparent);
  expect(probeCalls.length).toBeGreaterThanOrEqual(1);
  expect(spans.filter((s) => !s.parentSpanId).map((s) => s.name)).toEqual([]);
});
