// What a failover is tested under: a gateway on a Redis topology of the test's
// own (REDIS_MIN_REPLICAS=1), money-moving mutations whose client retries on
// the same idempotency key until it gets its payment, and signed webhooks whose
// sender re-sends anything but a 200, both running while the primary changes.
// Afterwards the payment service's own list says how often each payment was
// made, and `events` and a subscriber resuming with `after` say whether every
// acknowledged webhook is there.
import { randomUUID } from 'node:crypto';
import type { ResultOf, VariablesOf } from '@graphql-typed-document-node/core';
import { request } from 'undici';
import { signBody } from '../../src/inbound-webhooks/signature.js';
import { graphql } from '../gql/index.js';
import { startStack, testKey, type TestStack } from '../helpers/gateway.js';
import { Api, type Json } from '../helpers/sandbox-api.js';
import { waitFor, withTimeout } from '../helpers/wait.js';
import { EventHistory, ResumableEvents } from '../live/event-documents.js';
import { staffClient, subscribe, type TestClient } from '../live/helpers.js';

const Charge = graphql(`
  mutation FailoverCharge($input: CreateChargeInput!) {
    createCharge(input: $input) {
      __typename
      ... on CreateChargePayload { reference }
      ... on UpstreamError { outcomeUnknown retryable }
      ... on PaymentError { code message }
    }
  }
`);

/** The retry pause of the simulated client and sender (their policy, not a wait of the test). */
const RETRY_PAUSE_MS = 25;
const pause = () => new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));

export async function startFailoverStack(env: Record<string, string>): Promise<{ stack: TestStack; rest: Api; namespace: string }> {
  const apiKey = testKey('failover');
  const namespace = `test:failover:${randomUUID()}`;
  const stack = await startStack({
    apiKey,
    redisNamespace: namespace,
    env: {
      REDIS_MIN_REPLICAS: '1',
      REDIS_REPLICA_TIMEOUT_MS: '500',
      SUBSCRIPTION_POLL_MS: '0',
      RECONCILE_AFTER_MS: '3600000',
      LOG_LEVEL: 'info',
      ...env,
    },
  });
  return { stack, rest: new Api(stack.sandbox.url, apiKey), namespace };
}

/** Why payments were retried (code, or 'transport'), for the figures a test prints. */
export const retryReasons = new Map<string, number>();

/** Pays `amount` with `key`, retrying (same key) until the gateway answers with the charge. */
export async function payUntilDone(stack: TestStack, amount: number, key: string): Promise<{ reference: string; attempts: number }> {
  for (let attempts = 1; ; attempts++) {
    const res = await stack
      .gql(Charge, { input: { amount, phone: '58000000', provider: 'OPC_BF', idempotencyKey: key } })
      .catch(() => null);
    const result = res?.data?.createCharge;
    if (result?.__typename === 'CreateChargePayload') return { reference: result.reference, attempts };
    // Refusals that are final would loop forever here: only "try again" answers are retried.
    const code = result && 'code' in result ? result.code : null;
    if (
      result &&
      code !== 'SERVICE_UNAVAILABLE' &&
      code !== 'IDEMPOTENCY_CONFLICT' &&
      !('outcomeUnknown' in result && result.outcomeUnknown) &&
      // Provably not sent (e.g. no pooled connection was free before the deadline): the key was released.
      !('retryable' in result && result.retryable && result.__typename === 'UpstreamError')
    ) {
      throw new Error(`payment ${key} refused for good: ${JSON.stringify(result)}`);
    }
    const reason = result ? `${code ?? result.__typename}${'message' in result ? `: ${result.message}` : ''}` : 'transport';
    retryReasons.set(reason, (retryReasons.get(reason) ?? 0) + 1);
    if (attempts > 2_000) throw new Error(`payment ${key} never went through: ${res?.raw}`);
    await pause();
  }
}

