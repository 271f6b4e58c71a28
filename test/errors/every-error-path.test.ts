// Every top-level error a client can meet, provoked for real over HTTP and over
// WebSocket (a real graphql-ws client) against gateways in front of the sandbox,
// arrives with its `extensions.code` and exactly the catalogue's English and French
// (src/errors/top-level.ts; for the sentences graphql-js and yoga write, the French
// of their entries in src/errors/library-errors.ts, each of which
// test/errors/every-library-error.test.ts walks the same way): never the catch-all "La requête n’a pas pu
// être traitée". The walk covers every code of the catalogue on both transports;
// the few that cannot be provoked here, or not over WebSocket, are named with the
// reason or the suite that provokes them, and the last test checks nothing is left out.
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphQLError } from 'graphql';
import { frenchOf } from '../../src/errors/library-errors.js';
import { TOP_LEVEL_ERRORS, topLevelText, type Text, type TopLevelCode } from '../../src/errors/top-level.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { closedPort } from '../helpers/http.js';
import { disposeAllClients, wsClient } from '../live/helpers.js';
import { bearer, openSse, postQuery, type GraphQLErrorShape } from '../schema/auth-support.js';

/** Codes only other suites can provoke (a crash, a shutdown, a trimmed log, an outage mid-stream), and where. */
const PROVOKED_ELSEWHERE: Partial<Record<TopLevelCode, string>> = {
  INTERNAL_SERVER_ERROR: 'test/security/traceable-errors.test.ts (a resolver that throws)',
  SERVICE_UNAVAILABLE: 'test/http/shutdown.test.ts, test/idempotency/faults.test.ts (shutting down, Redis down)',
  SUBSCRIPTION_INTERRUPTED: 'test/live/updated.test.ts, test/live/redis-outage.test.ts (a stream that cannot follow)',
  EVENT_CURSOR_EXPIRED: 'test/live/resume.test.ts (an id older than the log)',
  PERSISTED_QUERY_ONLY: 'never raised today: the trusted-documents plugin answers TRUSTED_DOCUMENT_REQUIRED',
  MERCHANT_NOT_FOUND: 'test/schema/platform.test.ts (a merchant named by a token that may not act for it, or unknown)',
  NOT_IN_THIS_MODE: 'test/schema/platform.test.ts (operator fields in single mode, fields platform mode does not serve yet)',
};

/** Codes only HTTP can carry (over WebSocket the same failure is a close code, or cannot be sent), and why. */
const HTTP_ONLY: Partial<Record<TopLevelCode, string>> = {
  UNAUTHENTICATED: 'over WebSocket a refused token closes the socket at connection_init (test/http/websocket*.test.ts)',
  DUPLICATE_AUTHORIZATION: 'over WebSocket: close 4400 (test/http/ws-auth tests)',
  PAYLOAD_TOO_LARGE: 'over WebSocket a frame over maxPayload closes the socket (1009)',
  UNSUPPORTED_MEDIA_TYPE: 'a Content-Type of an HTTP POST',
  BAD_REQUEST: 'a body that is not JSON: graphql-ws frames are parsed by the protocol itself',
  PERSISTED_QUERY_ID_REQUIRED: 'an HTTP body without a document (graphql-ws requires `query`)',
  PERSISTED_QUERY_NOT_FOUND: 'automatic persisted queries over HTTP (allow mode)',
  PERSISTED_QUERY_NOT_IN_LIST: 'a hash-only HTTP body (graphql-ws requires `query`)',
};

const GENERIC_FR = /^La requête n’a pas pu être traitée/;
const seen = new Map<string, string[]>();
const seenOverWs = new Set<string>();

/** What the catalogue says for an error a library wrote (its English is the library's): the French of that sentence. */
const librarySentence = (code: string, en: string): Text => ({ en, fr: frenchOf(new GraphQLError(en, { extensions: { code } })) });

/**
 * The one error of an answer: its code, and the catalogue's very English and French (`expected`: the text of the
 * params it was raised with; without it, a library's sentence and the French the catalogue gives that sentence).
 */
function complete(
  errors: readonly GraphQLErrorShape[] | undefined,
  raw: string,
  code: string,
  expected?: Text,
  via: 'http' | 'ws' = 'http',
): { en: string; fr: string } {
  expect(errors, raw).toHaveLength(1);
  const error = errors![0]!;
  expect(error.extensions?.code, raw).toBe(code);
  const fr = error.extensions?.messageFr;
  expect(typeof fr, raw).toBe('string');
  expect(fr, raw).not.toBe(error.message);
  expect(fr, raw).not.toMatch(GENERIC_FR);
  expect({ en: error.message, fr }, raw).toEqual(expected ?? librarySentence(code, error.message));
  if (via === 'ws') seenOverWs.add(code);
  else seen.set(code, [...(seen.get(code) ?? []), fr as string]);
  return { en: error.message, fr: fr as string };
}

