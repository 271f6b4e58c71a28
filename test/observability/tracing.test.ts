// OpenTelemetry tracing against an in-process OTLP/HTTP receiver: a span per
// GraphQL operation and, as its children in the same trace, a span per call to
// the payment service, each with the request id. The gateway exports in
// batches; closing it flushes what is left.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { graphql } from '../gql/index.js';
import { startStack } from '../helpers/gateway.js';
import { as } from '../schema/support.js';

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