/** Posts a signed webhook until it is answered 200; its event id in the log. */
export async function deliverUntilAcknowledged(stack: TestStack, reference: string): Promise<{ eventId: string; attempts: number }> {
  const body = JSON.stringify({ id: `evt_${reference}`, event: 'charge.success', data: { reference, status: 'success' } });
  for (let attempts = 1; ; attempts++) {
    const reply = await request(stack.gateway.webhookUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-hash': signBody(body, stack.webhookSecret, 'hmac-sha256-hex') },
      body,
    }).catch(() => null);
    const json = reply ? ((await reply.body.json().catch(() => ({}))) as { eventId?: string }) : {};
    if (reply?.statusCode === 200 && json.eventId) return { eventId: json.eventId, attempts };
    if (attempts > 2_000) throw new Error(`webhook ${reference} never acknowledged (last status ${reply?.statusCode})`);
    await pause();
  }
}

/** Runs `tasks` with at most `width` at once. */
export async function inParallel<T>(count: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

/** Charges at the service per amount (the service's own list, every page). */
export async function chargesByAmount(rest: Api): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  for (let page = 1; ; page++) {
    const data = (await rest.get(`/v1/payment/charges?page=${page}&page_size=100`)).body.data as Json[];
    for (const charge of data) counts.set(charge.amount, (counts.get(charge.amount) ?? 0) + 1);
    if (data.length < 100) return counts;
  }
}

/** The reference of every event in the `events` history (one per event). */
export async function historyReferenceList(stack: TestStack): Promise<string[]> {
  const seen: string[] = [];
  let after: string | null = null;
  for (;;) {
    const res: Awaited<ReturnType<typeof stack.gql<ResultOf<typeof EventHistory>, VariablesOf<typeof EventHistory>>>> = await stack.gql(
      EventHistory,
      { first: 100, after },
    );
    if (!res.data) throw new Error(`events failed: ${res.raw}`);
    for (const edge of res.data.events.edges) seen.push(edge.node.reference ?? '');
    if (!res.data.events.pageInfo.hasNextPage) return seen;
    after = res.data.events.pageInfo.endCursor ?? null;
  }
}

export async function historyReferences(stack: TestStack): Promise<Set<string>> {
  return new Set(await historyReferenceList(stack));
}

/**
 * A paymentEvents subscriber that, like a real client, resubscribes with `after` = the last id it received
 * whenever its stream ends (a failover can end it); `references` grows with every event received.
 */
export function resumingSubscriber(
  stack: TestStack,
  after: string | null,
): { references: string[]; resumes: () => number; stop(): Promise<void> } {
  const references: string[] = [];
  let last = after;
  let resumes = 0;
  let stopped = false;
  let client: TestClient = staffClient(stack);
  const open = () => {
    const sub = subscribe(client, ResumableEvents, { after: last });
    void (async () => {
      for (;;) {
        const result = await sub.nextResult(3_600_000).catch(() => null);
        if (!result || stopped) break;
        const event = result.data?.paymentEvents;
        if (!event) break;
        references.push(event.reference ?? '');
        last = event.id;
      }
      if (stopped) return;
      resumes++;
      await client.dispose().catch(() => {});
      client = staffClient(stack);
      open();
    })();
  };
  open();
  return {
    references,
    resumes: () => resumes,
    async stop() {
      stopped = true;
      await client.dispose();
    },
  };
}

/** Subscribes with `after` and collects events until `expected` references were all received. */
export async function replayAfter(stack: TestStack, after: string | null, expected: Set<string>): Promise<string[]> {
  const client = staffClient(stack);
  const sub = subscribe(client, ResumableEvents, { after });
  const got: string[] = [];
  const missing = new Set(expected);
  try {
    await withTimeout(
      (async () => {
        while (missing.size > 0) {
          const reference = (await sub.next(10_000, 'a replayed event')).paymentEvents.reference ?? '';
          got.push(reference);
          missing.delete(reference);
        }
      })(),
      30_000,
      `replay of ${expected.size} events`,
    );
  } finally {
    await client.dispose();
  }
  return got;
}

/**
 * How long waiting for the gateway to serve again may take before the test gives up: a guard against a
 * gateway that never recovers, not a measure (how long a failover takes is printed, and measured in bench/).
 */
