// The fan-out benchmark's direct baseline: the least a server can do to deliver one event to
// every subscriber over graphql-ws. A bare `ws` server speaks just enough of the protocol
// (connection_ack, then `next` frames for each subscription) and, on POST /broadcast?marker=X,
// writes one `next` frame per subscription with the payload the gateway would send. The
// subscriber processes and the timing are the gateway benchmark's own, so the difference
// between the two figures is what the gateway adds.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

const subscriptions: Array<{ socket: WebSocket; id: string }> = [];
let sequence = 0;

const server = createServer((req, res) => {
  const marker = new URL(req.url ?? '/', 'http://x').searchParams.get('marker') ?? '';
  req.resume();
  req.on('end', () => {
    res.writeHead(200).end('{"ok":true}');
    const payload = JSON.stringify({
      data: { paymentEvents: { id: `${Date.now()}-${sequence++}`, kind: 'charge.success', reference: marker } },
    });
    for (const { socket, id } of subscriptions) socket.send(`{"id":${JSON.stringify(id)},"type":"next","payload":${payload}}`);
  });
});
const wss = new WebSocketServer({ server, path: '/graphql', handleProtocols: () => 'graphql-transport-ws' });
wss.on('connection', (socket) => {
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { type: string; id?: string };
    if (message.type === 'connection_init') socket.send('{"type":"connection_ack"}');
    else if (message.type === 'subscribe') subscriptions.push({ socket, id: message.id! });
    else if (message.type === 'ping') socket.send('{"type":"pong"}');
  });
  socket.on('close', () => {
    for (let i = subscriptions.length - 1; i >= 0; i--) if (subscriptions[i]!.socket === socket) subscriptions.splice(i, 1);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`BASELINE READY http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql\n`);
});
