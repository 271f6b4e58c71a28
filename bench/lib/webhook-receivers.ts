// The merchants' receivers for bench/webhooks.ts, in a process of their own: `healthy` servers that answer 204 at
// once, and `silent` ones that take each request and never answer (a hung receiver: the gateway's timeout ends
// each attempt). Each server has its own port, so each is its own origin, as separate merchants are. Each notes,
// per request, when it arrived (epoch ms, high resolution: comparable with the bench's clock in another process)
// and what it was about (the payload's data.reference) and its webhook-id.
// Prints "RECEIVERS READY <json urls>"; answers on stdin:
//   "arrivals <prefix>"  -> "arrivals <json [endpointIndex, reference, epochMs][]>" of the references starting with prefix
//   "count <prefix>"     -> "count <n>": arrivals of the references starting with prefix
//   "counts"             -> "counts <json { requests, distinct, held }>"
//   "close <index>"      -> "closed <index>" (its port then refuses connections)
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';

const { healthy, silent } = JSON.parse(process.argv[2]!) as { healthy: number; silent: number };
const epochNow = () => performance.timeOrigin + performance.now();

const arrivals: Array<[number, string, number]> = [];
const seen = new Set<string>();
let requests = 0;
const held: ServerResponse[] = [];

function referenceOf(body: string): string {
  // Cheaper than JSON.parse for a fast receiver; the gateway writes "reference":"<value>" as JSON does.
  const match = /"reference":"([^"]*)"/.exec(body);
  return match ? match[1]! : '-';
}

function receiver(index: number, answers: boolean): Server {
  const server = createServer((req, res) => {
    const arrived = epochNow();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests++;
      const id = String(req.headers['webhook-id'] ?? '');
      seen.add(`${index} ${id}`);
      arrivals.push([index, referenceOf(Buffer.concat(chunks).toString('utf8')), arrived]);
      if (answers) res.writeHead(204).end();
      else held.push(res);
    });
  });
  server.keepAliveTimeout = 60_000;
  return server;
}

const servers: Server[] = [];
for (let i = 0; i < healthy + silent; i++) {
  const server = receiver(i, i < healthy);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
}
const urls = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/hooks`);

createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, argument = ''] = line.split(' ');
  if (command === 'arrivals') {
    process.stdout.write(`arrivals ${JSON.stringify(arrivals.filter(([, reference]) => reference.startsWith(argument)))}\n`);
  } else if (command === 'count') {
    process.stdout.write(`count ${arrivals.reduce((n, [, reference]) => (reference.startsWith(argument) ? n + 1 : n), 0)}\n`);
  } else if (command === 'counts') {
    process.stdout.write(`counts ${JSON.stringify({ requests, distinct: seen.size, held: held.length })}\n`);
  } else if (command === 'close') {
    const server = servers[Number(argument)]!;
    server.closeAllConnections();
    server.close(() => process.stdout.write(`closed ${argument}\n`));
  }
});
process.on('SIGTERM', () => process.exit(0));
process.stdout.write(`RECEIVERS READY ${JSON.stringify(urls)}\n`);
