// The gateway with its production configuration (live mode: authentication, limits,
// rate limits, audit and request logs, metrics, Redis) against a stub of the payment
// service, each in its own process, the load generator in a third. The direct GET to
// the stub and the same read through the gateway are measured back to back, several
// rounds, and each figure is printed with its goal and the ratio. The gateway runs on
// the machine's Node and on the production one (the Dockerfile's), side by side in the
// same rounds against the same direct baseline (bench/lib/runtimes.ts; BENCH_NODES). Beside each, the same read
// served by a bare graphql-yoga (bench/lib/yoga-floor.ts): the framework's floor, below which nothing of ours can go.
//
//   npm run bench                       # every benchmark
//   npx tsx bench/throughput.ts         # this one
//   BENCH_ROUNDS=5 BENCH_SECONDS=5 npx tsx bench/throughput.ts
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { latencySamples, load, median, percentiles, type LoadResult, type Target } from './lib/load.js';
import { benchRuntimes, cpuSecondsOf, type Runtime } from './lib/runtimes.js';
import { ROOT, TSX_LOADER, resetStub, startBenchStack, startGatewayProcess, stubStats, type BenchStack } from './lib/stack.js';
import { startChild, type Child } from './lib/processes.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = 20;
/**
 * Load each target takes before the rounds: V8 keeps optimising the gateway's hot functions through its first
 * ten-odd thousand requests (measured: 830 then 660 µs of CPU per request in the first two 3-s rounds, 440-530 µs
 * from the third on, Node 24), and a replica serves millions. The rounds measure that steady state; the start is
 * measured on its own ("start to first answer").
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 8);
const LATENCY_SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 2000);
/** The latency samples are taken in this many alternating slices per target, then merged. */
const LATENCY_ROUNDS = 4;
// The goals of issue 29.
const GOAL_RATIO = 0.08;
const GOAL_ADDED_P50_MS = 0.25;
const GOAL_ADDED_P99_MS = 2;

const QUERY = 'query Charge($r: String!) { charge(reference: $r) { reference status amount currency phone createdAt } }';
const QUERY_HASH = createHash('sha256').update(QUERY).digest('hex');

/** The gateways trust the bench's document (TRUSTED_DOCUMENTS=allow, the default): it is also sent by its hash. */
function trustedManifestEnv(): Record<string, string> {
  const file = join(mkdtempSync(join(tmpdir(), 'bench-trusted-')), 'manifest.json');
  writeFileSync(file, JSON.stringify({ [QUERY_HASH]: QUERY }));
  return { TRUSTED_DOCUMENTS_MANIFEST: file };
}

/** The gateway on one runtime, sent the document one way, and what was measured of it. */
interface Contender {
  runtime: Runtime;
  /** How the document is sent: its text, or its trusted-document hash; 'floor': the bare yoga of bench/lib/yoga-floor.ts. */
  sent: 'text' | 'hash' | 'floor';
  gateway: Child;
  target: Target;
  rounds: LoadResult[];
  /** Gateway CPU microseconds per answered request, per round. */
  cpuPerRequest: number[];
  latency: number[];
}

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
  console.log(`${label.padEnd(72)} ${value.padEnd(36)} ${goal.padEnd(18)} ${met === null ? '' : met ? 'met' : 'NOT MET'}`);
}

const machineLoad = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${availableParallelism()} cores`;
const midOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function probe(target: Target): Promise<void> {
  // Fail loudly on a wrong set-up rather than measure errors.
  const res = await request(target.url, { method: 'POST', headers: target.headers, body: target.body });
  const body = await res.body.text();
  if (res.statusCode !== 200 || body.includes('"errors"')) throw new Error(`gateway probe failed: ${res.statusCode} ${body}`);
}

async function contenders(stack: BenchStack, runtimes: Runtime[], env: Record<string, string>): Promise<Contender[]> {
  const started: Contender[] = [];
  for (const runtime of runtimes) {
    const gateway =
      runtime.node === process.execPath ? stack.gateway : await startGatewayProcess(stack.stubUrl, stack.jwtSecret, env, runtime.node);
    console.log(`gateway on node ${runtime.version}: pid ${gateway.process.pid} (${runtime.node})`);
    for (const sent of ['text', 'hash'] as const) {
      const variables = { r: 'ch_bench_1' };
      const body =
        sent === 'text'
          ? { query: QUERY, variables }
          : { variables, extensions: { persistedQuery: { version: 1, sha256Hash: QUERY_HASH } } };
      const target: Target = {
        url: gateway.ready[1]!,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.token}` },
        body: JSON.stringify(body),
      };
      await probe(target);
      started.push({ runtime, sent, gateway, target, rounds: [], cpuPerRequest: [], latency: [] });
    }
    const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
    const floor = await startChild(
      runtime.node,
      [...profile, '--import', TSX_LOADER, join(ROOT, 'bench/lib/yoga-floor.ts'), stack.stubUrl],
      {
        label: 'floor',
        ready: /FLOOR READY (\S+)/,
      },
    );
    const target: Target = {
      url: floor.ready[1]!,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: QUERY, variables: { r: 'ch_bench_1' } }),
    };
    await probe(target);
    started.push({ runtime, sent: 'floor', gateway: floor, target, rounds: [], cpuPerRequest: [], latency: [] });
  }
  return started;
}

