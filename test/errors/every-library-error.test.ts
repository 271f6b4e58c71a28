// Every error a library writes that a client can receive (src/errors/library-errors.ts: graphql-js's parser,
// validation rules and variable coercion, graphql-tools' and yoga's operation and request errors, graphql-armor's
// limits), provoked for real against gateways in front of the sandbox, over HTTP and, where the transport can carry
// it, over WebSocket (a real graphql-ws client). Each arrives with its entry's code, the library's English, and the
// French the catalogue gives that sentence: never the catch-all. The last test checks every entry was met, or names
// why it cannot be provoked here. test/errors/every-error-path.test.ts walks the gateway's own codes the same way.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphQLError } from 'graphql';
import { LIBRARY_ERRORS, libraryText, type LibraryErrorKey } from '../../src/errors/library-errors.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { disposeAllClients, wsClient } from '../live/helpers.js';
import { bearer, type GraphQLErrorShape } from '../schema/auth-support.js';

const GENERIC_FR = /^La requête n’a pas pu être traitée/;

/** Entries no request can provoke here, and why (or which suite provokes them). */
const NOT_PROVOKED: Partial<Record<LibraryErrorKey, string>> = {
  ScalarLeafEmptySelection: 'an empty selection set does not parse',
  LiteralWithDetail: 'a scalar that refuses a literal with an error other than a GraphQLError: ours throw GraphQLErrors',
  LiteralOneOfKeys: 'the schema has no @oneOf input type',
  LiteralOneOfNull: 'the schema has no @oneOf input type',
  VariableOneOfPosition: 'the schema has no @oneOf input type',
  VariableNotInputType: 'validation refuses such a document first (VariableInputType)',
  SeveralOperations: 'yoga answers OPERATION_RESOLUTION_FAILURE with its own sentence first (CannotTell)',
  UnknownOperation: 'yoga answers OPERATION_RESOLUTION_FAILURE with its own sentence first (CannotTell)',
  NoOperation: 'a document without operations fails validation first (UnusedFragment)',
  ContentLength: 'the gateway reads and bounds the body before yoga (src/limits/body-size.ts)',
  UnexpectedError: 'a masked error: test/security/traceable-errors.test.ts (the catalogue’s INTERNAL_SERVER_ERROR)',
  InvalidParams: 'yoga’s own guard for a params object its parsers never produce',
  ParamsNotObject: 'yoga’s own guard for a params value its parsers never produce',
};

/** Entries only HTTP can carry, and why. */
const HTTP_ONLY: Partial<Record<LibraryErrorKey, string>> = {};
const REQUEST_ENTRIES = Object.entries(LIBRARY_ERRORS)
  .filter(([, entry]) => entry.code === 'BAD_REQUEST')
  .map(([key]) => key as LibraryErrorKey);
for (const key of REQUEST_ENTRIES) HTTP_ONLY[key] = 'a refusal of the HTTP request itself (graphql-ws frames are the protocol’s)';

const seen = new Set<string>();
const seenOverWs = new Set<string>();

/**
 * The error of entry `key` among an answer's errors: its code, the library's English (which reads as that entry),
 * and the catalogue's French of it. Every other error of the answer has its code and a French of its own too.
 */
function check(errors: readonly GraphQLErrorShape[] | undefined, raw: string, key: LibraryErrorKey, via: 'http' | 'ws', fr?: string) {
  expect(errors?.length ?? 0, raw).toBeGreaterThan(0);
  for (const error of errors!) {
    expect(typeof error.extensions?.code, raw).toBe('string');
    expect(error.extensions?.messageFr, raw).not.toMatch(GENERIC_FR);
    expect(error.extensions?.messageFr, raw).not.toBe(error.message);
  }
  const error = errors!.find((e) => libraryText(new GraphQLError(e.message))?.key === key) ?? (fr ? errors![0] : undefined);
  expect(error, `${key} in ${raw}`).toBeDefined();
  const known = libraryText(new GraphQLError(error!.message));
  expect(error!.extensions?.code, raw).toBe(LIBRARY_ERRORS[key].code);
  expect(error!.extensions?.messageFr, raw).toBe(fr ?? known!.fr);
  (via === 'ws' ? seenOverWs : seen).add(key);
  return { en: error!.message, fr: error!.extensions!.messageFr as string };
}

async function overWs(on: TestStack, query: string, variables: Record<string, unknown>, operationName?: string) {
  const ws = wsClient(on.gateway.graphqlUrl, { connectionParams: { authorization: `Bearer ${on.staffToken}` } });
  const errors = await new Promise<GraphQLErrorShape[]>((resolve) => {
    ws.client.subscribe(
      { query, variables, operationName },
      {
        next: (r) => resolve((r.errors ?? []) as GraphQLErrorShape[]),
        error: (e) => resolve(Array.isArray(e) ? (e as GraphQLErrorShape[]) : []),
        complete: () => resolve([]),
      },
    );
  });
  return { errors, raw: JSON.stringify(errors) };
}

