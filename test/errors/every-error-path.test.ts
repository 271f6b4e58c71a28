// Every top-level error a client can meet, provoked for real (HTTP and
// graphql-ws against gateways in front of the sandbox), has an
// `extensions.code` and a French text of its own in `extensions.messageFr`:
// not the English, not the catch-all "La requête n’a pas pu être traitée".
// The walk covers every code of the catalogue (src/errors/top-level.ts); the
// few that cannot be provoked from outside in one file are named with the
// suite that provokes them, and the last test checks nothing is left out.
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOP_LEVEL_ERRORS, topLevelText, type TopLevelCode } from '../../src/errors/top-level.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { closedPort } from '../helpers/http.js';
import { disposeAllClients, wsClient } from '../live/helpers.js';
import { bearer, postQuery, type GraphQLErrorShape } from '../schema/auth-support.js';

/** Codes only other suites can provoke (a crash, a shutdown, a trimmed log, an outage mid-stream), and where. */
const PROVOKED_ELSEWHERE: Partial<Record<TopLevelCode, string>> = {
  INTERNAL_SERVER_ERROR: 'test/security/traceable-errors.test.ts (a resolver that throws)',
  SERVICE_UNAVAILABLE: 'test/http/shutdown.test.ts, test/idempotency/faults.test.ts (shutting down, Redis down)',
  SUBSCRIPTION_INTERRUPTED: 'test/live/updated.test.ts, test/live/redis-outage.test.ts (a stream that cannot follow)',
  EVENT_CURSOR_EXPIRED: 'test/live/resume.test.ts (an id older than the log)',
  PERSISTED_QUERY_ONLY: 'never raised today: the trusted-documents plugin answers TRUSTED_DOCUMENT_REQUIRED',
};

const GENERIC_FR = /^La requête n’a pas pu être traitée/;
const seen = new Map<string, string[]>();

/** The one error of an answer: a code, and a French of its own. */
function complete(errors: readonly GraphQLErrorShape[] | undefined, raw: string, code: string): { en: string; fr: string } {
  expect(errors, raw).toHaveLength(1);
  const error = errors![0]!;
  expect(error.extensions?.code, raw).toBe(code);
  const fr = error.extensions?.messageFr;
  expect(typeof fr, raw).toBe('string');
  expect(fr, raw).not.toBe(error.message);
  expect(fr, raw).not.toMatch(GENERIC_FR);
  seen.set(code, [...(seen.get(code) ?? []), fr as string]);
  return { en: error.message, fr: fr as string };
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
    for (const headers of [{}, { authorization: 'Bearer nope' }, bearer(`${stack.staffToken.slice(0, -4)}AAAA`)]) {
      const res = await postQuery(stack.gateway.graphqlUrl, '{ balance { currency } }', {}, headers);
      expect(res.status).toBe(401);
      complete(res.body.errors, res.raw, 'UNAUTHENTICATED');
    }
  });

  it('DUPLICATE_AUTHORIZATION: one header holding two credentials', async () => {
    const res = await rawPost(stack.gateway.graphqlUrl, JSON.stringify({ query: '{ balance { currency } }' }), {
      'content-type': 'application/json',
      authorization: `Bearer ${stack.staffToken}, Bearer ${stack.staffToken}`,
    });
    expect(res.status).toBe(400);
    complete(res.body.errors, res.raw, 'DUPLICATE_AUTHORIZATION');
  });

  it('FORBIDDEN for a staff token names the scope it lacks', async () => {
    const token = await stack.mintToken(['events:read']);
    const res = await postQuery(stack.gateway.graphqlUrl, '{ balance { currency } }', {}, bearer(token));
    expect(complete(res.body.errors, res.raw, 'FORBIDDEN').fr).toBe(
      'Ce jeton ne permet pas d’utiliser balance : il lui faut la permission payments:read.',
    );
  });

  it('FORBIDDEN for a customer’s payment token says what such a token may do, never a staff scope', async () => {
    const { token } = await clientToken();
    const list = await postQuery(stack.gateway.graphqlUrl, '{ charges(first: 1) { totalCount } }', {}, bearer(token));
    const refused = complete(list.body.errors, list.raw, 'FORBIDDEN');
    expect(refused.en).toBe(
      "A customer's payment token cannot use charges: it may only read its own payment, submit its OTP and follow its updates.",
    );
    expect(refused.fr).toBe(
      'Le jeton de paiement d’un client ne permet pas d’utiliser charges : il permet seulement de lire son propre paiement, d’en saisir le code OTP et d’en suivre les mises à jour.',
    );
    expect(list.raw).not.toMatch(/payments:read|scope/);

    const other = await postQuery(stack.gateway.graphqlUrl, '{ charge(reference: "ch_someone_else") { status } }', {}, bearer(token));
    expect(complete(other.body.errors, other.raw, 'FORBIDDEN').fr).toBe(
      'Le jeton de paiement d’un client ne permet d’utiliser charge que pour son propre paiement.',
    );
    expect(other.raw).not.toMatch(/payments:read|scope/);
  });
});