/** Alternating rounds: the direct GET, then the gateway on each runtime, so a noisy neighbour hits all alike. */
async function throughputRounds(direct: Target, all: Contender[]): Promise<LoadResult> {
  const directRounds: LoadResult[] = [];
  await load(direct, CONNECTIONS, Math.ceil(WARMUP_SECONDS / 2));
  for (const contender of all) await load(contender.target, CONNECTIONS, WARMUP_SECONDS);
  for (let round = 0; round < ROUNDS; round++) {
    directRounds.push(await load(direct, CONNECTIONS, SECONDS));
    // Each round starts with another contender, so that whatever the direct round leaves behind (a stub and a machine
    // busy with its 20,000-odd requests a second) does not weigh on one contender's every round.
    for (const contender of [...all.slice(round % all.length), ...all.slice(0, round % all.length)]) {
      const pid = contender.gateway.process.pid!;
      const cpuBefore = cpuSecondsOf(pid);
      const result = await load(contender.target, CONNECTIONS, SECONDS);
      const cpuAfter = cpuSecondsOf(pid);
      contender.rounds.push(result);
      if (cpuBefore !== null && cpuAfter !== null) contender.cpuPerRequest.push(((cpuAfter - cpuBefore) * 1e6) / result.total);
    }
  }
  return median(directRounds);
}

/** Latency at one connection, in slices alternated between the direct GET and each contender; the direct samples. */
async function latencyRounds(direct: Target, all: Contender[]): Promise<number[]> {
  const directSamples: number[] = [];
  const slice = Math.ceil(LATENCY_SAMPLES / LATENCY_ROUNDS);
  for (let round = 0; round < LATENCY_ROUNDS; round++) {
    directSamples.push(...(await latencySamples(direct, slice)));
    for (const contender of all) contender.latency.push(...(await latencySamples(contender.target, slice)));
  }
  return directSamples;
}

async function speedRows(direct: Target, all: Contender[]): Promise<void> {
  const d = await throughputRounds(direct, all);
  const directLatency = percentiles(await latencyRounds(direct, all));
  console.log(`\n${'figure'.padEnd(72)} ${'measured'.padEnd(36)} ${'goal'.padEnd(18)}`);
  for (const contender of all) {
    const node = `node ${contender.runtime.version}${contender.sent === 'hash' ? ', by hash' : ''}`;
    if (contender.sent === 'floor') {
      floorRows(contender, d, directLatency, all);
      continue;
    }
    const g = median(contender.rounds);
    if (g.errors || g.non2xx) console.log(`warning (${node}): ${g.errors} errors and ${g.non2xx} non-2xx answers`);
    const ratio = g.requestsPerSecond / d.requestsPerSecond;
    row(
      `charge(reference) throughput, ${CONNECTIONS} connections, ${node}`,
      `${Math.round(g.requestsPerSecond)}/s vs ${Math.round(d.requestsPerSecond)}/s direct = ${(ratio * 100).toFixed(1)}%`,
      `>= ${GOAL_RATIO * 100}% of direct`,
      ratio >= GOAL_RATIO,
    );
    const cpu = midOf(contender.cpuPerRequest);
    row(`  gateway CPU per request (user + system), ${node}`, Number.isNaN(cpu) ? 'n/a' : `${Math.round(cpu)} µs`, '', null);
    const gatewayLatency = percentiles(contender.latency);
    const addedP50 = gatewayLatency.p50Ms - directLatency.p50Ms;
    const addedP99 = gatewayLatency.p99Ms - directLatency.p99Ms;
    const vs = (a: number, b: number) => `(${a.toFixed(3)} vs ${b.toFixed(3)})`;
    row(
      `added latency p50, 1 connection, ${node}`,
      `${addedP50.toFixed(3)} ms ${vs(gatewayLatency.p50Ms, directLatency.p50Ms)}`,
      `<= ${GOAL_ADDED_P50_MS} ms`,
      addedP50 <= GOAL_ADDED_P50_MS,
    );
    row(
      `added latency p99, 1 connection, ${node}`,
      `${addedP99.toFixed(3)} ms ${vs(gatewayLatency.p99Ms, directLatency.p99Ms)}`,
      `<= ${GOAL_ADDED_P99_MS} ms`,
      addedP99 <= GOAL_ADDED_P99_MS,
    );
  }
}