/** The same operation over graphql-ws: the errors of its first result (or of its refusal). */
async function overWs(on: TestStack, query: string, variables: Record<string, unknown> = {}, token = on.staffToken) {
  const ws = wsClient(on.gateway.graphqlUrl, { connectionParams: { authorization: `Bearer ${token}` } });
  const errors = await new Promise<GraphQLErrorShape[]>((resolve) => {
    ws.client.subscribe(
      { query, variables },
      {
        next: (r) => resolve((r.errors ?? []) as GraphQLErrorShape[]),
        error: (e) => resolve(Array.isArray(e) ? (e as GraphQLErrorShape[]) : []),
        complete: () => resolve([]),
      },
    );
  });
  return { errors, raw: JSON.stringify(errors) };
}

/** A subscription over SSE (HTTP): the errors of its first result. */
async function sseFirst(on: TestStack, query: string, token = on.staffToken) {
  const stream = await openSse(on.gateway.graphqlUrl, query, {}, bearer(token));
  try {
    const first = await stream.next(10_000);
    const errors = (first?.errors ?? []) as GraphQLErrorShape[];
    return { errors, raw: JSON.stringify(first) };
  } finally {
    stream.close();
  }
}

/** The error over HTTP, then over WebSocket, each the catalogue's (see complete). */
async function bothWays(
  on: TestStack,
  code: string,
  query: string,
  expected?: Text,
  variables: Record<string, unknown> = {},
  token = on.staffToken,
) {
  const http = await postQuery(on.gateway.graphqlUrl, query, variables, bearer(token));
  const viaHttp = complete(http.body.errors, http.raw, code, expected);
  const ws = await overWs(on, query, variables, token);
  expect(complete(ws.errors, ws.raw, code, expected, 'ws'), 'the same text over both transports').toEqual(viaHttp);
  return viaHttp;
}

let stack: TestStack;
/** Tight limits: one call to the service per operation, one subscription per connection, 3 operations a minute. */
let tight: TestStack;
let enforcing: TestStack;
beforeAll(async () => {
  stack = await startStack({ sandboxWebhooks: true });
  [tight, enforcing] = await Promise.all([
    startStack({
      sharedSandbox: stack.sandbox,
      env: { MAX_UPSTREAM_CALLS_PER_OPERATION: '1', WS_MAX_SUBSCRIPTIONS: '1', RATE_LIMIT_STAFF_PER_MINUTE: '3' },
    }),
    startStack({ sharedSandbox: stack.sandbox, env: { TRUSTED_DOCUMENTS: 'enforce' } }),
  ]);
});
afterAll(async () => {
  await disposeAllClients();
  await Promise.all([tight?.close(), enforcing?.close()]);
  await stack?.close();
});

const asStaff = (query: string, variables: Record<string, unknown> = {}, on: TestStack = stack) =>
  postQuery(on.gateway.graphqlUrl, query, variables, bearer(on.staffToken));

async function rawPost(url: string, body: string, headers: Record<string, string>) {
  const res = await request(url, { method: 'POST', headers: { accept: 'application/json', ...headers }, body });
  const raw = await res.body.text();
  return { status: res.statusCode, raw, body: JSON.parse(raw) as { errors?: GraphQLErrorShape[] } };
}

async function clientToken(): Promise<{ token: string; reference: string }> {
  const res = await asStaff(
    `mutation ($input: CreateChargeInput!) { createCharge(input: $input) { ... on CreateChargePayload { reference clientToken } } }`,
    { input: { amount: 1000, phone: '76000000', provider: 'OPA_BF', idempotencyKey: randomUUID() } },
  );
  const created = (res.body.data as { createCharge: { reference: string; clientToken: string } }).createCharge;
  return { token: created.clientToken, reference: created.reference };
}

