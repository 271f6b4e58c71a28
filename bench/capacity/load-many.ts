// The load generator of the scaling runs: one process (never a replica's CPU) running one autocannon instance
// per replica at once, each with its share of the connections, every request built fresh by
// bench/capacity/operations.ts (own idempotency key, own signed webhook). An answer without the expected
// success (a typed error in a 200) counts as failed. Prints one JSON line: LoadTotals.
//   tsx bench/capacity/load-many.ts '<json: { urls, connections, seconds, kind, spec }>'
import { createRequire } from 'node:module';
import { buildRequest, type LoadKind, type OperationSpec } from './operations.js';

interface AutocannonRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}
interface AutocannonResult {
  requests: { total: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
  duration: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  requests: Array<{
    method: string;
    setupRequest: (req: AutocannonRequest) => AutocannonRequest;
    onResponse: (status: number, body: string) => void;
  }>;
}) => Promise<AutocannonResult>;

// autocannon ships no types: the part of its documented API used here, typed above.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface LoadTotals {
  ok: number;
  failed: number;
  seconds: number;
  perSecond: number;
  /** Worst replica's p50 and p99, ms. */
  p50Ms: number;
  p99Ms: number;
}

const { urls, connections, seconds, kind, spec } = JSON.parse(process.argv[2]!) as {
  urls: string[];
  connections: number;
  seconds: number;
  kind: LoadKind;
  spec: Omit<OperationSpec, 'graphqlUrl'>;
};

let failed = 0;
const results = await Promise.all(
  urls.map((url) => {
    let expect = '';
    return autocannon({
      url,
      connections: Math.max(1, Math.round(connections / urls.length)),
      duration: seconds,
      requests: [
        {
          method: 'POST',
          setupRequest: (req) => {
            const built = buildRequest(kind, { ...spec, graphqlUrl: url });
            expect = built.expect;
            return { ...req, method: 'POST', path: new URL(built.url).pathname, headers: built.headers, body: built.body };
          },
          onResponse: (status, body) => {
            if (status === 200 && !body.includes(expect)) failed++;
          },
        },
      ],
    });
  }),
);
// Answers (any status) in `requests.total`; `errors` are requests that got none (a timeout, a reset).
const answered = results.reduce((n, r) => n + r.requests.total, 0);
const ok = answered - failed - results.reduce((n, r) => n + r.non2xx, 0);
const totals: LoadTotals = {
  ok,
  failed: answered - ok + results.reduce((n, r) => n + r.errors, 0),
  seconds,
  perSecond: ok / seconds,
  p50Ms: Math.max(...results.map((r) => r.latency.p50)),
  p99Ms: Math.max(...results.map((r) => r.latency.p99)),
};
process.stdout.write(`${JSON.stringify(totals)}\n`);
