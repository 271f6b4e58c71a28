// An idle keep-alive connection outlives the proxy's: the recipe's Caddy (deploy/Caddyfile) closes its idle
// connections to a replica after 60 s, the gateway after HTTP_KEEP_ALIVE_TIMEOUT_MS (75 s by default), so a request
// Caddy sends on a connection idle for just under its 60 s is answered, never reset. Over a real socket, with the
// defaults as they ship: this file waits 59 s of real time (it runs beside the other files).
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { repoRoot } from '../helpers/npm-start.js';

/** How long the recipe's Caddy keeps an idle connection to a replica (its `keepalive`), in ms. */
function caddyIdleMs(): number {
  const caddyfile = readFileSync(path.join(repoRoot, 'deploy', 'Caddyfile'), 'utf8');
  const match = /^\s*keepalive\s+(\d+)s\s*$/m.exec(caddyfile);
  expect(match, 'the Caddyfile sets its upstream keepalive').not.toBeNull();
  return Number(match![1]) * 1_000;
}

let stack: TestStack;
beforeAll(async () => {
  // HTTP_KEEP_ALIVE_TIMEOUT_MS, HTTP_HEADERS_TIMEOUT_MS and HTTP_REQUEST_TIMEOUT_MS at their defaults.
  stack = await startStack({ inProcess: false });
}, 30_000);
afterAll(async () => {
  await stack?.close();
});

/** Sends one GET on the socket; resolves with the raw answer once its whole body has arrived (sized or chunked). */
function get(socket: Socket, route: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const onData = (chunk: Buffer) => {
      answer += chunk.toString('utf8');
      const head = answer.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)\r\n/i.exec(answer.slice(0, head));
      const body = answer.slice(head + 4);
      const complete = length ? Buffer.byteLength(body) >= Number(length[1]) : body.endsWith('0\r\n\r\n');
      if (head >= 0 && complete) {
        socket.off('data', onData);
        socket.off('close', onClose);
        resolve(answer);
      }
    };
    const onClose = () => reject(new Error(`the connection was closed before the answer to ${route}: ${answer}`));
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.write(`GET ${route} HTTP/1.1\r\nHost: gateway\r\n\r\n`);
  });
}

describe('keep-alive behind the recipe’s proxy', () => {
  it('the gateway keeps idle connections longer than the Caddyfile’s proxy does', () => {
    expect(loadConfig({}).limits.keepAliveTimeoutMs).toBe(75_000);
    expect(caddyIdleMs()).toBeLessThan(loadConfig({}).limits.keepAliveTimeoutMs);
  });

  it('a connection idle for just under the proxy’s idle time is reused and answered', async () => {
    const url = new URL(stack.gateway.graphqlUrl);
    const socket = connect(Number(url.port), url.hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    let closedAt: number | null = null;
    socket.once('close', () => (closedAt = Date.now()));
    try {
      const first = await get(socket, '/health/live');
      expect(first).toMatch(/^HTTP\/1\.1 200/);
      expect(first).toMatch(/\r\nKeep-Alive: timeout=75\r\n/i);
      await new Promise((resolve) => setTimeout(resolve, caddyIdleMs() - 1_000));
      expect(closedAt).toBeNull();
      const second = await get(socket, '/health/live');
      expect(second).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      socket.destroy();
    }
  }, 90_000);
});
