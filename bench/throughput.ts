// The gateway with its production configuration (live mode: authentication, limits,
// rate limits, audit and request logs, metrics, Redis) against a stub of the payment
// service, each in its own process, the load generator in a third. The direct GET to
// the stub and the same read through the gateway are measured back to back, several
// rounds, and each figure is printed with its goal and the ratio.
//
//   npm run bench                       # every benchmark
//   npx tsx bench/throughput.ts         # this one
//   BENCH_ROUNDS=5 BENCH_SECONDS=5 npx tsx bench/throughput.ts
import { request } from 'undici';
import { latency, load, median, type LoadResult, type Target } from './lib/load.js';
import { resetStub, startBenchStack, startGatewayProcess, stubStats } from './lib/stack.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = 20;
const LATENCY_SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 2000);

/** Sequential round trips in a set of spans: a request that arrives after another's answer is a later trip. */
function roundTrips(spans: Array<[number, number]>): number {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  let trips = 0;
  let currentEnd = -Infinity;
  for (const [arrived, answered] of sorted) {
    if (arrived >= currentEnd) {
      trips++;
      currentEnd = answered;
    } else currentEnd = Math.min(currentEnd, answered);
  }
  return trips;
}

function row(label: string, value: string, goal: string, met: boolean | null) {
  console.log(`${label.padEnd(58)} ${value.padEnd(30)} ${goal.padEnd(22)} ${met === null ? '' : met ? 'met' : 'NOT MET'}`);
}

async function main() {
  console.log(
    `node ${process.version}, ${ROUNDS} rounds of ${SECONDS} s at ${CONNECTIONS} connections, latency over ${LATENCY_SAMPLES} requests`,
  );
  const stack = await startBenchStack();
  const { stubUrl, graphqlUrl, token, jwtSecret } = stack;
  try {
    const reference = 'ch_bench_1';
    const direct: Target = { url: `${stubUrl}/v1/payment/charges/${reference}`, headers: { 'x-api-key': 'k', accept: 'application/json' } };
    const viaGateway: Target = {
      url: graphqlUrl,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        query: 'query Charge($r: String!) { charge(reference: $r) { reference status amount currency phone createdAt } }',
        variables: { r: reference },
      }),
    };
    // Fail loudly on a wrong set-up rather than measure errors.
    const probe = await request(viaGateway.url, { method: 'POST', headers: viaGateway.headers, body: viaGateway.body });
    const probeBody = await probe.body.text();
    if (probe.statusCode !== 200 || probeBody.includes('"errors"'))
      throw new Error(`gateway probe failed: ${probe.statusCode} ${probeBody}`);

    const directRounds: LoadResult[] = [];
    const gatewayRounds: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      directRounds.push(await load(direct, CONNECTIONS, SECONDS));
      gatewayRounds.push(await load(viaGateway, CONNECTIONS, SECONDS));
    }
    const d = median(directRounds);
    const g = median(gatewayRounds);
    if (g.errors || g.non2xx) console.log(`warning: ${g.errors} errors and ${g.non2xx} non-2xx answers through the gateway`);
    console.log('');
    console.log(`${'figure'.padEnd(58)} ${'measured'.padEnd(30)} ${'goal'.padEnd(22)}`);
    const ratio = g.requestsPerSecond / d.requestsPerSecond;
    row(
      'charge(reference) throughput, 20 connections',
      `${Math.round(g.requestsPerSecond)}/s vs ${Math.round(d.requestsPerSecond)}/s direct = ${(ratio * 100).toFixed(1)}%`,
      '>= 12% of direct',
      ratio >= 0.12,
    );

    const directLatency = await latency(direct, LATENCY_SAMPLES);
    const gatewayLatency = await latency(viaGateway, LATENCY_SAMPLES);
    const addedP50 = gatewayLatency.p50Ms - directLatency.p50Ms;
    const addedP99 = gatewayLatency.p99Ms - directLatency.p99Ms;
    row(
      'added latency p50, 1 connection',
      `${addedP50.toFixed(3)} ms (${gatewayLatency.p50Ms.toFixed(3)} vs ${directLatency.p50Ms.toFixed(3)})`,
      '<= 0.3 ms',
      addedP50 <= 0.3,
    );
    row(
      'added latency p99, 1 connection',
      `${addedP99.toFixed(3)} ms (${gatewayLatency.p99Ms.toFixed(3)} vs ${directLatency.p99Ms.toFixed(3)})`,
      '<= 2 ms',
      addedP99 <= 2,
    );

    // Relations: upstream calls and sequential round trips of one page of 50 checkouts with their charges.
    await resetStub(stubUrl, 10);
    const relations = await request(graphqlUrl, {
      method: 'POST',
      headers: viaGateway.headers,
      body: JSON.stringify({ query: '{ checkouts(first: 50) { edges { node { reference charge { status } } } } }' }),
    });
    const relationsBody = JSON.parse(await relations.body.text()) as { errors?: Array<{ extensions?: { code?: string } }> };
    const relationStats = await stubStats(stubUrl);
    await resetStub(stubUrl, 0);
    const trips = roundTrips(relationStats.spans);
    const refused = relationsBody.errors?.length ? `, refused: ${relationsBody.errors[0]!.extensions?.code ?? 'error'}` : '';
    row(
      'checkouts(first: 50) { charge } upstream round trips',
      `${trips} (${relationStats.total} calls${refused})`,
      '2',
      trips <= 2 && !refused,
    );

    // Start to first answer, built tree: a second gateway process, timed from spawn to its first GraphQL answer.
    const started = performance.now();
    const second = await startGatewayProcess(stubUrl, jwtSecret);
    try {
      const first = await request(second.ready[1]!, { method: 'POST', headers: viaGateway.headers, body: viaGateway.body });
      await first.body.text();
      const startMs = performance.now() - started;
      row('start to first answer (built tree)', `${Math.round(startMs)} ms`, '< 1000 ms', startMs < 1000);
    } finally {
      await second.stop();
    }
  } finally {
    await stack.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