describe('what was sent', () => {
  it('GRAPHQL_PARSE_FAILED and GRAPHQL_VALIDATION_FAILED', async () => {
    const broken = await asStaff('{ balance { ');
    expect(complete(broken.body.errors, broken.raw, 'GRAPHQL_PARSE_FAILED').fr).toBe('Erreur de syntaxe dans le document GraphQL.');
    const unknown = await asStaff('{ balanse { currency } }');
    expect(complete(unknown.body.errors, unknown.raw, 'GRAPHQL_VALIDATION_FAILED').fr).toMatch(/^Le champ « balanse » n’existe pas/);
  });

  it('BAD_USER_INPUT for a variable of the wrong type, and a missing one', async () => {
    const wrong = await asStaff('query ($n: Int) { charges(first: $n) { totalCount } }', { n: 'ten' });
    expect(complete(wrong.body.errors, wrong.raw, 'BAD_USER_INPUT').fr).toBe(
      'La variable « $n » a reçu une valeur invalide : Int ne peut pas représenter la valeur non entière "ten".',
    );
    const missing = await asStaff('query ($r: String!) { charge(reference: $r) { status } }');
    expect(complete(missing.body.errors, missing.raw, 'BAD_USER_INPUT').fr).toBe(
      'La variable obligatoire « $r » (type « String! ») n’a pas été fournie.',
    );
  });

  it('BAD_USER_INPUT for arguments the types allow but the API does not', async () => {
    for (const query of [
      '{ transfers(first: 500) { totalCount } }',
      '{ charges(first: 1, last: 1) { totalCount } }',
      '{ events(first: 1, filter: { kinds: ["charge.sucess"] }) { totalCount } }',
      '{ events(first: 1, filter: { since: "2026-02-01T00:00:00Z", until: "2026-01-01T00:00:00Z" }) { totalCount } }',
      '{ checkouts(first: 1, filter: { amountMin: 10, amountMax: 5 }) { totalCount } }',
    ]) {
      const res = await asStaff(query);
      complete(res.body.errors, res.raw, 'BAD_USER_INPUT');
    }
  });

  it('INVALID_CURSOR: a cursor the API did not issue, and one of another filter', async () => {
    const malformed = await asStaff('{ charges(first: 1, after: "not-a-cursor") { totalCount } }');
    expect(complete(malformed.body.errors, malformed.raw, 'INVALID_CURSOR').fr).toBe('`after` n’est pas un curseur émis par cette API.');
    const events = await asStaff('{ events(first: 1, after: "bm9wZQ") { totalCount } }');
    complete(events.body.errors, events.raw, 'INVALID_CURSOR');
    await asStaff(`mutation ($input: CreateTransferInput!) { createTransfer(input: $input) { __typename } }`, {
      input: { amount: 500, recipientPhone: '70000000', idempotencyKey: randomUUID() },
    });
    const page = await asStaff('{ transfers(first: 1) { pageInfo { endCursor } } }');
    const cursor = (page.body.data as { transfers: { pageInfo: { endCursor: string } } }).transfers.pageInfo.endCursor;
    const other = await asStaff('query ($c: String) { transfers(first: 1, after: $c, filter: { status: SUCCESS }) { totalCount } }', {
      c: cursor,
    });
    expect(complete(other.body.errors, other.raw, 'INVALID_CURSOR').fr).toMatch(/a été émis pour une autre liste ou un autre filtre/);
  });

  it('BAD_USER_INPUT for a paymentEvents `after` that is no event id, NOT_FOUND for an unknown resource (graphql-ws)', async () => {
    const after = await wsErrors(stack, 'subscription { paymentEvents(after: "nope") { id } }');
    complete(after, JSON.stringify(after), 'BAD_USER_INPUT');
    const unknown = await wsErrors(stack, 'subscription { chargeUpdated(reference: "ch_does_not_exist") { status } }');
    expect(complete(unknown, JSON.stringify(unknown), 'NOT_FOUND').fr).toBe('Aucun encaissement ne correspond à cette référence.');
  });

  it('TOO_MANY_MONEY_MUTATIONS', async () => {
    const two = (n: number) =>
      `t${n}: createTransfer(input: { amount: 500, recipientPhone: "70000000", idempotencyKey: "${randomUUID()}" }) { __typename }`;
    const res = await asStaff(`mutation { ${two(1)} ${two(2)} }`);
    complete(res.body.errors, res.raw, 'TOO_MANY_MONEY_MUTATIONS');
  });

  it('PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, BAD_REQUEST, PERSISTED_QUERY_ID_REQUIRED, PERSISTED_QUERY_NOT_FOUND', async () => {
    const url = stack.gateway.graphqlUrl;
    const auth = bearer(stack.staffToken);
    const json = { 'content-type': 'application/json', ...auth };
    const big = await rawPost(url, JSON.stringify({ query: `{ balance { currency } } #${'x'.repeat(70_000)}` }), json);
    expect(big.status).toBe(413);
    // Written outside GraphQL (src/limits/), with the catalogue's very texts.
    expect(complete(big.body.errors, big.raw, 'PAYLOAD_TOO_LARGE')).toEqual(topLevelText('PAYLOAD_TOO_LARGE', { maxBytes: 65_536 }));
    const form = await rawPost(url, 'query={balance{currency}}', { 'content-type': 'text/plain', ...auth });
    expect(complete(form.body.errors, form.raw, 'UNSUPPORTED_MEDIA_TYPE')).toEqual(topLevelText('UNSUPPORTED_MEDIA_TYPE', undefined));
    const notJson = await rawPost(url, '{"query": ', json);
    complete(notJson.body.errors, notJson.raw, 'BAD_REQUEST');
    const nothing = await rawPost(url, JSON.stringify({ variables: {} }), json);
    complete(nothing.body.errors, nothing.raw, 'PERSISTED_QUERY_ID_REQUIRED');
    const unknownHash = await rawPost(
      url,
      JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } } }),
      json,
    );
    complete(unknownHash.body.errors, unknownHash.raw, 'PERSISTED_QUERY_NOT_FOUND');
  });

  it('TRUSTED_DOCUMENT_REQUIRED and PERSISTED_QUERY_NOT_IN_LIST under enforce', async () => {
    const text = await asStaff('{ balance { currency } }', {}, enforcing);
    complete(text.body.errors, text.raw, 'TRUSTED_DOCUMENT_REQUIRED');
    const json = { 'content-type': 'application/json', ...bearer(enforcing.staffToken) };
    const unknownHash = await rawPost(
      enforcing.gateway.graphqlUrl,
      JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: 'cd'.repeat(32) } } }),
      json,
    );
    complete(unknownHash.body.errors, unknownHash.raw, 'PERSISTED_QUERY_NOT_IN_LIST');
  });
});

