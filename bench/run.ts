// Benchmarks of the gateway against the embedded sandbox, all on loopback.
// Prints figures; asserts nothing (speed is measured here, never in tests).
//
//   npm run bench                 # all scenarios
//   BENCH_REQUESTS=5000 npm run bench
//
// Scenarios
// 1. Query round trip: `charge(reference)` through the gateway vs the same
//    GET straight to the sandbox, at fixed concurrency: the gateway's overhead.
// 2. Relation batching: `checkouts(first: 50) { charge }` — upstream calls per
//    operation and latency, with every charge GET delayed 20 ms at the sandbox
//    (so batching and bounded concurrency show up in the latency).
// 3. Webhook ingest: signed deliveries per second through verification,
//    de-duplication and publication to 100 live subscribers.
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { loadConfig } from '../src/config.js';
import { startGateway } from '../src/gateway.js';
import { createLogger } from '../src/logger.js';
import { startSandbox } from '../src/sandbox/index.js';
import { signBody } from '../src/webhooks/signature.js';
import type { Json } from '../test/helpers/sandbox-api.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(label: string, total: number, concurrency: number, one: (i: number) => Promise<void>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        await one(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const row = {
    scenario: label,
    requests: total,
    concurrency,
    'req/s': Math.round(total / seconds),
    'p50 ms': +percentile(latencies, 50).toFixed(2),
    'p95 ms': +percentile(latencies, 95).toFixed(2),
    'p99 ms': +percentile(latencies, 99).toFixed(2),
  };
  console.log(JSON.stringify(row));
  return row;
}

async function gql(url: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.body.json()) as { data?: unknown; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data as Record<string, Json>;
}

async function main() {
  const sandbox = await startSandbox({ port: 0, delays: { payOfflineMs: 1, transferMs: 1 } });
  const apiKey = `sk_test_bench_${randomBytes(6).toString('hex')}`;
  const webhookSecret = randomBytes(16).toString('hex');
  const config = loadConfig({
    PORT: '0',
    PAYMENT_BASE_URL: sandbox.url,
    PAYMENT_API_KEY: apiKey,
    WEBHOOK_SECRET: webhookSecret,
    SUBSCRIPTION_POLL_MS: '0',
    WS_MAX_SUBSCRIPTIONS: '200',
  });
  const gateway = await startGateway(config, createLogger('silent'));
  console.log(`node ${process.version}; ${REQUESTS} requests per scenario, concurrency ${CONCURRENCY}`);

  // A charge to read.
  const created = await gql(
    gateway.graphqlUrl,
    'mutation($i: CreateChargeInput!) { createCharge(input: $i) { ... on CreateChargePayload { reference } } }',
    {
      i: { amount: 1000, phone: '70000000', provider: 'OPB_BF' },
    },
  );
  const reference = created.createCharge.reference as string;

  // 1. Round trip: direct vs through the gateway.
  const direct = await measure('sandbox GET /charges/:ref (direct)', REQUESTS, CONCURRENCY, async () => {
    const res = await request(`${sandbox.url}/v1/payment/charges/${reference}`, {
      headers: { 'x-api-key': apiKey, accept: 'application/json' },
    });
    await res.body.text();
  });
  const viaGateway = await measure('gateway query charge(reference)', REQUESTS, CONCURRENCY, async () => {
    await gql(gateway.graphqlUrl, 'query($r: String!) { charge(reference: $r) { reference status amount feePercent createdAt } }', {
      r: reference,
    });
  });
  console.log(JSON.stringify({ 'gateway overhead p50 ms': +(viaGateway['p50 ms'] - direct['p50 ms']).toFixed(2) }));

  // 2. Relation batching over 50 checkouts whose charges exist: each is paid
  // on the sandbox's payment page (its form endpoint), which attaches a charge.
  for (let i = 0; i < 50; i++) {
    const init = await gql(
      gateway.graphqlUrl,
      'mutation($i: InitializeCheckoutInput!) { initializeCheckout(input: $i) { ... on InitializeCheckoutPayload { authorizationUrl } } }',
      {
        i: { amount: 500 + i, successUrl: 'https://shop.example/ok', cancelUrl: 'https://shop.example/no' },
      },
    );
    const page = await request(`${init.initializeCheckout.authorizationUrl}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ provider: 'opb_bf', phone: '70000000' }).toString(),
    });
    await page.body.text();
  }
  sandbox.faults.add({ method: 'GET', path: /^\/v1\/payment\/charges\/[^/]+\/?$/, kind: 'delay', ms: 20, times: 'unlimited' });
  sandbox.requests.clear();
  const relationOps = 20;
  await measure('gateway checkouts(first: 50) { charge } (charge GETs delayed 20 ms)', relationOps, 1, async () => {
    await gql(gateway.graphqlUrl, '{ checkouts(first: 50) { edges { node { reference charge { status } } } } }');
  });
  console.log(
    JSON.stringify({
      'upstream calls per operation': sandbox.requests.count() / relationOps,
      'of which charge GETs': sandbox.requests.count({ method: 'GET', path: /^\/v1\/payment\/charges\// }) / relationOps,
    }),
  );
  sandbox.faults.clear();

  // 3. Webhook ingest with 100 live subscribers.
  const client = createClient({ url: gateway.graphqlUrl.replace(/^http/, 'ws'), webSocketImpl: WebSocket, lazy: false });
  let delivered = 0;
  const subscribers = 100;
  const disposers = Array.from({ length: subscribers }, () =>
    client.subscribe(
      { query: 'subscription { paymentEvents { id kind } }' },
      { next: () => void delivered++, error: () => {}, complete: () => {} },
    ),
  );
  await new Promise((r) => setTimeout(r, 300));
  const deliveries = Math.min(REQUESTS, 1000);
  await measure(`webhook ingest (verify + dedupe + publish to ${subscribers} subscribers)`, deliveries, CONCURRENCY, async (i) => {
    const body = JSON.stringify({ event: 'transfer.success', data: { reference: `tr_bench_${i}`, status: 'success' } });
    const res = await request(gateway.webhookUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-hash': signBody(body, webhookSecret, 'hmac-sha256-hex') },
      body,
    });
    await res.body.text();
  });
  const deadline = Date.now() + 5000;
  while (delivered < deliveries * subscribers && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  console.log(JSON.stringify({ 'subscription deliveries': delivered, expected: deliveries * subscribers }));
  disposers.forEach((d) => d());
  await client.dispose();

  await gateway.close();
  await sandbox.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
