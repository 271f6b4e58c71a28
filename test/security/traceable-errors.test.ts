// Every masked error is traceable: the client gets "Unexpected error." and a
// requestId, the server log has the detail once under that id; a request
// error never echoes the client's body.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestStack } from '../helpers/gateway.js';
import { disposeAllClients, staffClient, withTimeout } from '../live/helpers.js';
import { quietStack } from './support.js';

const SECRET_IN_BODY = 'sk_live_do_not_echo_me';

describe('masked errors', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // Document limits relaxed so that a pathological document reaches graphql itself (and crashes it).
    stack = await quietStack({
      env: {
        MAX_BODY_BYTES: '10000000',
        WS_MAX_FRAME_BYTES: '10000000',
        MAX_TOKENS: '10000000',
        MAX_DEPTH: '100000',
        MAX_COST: '100000000',
      },
    });
  });
  afterAll(async () => {
    await disposeAllClients();
    await stack?.close();
  });

  const auth = () => ({ authorization: `Bearer ${stack.staffToken}` });
  const errorLinesFor = (requestId: string) =>
    stack.logLines.filter((line) => line.includes(requestId)).filter((line) => JSON.parse(line).level === 'error');

  async function expectTraceable(res: { statusCode: number; body: { text(): Promise<string> } }) {
    const body = JSON.parse(await res.body.text()) as { errors: Array<{ message: string; extensions: Record<string, unknown> }> };
    expect(res.statusCode).toBe(500);
    expect(body.errors).toHaveLength(1);
    const [error] = body.errors;
    expect(error!.message).toBe('Unexpected error.');
    expect(error!.extensions.code).toBe('INTERNAL_SERVER_ERROR');
    const requestId = error!.extensions.requestId as string;
    expect(requestId).toMatch(/^[\w.:-]+$/);
    // Logged once, with the detail.
    const lines = errorLinesFor(requestId);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).error).toBeTruthy();
    return requestId;
  }

  it('a GET with broken variables', async () => {
    const url = `${stack.gateway.graphqlUrl}?query=${encodeURIComponent('{ __typename }')}&variables=${encodeURIComponent('{broken')}`;
    await expectTraceable(await request(url, { headers: auth() }));
  });

  it('keeps the caller’s X-Request-Id', async () => {
    const url = `${stack.gateway.graphqlUrl}?query=${encodeURIComponent('{ __typename }')}&variables=${encodeURIComponent('{broken')}`;
    expect(await expectTraceable(await request(url, { headers: { ...auth(), 'x-request-id': 'trace-me-42' } }))).toBe('trace-me-42');
  });

  // Nesting deep enough to overflow graphql's recursive parser: a RangeError, not a GraphQL error.
  const CRASHING_DOCUMENT = `{ ${'balance { '.repeat(20_000)}currency ${'} '.repeat(20_000)}}`;

  it('a crash while parsing a pathological document (HTTP 500 → traceable)', async () => {
    const res = await request(stack.gateway.graphqlUrl, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ query: CRASHING_DOCUMENT }),
    });
    await expectTraceable(res);
  });

  it('a crash over WebSocket fails that operation, traceably, and the socket stays open', async () => {
    const ws = staffClient(stack);
    await ws.connected;
    const run = (q: string) =>
      withTimeout(
        new Promise<unknown>((resolve) => ws.client.subscribe({ query: q }, { next: resolve, error: resolve, complete: () => {} })),
        5_000,
        'an answer over WebSocket',
      );
    const errors = (await run(CRASHING_DOCUMENT)) as Array<{ message: string; extensions: Record<string, unknown> }>;
    expect(errors[0]!.message).toBe('Unexpected error.');
    const requestId = errors[0]!.extensions.requestId as string;
    expect(errorLinesFor(requestId)).toHaveLength(1);
    expect(await run('{ __typename }')).toEqual({ data: { __typename: 'Query' } });
    expect(ws.closes).toEqual([]);
  });

  it('malformed JSON: 400, and the body is not echoed', async () => {
    const res = await request(stack.gateway.graphqlUrl, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: `{"query": ${SECRET_IN_BODY}`,
    });
    const text = await res.body.text();
    expect(res.statusCode).toBe(400);
    expect(text).toContain('invalid JSON');
    expect(text).not.toContain(SECRET_IN_BODY);
    expect(text).not.toContain('"query"');
  });
});