/** The document's error over HTTP, then over WebSocket: the same texts both ways. */
async function bothWays(
  on: TestStack,
  key: LibraryErrorKey,
  query: string,
  variables: Record<string, unknown> = {},
  fr?: string,
  operationName?: string,
) {
  const headers = { 'content-type': 'application/json', accept: 'application/json', ...bearer(on.staffToken) };
  const http = await raw(on.gateway.graphqlUrl, { body: JSON.stringify({ query, variables, operationName }), headers });
  const viaHttp = check(http.errors, http.raw, key, 'http', fr);
  const ws = await overWs(on, query, variables, operationName);
  expect(check(ws.errors, ws.raw, key, 'ws', fr), 'the same text over both transports').toEqual(viaHttp);
  return viaHttp;
}

async function raw(url: string, init: { method?: string; body?: string; headers?: Record<string, string> }) {
  const res = await request(url, { method: (init.method ?? 'POST') as 'POST', headers: init.headers, body: init.body });
  const text = await res.body.text();
  return { status: res.statusCode, raw: text, errors: (JSON.parse(text) as { errors?: GraphQLErrorShape[] }).errors };
}

let stack: TestStack;
/** Small document limits, so that armor's refusals are easy to meet. */
let limited: TestStack;
beforeAll(async () => {
  stack = await startStack();
  limited = await startStack({
    sharedSandbox: stack.sandbox,
    // Without trusted documents, so that yoga itself refuses a request without a query (NoQuery); INTROSPECTION
    // unset (blank), so live mode's defaults apply: no introspection, no field suggestions.
    env: {
      MAX_DEPTH: '4',
      MAX_ALIASES: '2',
      MAX_DIRECTIVES: '2',
      MAX_TOKENS: '60',
      MAX_COST: '30',
      TRUSTED_DOCUMENTS: 'off',
      INTROSPECTION: '',
    },
  });
});
afterAll(async () => {
  await disposeAllClients();
  await limited?.close();
  await stack?.close();
});

const q = (n: number) => Array.from({ length: n }, (_, i) => `f${i}`).join(' ');

/** One document per validation entry (graphql-js's rules, against this schema). */
const DOCUMENTS: Array<[LibraryErrorKey, string]> = [
  ['ExecutableDefinition', '{ balance { currency } } type Foo { x: Int }'],
  ['SingleFieldAnonymousSubscription', 'subscription { a: paymentEvents { id } b: paymentEvents { id } }'],
  ['SingleFieldSubscription', 'subscription S { a: paymentEvents { id } b: paymentEvents { id } }'],
  ['AnonymousSubscriptionIntrospection', 'subscription { __typename }'],
  ['SubscriptionIntrospection', 'subscription S { __typename }'],
  ['KnownTypeName', 'query ($f: ChargeFiltr) { charges(filter: $f) { totalCount } }'],
  ['InlineFragmentOnComposite', '{ balance { ... on String { x } } }'],
  ['FragmentOnComposite', 'fragment F on String { x } { balance { ...F } }'],
  ['VariableInputType', 'query ($b: Balance) { balance { currency } }'],
  ['ScalarLeafWithSelection', '{ balance { currency { x } } }'],
  ['ScalarLeafWithoutSelection', '{ balance }'],
  ['FieldOnType', '{ balanse { currency } }'],
  ['UniqueFragmentName', 'fragment F on Balance { currency } fragment F on Balance { currency } { balance { ...F } }'],
  ['KnownFragmentName', '{ balance { ...Missing } }'],
  ['UnusedFragment', 'fragment F on Balance { currency } { balance { currency } }'],
  ['InlineFragmentSpread', '{ balance { ... on Charge { reference } } }'],
  ['FragmentSpread', 'fragment F on Charge { reference } { balance { ...F } }'],
  ['FragmentCycle', 'fragment F on Balance { ...F } { balance { ...F } }'],
  ['FragmentCycleVia', 'fragment F on Balance { ...G } fragment G on Balance { ...F } { balance { ...F } }'],
  ['UniqueVariableName', 'query ($a: Int, $a: Int) { charges(first: $a) { totalCount } }'],
  ['UndefinedVariable', '{ charges(first: $n) { totalCount } }'],
  ['UndefinedVariableInOperation', 'query Q { charges(first: $n) { totalCount } }'],
  ['UnusedVariable', 'query ($n: Int) { balance { currency } }'],
  ['UnusedVariableInOperation', 'query Q($n: Int) { balance { currency } }'],
  ['KnownDirective', '{ balance @nope { currency } }'],
  ['DirectiveLocation', '{ balance @oneOf { currency } }'],
  ['UniqueDirectivePerLocation', '{ balance @skip(if: false) @skip(if: false) { currency } }'],
  ['KnownFieldArgument', '{ charge(reference: "x", extra: 1) { reference } }'],
  ['KnownDirectiveArgument', '{ balance @skip(if: false, nope: 1) { currency } }'],
  ['UniqueArgumentName', '{ charge(reference: "a", reference: "b") { reference } }'],
  ['Literal', '{ charges(filter: "x") { totalCount } }'],
  ['LiteralRefused', '{ charges(first: "ten") { totalCount } }'],
  ['LiteralFieldRequired', 'mutation { createCharge(input: { amount: 1 }) { __typename } }'],
  ['LiteralFieldUnknown', '{ charges(filter: { nope: 1 }) { totalCount } }'],
  ['RequiredFieldArgument', '{ charge { reference } }'],
  ['RequiredDirectiveArgument', '{ balance @include { currency } }'],
  ['VariablePosition', 'query ($r: String) { charge(reference: $r) { reference } }'],
  ['FieldConflict', '{ a: balance { currency } a: charges(first: 1) { totalCount } }'],
  ['UniqueInputFieldName', '{ charges(filter: { status: SUCCESS, status: FAILED }) { totalCount } }'],
  ['IntrospectionDepth', '{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }'],
  ['TooManyValidationErrors', `{ ${q(101)} }`],
];

