// A socket's protocol errors (here: one frame over WS_MAX_FRAME_BYTES from a socket that never authenticated) reach
// the log as one JSON line without a stack, not as graphql-ws's multi-line console.error.
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';

let stack: TestStack;

beforeAll(async () => {
  stack = await startStack({ env: { SUBSCRIPTION_POLL_MS: '0', WS_MAX_FRAME_BYTES: '1024' } });
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  await stack?.close();
});

describe('an anonymous socket sending one oversized frame', () => {
  it('is closed with 1009 and leaves one JSON log line, no stack, nothing on console.error', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const before = stack.logLines.length;
    const code = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(stack.gateway.graphqlUrl.replace(/^http/, 'ws'), 'graphql-transport-ws');
      socket.on('error', () => {});
      socket.on('open', () => socket.send('x'.repeat(4096)));
      socket.on('close', (closeCode) => resolve(closeCode));
      socket.on('unexpected-response', () => reject(new Error('upgrade refused')));
    });
    expect(code).toBe(1009);
    await waitFor(() => stack.logLines.slice(before).some((line) => line.includes('protocol error')), 'the log line');
    const lines = stack.logLines.slice(before).filter((line) => /protocol error|Max payload|RangeError/i.test(line));
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({ msg: 'websocket closed on a protocol error', code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' });
    expect(lines[0]).not.toMatch(/\bat \S+ \(|\.ts:\d+|\.js:\d+|stack/);
    expect(consoleError).not.toHaveBeenCalled();
  });
});
