// What one refused request of a caller over its budget costs the gateway's process, by where it is refused, beside
// the floors below which no refusal can go: a bare graphql-yoga answering `{ __typename }` (the framework's floor:
// every answer yoga writes costs at least that) and a bare node:http server writing a fixed 429 (Node's floor).
// A caller has spent its budget (RATE_LIMIT_STAFF_PER_MINUTE=1) and is refused by Redis once, so the replica knows;
// then wrk floods at 50 times a 2,000-a-minute budget (bench/lib/wrk-flood.ts), each way in turn, rounds alternated
// so a noisy neighbour on this shared machine hits every way alike:
//   before yoga        the default: a JSON query, answered by src/http/early-refusal.ts;
//   in yoga's onParams the same query asking for application/graphql-response+json, which the refusal before yoga
//                      leaves to yoga (src/limits/early-refusals.ts);
//   the full path      a query whose text mentions `mutation` (in a comment): parsed, validated, its context built,
//                      refused by the rate-limit plugin (from memory: rate-limiter-flexible's in-memory block).
// The figure is this process's CPU (user + system) over each period, less its idle rate (measured between the
// floods), per request answered.
// Prints the load average beside the figures; asserts nothing.
//
//   node --import tsx bench/refusal-cost.ts
//   BENCH_REFUSAL_SECONDS=5 BENCH_REFUSAL_ROUNDS=3 node --import tsx bench/refusal-cost.ts
//   BENCH_REFUSAL_PROFILE=/tmp/refusal.cpuprofile …   (the first round's refusals before yoga: bench/lib/profile-summary.ts)
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { createSchema, createYoga } from 'graphql-yoga';
import { request } from 'undici';
import { mintStaffToken } from '../src/auth/index.js';
import { loadConfig } from '../src/config.js';
import { startGateway } from '../src/gateway.js';
import { silentLogger } from '../src/logger.js';
import { connectRedis } from '../src/redis/index.js';
import { startSandbox } from '../src/sandbox/index.js';
import { inProcessGatewayEnv } from './lib/in-process-env.js';
import { deleteNamespace } from './lib/redis-namespace.js';
import { wrkFlood } from './lib/wrk-flood.js';
import { startProfiler } from './lib/in-process-profile.js';

const SECONDS = Number(process.env.BENCH_REFUSAL_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_REFUSAL_ROUNDS ?? 3);
/** 50 times a budget of 2,000 a minute: the noisy neighbour of the platform-mode issue. */
const RATE = Math.round((2_000 / 60) * 50);
const CONNECTIONS = 64;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const QUERY = '{ balance { currency } }';
/** BENCH_REFUSAL_PROFILE=<file>: a CPU profile of the first round's refusals before yoga. */
const PROFILE = process.env.BENCH_REFUSAL_PROFILE ?? null;
const load0 = loadavg();

const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
const jwtSecret = randomBytes(32).toString('hex');
const namespace = `bench-refusal-${randomUUID()}`;
const gateway = await startGateway(
  loadConfig({ ...inProcessGatewayEnv(sandbox.url, jwtSecret, REDIS_URL), RATE_LIMIT_STAFF_PER_MINUTE: '1' }),
  silentLogger,
  { redisNamespace: namespace },
);
const bearer = (await mintStaffToken({ secret: jwtSecret, scopes: ['payments:read'], subject: 'flood', ttlSeconds: 3600 })).token;

/** One POST of the flood's request; its status. */
async function once(url: string, query: string): Promise<number> {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ query }),
  });
  await res.body.dump();
  return res.statusCode;
}
// The budget spent, then the first refusal (by Redis), which tells the replica.
const statuses = [await once(gateway.graphqlUrl, QUERY), await once(gateway.graphqlUrl, QUERY)];
if (statuses.join() !== '200,429') throw new Error(`expected one answer then a refusal, got ${statuses.join()}`);

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
}
const bareYoga = createYoga({
  schema: createSchema({ typeDefs: 'type Query { ok: Boolean }' }),
  graphiql: false,
  logging: false,
});
const yogaServer = createServer(bareYoga);
const yogaUrl = await listening(yogaServer);
const fixed = JSON.stringify({
  errors: [{ message: 'Too many requests: wait 60 s before trying again.', extensions: { code: 'RATE_LIMITED' } }],
});
const nodeServer = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '60' }).end(fixed));
});
const nodeUrl = await listening(nodeServer);