/**
 * The bare yoga's figures, and how much of the gateway's CPU per request is above it: the floor is what graphql-yoga,
 * graphql-js and undici cost for this read on this machine, which no change of ours can go below.
 */
function floorRows(floor: Contender, d: LoadResult, directLatency: ReturnType<typeof percentiles>, all: Contender[]): void {
  const node = `node ${floor.runtime.version}`;
  const f = median(floor.rounds);
  const latency = percentiles(floor.latency);
  const floorCpu = midOf(floor.cpuPerRequest);
  row(
    `  floor: bare graphql-yoga + undici, same read, ${node}`,
    `${Math.round(f.requestsPerSecond)}/s = ${((f.requestsPerSecond / d.requestsPerSecond) * 100).toFixed(1)}%, ${Math.round(floorCpu)} µs`,
    'throughput, CPU',
    null,
  );
  row(
    `  floor: added latency p50 / p99, 1 connection, ${node}`,
    `${(latency.p50Ms - directLatency.p50Ms).toFixed(3)} / ${(latency.p99Ms - directLatency.p99Ms).toFixed(3)} ms`,
    '',
    null,
  );
  for (const gateway of all.filter((c) => c.runtime === floor.runtime && c.sent !== 'floor')) {
    const cpu = midOf(gateway.cpuPerRequest);
    row(
      `  gateway CPU per request above the floor, ${node}${gateway.sent === 'hash' ? ', by hash' : ''}`,
      `${Math.round(cpu - floorCpu)} µs (${Math.round(((cpu - floorCpu) / cpu) * 100)}% of ${Math.round(cpu)} µs)`,
      '',
      null,
    );
  }
}

/** Upstream calls and sequential round trips of one page of 50 checkouts with their charges. */
async function relationRow(stubUrl: string, target: Target): Promise<void> {
  await resetStub(stubUrl, 10);
  const relations = await request(target.url, {
    method: 'POST',
    headers: target.headers,
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
}

/** Start to first answer, built tree: another gateway process, timed from spawn to its first GraphQL answer. */
async function startRow(stack: BenchStack, contender: Contender): Promise<void> {
  const started = performance.now();
  const second = await startGatewayProcess(stack.stubUrl, stack.jwtSecret, {}, contender.runtime.node);
  try {
    const first = await request(second.ready[1]!, { method: 'POST', headers: contender.target.headers, body: contender.target.body });
    await first.body.text();
    const startMs = performance.now() - started;
    row(`start to first answer (built tree), node ${contender.runtime.version}`, `${Math.round(startMs)} ms`, '< 1000 ms', startMs < 1000);
  } finally {
    await second.stop();
  }
}

async function main() {
  const runtimes = benchRuntimes(ROOT);
  console.log(
    `bench on node ${process.version}; gateway on ${runtimes.map((r) => `node ${r.version}`).join(' and ')}; ` +
      `${WARMUP_SECONDS} s of warm-up per target, then ${ROUNDS} rounds of ${SECONDS} s at ${CONNECTIONS} connections, latency over ${LATENCY_SAMPLES} requests in ${LATENCY_ROUNDS} alternating slices; ${machineLoad()}`,
  );
  const env = trustedManifestEnv();
  const stack = await startBenchStack(env);
  const extra: Child[] = [];
  try {
    const all = await contenders(stack, runtimes, env);
    extra.push(...new Set(all.map((c) => c.gateway).filter((g) => g !== stack.gateway)));
    const direct: Target = {
      url: `${stack.stubUrl}/v1/payment/charges/ch_bench_1`,
      headers: { 'x-api-key': 'k', accept: 'application/json' },
    };
    await speedRows(direct, all);
    await relationRow(stack.stubUrl, all[0]!.target);
    for (const contender of all.filter((c) => c.sent === 'text')) await startRow(stack, contender);
    console.log(`\nafter the run: ${machineLoad()}`);
  } finally {
    for (const gateway of extra) await gateway.stop();
    await stack.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