const SERVING_AGAIN_GUARD_MS = 60_000;

/** Resolves once a fresh payment and a fresh webhook both go through on the first attempt. */
export async function servingAgain(stack: TestStack, amount: () => number): Promise<void> {
  await waitFor(
    async () => {
      const paid = await payUntilDoneOnce(stack, amount());
      if (!paid) return false;
      return (await deliverUntilAcknowledgedOnce(stack, `probe-${randomUUID()}`)) === 200;
    },
    'the gateway to take payments and webhooks again',
    SERVING_AGAIN_GUARD_MS,
    20,
  );
}

async function payUntilDoneOnce(stack: TestStack, amount: number): Promise<boolean> {
  const res = await stack
    .gql(Charge, { input: { amount, phone: '58000000', provider: 'OPC_BF', idempotencyKey: randomUUID() } })
    .catch(() => null);
  return res?.data?.createCharge.__typename === 'CreateChargePayload';
}

async function deliverUntilAcknowledgedOnce(stack: TestStack, reference: string): Promise<number> {
  const body = JSON.stringify({ id: `evt_${reference}`, event: 'charge.success', data: { reference, status: 'success' } });
  const reply = await request(stack.gateway.webhookUrl!, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-webhook-hash': signBody(body, stack.webhookSecret, 'hmac-sha256-hex') },
    body,
  }).catch(() => null);
  await reply?.body.dump();
  return reply?.statusCode ?? 0;
}

export interface ScenarioResult {
  /** Payments whose charge the service holds other than exactly once. */
  paidOtherThanOnce: Array<{ amount: number; charges: number }>;
  missingFromHistory: string[];
  missingFromLiveSubscriber: string[];
  missingFromReplay: string[];
  /** Milliseconds from the failover's start to the first fresh payment and webhook that went through (printed, not asserted). */
  servingAgainAfterMs: number;
  retries: { payments: number; webhooks: number };
}

/**
 * `mutations` payments (amounts from `firstAmount`) and `webhooks` webhooks, 8 of each at a time; `failover`
 * starts once a quarter of either is done. Then waits for the gateway to serve again, and checks every payment
 * and acknowledged webhook.
 */
export async function failoverDuringTraffic(
  stack: TestStack,
  rest: Api,
  options: { mutations: number; webhooks: number; firstAmount: number; failover: () => Promise<void> },
): Promise<ScenarioResult> {
  const run = randomUUID().slice(0, 8);
  retryReasons.clear();
  const marker = await deliverUntilAcknowledged(stack, `marker-${run}`);
  const live = resumingSubscriber(stack, marker.eventId);
  let failoverStartedAt = 0;
  let failing: Promise<void> | null = null;
  const startFailover = () => {
    failoverStartedAt ||= Date.now();
    failing ??= options.failover();
  };
  let paid = 0;
  let delivered = 0;
  const payments = inParallel(options.mutations, 8, async (i) => {
    const result = await payUntilDone(stack, options.firstAmount + i, `${run}-pay-${i}`);
    if (++paid === Math.ceil(options.mutations / 4)) startFailover();
    return result;
  });
  const references = Array.from({ length: options.webhooks }, (_, i) => `${run}-wh-${i}`);
  const webhooks = inParallel(options.webhooks, 8, async (i) => {
    const result = await deliverUntilAcknowledged(stack, references[i]!);
    if (++delivered === Math.ceil(options.webhooks / 4)) startFailover();
    return result;
  });
  try {
    await waitFor(() => failing !== null, 'a quarter of the traffic', 60_000, 10);
    await failing;
    let probeAmount = 90_000;
    await servingAgain(stack, () => ++probeAmount);
    const servingAgainAfterMs = Date.now() - failoverStartedAt;
    const [paymentResults, webhookResults] = await Promise.all([payments, webhooks]);

    const counts = await chargesByAmount(rest);
    const paidOtherThanOnce = paymentResults
      .map((_, i) => ({ amount: options.firstAmount + i, charges: counts.get(options.firstAmount + i) ?? 0 }))
      .filter((p) => p.charges !== 1);
    const acknowledged = new Set(references);
    const history = await historyReferences(stack);
    await waitFor(
      () => [...acknowledged].every((r) => live.references.includes(r)),
      'the live subscriber to receive every acknowledged webhook',
      20_000,
      20,
    ).catch(() => {});
    const liveSeen = new Set(live.references);
    const replay = new Set(await replayAfter(stack, marker.eventId, acknowledged).catch(() => []));
    return {
      paidOtherThanOnce,
      missingFromHistory: references.filter((r) => !history.has(r)),
      missingFromLiveSubscriber: references.filter((r) => !liveSeen.has(r)),
      missingFromReplay: references.filter((r) => !replay.has(r)),
      servingAgainAfterMs,
      retries: {
        payments: paymentResults.reduce((n, r) => n + r.attempts - 1, 0),
        webhooks: webhookResults.reduce((n, r) => n + r.attempts - 1, 0),
      },
    };
  } finally {
    await live.stop();
  }
}