describe('what it costs', () => {
  it('UPSTREAM_BUDGET_EXCEEDED, TOO_MANY_SUBSCRIPTIONS, then RATE_LIMITED (a tightly limited gateway)', async () => {
    const budget = await asStaff('{ a: charge(reference: "ch_a") { status } b: charge(reference: "ch_b") { status } }', {}, tight);
    complete(budget.body.errors, budget.raw, 'UPSTREAM_BUDGET_EXCEEDED');

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
    complete(second, JSON.stringify(second), 'TOO_MANY_SUBSCRIPTIONS');

    let limited: Awaited<ReturnType<typeof asStaff>> | null = null;
    for (let i = 0; i < 10 && !limited; i++) {
      const res = await asStaff('{ balance { currency } }', {}, tight);
      if (res.body.errors) limited = res;
    }
    expect(limited!.status).toBe(429);
    complete(limited!.body.errors, limited!.raw, 'RATE_LIMITED');
  });
});

describe('the payment service', () => {
  it('UPSTREAM_UNAUTHENTICATED (a key it refuses) and UPSTREAM_UNAVAILABLE (nothing listening)', async () => {
    const [bogus, down] = await Promise.all([
      startStack({ sharedSandbox: stack.sandbox, apiKey: `sk_live_bogus_${randomUUID()}` }),
      closedPort().then((port) => startStack({ sharedSandbox: stack.sandbox, env: { PAYMENT_BASE_URL: `http://127.0.0.1:${port}/` } })),
    ]);
    try {
      const refused = await asStaff('{ balance { currency } }', {}, bogus);
      complete(refused.body.errors, refused.raw, 'UPSTREAM_UNAUTHENTICATED');
      const unreachable = await asStaff('{ balance { currency } }', {}, down);
      complete(unreachable.body.errors, unreachable.raw, 'UPSTREAM_UNAVAILABLE');
    } finally {
      await Promise.all([bogus.close(), down.close()]);
    }
  });
});

describe('the walk', () => {
  it('met every code of the catalogue, or names the suite that does', () => {
    const walked = new Set([...seen.keys(), ...Object.keys(PROVOKED_ELSEWHERE)]);
    expect(Object.keys(TOP_LEVEL_ERRORS).filter((code) => !walked.has(code))).toEqual([]);
    // Each code met here had a French of its own each time.
    for (const [code, texts] of seen) for (const fr of texts) expect(fr, code).not.toMatch(GENERIC_FR);
  });
});
