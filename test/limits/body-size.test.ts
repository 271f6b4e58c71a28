// A 413 the client can read: after refusing a body over MAX_BODY_BYTES the
// gateway reads and discards the rest (bounded), so a client still uploading
// gets the 413 instead of a connection reset. Real uploads over real sockets.
import { connect } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestStack } from '../helpers/gateway.js';
import { quietStack } from '../security/support.js';

describe('a body over MAX_BODY_BYTES', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await quietStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('a 10 MB upload gets a readable 413, 20 times out of 20; the gateway answers on afterwards', async () => {
    const body = Buffer.alloc(10 * 1024 * 1024, 0x20);
    const outcomes: string[] = [];
    for (let i = 0; i < 20; i++) {
      outcomes.push(await upload(stack, body));
    }
    expect(outcomes).toEqual(Array.from({ length: 20 }, () => '413 PAYLOAD_TOO_LARGE'));
    const res = await request(`${stack.gateway.url}/health/live`);
    expect(res.statusCode).toBe(200);
    await res.body.dump();
  });
});

/**
 * A plain client over a raw socket: writes the headers and the whole body, and reads the answer only once its
 * body is written (many simple clients do; a reset meanwhile throws away the answer waiting to be read).
 */
function upload(stack: TestStack, body: Buffer): Promise<string> {
  const { port } = new URL(stack.gateway.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    let failure: string | null = null;
    socket.on('error', (err: NodeJS.ErrnoException) => (failure ??= err.code ?? String(err)));
    socket.on('close', () =>
      resolve(
        failure && !answer
          ? `failed: ${failure}`
          : (/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? `no answer (${failure})`) +
              (answer.includes('PAYLOAD_TOO_LARGE') ? ' PAYLOAD_TOO_LARGE' : ''),
      ),
    );
    socket.pause();
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAuthorization: Bearer ${stack.staffToken}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body, () => {
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.resume();
    });
  });
}