/** The first result of a subscription over graphql-ws: its errors. */
async function wsErrors(on: TestStack, query: string, variables: Record<string, unknown> = {}): Promise<GraphQLErrorShape[]> {
  const ws = wsClient(on.gateway.graphqlUrl, { connectionParams: { authorization: `Bearer ${on.staffToken}` } });
  return new Promise((resolve) => {
    ws.client.subscribe(
      { query, variables },
      {
        next: (r) => resolve((r.errors ?? []) as GraphQLErrorShape[]),
        error: (e) => resolve(Array.isArray(e) ? (e as GraphQLErrorShape[]) : []),
        complete: () => undefined,
      },
    );
  });
}

describe('who is calling', () => {
  it('UNAUTHENTICATED: no token, a malformed one, one signed with another key', async () => {
    const cases = [
      [{}, 'missing'],
      [{ authorization: 'Bearer nope' }, 'malformed'],
      [bearer(`${stack.staffToken.slice(0, -4)}AAAA`), 'invalid'],
    ] as const;
    for (const [headers, problem] of cases) {
      const res = await postQuery(stack.gateway.graphqlUrl, '{ balance { currency } }', {}, headers);
      expect(res.status).toBe(401);
      complete(res.body.errors, res.raw, 'UNAUTHENTICATED', topLevelText('UNAUTHENTICATED', problem));
    }
  });

  it('DUPLICATE_AUTHORIZATION: one header holding two credentials', async () => {
    const res = await rawPost(stack.gateway.graphqlUrl, JSON.stringify({ query: '{ balance { currency } }' }), {
      'content-type': 'application/json',
      authorization: `Bearer ${stack.staffToken}, Bearer ${stack.staffToken}`,
    });
    expect(res.status).toBe(400);
    complete(res.body.errors, res.raw, 'DUPLICATE_AUTHORIZATION', topLevelText('DUPLICATE_AUTHORIZATION', undefined));
  });

  it('FORBIDDEN for a staff token names the scope it lacks', async () => {
    const token = await stack.mintToken(['events:read']);
    const expected = topLevelText('FORBIDDEN', { field: 'balance', scope: 'payments:read' });
    expect((await bothWays(stack, 'FORBIDDEN', '{ balance { currency } }', expected, {}, token)).fr).toBe(
      'Ce jeton ne permet pas d’utiliser balance : il lui faut la permission payments:read.',
    );
  });

  it('FORBIDDEN for a customer’s payment token says what such a token may do, never a staff scope', async () => {
    const { token } = await clientToken();
    const list = await postQuery(stack.gateway.graphqlUrl, '{ charges(first: 1) { totalCount } }', {}, bearer(token));
    const refused = complete(
      list.body.errors,
      list.raw,
      'FORBIDDEN',
      topLevelText('FORBIDDEN', { field: 'charges', scope: null, customer: 'not_allowed' }),
    );
    expect(refused.en).toBe(
      "A customer's payment token cannot use charges: it may only read its own payment, submit its OTP and follow its updates.",
    );
    expect(refused.fr).toBe(
      'Le jeton de paiement d’un client ne permet pas d’utiliser charges : il permet seulement de lire son propre paiement, d’en saisir le code OTP et d’en suivre les mises à jour.',
    );
    expect(list.raw).not.toMatch(/payments:read|scope/);

    const other = await postQuery(stack.gateway.graphqlUrl, '{ charge(reference: "ch_someone_else") { status } }', {}, bearer(token));
    expect(
      complete(
        other.body.errors,
        other.raw,
        'FORBIDDEN',
        topLevelText('FORBIDDEN', { field: 'charge', scope: null, customer: 'other_payment' }),
      ).fr,
    ).toBe('Le jeton de paiement d’un client ne permet d’utiliser charge que pour son propre paiement.');
    expect(other.raw).not.toMatch(/payments:read|scope/);
  });
});

