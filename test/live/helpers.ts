// Helpers for the live-update tests: a real graphql-ws client over a real
// WebSocket (the `ws` package), a subscription handle that queues what it
// receives and is awaited with a timeout, a probe that tells when a
// subscription's bus listener is attached, and signed webhook posts.
import { print } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { createClient, type Client, type FormattedExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { post } from '../helpers/http.js';
import type { EventBus, EventStream } from '../../src/events/bus.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { signBody } from '../../src/inbound-webhooks/signature.js';
import type { TestStack } from '../helpers/gateway.js';
import { waitFor, withTimeout } from '../helpers/wait.js';

export { waitFor, withTimeout } from '../helpers/wait.js';
export { postForm } from '../helpers/http.js';

// ---------------------------------------------------------------- graphql-ws clients

export interface ClientCloseInfo {
  code: number;
  reason: string;
}

export interface TestClient {
  client: Client;
  /** Every close of the underlying socket, in order. */
  closes: ClientCloseInfo[];
  /** Resolves when the socket is acknowledged (connection_ack). */
  connected: Promise<void>;
  dispose(): Promise<void>;
}

const openClients = new Set<TestClient>();

/** A graphql-ws client that never retries (a retry would hide a server-side close) and connects at once. */
export function wsClient(graphqlUrl: string, options: { connectionParams?: Record<string, unknown> } = {}): TestClient {
  const closes: ClientCloseInfo[] = [];
  let onConnected!: () => void;
  const connected = new Promise<void>((resolve) => (onConnected = resolve));
  const client = createClient({
    url: graphqlUrl.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    lazy: false,
    retryAttempts: 0,
    shouldRetry: () => false,
    connectionParams: options.connectionParams,
    on: {
      connected: () => onConnected(),
      closed: (event) => {
        const e = event as { code?: number; reason?: string };
        closes.push({ code: e.code ?? -1, reason: String(e.reason ?? '') });
      },
    },
    // Unexpected errors surface through the subscriptions' sinks; keep the output quiet.
    onNonLazyError: () => {},
  });
  const handle: TestClient = {
    client,
    closes,
    connected,
    async dispose() {
      openClients.delete(handle);
      await client.dispose();
    },
  };
  openClients.add(handle);
  return handle;
}

/**
 * Resolves once the server has answered (a result, or a refusal when the
 * connection is at its cap) a query sent on this connection after everything
 * sent before it: a barrier instead of "wait a little, then check that nothing
 * else happened" (a late refusal or a close would have come first).
 */
export async function roundTrip(ws: TestClient): Promise<void> {
  await withTimeout(
    new Promise<unknown>((resolve) => {
      ws.client.subscribe({ query: '{ __typename }' }, { next: resolve, error: resolve, complete: () => {} });
    }),
    3_000,
    'a round trip on the connection',
  );
}

/** A client of the stack's gateway, authenticated with its all-scope staff token in connection_init. */
export function staffClient(stack: Pick<TestStack, 'gateway' | 'staffToken'>): TestClient {
  return wsClient(stack.gateway.graphqlUrl, { connectionParams: { authorization: `Bearer ${stack.staffToken}` } });
}

/** Disposes every client created by wsClient() and not yet disposed (afterEach/afterAll). */
export async function disposeAllClients(): Promise<void> {
  await Promise.all([...openClients].map((c) => c.dispose()));
}

export interface LiveSubscription<R> {
  /** Every `next` payload received so far. */
  readonly results: Array<FormattedExecutionResult<R>>;
  /** The data of the next result (waits for it), or throws if the stream ended or errored first. */
  next(timeoutMs?: number, what?: string): Promise<R>;
  /** The raw next result (data and errors). */
  nextResult(timeoutMs?: number, what?: string): Promise<FormattedExecutionResult<R>>;
  /** Resolves with 'complete' or the error payload once the server ends the stream. */
  readonly ended: Promise<{ kind: 'complete' } | { kind: 'error'; error: unknown }>;
  readonly isEnded: boolean;
  /** Items received and not yet taken with next(). */
  readonly pending: number;
  unsubscribe(): void;
}

/** Subscribes with a typed document; results queue until taken with next(). */
export function subscribe<R, V>(client: TestClient | Client, doc: TypedDocumentNode<R, V>, variables?: V): LiveSubscription<R> {
  const c = 'client' in client ? client.client : client;
  const queue: Array<FormattedExecutionResult<R>> = [];
  const results: Array<FormattedExecutionResult<R>> = [];
  const waiters: Array<() => void> = [];
  let end: { kind: 'complete' } | { kind: 'error'; error: unknown } | null = null;
  let resolveEnded!: (value: { kind: 'complete' } | { kind: 'error'; error: unknown }) => void;
  const ended = new Promise<{ kind: 'complete' } | { kind: 'error'; error: unknown }>((resolve) => (resolveEnded = resolve));
  const wake = () => waiters.splice(0).forEach((w) => w());

  const unsubscribe = c.subscribe<R>(
    { query: print(doc), variables: (variables ?? {}) as Record<string, unknown> },
    {
      next: (value) => {
        queue.push(value as FormattedExecutionResult<R>);
        results.push(value as FormattedExecutionResult<R>);
        wake();
      },
      error: (error) => {
        end ??= { kind: 'error', error };
        resolveEnded(end);
        wake();
      },
      complete: () => {
        end ??= { kind: 'complete' };
        resolveEnded(end);
        wake();
      },
    },
  );

  const nextResult = async (timeoutMs = 5_000, what = 'a subscription result') => {
    const take = async (): Promise<FormattedExecutionResult<R>> => {
      for (;;) {
        const item = queue.shift();
        if (item) return item;
        if (end) throw new Error(`stream ended (${end.kind}${end.kind === 'error' ? `: ${describeError(end.error)}` : ''}) before ${what}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    };
    return withTimeout(take(), timeoutMs, what);
  };

  return {
    results,
    nextResult,
    async next(timeoutMs, what) {
      const result = await nextResult(timeoutMs, what);
      if (result.errors?.length) throw new Error(`subscription result has errors: ${JSON.stringify(result.errors)}`);
      return result.data as R;
    },
    ended,
    get isEnded() {
      return end !== null;
    },
    get pending() {
      return queue.length;
    },
    unsubscribe,
  };
}

export function describeError(error: unknown): string {
  if (Array.isArray(error)) return JSON.stringify(error);
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && 'code' in error) return `close ${String((error as { code: unknown }).code)}`;
  return String(error);
}

// ---------------------------------------------------------------- bus probe

/**
 * Observes (without changing) when subscriptions attach to the event bus.
 * The bus hands out lazy iterators (yoga's pubsub uses Repeaters, which add
 * their listener on the first next()), so "attached" is counted on the first
 * next() of each iterator handed out after the probe was installed.
 */
export interface BusProbe {
  /** Listeners attached per resource key (`charge:ch_...`), ever. */
  resourceAttached(type: string, reference: string): number;
  /** Iterators currently open per resource key. */
  resourceOpen(type: string, reference: string): number;
  paymentEventsAttached(): number;
  paymentEventsOpen(): number;
}

export function probeBus(bus: EventBus): BusProbe {
  const attached = new Map<string, number>();
  const open = new Map<string, number>();
  const bump = (map: Map<string, number>, key: string, by: number) => map.set(key, (map.get(key) ?? 0) + by);

  const instrument = <T>(inner: EventStream<T>, key: string): EventStream<T> => {
    let first = true;
    let closed = false;
    bump(open, key, 1);
    const close = () => {
      if (closed) return;
      closed = true;
      bump(open, key, -1);
    };
    const stream: EventStream<T> = {
      next() {
        const step = inner.next();
        if (first) {
          first = false;
          bump(attached, key, 1);
        }
        return step.then((r) => {
          if (r.done) close();
          return r;
        });
      },
      async return() {
        close();
        return inner.return();
      },
      async throw(error?: unknown) {
        close();
        return inner.throw ? inner.throw(error) : Promise.reject(error);
      },
      [Symbol.asyncIterator]() {
        return stream;
      },
    };
    return stream;
  };

  const subscribeResourceChanged = bus.subscribeResourceChanged.bind(bus);
  const subscribePaymentEvents = bus.subscribePaymentEvents.bind(bus);
  bus.subscribeResourceChanged = (type, reference) => instrument(subscribeResourceChanged(type, reference), `${type}:${reference}`);
  bus.subscribePaymentEvents = (options) => instrument(subscribePaymentEvents(options), 'paymentEvent');

  return {
    resourceAttached: (type, reference) => attached.get(`${type}:${reference}`) ?? 0,
    resourceOpen: (type, reference) => open.get(`${type}:${reference}`) ?? 0,
    paymentEventsAttached: () => attached.get('paymentEvent') ?? 0,
    paymentEventsOpen: () => open.get('paymentEvent') ?? 0,
  };
}

// ---------------------------------------------------------------- sandbox and webhooks

export const RESOURCE_PATHS = {
  checkout: '/v1/payment/checkouts',
  charge: '/v1/payment/charges',
  transfer: '/v1/payment/transfers',
  settlement: '/v1/payment/settlements',
} as const;

/** GETs of one resource the sandbox has received. */
export function getsOf(sandbox: Sandbox, type: keyof typeof RESOURCE_PATHS, reference: string): number {
  return sandbox.requests.count({ method: 'GET', path: `${RESOURCE_PATHS[type]}/${reference}` });
}

/**
 * Ready to see changes: the subscription's bus listener is attached and its
 * baseline GET reached the sandbox (a GET is answered synchronously on arrival,
 * so its answer predates anything the test does next). `since` is the GET count
 * of the resource taken before subscribing; `busKey` the reference events carry
 * (the UUID of a checkout subscribed with its chk_ form).
 */
export async function untilWatching(
  probe: BusProbe,
  sandbox: Sandbox,
  type: keyof typeof RESOURCE_PATHS,
  reference: string,
  options: { since: number; subscribers?: number; busKey?: string; timeoutMs?: number },
): Promise<void> {
  const subscribers = options.subscribers ?? 1;
  const key = options.busKey ?? reference;
  await waitFor(
    () => probe.resourceAttached(type, key) >= subscribers && getsOf(sandbox, type, key) > options.since,
    `${subscribers} ${type}Updated subscription(s) on ${reference} to be live`,
    options.timeoutMs ?? 5_000,
  );
}

export async function postWebhook(
  webhookUrl: string,
  secret: string,
  body: string,
  scheme: 'hmac-sha256-hex' | 'sha256-base64' = 'hmac-sha256-hex',
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await post(webhookUrl, body, { 'x-webhook-hash': signBody(body, secret, scheme) });
  return { status: res.status, json: JSON.parse(res.raw) as Record<string, unknown> };
}

// ---------------------------------------------------------------- upstream probe

export interface UpstreamProbe {
  /** fetchCharge/fetchCheckout/... calls started and not yet settled. */
  readonly inFlight: number;
  readonly started: number;
}

/** Counts the gateway's resource fetches as they happen (observes; does not change them). */
export function probeUpstream(upstream: object): UpstreamProbe {
  let inFlight = 0;
  let started = 0;
  const target = upstream as Record<string, unknown>;
  for (const name of ['fetchCharge', 'fetchCheckout', 'fetchTransfer', 'fetchSettlement']) {
    const original = target[name] as (ref: string) => Promise<unknown>;
    target[name] = (ref: string) => {
      inFlight += 1;
      started += 1;
      return original.call(upstream, ref).finally(() => (inFlight -= 1));
    };
  }
  return {
    get inFlight() {
      return inFlight;
    },
    get started() {
      return started;
    },
  };
}
