// Request bodies above MAX_BODY_BYTES are answered 413 before anything parses
// them: a declared Content-Length is checked first, and a body sent without
// one (chunked) is counted as it arrives. An admitted body is handed to yoga
// whole (it would read it whole anyway), so it is buffered at most once and
// never beyond the limit.
//
// After a 413 the rest of the body is read and thrown away, within a bound of
// bytes and time, like nginx's lingering close: closing a socket that still
// has unread data makes the kernel send a reset, and a client still sending
// its body would then see ECONNRESET instead of the 413 already on its way.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { topLevelErrorBody } from '../errors/top-level.js';

/** Most bytes of a refused body read and discarded after the 413 before the connection is cut. */
export const LINGER_MAX_BYTES = 32 * 1024 * 1024;
/** Longest time spent discarding a refused body after the 413 before the connection is cut. */
export const LINGER_MAX_MS = 5_000;

/** Reads the body of `req` up to `maxBytes`; false (and a 413 sent) when it is larger. */
export async function admitBody(req: IncomingMessage, res: ServerResponse, maxBytes: number): Promise<boolean> {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return true;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return refuse(req, res, maxBytes, 0);
  const chunks: Buffer[] = [];
  let received = 0;
  // Leaving the loop early must not destroy the request: the rest is discarded instead (refuse).
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > maxBytes) return refuse(req, res, maxBytes, received);
    chunks.push(chunk);
  }
  // Read by @whatwg-node/server in place of the (now consumed) stream.
  (req as IncomingMessage & { body?: Buffer }).body = Buffer.concat(chunks, received);
  return true;
}

function refuse(req: IncomingMessage, res: ServerResponse, maxBytes: number, alreadyRead: number): false {
  const body = JSON.stringify({ errors: [topLevelErrorBody('PAYLOAD_TOO_LARGE', { maxBytes })] });
  res.writeHead(413, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body);
  discardRest(req, alreadyRead);
  return false;
}

/** Reads what is left of the body and drops it, then closes; past the bounds, cuts the connection. */
function discardRest(req: IncomingMessage, alreadyRead: number): void {
  const socket = req.socket;
  let discarded = alreadyRead;
  const cut = () => socket.destroy();
  const timer = setTimeout(cut, LINGER_MAX_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  // Node would close the socket once the 413 is written (`connection: close`), unread body and all: keep it.
  socket.destroySoon = () => undefined;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_MAX_BYTES) cut();
  });
  // Everything was read: the close is a clean FIN, not a reset.
  const close = () => {
    clearTimeout(timer);
    socket.end(cut);
  };
  if (req.readableEnded) return close();
  req.once('end', close);
  req.once('error', cut);
  req.resume();
}