interface Way {
  name: string;
  url: string;
  query: string;
  accept?: string;
  /** What each answer must be counted as (a floor's 200 counts as answered). */
  cpu: number;
  requests: number;
  wrongAnswers: number;
}
const ways: Way[] = [
  { name: 'refused before yoga', url: gateway.graphqlUrl, query: QUERY },
  { name: 'refused in yoga’s onParams', url: gateway.graphqlUrl, query: QUERY, accept: 'application/graphql-response+json' },
  { name: 'refused on the full path', url: gateway.graphqlUrl, query: `${QUERY} # not a mutation` },
  { name: 'floor: bare graphql-yoga, { __typename }', url: yogaUrl, query: '{ __typename }' },
  { name: 'floor: bare node:http, a fixed 429', url: nodeUrl, query: QUERY },
].map((way) => ({ ...way, cpu: 0, requests: 0, wrongAnswers: 0 }));

const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
// The process's own rate with nothing sent (the gateway's timers, the sandbox): measured in each round, between the
// floods, and taken out of every period at its average over the rounds.
let idleCpu = 0;
let idleMs = 0;
const periods: Array<{ way: Way; cpu: number; ms: number }> = [];
for (let round = 0; round < ROUNDS; round++) {
  const [idle0, idleT0] = [cpuNow(), performance.now()];
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1_000));
  [idleCpu, idleMs] = [idleCpu + cpuNow() - idle0, idleMs + performance.now() - idleT0];
  for (const way of ways) {
    const profiler = PROFILE && round === 0 && way === ways[0] ? await startProfiler() : null;
    const flood = wrkFlood(way.url, bearer, way.query, RATE, CONNECTIONS, way.accept);
    const [cpu0, t0] = [cpuNow(), performance.now()];
    await flood.start();
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1_000));
    await flood.stop();
    periods.push({ way, cpu: cpuNow() - cpu0, ms: performance.now() - t0 });
    await profiler?.stop(PROFILE!);
    const { ok, rateLimited, other } = flood.totals;
    way.requests += ok + rateLimited + other;
    // The gateway's ways must all be refusals; the floors' answers are what they are.
    if (way.url === gateway.graphqlUrl) way.wrongAnswers += ok + other;
  }
}
const idleRate = idleCpu / idleMs;
for (const { way, cpu, ms } of periods) way.cpu += cpu - idleRate * ms;

const load1 = loadavg();
const perRequest = (way: Way) => way.cpu / way.requests;
const floor = perRequest(ways.find((w) => w.name.startsWith('floor: bare graphql-yoga'))!);
console.log(
  `Refusal cost: ${ROUNDS} rounds of ${SECONDS} s per way, wrk at ${RATE}/s asked over ${CONNECTIONS} connections, ` +
    `this process's CPU less its idle rate (${((idleRate / 1000) * 100).toFixed(1)}% of a core). ` +
    `Load average before: ${load0.map((l) => l.toFixed(2)).join(' ')}; after: ${load1.map((l) => l.toFixed(2)).join(' ')}`,
);
console.table(
  Object.fromEntries(
    ways.map((way) => [
      way.name,
      {
        'µs of CPU per request': Math.round(perRequest(way)),
        'requests/s reached': Math.round(way.requests / (ROUNDS * SECONDS)),
        'against the yoga floor': `${(perRequest(way) / floor).toFixed(2)}×`,
        'served (a new window’s point) or other': way.wrongAnswers,
        goal: way.name === 'refused before yoga' ? '≤ 120 µs (1,667/s in a fifth of a core)' : '',
      },
    ]),
  ),
);

await new Promise((resolve) => yogaServer.close(resolve));
await new Promise((resolve) => nodeServer.close(resolve));
await gateway.close();
await sandbox.close();
const redis = await connectRedis({ url: REDIS_URL, namespace });
await deleteNamespace(redis, namespace);
await redis.close();