describe('what was sent: the document and its arguments', () => {
  it('GRAPHQL_PARSE_FAILED and GRAPHQL_VALIDATION_FAILED', async () => {
    expect((await bothWays(stack, 'GRAPHQL_PARSE_FAILED', '{ balance { ')).fr).toBe(
      'Erreur de syntaxe dans le document GraphQL : Name attendu, mais le document s’arrête là.',
    );
    expect((await bothWays(stack, 'GRAPHQL_VALIDATION_FAILED', '{ balanse { currency } }')).fr).toMatch(
      /^Le champ « balanse » n’existe pas/,
    );
  });

  it('OPERATION_RESOLUTION_FAILURE: two operations and no operationName', async () => {
    const two = 'query A { balance { currency } } query B { balance { currency } }';
    const http = await asStaff(two);
    expect(complete(http.body.errors, http.raw, 'OPERATION_RESOLUTION_FAILURE').fr).toBe(
      topLevelText('OPERATION_RESOLUTION_FAILURE', undefined).fr,
    );
    const ws = await overWs(stack, two);
    complete(ws.errors, ws.raw, 'OPERATION_RESOLUTION_FAILURE', topLevelText('OPERATION_RESOLUTION_FAILURE', undefined), 'ws');
  });

  it('BAD_USER_INPUT for a variable of the wrong type, and a missing one', async () => {
    const wrong = await bothWays(stack, 'BAD_USER_INPUT', 'query ($n: Int) { charges(first: $n) { totalCount } }', undefined, { n: 'ten' });
    expect(wrong.fr).toBe('La variable « $n » a reçu une valeur invalide : Int ne peut pas représenter la valeur non entière "ten".');
    const missing = await bothWays(stack, 'BAD_USER_INPUT', 'query ($r: String!) { charge(reference: $r) { status } }');
    expect(missing.fr).toBe('La variable obligatoire « $r » (type « String! ») n’a pas été fournie.');
  });

  it('BAD_USER_INPUT for arguments the types allow but the API does not', async () => {
    const cases = [
      ['{ transfers(first: 500) { totalCount } }', { kind: 'page_size', arg: 'first', max: 100 }],
      ['{ charges(first: 1, last: 1) { totalCount } }', { kind: 'first_and_last' }],
      [
        '{ events(first: 1, filter: { since: "2026-02-01T00:00:00Z", until: "2026-01-01T00:00:00Z" }) { totalCount } }',
        { kind: 'event_dates' },
      ],
      ['{ checkouts(first: 1, filter: { amountMin: 10, amountMax: 5 }) { totalCount } }', { kind: 'filter_amounts' }],
      [`{ nodes(ids: [${Array.from({ length: 101 }, () => '"x"').join(',')}]) { id } }`, { kind: 'too_many_ids', max: 100 }],
    ] as const;
    for (const [query, params] of cases) await bothWays(stack, 'BAD_USER_INPUT', query, topLevelText('BAD_USER_INPUT', params));
    const kinds = await asStaff('{ events(first: 1, filter: { kinds: ["charge.sucess"] }) { totalCount } }');
    complete(kinds.body.errors, kinds.raw, 'BAD_USER_INPUT', {
      en: kinds.body.errors![0]!.message,
      fr: expect.stringMatching(/^Type d’événement inconnu "charge.sucess" : les types sont /) as unknown as string,
    });
  });

  it('INVALID_CURSOR: a cursor the API did not issue, and one of another filter', async () => {
    const malformedText = topLevelText('INVALID_CURSOR', { arg: 'after', reason: 'malformed' });
    const malformed = await bothWays(stack, 'INVALID_CURSOR', '{ charges(first: 1, after: "not-a-cursor") { totalCount } }', malformedText);
    expect(malformed.fr).toBe('`after` n’est pas un curseur émis par cette API.');
    await bothWays(stack, 'INVALID_CURSOR', '{ events(first: 1, after: "bm9wZQ") { totalCount } }', malformedText);
    await asStaff(`mutation ($input: CreateTransferInput!) { createTransfer(input: $input) { __typename } }`, {
      input: { amount: 500, recipientPhone: '70000000', idempotencyKey: randomUUID() },
    });
    const page = await asStaff('{ transfers(first: 1) { pageInfo { endCursor } } }');
    const cursor = (page.body.data as { transfers: { pageInfo: { endCursor: string } } }).transfers.pageInfo.endCursor;
    const other = await asStaff('query ($c: String) { transfers(first: 1, after: $c, filter: { status: SUCCESS }) { totalCount } }', {
      c: cursor,
    });
    expect(
      complete(other.body.errors, other.raw, 'INVALID_CURSOR', topLevelText('INVALID_CURSOR', { arg: 'after', reason: 'other_list' })).fr,
    ).toMatch(/a été émis pour une autre liste ou un autre filtre/);
  });

  it('BAD_USER_INPUT for a paymentEvents `after` that is no event id, NOT_FOUND for an unknown resource (graphql-ws)', async () => {
    const after = await wsErrors(stack, 'subscription { paymentEvents(after: "nope") { id } }');
    complete(after, JSON.stringify(after), 'BAD_USER_INPUT', topLevelText('BAD_USER_INPUT', { kind: 'event_id', arg: 'after' }), 'ws');
    const unknown = await wsErrors(stack, 'subscription { chargeUpdated(reference: "ch_does_not_exist") { status } }');
    const notFound = topLevelText('NOT_FOUND', { resource: 'charge' });
    expect(complete(unknown, JSON.stringify(unknown), 'NOT_FOUND', notFound, 'ws').fr).toBe(
      'Aucun encaissement ne correspond à cette référence.',
    );
    // The same refusals over SSE (HTTP).
    for (const [query, code, text] of [
      [
        'subscription { paymentEvents(after: "nope") { id } }',
        'BAD_USER_INPUT',
        topLevelText('BAD_USER_INPUT', { kind: 'event_id', arg: 'after' }),
      ],
      ['subscription { chargeUpdated(reference: "ch_does_not_exist") { status } }', 'NOT_FOUND', notFound],
    ] as const) {
      const res = await sseFirst(stack, query);
      complete(res.errors, res.raw, code, text);
    }
  });
});

