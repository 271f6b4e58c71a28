// One structured log line per GraphQL operation, over HTTP and over WebSocket:
// request id, operation, principal (never its token), duration, calls made to
// the payment service, outcome. And the subscription gauge following a
// subscription over WebSocket from start to end.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { graphql } from '../gql/index.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { disposeAllClients, staffClient, subscribe, waitFor } from '../live/helpers.js';
import { as } from '../schema/support.js';
import { parseMetrics } from './prometheus-text.js';

const METRICS_TOKEN = randomBytes(24).toString('hex');

const CreateCharge = graphql(`
  mutation LogTestCharge($input: CreateChargeInput!) {
    createCharge(input: $input) { __typename ... on CreateChargePayload { reference } ... on PaymentError { code } }
  }
`);
const Balance = graphql(`
  query LogTestBalance {
    balance { currency }
  }
`);
const ChargeUpdated = graphql(`
  subscription LogTestFollow($reference: String!) {
    chargeUpdated(reference: $reference) { reference status }
  }
`);

interface OperationLine {
  msg: string;
  level: string;
  requestId: string | null;
  transport: string;
  operationType: string;
  operationName: string | null;
  fields: string[];
  principal: { subject: string; kind: string } | null;
  durationMs: number;
  upstreamCalls: number;
  outcome: string;
}

let stack: TestStack;

beforeAll(async () => {
  stack = await startStack({ env: { METRICS_TOKEN, SUBSCRIPTION_POLL_MS: '0' } });
});
afterAll(async () => {
  await disposeAllClients();
  await stack?.close();
});

const operationLines = (): Array<OperationLine & { raw: string }> =>
  stack.logLines
    .map((raw) => ({ raw, line: JSON.parse(raw) as OperationLine }))
    .filter(({ line }) => line.msg === 'operation')
    .map(({ raw, line }) => ({ ...line, raw }));

async function gauge(name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const res = await request(`${stack.gateway.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const found = parseMetrics(await res.body.text())
    .samples(name)
    .find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found?.value;
}

describe('the log line of each operation', () => {
  it('over HTTP: request id, operation, principal, duration, upstream calls and outcome, and no token', async () => {
    const requestId = `obs-${randomUUID()}`;
    const input = { amount: 1200, phone: '58000000', provider: 'OPC_BF' as const, idempotencyKey: randomUUID() };
    const res = await stack.gql(CreateCharge, { input }, { 'x-request-id': requestId, authorization: `Bearer ${stack.staffToken}` });
    as(res.data?.createCharge, 'CreateChargePayload');

    const line = operationLines().find((l) => l.requestId === requestId);
    expect(line).toMatchObject({
      level: 'info',
      transport: 'http',
      operationType: 'mutation',
      operationName: 'LogTestCharge',
      fields: ['createCharge'],
      principal: { subject: 'test-staff', kind: 'staff' },
      // The look-up by ext_id (a fresh in-memory store cannot prove the key unused), then the charge.
      upstreamCalls: 2,
      outcome: 'success',
    });
    expect(line!.durationMs).toBeGreaterThanOrEqual(0);
    expect(line!.raw).not.toContain(stack.staffToken);
    expect(line!.raw).not.toContain(stack.staffToken.split('.')[2]!);
  });

  it('a typed error is the outcome of the operation that returned it', async () => {
    const requestId = `obs-${randomUUID()}`;
    // 58000001 is rejected at creation by the sandbox (INVALID_ACCOUNT).
    const input = { amount: 1200, phone: '58000001', provider: 'OPC_BF' as const, idempotencyKey: randomUUID() };
    const res = await stack.gql(CreateCharge, { input }, { 'x-request-id': requestId, authorization: `Bearer ${stack.staffToken}` });
    expect(res.data?.createCharge).toMatchObject({ code: 'INVALID_ACCOUNT' });
    expect(operationLines().find((l) => l.requestId === requestId)).toMatchObject({ outcome: 'INVALID_ACCOUNT', upstreamCalls: 2 });
  });

  it('a request refused for its token is logged without principal and with nothing sent to the service', async () => {
    const requestId = `obs-${randomUUID()}`;
    const badToken = `${stack.staffToken.slice(0, -4)}AAAA`;
    const res = await stack.gql(Balance, undefined, { 'x-request-id': requestId, authorization: `Bearer ${badToken}` });
    expect(res.status).toBe(401);
    const line = operationLines().find((l) => l.operationName === 'LogTestBalance' && l.outcome === 'UNAUTHENTICATED');
    // Refused before its context was built, it still carries the request's id.
    expect(line).toMatchObject({ requestId, principal: null, upstreamCalls: 0, transport: 'http' });
    expect(line!.raw).not.toContain(badToken.split('.')[2]!);
  });

  it('over WebSocket, for a query and for a subscription from start to end', async () => {
    const ws = staffClient(stack);
    await ws.connected;
    expect(await gauge('gateway_open_connections', { transport: 'ws' })).toBe(1);

    const balance = await new Promise<unknown>((resolve, reject) =>
      ws.client.subscribe(
        { query: 'query LogTestWsBalance { balance { currency } }' },
        { next: resolve, error: reject, complete: () => {} },
      ),
    );
    expect(balance).toMatchObject({ data: { balance: { currency: 'XOF' } } });
    await waitFor(() => operationLines().some((l) => l.operationName === 'LogTestWsBalance'), 'the WebSocket query line');
    expect(operationLines().find((l) => l.operationName === 'LogTestWsBalance')).toMatchObject({
      transport: 'ws',
      operationType: 'query',
      principal: { subject: 'test-staff', kind: 'staff' },
      upstreamCalls: 1,
      outcome: 'success',
    });

    const input = { amount: 1300, phone: '58000000', provider: 'OPC_BF' as const, idempotencyKey: randomUUID() };
    const { reference } = as((await stack.gql(CreateCharge, { input })).data?.createCharge, 'CreateChargePayload');
    const sub = subscribe(ws, ChargeUpdated, { reference });
    expect(await sub.next()).toMatchObject({ chargeUpdated: { reference } });
    expect(await gauge('gateway_active_subscriptions')).toBe(1);
    expect(operationLines().some((l) => l.operationName === 'LogTestFollow')).toBe(false);

    sub.unsubscribe();
    await waitFor(() => operationLines().some((l) => l.operationName === 'LogTestFollow'), 'the subscription line');
    expect(operationLines().find((l) => l.operationName === 'LogTestFollow')).toMatchObject({
      transport: 'ws',
      operationType: 'subscription',
      fields: ['chargeUpdated'],
      outcome: 'success',
    });
    expect(await gauge('gateway_active_subscriptions')).toBe(0);
    await ws.dispose();
    await waitFor(async () => (await gauge('gateway_open_connections', { transport: 'ws' })) === 0, 'the WebSocket to be counted closed');
  });
});
