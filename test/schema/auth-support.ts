// Plumbing of the identity tests (test/schema/access.test.ts,
// test/http/*-auth.test.ts): raw GraphQL posts that keep the HTTP status and
// headers, subscriptions over SSE read event by event, the smallest valid
// document for any root field (built from the schema, so a new field is
// covered without anyone writing its operation), and counters of what reached
// the payment service or the event bus.
import { randomUUID } from 'node:crypto';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { request } from 'undici';
import type { RootType } from '../helpers/scope-table.js';
import type { EventBus } from '../../src/events/bus.js';
import { withTimeout } from '../helpers/wait.js';

export interface GraphQLErrorShape {
  message: string;
  path?: Array<string | number>;
  extensions?: Record<string, unknown>;
}

export interface ExecutionBody<D = Record<string, unknown>> {
  data?: D | null;
  errors?: GraphQLErrorShape[];
}

export interface RawResponse<D = Record<string, unknown>> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: ExecutionBody<D>;
  raw: string;
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** POSTs a query string as is (no Authorization unless `headers` has one). */
export async function postQuery<D = Record<string, unknown>>(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<RawResponse<D>> {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const raw = await res.body.text();
  return { status: res.statusCode, headers: res.headers, body: JSON.parse(raw) as ExecutionBody<D>, raw };
}

export function codesOf(errors: GraphQLErrorShape[] | undefined): unknown[] {
  return (errors ?? []).map((e) => e.extensions?.code);
}

/** An error that turns the caller away: a missing identity or a missing right. */
export function isRefusal(error: GraphQLErrorShape): boolean {
  return error.extensions?.code === 'UNAUTHENTICATED' || error.extensions?.code === 'FORBIDDEN';
}

// ---------------------------------------------------------------- SSE

export interface SseStream {
  status: number;
  contentType: string | null;
  /** The next `next` event's execution result, or null once the stream has ended. */
  next(timeoutMs?: number): Promise<ExecutionBody | null>;
  close(): void;
}

/**
 * A subscription over SSE (POST, `accept: text/event-stream`). A response that
 * is not an event stream (a refusal answered as plain JSON) reads as a single
 * result followed by the end.
 */
export async function openSse(
  url: string,
  query: string,
  variables: Record<string, unknown>,
  headers: Record<string, string>,
): Promise<SseStream> {
  const controller = new AbortController();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ query, variables }),
    signal: controller.signal,
  });
  const contentType = res.headers.get('content-type');
  const close = () => controller.abort();
  if (!contentType?.includes('text/event-stream')) {
    let single: ExecutionBody | null = JSON.parse(await res.text()) as ExecutionBody;
    return {
      status: res.status,
      contentType,
      next: async () => {
        const out = single;
        single = null;
        return out;
      },
      close,
    };
  }
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let ended = false;
  const queue: ExecutionBody[] = [];
  const pump = async () => {
    while (queue.length === 0 && !ended) {
      const chunk = await reader.read();
      if (chunk.done) {
        ended = true;
        break;
      }
      buffer += chunk.value;
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut).split('\n');
        buffer = buffer.slice(cut + 2);
        const event =
          block
            .find((l) => l.startsWith('event:'))
            ?.slice(6)
            .trim() ?? 'message';
        const data = block
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trimStart())
          .join('\n');
        if (event === 'complete') ended = true;
        else if (data !== '') queue.push(JSON.parse(data) as ExecutionBody);
      }
    }
  };
  return {
    status: res.status,
    contentType,
    async next(timeoutMs = 5_000) {
      await withTimeout(pump(), timeoutMs, 'an SSE event');
      return queue.shift() ?? null;
    },
    close() {
      reader.cancel().catch(() => {});
      close();
    },
  };
}

// ---------------------------------------------------------------- the event bus

/** How many times subscriptions have asked the bus for a stream: proof that a subscription resolver ran. */
export interface BusAsks {
  readonly count: number;
}

export function countBusAsks(bus: EventBus): BusAsks {
  let count = 0;
  const resource = bus.subscribeResourceChanged.bind(bus);
  const events = bus.subscribePaymentEvents.bind(bus);
  bus.subscribeResourceChanged = (type, reference) => {
    count += 1;
    return resource(type, reference);
  };
  bus.subscribePaymentEvents = () => {
    count += 1;
    return events();
  };
  return {
    get count() {
      return count;
    },
  };
}

// ---------------------------------------------------------------- documents from the schema

export interface RootField {
  rootType: RootType;
  field: GraphQLField<unknown, unknown>;
  /** `Query.balance`, for test names. */
  label: string;
}

export function rootFields(schema: GraphQLSchema): RootField[] {
  const roots: Array<[RootType, ReturnType<GraphQLSchema['getQueryType']>]> = [
    ['Query', schema.getQueryType()],
    ['Mutation', schema.getMutationType()],
    ['Subscription', schema.getSubscriptionType()],
  ];
  return roots.flatMap(([rootType, type]) =>
    Object.values(type?.getFields() ?? {}).map((field) => ({ rootType, field, label: `${rootType}.${field.name}` })),
  );
}

const OPERATION: Record<RootType, string> = { Query: 'query', Mutation: 'mutation', Subscription: 'subscription' };

/** A global ID of our own form (base64url of `Type:reference`), for a charge that need not exist. */
export function globalId(typename: string, reference: string): string {
  return Buffer.from(`${typename}:${reference}`, 'utf8').toString('base64url');
}

/**
 * The smallest valid operation on one root field: every required argument as a
 * variable holding a plausible value of its type, and `__typename` selected
 * (or nothing, for a leaf).
 */
export function minimalDocument({ rootType, field }: RootField): { query: string; variables: Record<string, unknown> } {
  const required = field.args.filter((a) => isNonNullType(a.type));
  const declarations = required.map((a) => `$${a.name}: ${String(a.type)}`);
  const variables = Object.fromEntries(required.map((a) => [a.name, dummyValue(a.type, a.name)]));
  const args = required.map((a) => `${a.name}: $${a.name}`);
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  const query =
    `${OPERATION[rootType]} Probe${declarations.length ? `(${declarations.join(', ')})` : ''} ` +
    `{ ${field.name}${args.length ? `(${args.join(', ')})` : ''}${selection} }`;
  return { query, variables };
}

function dummyValue(type: GraphQLInputType, name: string): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return [dummyValue(inner.ofType, name)];
  if (isEnumType(inner)) return inner.getValues()[0]!.name;
  if (isInputObjectType(inner)) {
    const fields = Object.values(inner.getFields()).filter((f) => isNonNullType(f.type));
    return Object.fromEntries(fields.map((f) => [f.name, dummyValue(f.type, f.name)]));
  }
  switch (inner.name) {
    case 'Int':
      return 1000;
    case 'Float':
      return 1000.5;
    case 'Boolean':
      return true;
    case 'ID':
      return globalId('Charge', `ch_${randomUUID()}`);
    case 'DateTime':
      return new Date().toISOString();
    default:
      return name === 'idempotencyKey' ? randomUUID() : `dummy-${name}`;
  }
}
