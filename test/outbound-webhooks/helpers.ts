// What the outbound-webhook suites share: a merchant's receiver (a real HTTP
// server that records every request and answers as a test tells it), and the
// GraphQL operations of endpoints, sent as text over real HTTP.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import type { StoredEndpoint } from '../../src/outbound-webhooks/model.js';
import type { TestStack } from '../helpers/gateway.js';

export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
  /** What the receiver answered (null: it hung up or never answered). */
  answered: number | null;
}

/** How the receiver answers one request: a status, `hang` (never answers), or `destroy` (drops the connection). */
export type Behaviour = number | 'hang' | 'destroy' | ((req: Received) => number | 'hang' | 'destroy');

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  behaviour: Behaviour;
  /** Delay before answering (ms). */
  delayMs: number;
  /** Where a 3xx answer points. */
  redirectTo: string;
  /** Parsed bodies of the requests answered 2xx. */
  delivered(): Array<{ type: string; timestamp: string; data: Record<string, unknown>; id: string }>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0, path = '/hooks'): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    behaviour: 200,
    delayMs: 0,
    redirectTo: 'http://10.0.0.1/hooks',
    delivered: () =>
      receiver.received
        .filter((r) => r.answered !== null && r.answered >= 200 && r.answered < 300)
        .map((r) => ({
          ...(JSON.parse(r.body) as { type: string; timestamp: string; data: Record<string, unknown> }),
          id: r.headers['webhook-id']!,
        })),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: Received = {
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
        answered: null,
      };
      receiver.received.push(entry);
      const b = typeof receiver.behaviour === 'function' ? receiver.behaviour(entry) : receiver.behaviour;
      if (b === 'hang') return void hanging.add(res);
      if (b === 'destroy') return void res.destroy();
      setTimeout(() => {
        entry.answered = b;
        res.statusCode = b;
        if (b >= 300 && b < 400) res.setHeader('location', receiver.redirectTo);
        res.end(b >= 300 && b < 400 ? '' : `answer ${b} ${'x'.repeat(2000)}`);
      }, receiver.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}${path}`;
  return receiver;
}

export interface RawResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the suites read answers by path
  data: any;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
  raw: string;
}

/** A GraphQL operation as text, with the stack's full-scope staff token unless `token` says otherwise (null: none). */
export async function gql(
  stack: TestStack,
  query: string,
  variables: Record<string, unknown> = {},
  token: string | null = stack.staffToken,
): Promise<RawResponse> {
  const res = await request(stack.gateway.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const raw = await res.body.text();
  const parsed = JSON.parse(raw) as { data?: unknown; errors?: RawResponse['errors'] };
  return { status: res.statusCode, data: parsed.data, errors: parsed.errors, raw };
}

export const CREATE_ENDPOINT = `mutation ($input: CreateWebhookEndpointInput!) {
  createWebhookEndpoint(input: $input) {
    __typename
    ... on CreateWebhookEndpointPayload { secret endpoint { id url kinds enabled createdAt } }
    ... on InvalidWebhookUrlError { urlProblem urlProblemFr }
    ... on ValidationError { fieldErrors { path message messageFr } }
    ... on PaymentError { code message messageFr }
  }
}`;

/** Creates an endpoint through GraphQL; returns its global id and secret (throws on any other answer). */
export async function createEndpoint(stack: TestStack, url: string, kinds: string[] = []): Promise<{ id: string; secret: string }> {
  const res = await gql(stack, CREATE_ENDPOINT, { input: { url, kinds, idempotencyKey: randomUUID() } });
  const result = res.data?.createWebhookEndpoint;
  if (result?.__typename !== 'CreateWebhookEndpointPayload') throw new Error(`createWebhookEndpoint: ${res.raw}`);
  return { id: result.endpoint.id as string, secret: result.secret as string };
}

export const DELIVERIES = `query ($endpointId: ID!, $filter: WebhookDeliveryFilter) {
  webhookDeliveries(endpointId: $endpointId, filter: $filter, first: 20) {
    totalCount
    edges { node { id eventId kind status createdAt nextAttemptAt attempts { at httpStatus durationMs error responseBodyExcerpt } } }
  }
}`;

export const ENDPOINTS = `{ webhookEndpoints(first: 50) { totalCount edges { node { id url kinds enabled disabledReason createdAt
  health { lastSuccessAt failingSince consecutiveFailures deliveriesWaiting } } } } }`;

/** An endpoint as a store keeps it, for the suites that write through a store directly (no receiver behind its URL). */
export function storedEndpoint(id: string, createdAt = new Date().toISOString(), secret = 'whsec_test'): StoredEndpoint {
  return {
    id,
    url: 'https://receiver.example/hooks',
    description: null,
    kinds: [],
    enabled: true,
    disabledReason: null,
    createdAt,
    secrets: { current: secret, previous: null, previousExpiresAt: null },
    lastSuccessAt: null,
    failingSince: null,
    consecutiveFailures: 0,
  };
}
