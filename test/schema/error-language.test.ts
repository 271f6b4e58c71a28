// French arrives with every error, over real HTTP and a real graphql-ws socket:
// a sample of the top-level errors (INVALID_CURSOR, BAD_USER_INPUT, FORBIDDEN,
// UNAUTHENTICATED, UPSTREAM_UNAUTHENTICATED), graphql-js's own validation,
// syntax and variable errors, and a typed ValidationError whose FieldErrors
// name the operator as people know it. test/errors/error-language.test.ts
// walks every error and variant in-process.
import { randomBytes, randomUUID } from 'node:crypto';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { disposeAllClients, subscribe, withTimeout, wsClient } from '../live/helpers.js';
import { bearer, postQuery, type GraphQLErrorShape } from './auth-support.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterEach(async () => {
  await disposeAllClients();
});
afterAll(() => stack.close());

/** The one error of an answer, which must carry its French. */
function onlyError(errors: GraphQLErrorShape[] | undefined, raw: string): GraphQLErrorShape & { extensions: Record<string, unknown> } {
  expect(errors, raw).toHaveLength(1);
  const [error] = errors!;
  expect(typeof error!.extensions?.messageFr, raw).toBe('string');
  expect(error!.extensions!.messageFr, raw).not.toBe(error!.message);
  return error as GraphQLErrorShape & { extensions: Record<string, unknown> };
}

const asStaff = (query: string, variables: Record<string, unknown> = {}) =>
  postQuery(stack.gateway.graphqlUrl, query, variables, bearer(stack.staffToken));

describe('over HTTP', () => {
  it('INVALID_CURSOR', async () => {
    const res = await asStaff('{ checkouts(first: 1, after: "not-a-cursor") { totalCount } }');
    const error = onlyError(res.body.errors, res.raw);
    expect(error.extensions).toMatchObject({
      code: 'INVALID_CURSOR',
      messageFr: '`after` n’est pas un curseur émis par cette API.',
    });
  });

  it('BAD_USER_INPUT', async () => {
    const res = await asStaff('{ transfers(first: 500) { totalCount } }');
    expect(onlyError(res.body.errors, res.raw).extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      messageFr: '`first` doit être compris entre 1 et 100.',
    });
  });

  it("a variable error (graphql-js's own words)", async () => {
    const res = await asStaff('query ($filter: ChargeFilter) { charges(filter: $filter) { totalCount } }', {
      filter: { dateFrom: 'yesterday' },
    });
    const error = onlyError(res.body.errors, res.raw);
    expect(error.message).toMatch(/^Variable "\$filter" got invalid value "yesterday" at "filter.dateFrom"/);
    expect(error.extensions.messageFr).toBe(
      'La variable « $filter » a reçu une valeur invalide (au chemin « filter.dateFrom ») : une date s’écrit AAAA-MM-JJ, par exemple 2026-01-31.',
    );
  });

  it('a validation error and a syntax error', async () => {
    const unknown = await asStaff('{ balanse { currency } }');
    expect(onlyError(unknown.body.errors, unknown.raw).extensions.messageFr).toBe(
      'Le champ « balanse » n’existe pas sur le type « Query ». Vouliez-vous dire « balance » ?',
    );
    const broken = await asStaff('{ balance { ');
    expect(onlyError(broken.body.errors, broken.raw).extensions.messageFr).toBe(
      'Erreur de syntaxe dans le document GraphQL : Name attendu, mais le document s’arrête là.',
    );
  });

  it('FORBIDDEN, with the scope named in both languages', async () => {
    const token = await stack.mintToken(['events:read']);
    const res = await postQuery(stack.gateway.graphqlUrl, '{ balance { currency } }', {}, bearer(token));
    expect(onlyError(res.body.errors, res.raw).extensions).toMatchObject({
      code: 'FORBIDDEN',
      requiredScope: 'payments:read',
      messageFr: 'Ce jeton ne permet pas d’utiliser balance : il lui faut la permission payments:read.',
    });
  });

  it('UNAUTHENTICATED: no token, and a malformed one (HTTP 401)', async () => {
    const none = await postQuery(stack.gateway.graphqlUrl, '{ balance { currency } }');
    expect(none.status).toBe(401);
    expect(onlyError(none.body.errors, none.raw).extensions).toMatchObject({
      code: 'UNAUTHENTICATED',
      messageFr: 'Authentification requise : envoyez l’en-tête Authorization: Bearer <jeton>.',
    });
    const malformed = await postQuery(stack.gateway.graphqlUrl, '{ balance { currency } }', {}, { authorization: 'Bearer nope' });
    expect(malformed.status).toBe(401);
    expect(onlyError(malformed.body.errors, malformed.raw).extensions).toMatchObject({
      code: 'UNAUTHENTICATED',
      messageFr: 'Le jeton d’accès (bearer) est mal formé.',
    });
  });

  it('UPSTREAM_UNAUTHENTICATED (the service refuses the API key)', async () => {
    const bogus = await startStack({ sharedSandbox: stack.sandbox, apiKey: `sk_live_bogus_${randomBytes(8).toString('hex')}` });
    try {
      const res = await postQuery(bogus.gateway.graphqlUrl, '{ balance { currency } }', {}, bearer(bogus.staffToken));
      expect(onlyError(res.body.errors, res.raw).extensions).toMatchObject({
        code: 'UPSTREAM_UNAUTHENTICATED',
        messageFr: 'La passerelle n’a pas pu s’authentifier auprès du service de paiement. L’exploitant doit vérifier sa clé d’API.',
      });
    } finally {
      await bogus.close();
    }
  });

  it('a ValidationError: each FieldError in both languages, the operator named as people know it', async () => {
    const res = await asStaff(
      `mutation ($input: CreateChargeInput!) {
        createCharge(input: $input) {
          __typename
          ... on ValidationError { message messageFr fieldErrors { path message messageFr } }
        }
      }`,
      { input: { amount: 0, phone: '76000000', provider: 'OPB_BF', idempotencyKey: randomUUID() } },
    );
    const result = (res.body.data as { createCharge: Record<string, unknown> }).createCharge;
    expect(result.__typename, res.raw).toBe('ValidationError');
    const fields = result.fieldErrors as Array<{ path: string[]; message: string; messageFr: string }>;
    expect(fields.map((f) => f.path.join('.')).sort()).toEqual(['input.amount', 'input.phone']);
    const phone = fields.find((f) => f.path.at(-1) === 'phone')!;
    expect(phone.message).toMatch(/^Not a valid OPB Money Burkina Faso number: "76000000"; expected 8 digits starting with 70, 71/);
    expect(phone.messageFr).toMatch(
      /^Numéro OPB Money Burkina Faso invalide : "76000000" ; format attendu : 8 chiffres commençant par 70, 71/,
    );
    const amount = fields.find((f) => f.path.at(-1) === 'amount')!;
    expect(amount.messageFr).toBe('Le montant doit être un nombre entier positif de XOF.');
    expect(result.messageFr).toBe('Les informations saisies ne sont pas valides : 2 champs à corriger.');
    expect(res.raw).not.toMatch(/opb_bf/);
  });
});