describe('the document: graphql-js’s validation rules', () => {
  it.each(DOCUMENTS)('%s', async (key, query) => {
    await bothWays(stack, key, query);
  });

  it('UniqueOperationName and LoneAnonymousOperation (with an operationName, so yoga finds the operation to run)', async () => {
    await bothWays(stack, 'UniqueOperationName', 'query A { balance { currency } } query A { balance { currency } }', {}, undefined, 'A');
    await bothWays(stack, 'LoneAnonymousOperation', '{ balance { currency } } query B { balance { currency } }', {}, undefined, 'B');
  });

  it('a literal our own scalar refuses (Date): its French is the scalar’s', async () => {
    const { fr } = await bothWays(
      stack,
      'LiteralRefused',
      '{ charges(filter: { dateFrom: "yesterday" }) { totalCount } }',
      {},
      'Une date s’écrit AAAA-MM-JJ, par exemple 2026-01-31.',
    );
    expect(fr).toBe('Une date s’écrit AAAA-MM-JJ, par exemple 2026-01-31.');
  });
});

describe('the document: syntax', () => {
  it.each([
    ['SyntaxExpected', '{ balance { '],
    ['SyntaxUnexpected', '{ balance { currency } } }'],
    ['SyntaxUnexpectedCharacter', '{ balance { currency } } %'],
    ['SyntaxInvalidCharacter', '{ balance { currency } } \uD800'],
    ['SyntaxCharacterInString', '{ charge(reference: "\uD800") { status } }'],
    ['SyntaxSingleQuote', "{ charge(reference: 'x') { status } }"],
    ['SyntaxUnterminatedString', '{ charge(reference: "abc) { status } }'],
    ['Syntax', '{ charges(first: 01) { totalCount } }'],
  ] as Array<[LibraryErrorKey, string]>)('%s', async (key, query) => {
    await bothWays(stack, key, query);
  });
});

describe('the variables', () => {
  const query =
    'query ($filter: ChargeFilter, $first: Int, $ref: String!) { charges(filter: $filter, first: $first) { totalCount } charge(reference: $ref) { reference } }';
  it('each coercion error, and a scalar of ours behind one', async () => {
    await bothWays(stack, 'VariableValue', query, { ref: 'r', first: 'ten' });
    await bothWays(stack, 'VariableValueAtPath', query, { ref: 'r', filter: { status: 'DONE' } });
    await bothWays(stack, 'VariableRequired', query, {});
    await bothWays(stack, 'VariableNull', query, { ref: null });
    const { fr } = await bothWays(
      stack,
      'VariableValueAtPath',
      query,
      { ref: 'r', filter: { dateFrom: 'yesterday' } },
      'La variable « $filter » a reçu une valeur invalide (au chemin « filter.dateFrom ») : une date s’écrit AAAA-MM-JJ, par exemple 2026-01-31.',
    );
    expect(fr).toMatch(/une date s’écrit/);
  });

  it('TooManyVariableErrors: more than 50 values that do not fit', async () => {
    const names = Array.from({ length: 51 }, (_, i) => `v${i}`);
    const query = `query (${names.map((n) => `$${n}: ID!`).join(', ')}) { nodes(ids: [${names.map((n) => `$${n}`).join(', ')}]) { id } }`;
    await bothWays(stack, 'TooManyVariableErrors', query, Object.fromEntries(names.map((n) => [n, { not: 'an id' }])));
  });
});

