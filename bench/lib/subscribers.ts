// A process holding many graphql-ws connections to the gateway, for the fan-out
// benchmarks. It records when each live result arrives (epoch milliseconds with
// sub-millisecond precision, comparable across processes of this machine) and
// answers the benchmark over stdin/stdout, one line per command:
//   count <marker>  ->  count <marker> <n>       results received for that marker
//   times <marker>  ->  times <marker> <json>    their arrival times
// Modes: "events" subscribes every connection to paymentEvents (the marker is the
// event's reference); "charges" subscribes connection i to chargeUpdated of
// `${prefix}${offset + i}` (the marker is the reference, counted after the first,
// current-state result); "idle" only connects and authenticates. `tokens` (optional) spreads the connections over
// several callers (connection i authenticates with tokens[i % tokens.length]); `perConnection` (events mode) opens
// that many paymentEvents subscriptions on each connection.
import { createInterface } from 'node:readline';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

interface Spec {
  url: string;
  token: string;
  connections: number;
  mode: 'events' | 'charges' | 'idle';
  prefix?: string;
  offset?: number;
  tokens?: string[];
  perConnection?: number;
}

const spec = JSON.parse(process.argv[2]!) as Spec;
const now = () => performance.timeOrigin + performance.now();
const arrivals = new Map<string, number[]>();
const record = (marker: string) => {
  const at = now();
  const list = arrivals.get(marker);
  if (list) list.push(at);
  else arrivals.set(marker, [at]);
};

const clients: Client[] = [];
let subscribed = 0;

async function open(i: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const client = createClient({
      url: spec.url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      lazy: false,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${spec.tokens ? spec.tokens[i % spec.tokens.length] : spec.token}` },
      on: { connected: () => resolve(), closed: () => undefined },
      onNonLazyError: reject,
    });
    clients.push(client);
    if (spec.mode === 'events') {
      for (let k = 0; k < (spec.perConnection ?? 1); k++) {
        client.subscribe<{ paymentEvents: { reference: string } }>(
          { query: 'subscription { paymentEvents { id kind reference } }' },
          {
            next: (r) => (r.data ? record(r.data.paymentEvents.reference) : undefined),
            error: () => undefined,
            complete: () => undefined,
          },
        );
      }
    } else if (spec.mode === 'charges') {
      const reference = `${spec.prefix}${(spec.offset ?? 0) + i}`;
      let first = true;
      client.subscribe(
        { query: 'subscription($r: String!) { chargeUpdated(reference: $r) { reference status } }', variables: { r: reference } },
        {
          next: () => {
            if (first) {
              first = false;
              subscribed++;
            } else record(reference);
          },
          error: () => undefined,
          complete: () => undefined,
        },
      );
    }
  });
}

// Connect a few hundred at a time: a burst of thousands of handshakes measures the accept queue.
const BATCH = 200;
for (let start = 0; start < spec.connections; start += BATCH) {
  await Promise.all(Array.from({ length: Math.min(BATCH, spec.connections - start) }, (_, k) => open(start + k)));
}
if (spec.mode === 'charges') while (subscribed < spec.connections) await new Promise((r) => setTimeout(r, 20));
process.stdout.write('SUBSCRIBERS READY\n');

createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, marker] = line.trim().split(' ') as [string, string];
  if (command === 'count') process.stdout.write(`count ${marker} ${arrivals.get(marker)?.length ?? 0}\n`);
  else if (command === 'times') process.stdout.write(`times ${marker} ${JSON.stringify(arrivals.get(marker) ?? [])}\n`);
  else if (command === 'quit') {
    for (const client of clients) void client.dispose();
    process.exit(0);
  }
});
