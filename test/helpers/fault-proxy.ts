// An HTTP proxy in front of the sandbox that injects the faults a real network
// and a real payment service produce, AFTER the service has processed the
// request where that is the point: the answer is lost, late, or replaced by a
// 500 / an HTML 502. It can also refuse connections (nothing listens on its
// port) so a client sees a failure that provably never left it.
//
// Rules match on method and path (string: exact pathname; RegExp: tested on
// the pathname) and apply to the next `times` matching requests (default 1).
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FaultAction =
  /** Forward, let the service process it, then close the connection without answering. */
  | { kind: 'drop' }
  /** Forward, then answer 500 {"status":false,"error_code":"INTERNAL_ERROR"}. */
  | { kind: 'status500' }
  /** Forward, then answer an HTML 502 (a load balancer's page). */
  | { kind: 'html502' }
  /** Forward, then hold the service's answer until `release()` of the rule is called (or the client gives up). */
  | { kind: 'hold' }
  /** Answer 500 INTERNAL_ERROR WITHOUT forwarding (nothing processed). */
  | { kind: 'status500-unprocessed' }
  /** Answer an HTML 502 WITHOUT forwarding (a proxy that could not reach the service: nothing processed). */
  | { kind: 'html502-unprocessed' };

export interface FaultRule {
  method?: string;
  path?: string | RegExp;
  /** How many matching requests the rule applies to. Default 1. */
  times?: number;
  action: FaultAction;
}

export interface InjectedFault {
  /** Matching requests the rule has handled so far. */
  readonly hits: number;
  /** Resolves when the rule has handled `n` requests (default: all its `times`). */
  handled(n?: number): Promise<void>;
  /** For `hold`: sends the held answers (and any later ones) on. */
  release(): void;
}

export interface SeenRequest {
  method: string;
  path: string;
  /** The fault applied, or 'forward'. */
  outcome: FaultAction['kind'] | 'forward';
}

export interface FaultProxy {
  readonly url: string;
  readonly requests: SeenRequest[];
  inject(rule: FaultRule): InjectedFault;
  /** Stops listening: new connections are refused (ECONNREFUSED) until accept(). Open connections are cut. */
  refuseConnections(): Promise<void>;
  acceptConnections(): Promise<void>;
  close(): Promise<void>;
}

interface ActiveRule {
  rule: FaultRule;
  remaining: number;
  hits: number;
  released: boolean;
  waiters: Array<() => void>;
  held: Array<() => void>;
}

const INTERNAL_ERROR_BODY = JSON.stringify({ status: false, message: 'Internal server error', error_code: 'INTERNAL_ERROR' });
const HTML_502 = '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>';
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade']);

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const targetUrl = new URL(target);
  const rules: ActiveRule[] = [];
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();

  const match = (req: IncomingMessage): ActiveRule | undefined => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    return rules.find(
      (r) =>
        r.remaining > 0 &&
        (!r.rule.method || r.rule.method.toUpperCase() === req.method) &&
        (r.rule.path === undefined || (typeof r.rule.path === 'string' ? r.rule.path === path : r.rule.path.test(path))),
    );
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readAll(req);
    const active = match(req);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const outcome = active?.rule.action.kind ?? 'forward';
    requests.push({ method: req.method ?? 'GET', path, outcome });
    if (active) active.remaining -= 1;
    const done = () => {
      if (!active) return;
      active.hits += 1;
      for (const w of active.waiters.splice(0)) w();
    };

    if (outcome === 'status500-unprocessed') {
      send(res, 500, 'application/json', INTERNAL_ERROR_BODY);
      return done();
    }
    if (outcome === 'html502-unprocessed') {
      send(res, 502, 'text/html', HTML_502);
      return done();
    }
    let answer: { status: number; headers: IncomingMessage['headers']; body: Buffer };
    try {
      answer = await forward(targetUrl, req, body);
    } catch {
      res.destroy();
      return done();
    }
    switch (outcome) {
      case 'drop':
        res.socket?.destroy();
        break;
      case 'status500':
        send(res, 500, 'application/json', INTERNAL_ERROR_BODY);
        break;
      case 'html502':
        send(res, 502, 'text/html', HTML_502);
        break;
      case 'hold':
        if (!active!.released) {
          done();
          await new Promise<void>((resolve) => active!.held.push(resolve));
          relay(res, answer);
          return;
        }
        relay(res, answer);
        break;
      default:
        relay(res, answer);
    }
    done();
  };

  let server: Server = createServer((req, res) => void handle(req, res));
  const track = (s: Server) =>
    s.on('connection', (socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
  track(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  let listening = true;

  const stopListening = async () => {
    if (!listening) return;
    listening = false;
    for (const rule of rules) for (const h of rule.held.splice(0)) h();
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  };

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    inject(rule) {
      const active: ActiveRule = { rule, remaining: rule.times ?? 1, hits: 0, released: false, waiters: [], held: [] };
      rules.push(active);
      return {
        get hits() {
          return active.hits;
        },
        handled(n = rule.times ?? 1) {
          if (active.hits >= n) return Promise.resolve();
          return new Promise<void>((resolve) => {
            const check = () => (active.hits >= n ? resolve() : active.waiters.push(check));
            active.waiters.push(check);
          });
        },
        release() {
          active.released = true;
          for (const h of active.held.splice(0)) h();
        },
      };
    },
    refuseConnections: stopListening,
    async acceptConnections() {
      if (listening) return;
      server = createServer((req, res) => void handle(req, res));
      track(server);
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      listening = true;
    },
    close: stopListening,
  };
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function forward(
  target: URL,
  req: IncomingMessage,
  body: Buffer,
): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> {
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.has(name) && name !== 'host'));
  return new Promise((resolve, reject) => {
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...headers, 'content-length': body.length },
      },
      (res) => void readAll(res).then((b) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: b }), reject),
    );
    upstream.on('error', reject);
    upstream.end(body);
  });
}

function relay(res: ServerResponse, answer: { status: number; headers: IncomingMessage['headers']; body: Buffer }): void {
  if (res.destroyed) return;
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && name !== 'content-length') res.setHeader(name, value);
  }
  res.setHeader('content-length', answer.body.length);
  res.statusCode = answer.status;
  res.end(answer.body);
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.statusCode = status;
  res.setHeader('content-type', type);
  res.setHeader('content-length', Buffer.byteLength(body));
  res.end(body);
}