describe('live mode’s own refusals', () => {
  it('IntrospectionDisabled, and sentences without suggestions in either language (they would map the schema)', async () => {
    await bothWays(limited, 'IntrospectionDisabled', '{ __schema { queryType { name } } }');
    const field = await bothWays(limited, 'FieldOnType', '{ balanc { currency } }');
    const value = await bothWays(limited, 'LiteralRefused', '{ charges(filter: { provider: OPZ_BF }) { totalCount } }');
    for (const { en, fr } of [field, value]) {
      expect(en).not.toMatch(/Did you mean/);
      expect(fr).not.toMatch(/Vouliez-vous/);
    }
  });
});

describe('graphql-armor’s limits', () => {
  it.each([
    ['DepthLimit', '{ charges(first: 1) { edges { node { confirmationAttempts { __typename } } } } }'],
    ['AliasLimit', '{ a: balance { currency } b: balance { currency } c: balance { currency } }'],
    ['DirectiveLimit', '{ balance @skip(if: false) @include(if: true) { currency @skip(if: false) } }'],
    ['CostLimit', '{ balance { currency } charges(first: 50) { totalCount } }'],
  ] as Array<[LibraryErrorKey, string]>)('%s', async (key, query) => {
    await bothWays(limited, key, query);
  });

  it('TokenLimit (while parsing)', async () => {
    await bothWays(limited, 'TokenLimit', `{ ${q(80)} }`);
  });
});

describe('which operation to run', () => {
  it('CannotTell: two operations and no operationName', async () => {
    await bothWays(stack, 'CannotTell', 'query A { balance { currency } } query B { balance { currency } }');
  });
});

describe('the HTTP request itself (yoga)', () => {
  const json = () => ({ 'content-type': 'application/json', accept: 'application/json', ...bearer(stack.staffToken) });
  it.each([
    ['InvalidJson', '{"query": '],
    ['BodyNotObject', '"text"'],
    ['Batching', JSON.stringify([{ query: '{ balance { currency } }' }])],
    ['QueryNotString', JSON.stringify({ query: 1 })],
    ['VariablesNotObject', JSON.stringify({ query: '{ balance { currency } }', variables: 1 })],
    ['ExtensionsNotObject', JSON.stringify({ query: '{ balance { currency } }', extensions: 1 })],
    ['UnexpectedParam', JSON.stringify({ query: '{ balance { currency } }', colour: 'red' })],
  ] as Array<[LibraryErrorKey, string]>)('%s', async (key, body) => {
    const res = await raw(stack.gateway.graphqlUrl, { body, headers: json() });
    check(res.errors, res.raw, key, 'http');
  });

  it('NoQuery (a gateway without trusted documents)', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json', ...bearer(limited.staffToken) };
    const res = await raw(limited.gateway.graphqlUrl, { body: JSON.stringify({ variables: {} }), headers });
    check(res.errors, res.raw, 'NoQuery', 'http');
  });

  it('Method, MutationViaGet, Csrf', async () => {
    const url = stack.gateway.graphqlUrl;
    const put = await raw(url, { method: 'PUT', body: '{}', headers: json() });
    check(put.errors, put.raw, 'Method', 'http');
    const get = (query: string, headers: Record<string, string>) =>
      raw(`${url}?query=${encodeURIComponent(query)}`, { method: 'GET', headers: { accept: 'application/json', ...headers } });
    const mutation = await get('mutation { __typename }', { ...bearer(stack.staffToken), 'x-graphql-yoga-csrf': '1' });
    check(mutation.errors, mutation.raw, 'MutationViaGet', 'http');
    const noCsrf = await get('{ __typename }', {});
    check(noCsrf.errors, noCsrf.raw, 'Csrf', 'http');
  });
});

describe('the walk', () => {
  it('met every entry of the catalogue, over both transports where each can carry it, or names why not', () => {
    const keys = Object.keys(LIBRARY_ERRORS);
    expect(keys.filter((key) => !seen.has(key) && !(key in NOT_PROVOKED))).toEqual([]);
    expect(
      keys.filter((key) => !seenOverWs.has(key) && !(key in NOT_PROVOKED) && !(key in HTTP_ONLY)),
      'entries never met over WebSocket',
    ).toEqual([]);
  });
});