describe('over WebSocket (graphql-ws)', () => {
  const doc = (source: string) => parse(source) as TypedDocumentNode<Record<string, unknown>, Record<string, unknown>>;

  /** The errors an operation ends with, refused before it ran (graphql-ws `error` message). */
  async function refusal(token: string, source: string): Promise<GraphQLErrorShape[]> {
    const ws = wsClient(stack.gateway.graphqlUrl, { connectionParams: { authorization: `Bearer ${token}` } });
    const sub = subscribe(ws, doc(source));
    const ended = await withTimeout(sub.ended, 5_000, source);
    expect(ended.kind).toBe('error');
    return (ended as { error: GraphQLErrorShape[] }).error;
  }

  it('a validation error carries its French', async () => {
    const [error] = await refusal(stack.staffToken, 'subscription { chargeUpdated { reference } }');
    expect(error!.message).toMatch(/argument "reference" of type "String!" is required/);
    expect(error!.extensions?.messageFr).toBe(
      'L’argument « reference » (type « String! ») du champ « chargeUpdated » est obligatoire mais n’a pas été fourni.',
    );
  });

  it('a document that does not parse carries its French', async () => {
    const ws = wsClient(stack.gateway.graphqlUrl, { connectionParams: { authorization: `Bearer ${stack.staffToken}` } });
    const sub = ws.client.iterate({ query: 'subscription { chargeUpdated(' });
    const failure = await sub.next().then(
      () => null,
      (error: unknown) => error as GraphQLErrorShape[],
    );
    expect(failure?.[0]?.extensions?.messageFr).toBe(
      'Erreur de syntaxe dans le document GraphQL : Name attendu, mais le document s’arrête là.',
    );
  });

  it('a refused operation (FORBIDDEN) carries its French', async () => {
    const token = await stack.mintToken(['payments:read']);
    const ws = wsClient(stack.gateway.graphqlUrl, { connectionParams: { authorization: `Bearer ${token}` } });
    const sub = subscribe(ws, doc('subscription { chargeUpdated(reference: "ch_000000000000000000000000") { reference } }'));
    const result = await sub.nextResult(5_000, 'the refusal');
    const [error] = (result.errors ?? []) as GraphQLErrorShape[];
    expect(error?.extensions).toMatchObject({
      code: 'FORBIDDEN',
      messageFr: 'Ce jeton ne permet pas d’utiliser chargeUpdated : il lui faut la permission events:read.',
    });
  });
});
