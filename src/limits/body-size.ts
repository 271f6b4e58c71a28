// Request bodies above MAX_BODY_BYTES are answered 413 before anything parses
// them: a declared Content-Length is checked first, and a body sent without
// one (chunked) is counted as it arrives. An admitted body is handed to yoga
// whole (it would read it whole anyway), so it is buffered at most once and
// never beyond the limit.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Reads the body of `req` up to `maxBytes`; false (and a 413 sent) when it is larger. */
export async function admitBody(req: IncomingMessage, res: ServerResponse, maxBytes: number): Promise<boolean> {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return true;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return refuse(req, res, maxBytes);
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > maxBytes) return refuse(req, res, maxBytes);
    chunks.push(chunk);
  }
  // Read by @whatwg-node/server in place of the (now consumed) stream.
  (req as IncomingMessage & { body?: Buffer }).body = Buffer.concat(chunks, received);
  return true;
}

function refuse(req: IncomingMessage, res: ServerResponse, maxBytes: number): false {
  // The catalogue's texts (src/errors/top-level.ts, which limits/ may not import; test/errors/every-error-path checks they match).
  const body = JSON.stringify({
    errors: [
      {
        message: `Request body larger than ${maxBytes} bytes.`,
        extensions: { code: 'PAYLOAD_TOO_LARGE', messageFr: `Le corps de la requête dépasse ${maxBytes} octets.` },
      },
    ],
  });
  // Closing the connection after the answer: the rest of the body is never read.
  res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end(body, () => req.destroy());
  return false;
}
