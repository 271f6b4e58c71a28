// The requests of each hot path the capacity bench measures, built the same way for the sequential counter
// (bench/capacity/count.ts) and for the load generator (bench/capacity/load-many.ts): a fresh body per
// request, so every money mutation has its own idempotency key and every webhook its own delivery id.
import { randomUUID } from 'node:crypto';
import { signBody } from '../../src/inbound-webhooks/signature.js';

export type LoadKind = 'read' | 'charge' | 'transfer' | 'webhook';
export const LOAD_KINDS: readonly LoadKind[] = ['read', 'charge', 'transfer', 'webhook'];

export interface OperationSpec {
  /** The gateway's /graphql URL. */
  graphqlUrl: string;
  /** A staff token with every scope. */
  token: string;
  webhookSecret: string;
  webhookPath: string;
}

export interface BuiltRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** A substring every successful answer contains (a 200 with a typed error is not a success). */
  expect: string;
}

const READ = 'query Charge($r: String!) { charge(reference: $r) { reference status amount currency phone createdAt } }';
const CHARGE =
  'mutation Charge($i: CreateChargeInput!) { createCharge(input: $i) { __typename ... on CreateChargePayload { reference nextAction } } }';
const TRANSFER =
  'mutation Transfer($i: CreateTransferInput!) { createTransfer(input: $i) { __typename ... on CreateTransferPayload { transfer { reference status } } } }';

/** The request of `kind` (a new one at each call). `marker` names the webhook's resource, for subscribers that wait for it. */
export function buildRequest(kind: LoadKind, spec: OperationSpec, marker?: string): BuiltRequest {
  const graphql = (query: string, variables: Record<string, unknown>, expect: string): BuiltRequest => ({
    url: spec.graphqlUrl,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${spec.token}` },
    body: JSON.stringify({ query, variables }),
    expect,
  });
  switch (kind) {
    case 'read':
      return graphql(READ, { r: 'ch_bench_1' }, '"reference":"ch_bench_1"');
    case 'charge':
      return graphql(
        CHARGE,
        { i: { amount: 1500, phone: '70000000', provider: 'OPB_BF', idempotencyKey: randomUUID() } },
        'CreateChargePayload',
      );
    case 'transfer':
      return graphql(TRANSFER, { i: { amount: 100, recipientPhone: '70000001', idempotencyKey: randomUUID() } }, 'CreateTransferPayload');
    case 'webhook': {
      const reference = marker ?? `ch_cap_${randomUUID()}`;
      const body = JSON.stringify({ event: 'charge.success', data: { id: reference, reference, status: 'success', amount: 1500 } });
      return {
        url: spec.graphqlUrl.replace(/\/graphql$/, spec.webhookPath),
        headers: { 'content-type': 'application/json', 'x-webhook-hash': signBody(body, spec.webhookSecret, 'hmac-sha256-hex') },
        body,
        expect: '"ok":true',
      };
    }
  }
}