describe('what was sent: the request itself', () => {
  it('TOO_MANY_MONEY_MUTATIONS', async () => {
    const two = (n: number) =>
      `t${n}: createTransfer(input: { amount: 500, recipientPhone: "70000000", idempotencyKey: "${randomUUID()}" }) { __typename }`;
    const expected = topLevelText('TOO_MANY_MONEY_MUTATIONS', { fields: ['createTransfer', 'createTransfer'] });
    await bothWays(stack, 'TOO_MANY_MONEY_MUTATIONS', `mutation { ${two(1)} ${two(2)} }`, expected);
  });

  it('PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, BAD_REQUEST, PERSISTED_QUERY_ID_REQUIRED, PERSISTED_QUERY_NOT_FOUND', async () => {
    const url = stack.gateway.graphqlUrl;
    const auth = bearer(stack.staffToken);
    const json = { 'content-type': 'application/json', ...auth };
    const big = await rawPost(url, JSON.stringify({ query: `{ balance { currency } } #${'x'.repeat(70_000)}` }), json);
    expect(big.status).toBe(413);
    // Written outside GraphQL (src/limits/), with the catalogue's very texts.
    complete(big.body.errors, big.raw, 'PAYLOAD_TOO_LARGE', topLevelText('PAYLOAD_TOO_LARGE', { maxBytes: 65_536 }));
    const form = await rawPost(url, 'query={balance{currency}}', { 'content-type': 'text/plain', ...auth });
    complete(form.body.errors, form.raw, 'UNSUPPORTED_MEDIA_TYPE', topLevelText('UNSUPPORTED_MEDIA_TYPE', undefined));
    const notJson = await rawPost(url, '{"query": ', json);
    complete(notJson.body.errors, notJson.raw, 'BAD_REQUEST');
    const nothing = await rawPost(url, JSON.stringify({ variables: {} }), json);
    complete(nothing.body.errors, nothing.raw, 'PERSISTED_QUERY_ID_REQUIRED', topLevelText('PERSISTED_QUERY_ID_REQUIRED', undefined));
    const unknownHash = await rawPost(
      url,
      JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } } }),
      json,
    );
    complete(unknownHash.body.errors, unknownHash.raw, 'PERSISTED_QUERY_NOT_FOUND', topLevelText('PERSISTED_QUERY_NOT_FOUND', undefined));
  });

  it('TRUSTED_DOCUMENT_REQUIRED and PERSISTED_QUERY_NOT_IN_LIST under enforce', async () => {
    await bothWays(
      enforcing,
      'TRUSTED_DOCUMENT_REQUIRED',
      '{ balance { currency } }',
      topLevelText('TRUSTED_DOCUMENT_REQUIRED', undefined),
    );
    const json = { 'content-type': 'application/json', ...bearer(enforcing.staffToken) };
    const unknownHash = await rawPost(
      enforcing.gateway.graphqlUrl,
      JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: 'cd'.repeat(32) } } }),
      json,
    );
    complete(
      unknownHash.body.errors,
      unknownHash.raw,
      'PERSISTED_QUERY_NOT_IN_LIST',
      topLevelText('PERSISTED_QUERY_NOT_IN_LIST', undefined),
    );
  });
});