/**
 * Webhooks and payments acknowledged, then at once the primary SIGKILLed (`kill` resolves once a replica took
 * over): every acknowledged webhook must still be in the log, and a retry of every payment (same key) must get
 * the same charge, made once.
 */
export async function killRightAfterAcknowledging(
  stack: TestStack,
  rest: Api,
  options: { mutations: number; webhooks: number; firstAmount: number; kill: () => Promise<void> },
): Promise<Omit<ScenarioResult, 'missingFromLiveSubscriber' | 'retries'> & { changedReferences: number }> {
  const run = randomUUID().slice(0, 8);
  const marker = await deliverUntilAcknowledged(stack, `marker-${run}`);
  const references = Array.from({ length: options.webhooks }, (_, i) => `${run}-wh-${i}`);
  const keys = Array.from({ length: options.mutations }, (_, i) => `${run}-pay-${i}`);
  const [, paymentResults] = await Promise.all([
    inParallel(options.webhooks, 8, (i) => deliverUntilAcknowledged(stack, references[i]!)),
    inParallel(options.mutations, 8, (i) => payUntilDone(stack, options.firstAmount + i, keys[i]!)),
  ]);
  const killedAt = Date.now();
  await options.kill();
  let probeAmount = 95_000;
  await servingAgain(stack, () => ++probeAmount);
  const servingAgainAfterMs = Date.now() - killedAt;

  const retried = await inParallel(options.mutations, 8, (i) => payUntilDone(stack, options.firstAmount + i, keys[i]!));
  const counts = await chargesByAmount(rest);
  const history = await historyReferences(stack);
  const replay = new Set(await replayAfter(stack, marker.eventId, new Set(references)).catch(() => []));
  return {
    paidOtherThanOnce: keys
      .map((_, i) => ({ amount: options.firstAmount + i, charges: counts.get(options.firstAmount + i) ?? 0 }))
      .filter((p) => p.charges !== 1),
    changedReferences: retried.filter((r, i) => r.reference !== paymentResults[i]!.reference).length,
    missingFromHistory: references.filter((r) => !history.has(r)),
    missingFromReplay: references.filter((r) => !replay.has(r)),
    servingAgainAfterMs,
  };
}

/** A resource change published through the gateway's bus comes back over Redis pub/sub (re-published until it does: SUBSCRIBE is asynchronous). */
export async function pubSubRoundTrip(stack: TestStack): Promise<unknown> {
  const reference = `ch_pubsub_${randomUUID()}`;
  const changes = stack.gateway.bus.subscribeResourceChanged('charge', reference)[Symbol.asyncIterator]();
  const first = changes.next();
  let received = false;
  void first.then(() => (received = true));
  try {
    await waitFor(
      async () => {
        if (!received)
          await stack.gateway.bus.publishResourceChanged({ type: 'charge', reference, status: 'pubsub', resource: {} }).catch(() => {});
        return received;
      },
      'a resource change to come back over pub/sub',
      10_000,
      50,
    );
    return (await first).value;
  } finally {
    await changes.return?.();
  }
}
