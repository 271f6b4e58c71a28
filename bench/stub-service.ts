// A stub of the payment service for benchmarks: it answers recorded responses of
// the sandbox (a full charge object, a page of 50 checkouts, the balances) as fast
// as Node can, so that what the benchmark sees is the gateway's cost. It counts the
// requests it answers and can hold each answer for a fixed delay (to expose how many
// sequential round trips an operation makes). Prints "STUB READY <url>".
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubFixtures {
  charge: Record<string, unknown>;
  /** The first page of the charge list (the charges of the checkouts among them). */
  charges: Record<string, unknown>;
  checkouts: Record<string, unknown>;
  balances: Record<string, unknown>;
  /** Answers of POST /charges/ and POST /transfers/ (bench/capacity.ts records them); without them both are 404. */
  created?: { charge: Record<string, unknown>; transfer: Record<string, unknown> };
}

const fixtures = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as StubFixtures;
const chargeData = (fixtures.charge as { data: Record<string, unknown> }).data;
const checkoutsBody = JSON.stringify(fixtures.checkouts);
const chargesBody = JSON.stringify(fixtures.charges);
const balancesBody = JSON.stringify(fixtures.balances);
const notFound = JSON.stringify({ status: false, message: 'Not found' });

let delayMs = 0;
/** Status of a charge moved by the benchmark (what a webhook then announces); others keep the recorded one. */
const statusOf = new Map<string, string>();
let total = 0;
const byRoute: Record<string, number> = {};
/** [arrival, answer] of each request since the last reset, in ms. */
let spans: Array<[number, number]> = [];

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0]!;
  if (path === '/_stub/stats') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ total, byRoute, spans }));
    return;
  }
  if (path === '/_stub/status') {
    const query = new URL(req.url!, 'http://stub').searchParams;
    statusOf.set(query.get('reference')!, query.get('status')!);
    res.writeHead(204).end();
    return;
  }
  if (path === '/_stub/reset') {
    total = 0;
    spans = [];
    for (const key of Object.keys(byRoute)) delete byRoute[key];
    delayMs = Number(new URL(req.url!, 'http://stub').searchParams.get('delay_ms') ?? 0);
    res.writeHead(204).end();
    return;
  }
  const arrived = performance.now();
  let route: string;
  let status = 200;
  let body: string;
  const charge = /^\/v1\/payment\/charges\/([^/]+)\/?$/.exec(path);
  if (req.method === 'GET' && charge) {
    route = 'GET /charges/:reference';
    const reference = charge[1]!;
    body = JSON.stringify({ ...fixtures.charge, data: { ...chargeData, reference, status: statusOf.get(reference) ?? chargeData.status } });
  } else if (req.method === 'GET' && /^\/v1\/payment\/charges\/?$/.test(path)) {
    route = 'GET /charges';
    body = chargesBody;
  } else if (req.method === 'GET' && /^\/v1\/payment\/checkouts\/?$/.test(path)) {
    route = 'GET /checkouts';
    body = checkoutsBody;
  } else if (req.method === 'GET' && /^\/v1\/payment\/balances\/?$/.test(path)) {
    route = 'GET /balances';
    body = balancesBody;
  } else if (req.method === 'POST' && fixtures.created && /^\/v1\/payment\/(charges|transfers)\/?$/.test(path)) {
    // Every money mutation gets a reference of its own, as from the service.
    const kind = path.includes('/charges') ? 'charge' : 'transfer';
    route = `POST /${kind}s`;
    status = 201;
    const answer = fixtures.created[kind] as { data: Record<string, unknown> };
    body = JSON.stringify({ ...answer, data: { ...answer.data, reference: `${answer.data.reference as string}-${total}` } });
  } else {
    route = 'other';
    status = 404;
    body = notFound;
  }
  total++;
  byRoute[route] = (byRoute[route] ?? 0) + 1;
  const answer = () => {
    spans.push([arrived, performance.now()]);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  };
  // Drain the request body before answering (keep-alive needs it consumed).
  req.resume();
  req.once('end', () => (delayMs > 0 ? setTimeout(answer, delayMs) : answer()));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`STUB READY http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