describe('what it costs', () => {
  it('UPSTREAM_BUDGET_EXCEEDED, TOO_MANY_SUBSCRIPTIONS, then RATE_LIMITED (a tightly limited gateway)', async () => {
    const twoCalls = '{ a: charge(reference: "ch_a") { status } b: charge(reference: "ch_b") { status } }';
    await bothWays(tight, 'UPSTREAM_BUDGET_EXCEEDED', twoCalls, topLevelText('UPSTREAM_BUDGET_EXCEEDED', { limit: 1 }));

    const ws = wsClient(tight.gateway.graphqlUrl, { connectionParams: { authorization: `Bearer ${tight.staffToken}` } });
    ws.client.subscribe({ query: 'subscription { paymentEvents { id } }' }, { next: () => {}, error: () => {}, complete: () => {} });
    const second = await new Promise<GraphQLErrorShape[]>((resolve) =>
      ws.client.subscribe(
        { query: 'subscription { paymentEvents { id } }' },
        {
          next: (r) => resolve((r.errors ?? []) as GraphQLErrorShape[]),
          error: (e) => resolve(e as GraphQLErrorShape[]),
          complete: () => {},
        },
      ),
    );
    complete(
      second,
      JSON.stringify(second),
      'TOO_MANY_SUBSCRIPTIONS',
      topLevelText('TOO_MANY_SUBSCRIPTIONS', { max: 1, over: 'connection' }),
      'ws',
    );
    // Over HTTP (SSE), the caller's own streams count against the same limit.
    // Another subject, so that these two requests leave the general rate limit of the first one as it is.
    const sseToken = await tight.mintToken(['events:read'], 'sse-walker');
    const sse = await openSse(tight.gateway.graphqlUrl, 'subscription { paymentEvents { id } }', {}, bearer(sseToken));
    try {
      const refused = await sseFirst(tight, 'subscription { paymentEvents { id } }', sseToken);
      complete(refused.errors, refused.raw, 'TOO_MANY_SUBSCRIPTIONS', topLevelText('TOO_MANY_SUBSCRIPTIONS', { max: 1, over: 'caller' }));
    } finally {
      sse.close();
    }

    let limited: Awaited<ReturnType<typeof asStaff>> | null = null;
    for (let i = 0; i < 10 && !limited; i++) {
      const res = await asStaff('{ balance { currency } }', {}, tight);
      if (res.body.errors) limited = res;
    }
    expect(limited!.status).toBe(429);
    const retryAfter = Number(limited!.headers['retry-after']);
    complete(limited!.body.errors, limited!.raw, 'RATE_LIMITED', topLevelText('RATE_LIMITED', { retryAfterSeconds: retryAfter }));
    const overSocket = await overWs(tight, '{ balance { currency } }');
    const seconds = Math.max(1, Math.ceil((overSocket.errors[0]?.extensions?.retryAfterMs as number) / 1000));
    complete(overSocket.errors, overSocket.raw, 'RATE_LIMITED', topLevelText('RATE_LIMITED', { retryAfterSeconds: seconds }), 'ws');
  });
});

describe('the payment service', () => {
  it('UPSTREAM_UNAUTHENTICATED (a key it refuses) and UPSTREAM_UNAVAILABLE (nothing listening)', async () => {
    const [bogus, down] = await Promise.all([
      startStack({ sharedSandbox: stack.sandbox, apiKey: `sk_live_bogus_${randomUUID()}` }),
      closedPort().then((port) => startStack({ sharedSandbox: stack.sandbox, env: { PAYMENT_BASE_URL: `http://127.0.0.1:${port}/` } })),
    ]);
    try {
      await bothWays(bogus, 'UPSTREAM_UNAUTHENTICATED', '{ balance { currency } }', topLevelText('UPSTREAM_UNAUTHENTICATED', undefined));
      await bothWays(down, 'UPSTREAM_UNAVAILABLE', '{ balance { currency } }', topLevelText('UPSTREAM_UNAVAILABLE', undefined));
    } finally {
      await Promise.all([bogus.close(), down.close()]);
    }
  });
});

describe('the walk', () => {
  it('met every code of the catalogue, or names the suite that does', () => {
    const walked = new Set([...seen.keys(), ...Object.keys(PROVOKED_ELSEWHERE)]);
    expect(Object.keys(TOP_LEVEL_ERRORS).filter((code) => !walked.has(code))).toEqual([]);
    const walkedOverWs = new Set([...seenOverWs, ...Object.keys(PROVOKED_ELSEWHERE), ...Object.keys(HTTP_ONLY)]);
    expect(
      Object.keys(TOP_LEVEL_ERRORS).filter((code) => !walkedOverWs.has(code)),
      'codes never met over WebSocket',
    ).toEqual([]);
    // Each code met here had a French of its own each time.
    for (const [code, texts] of seen) for (const fr of texts) expect(fr, code).not.toMatch(GENERIC_FR);
  });
});
